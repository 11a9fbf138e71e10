"""NumPy interop: ``np.exp(t)``, ``np.sum(t, axis=0)`` and ``ndarray @ t`` call tapegrad ops.

Two explicit tables map NumPy's ufuncs and functions to tapegrad's. Ufuncs of other
libraries (SciPy's special functions) are looked up in a third table that their
tapegrad module fills. Anything not in them raises TypeError naming it: a gradient
is never dropped silently.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys
from typing import Any

import numpy as np

# What a user can do about a function tapegrad lacks, appended to the TypeError.
UNSUPPORTED_HINT = (
    "; write it with tapegrad ops, or give it a gradient with @tg.custom_gradient or "
    "tg.Primitive(...).defvjp(...) (docs/extending.md)"
)


@functools.cache
def _tables() -> tuple[dict[Any, Any], dict[Any, Any]]:
    # Built on first use: tensor.py imports this module before the ops exist.
    from tapegrad import fft, linalg, ops

    return _ufuncs(ops), {**_functions(ops), **_linalg_functions(linalg), **_fft_functions(fft)}


def _ufuncs(ops: Any) -> dict[Any, Any]:
    return {
        np.add: ops.add,
        np.subtract: ops.subtract,
        np.multiply: ops.multiply,
        np.divide: ops.divide,
        np.power: ops.power,
        np.negative: ops.negative,
        np.positive: lambda x: x,
        np.matmul: ops.matmul,
        np.maximum: ops.maximum,
        np.minimum: ops.minimum,
        np.absolute: ops.abs,
        np.conjugate: ops.conj,  # np.conj too: the same ufunc
        np.exp: ops.exp,
        np.log: ops.log,
        np.log1p: ops.log1p,
        np.expm1: ops.expm1,
        np.sqrt: ops.sqrt,
        np.square: ops.square,
        np.sin: ops.sin,
        np.cos: ops.cos,
        np.tan: ops.tan,
        np.tanh: ops.tanh,
        np.sinh: ops.sinh,
        np.cosh: ops.cosh,
        np.arctan: ops.arctan,
        np.equal: ops.equal,
        np.not_equal: ops.not_equal,
        np.less: ops.less,
        np.less_equal: ops.less_equal,
        np.greater: ops.greater,
        np.greater_equal: ops.greater_equal,
        np.sign: ops.sign,
        np.floor: ops.floor,
        np.ceil: ops.ceil,
        np.rint: ops.round,
    }


def _functions(ops: Any) -> dict[Any, Any]:
    return {
        np.sum: ops.sum,
        np.mean: ops.mean,
        np.prod: ops.prod,
        np.max: ops.max,
        np.amax: ops.max,
        np.min: ops.min,
        np.amin: ops.min,
        np.var: ops.var,
        np.std: ops.std,
        np.cumsum: ops.cumsum,
        np.reshape: ops.reshape,
        np.transpose: ops.transpose,
        np.swapaxes: ops.swapaxes,
        np.expand_dims: ops.expand_dims,
        np.squeeze: ops.squeeze,
        np.broadcast_to: ops.broadcast_to,
        np.concatenate: ops.concatenate,
        np.stack: ops.stack,
        np.split: ops.split,
        np.flip: ops.flip,
        np.tile: ops.tile,
        np.repeat: ops.repeat,
        np.pad: ops.pad,
        np.take: ops.take,
        np.take_along_axis: ops.take_along_axis,
        np.einsum: ops.einsum,
        np.dot: ops.dot,
        np.outer: ops.outer,
        np.matmul: ops.matmul,
        np.where: ops.where,
        np.clip: ops.clip,
        np.abs: ops.abs,
        np.real: ops.real,
        np.imag: ops.imag,
        np.angle: ops.angle,
        np.argmax: ops.argmax,
        np.argmin: ops.argmin,
        np.round: ops.round,
        np.around: ops.round,
        np.zeros_like: ops.zeros_like,
        np.ones_like: ops.ones_like,
        np.shape: lambda x: x.shape,
        np.ndim: lambda x: x.ndim,
        np.size: lambda x: x.size,
    }


def _linalg_functions(linalg: Any) -> dict[Any, Any]:
    return {
        np.linalg.cholesky: linalg.cholesky,
        np.linalg.cond: linalg.cond,
        np.linalg.det: linalg.det,
        np.linalg.eig: linalg.eig,
        np.linalg.eigh: linalg.eigh,
        np.linalg.eigvals: linalg.eigvals,
        np.linalg.eigvalsh: linalg.eigvalsh,
        np.linalg.inv: linalg.inv,
        np.linalg.lstsq: linalg.lstsq,
        np.linalg.matrix_norm: linalg.matrix_norm,
        np.linalg.matrix_power: linalg.matrix_power,
        np.linalg.matrix_rank: linalg.matrix_rank,
        np.linalg.multi_dot: linalg.multi_dot,
        np.linalg.norm: linalg.norm,
        np.linalg.pinv: linalg.pinv,
        np.linalg.qr: linalg.qr,
        np.linalg.slogdet: linalg.slogdet,
        np.linalg.solve: linalg.solve,
        np.linalg.svd: linalg.svd,
        np.linalg.svdvals: linalg.svdvals,
        np.linalg.tensorinv: linalg.tensorinv,
        np.linalg.tensorsolve: linalg.tensorsolve,
        np.linalg.vector_norm: linalg.vector_norm,
    }


def _fft_functions(fft: Any) -> dict[Any, Any]:
    return {
        np.fft.fft: fft.fft,
        np.fft.fft2: fft.fft2,
        np.fft.fftn: fft.fftn,
        np.fft.fftshift: fft.fftshift,
        np.fft.hfft: fft.hfft,
        np.fft.ifft: fft.ifft,
        np.fft.ifft2: fft.ifft2,
        np.fft.ifftn: fft.ifftn,
        np.fft.ifftshift: fft.ifftshift,
        np.fft.ihfft: fft.ihfft,
        np.fft.irfft: fft.irfft,
        np.fft.irfft2: fft.irfft2,
        np.fft.irfftn: fft.irfftn,
        np.fft.rfft: fft.rfft,
        np.fft.rfft2: fft.rfft2,
        np.fft.rfftn: fft.rfftn,
    }


# Ufuncs from outside NumPy -> tapegrad functions. tapegrad.scipy.special registers
# scipy.special's here; it is imported on the first such ufunc called on a Tensor, so
# ``scipy.special.gammaln(t)`` records without the user importing tapegrad.scipy.
_foreign_ufuncs: dict[Any, Any] = {}
_FOREIGN_UFUNC_MODULES = ("tapegrad.scipy.special",)


def register_ufuncs(table: dict[Any, Any]) -> None:
    """Let ``ufunc(tensor)`` call ``table[ufunc]`` for ufuncs that are not NumPy's."""
    _foreign_ufuncs.update(table)


