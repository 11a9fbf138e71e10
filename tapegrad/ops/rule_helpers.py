"""Small pieces the gradient rules of several families share.

``conj``: rules are written in TensorFlow's and PyTorch's complex convention (for a holomorphic
f the VJP is ``g * conj(f'(z))``); on real values ``conj`` is the value itself and
records nothing, so real rules pay nothing for it.

``zero_gradient(k)``: the rule of input ``k`` when the output is piecewise constant in
it (``copysign``'s sign source): its cotangent is zeros. (An input with *no* rule,
``None`` in ``defvjp``, is an error when watched; this one is a true zero.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend


def is_complex(x: Any) -> bool:
    """Whether ``x`` (a Tensor, array or Python number) has a complex dtype."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return isinstance(x, complex)
    kind = getattr(dtype, "kind", None)
    return kind == "c" if kind is not None else "complex" in str(dtype)


def conj(x: Any) -> Any:
    """The complex conjugate of a derivative in a rule; ``x`` itself when it is real."""
    if not is_complex(x):
        return x
    from tapegrad.ops.complex import _conj

    return _conj._unary(x)


def zero_gradient(k: int) -> Any:
    """The rule of input ``k`` when the output does not vary with it (almost everywhere)."""

    def rule(g: Any, ans: Any, *inputs: Any, **params: Any) -> Any:
        from tapegrad.ops.creation import zeros_like

        return zeros_like(inputs[k])

    return rule


def is_floating(x: Any) -> bool:
    """Whether ``x`` (a Tensor, array, list or Python number) has a floating dtype."""
    return result_dtype(x).kind in "fc"


def placed(value: Any, like: Any, dtype: Any = None) -> Any:
    """``value`` in ``dtype`` (when given) and next to ``like``: host constants are moved to
    ``like``'s namespace and device, as other backends' Tensors refuse host arrays."""
    from tapegrad.core.tensor import Tensor
    from tapegrad.ops import arithmetic, creation

    if value is None:
        return None
    if isinstance(value, Tensor):
        if dtype is None or result_dtype(value) == np.dtype(dtype):
            return value
        return arithmetic.astype(value, dtype)
    if like is None or not hasattr(like, "shape"):
        return np.asarray(value, dtype=dtype)
    if not hasattr(value, "shape") or type(value) is np.ndarray:
        value = np.asarray(value, dtype=dtype)
    return creation.asarray(value, dtype=dtype, like=like)


def as_array(x: Any) -> Any:
    """``x`` itself when it is an array or Tensor; a NumPy array of it otherwise."""
    return x if hasattr(x, "shape") else np.asarray(x)


def result_dtype(*values: Any) -> np.dtype:
    """NumPy's result dtype of ``values`` (Tensors, arrays of any namespace, Python
    scalars, which are weak as in NumPy: a float32 array stays float32)."""
    operands: list[Any] = []
    for v in values:
        if isinstance(v, (type, np.dtype, str)):  # a dtype itself
            operands.append(np.dtype(v))
            continue
        dtype = getattr(v, "dtype", None)
        if dtype is None:
            operands.append(v if isinstance(v, (bool, int, float, complex)) else np.asarray(v))
        else:
            operands.append(np.dtype(backend.dtype_name(dtype)))
    return np.result_type(*operands)