def _foreign_ufunc(ufunc: Any) -> Any:
    if getattr(np, ufunc.__name__, None) is ufunc:
        return None  # NumPy's own: only the first table holds those
    if ufunc not in _foreign_ufuncs and _scipy_installed():
        for module in _FOREIGN_UFUNC_MODULES:
            importlib.import_module(module)
    return _foreign_ufuncs.get(ufunc)


def _scipy_installed() -> bool:
    try:  # scipy.special, not scipy: a directory named scipy on sys.path is not SciPy
        return importlib.util.find_spec("scipy.special") is not None
    except ImportError:
        return False


def _ufunc_name(ufunc: Any) -> str:
    """``numpy.exp``, ``scipy.special.gammaln``: where the user found the ufunc."""
    name = ufunc.__name__
    if getattr(np, name, None) is ufunc:
        return f"numpy.{name}"
    if getattr(sys.modules.get("scipy.special"), name, None) is ufunc:
        return f"scipy.special.{name}"
    return name


def _reject_out(name: str, kwargs: dict[str, Any]) -> None:
    if kwargs.pop("out", None) is not None:
        raise TypeError(f"numpy.{name}(out=...) is not supported: Tensors are immutable")


def array_ufunc(ufunc: Any, method: str, inputs: tuple, kwargs: dict[str, Any]) -> Any:
    """``Tensor.__array_ufunc__``."""
    op = _tables()[0].get(ufunc)
    if op is None and method == "__call__":
        op = _foreign_ufunc(ufunc)
    if op is None or method != "__call__":
        what = _ufunc_name(ufunc) + ("" if method == "__call__" else f".{method}")
        raise TypeError(f"tapegrad does not support {what} on Tensors{UNSUPPORTED_HINT}")
    _reject_out(ufunc.__name__, kwargs)
    if kwargs:
        raise TypeError(
            f"{_ufunc_name(ufunc)}: keyword arguments {sorted(kwargs)} are not supported on Tensors"
        )
    return op(*inputs)


def array_function(func: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``Tensor.__array_function__``."""
    op = _tables()[1].get(func)
    if op is None:
        # func.__module__ says numpy.linalg for np.linalg.svd
        name = f"{func.__module__}.{func.__name__}"
        raise TypeError(f"tapegrad does not support {name} on Tensors{UNSUPPORTED_HINT}")
    _reject_out(func.__name__, kwargs)
    try:
        return op(*args, **kwargs)
    except TypeError as error:
        try:
            signature = inspect.signature(op)
            signature.bind(*args, **kwargs)
        except TypeError as mismatch:  # the call, not the op, is at fault: say whose
            signature = signature.replace(
                parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
                return_annotation=signature.empty,
            )
            raise TypeError(
                f"numpy.{func.__name__} on Tensors: {mismatch}; tapegrad supports "
                f"numpy.{func.__name__}{signature}"
            ) from None
        raise error
