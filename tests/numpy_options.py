"""Sample calls that enumerate the keyword options and modes of NumPy's differentiable
functions, as PyTorch's OpInfo sample inputs do: one row per call, greppable.

Each row is ``(name, option, call)``: ``call(m, x, y)`` runs the function through the
namespace ``m`` (``numpy`` or ``tapegrad.numpy``) on ``x`` and ``y`` of shape (3, 4) with
distinct values in (0.3, 0.9) (tests/test_numpy_coverage.py's ``X`` and ``Y``).
tests/test_numpy_options.py checks each: tapegrad's values equal NumPy's on the same
input, the gradient equals central finite differences, and (``twice``) so does the
second derivative. ``option`` names what the row exercises, for the failure message and
for the table of docs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np


class Option(NamedTuple):
    name: str
    option: str
    call: Callable[[Any, Any, Any], Any]
    twice: bool = True  # the second derivative exists and is checked


def _spd(m: Any, x: Any) -> Any:
    return x @ m.swapaxes(x, -1, -2) + np.eye(x.shape[-2])


MASK = np.array([[True, False, True, False], [False, True, True, False], [True, True, False, True]])

OPTIONS: list[Option] = [
    # --- reductions: axis, keepdims, where=, initial=, dtype= ---------------------------------
    Option("sum", "axis=None", lambda m, x, y: m.sum(x * y)),
    Option("sum", "axis=0", lambda m, x, y: m.sum(x * y, axis=0)),
    Option("sum", "axis=(0, 1), keepdims", lambda m, x, y: m.sum(x, axis=(0, 1), keepdims=True)),
    Option("sum", "axis=-1, keepdims", lambda m, x, y: m.sum(x * y, axis=-1, keepdims=True)),
    Option("sum", "where=", lambda m, x, y: m.sum(x * y, axis=1, where=MASK)),
    Option("sum", "initial=", lambda m, x, y: m.sum(x, axis=0, initial=2.5)),
    Option("prod", "axis=1", lambda m, x, y: m.prod(x, axis=1)),
    Option("prod", "keepdims", lambda m, x, y: m.prod(x, axis=0, keepdims=True)),
    Option("prod", "where=", lambda m, x, y: m.prod(x, axis=1, where=MASK)),
    Option("prod", "initial=", lambda m, x, y: m.prod(x, initial=0.5)),
    Option("mean", "axis=None", lambda m, x, y: m.mean(x * y)),
    Option("mean", "axis=0, keepdims", lambda m, x, y: m.mean(x, axis=0, keepdims=True)),
    Option("mean", "where=", lambda m, x, y: m.mean(x, axis=1, where=MASK)),
    Option("max", "axis=None", lambda m, x, y: m.max(x + y), twice=False),
    Option("max", "axis=1, keepdims", lambda m, x, y: m.max(x, axis=1, keepdims=True), False),
    Option(
        "max", "where=, initial=", lambda m, x, y: m.max(x, axis=1, where=MASK, initial=0.0), False
    ),  # fmt: skip
    Option("min", "axis=0", lambda m, x, y: m.min(x * y, axis=0), twice=False),
    Option(
        "min", "where=, initial=", lambda m, x, y: m.min(x, axis=0, where=MASK, initial=1.0), False
    ),  # fmt: skip
    Option("var", "ddof=0", lambda m, x, y: m.var(x * y)),
    Option("var", "axis=1, ddof=1", lambda m, x, y: m.var(x, axis=1, ddof=1)),
    Option("var", "keepdims", lambda m, x, y: m.var(x, axis=0, keepdims=True)),
    Option("var", "where=", lambda m, x, y: m.var(x, axis=1, where=MASK)),
    Option("std", "axis=0, ddof=1", lambda m, x, y: m.std(x, axis=0, ddof=1)),
    Option("std", "keepdims", lambda m, x, y: m.std(x * y, axis=1, keepdims=True)),
    Option("nansum", "axis=1", lambda m, x, y: m.nansum(x * y, axis=1)),
    Option("nanmean", "axis=0, keepdims", lambda m, x, y: m.nanmean(x, axis=0, keepdims=True)),
    Option("nanvar", "ddof=1", lambda m, x, y: m.nanvar(x, axis=1, ddof=1)),
    Option("average", "weights", lambda m, x, y: m.average(x, axis=1, weights=y)),
    Option(
        "average",
        "weights, keepdims",
        lambda m, x, y: m.average(x, axis=0, weights=y, keepdims=True),
    ),  # fmt: skip
    Option(
        "average", "returned", lambda m, x, y: m.average(x, axis=0, weights=y, returned=True)[0]
    ),  # fmt: skip
    Option("ptp", "axis=1", lambda m, x, y: m.ptp(x * y, axis=1), twice=False),
    Option("median", "axis=0", lambda m, x, y: m.median(x, axis=0), twice=False),
    Option("median", "keepdims", lambda m, x, y: m.median(x, axis=1, keepdims=True), False),
    Option("quantile", "method=linear", lambda m, x, y: m.quantile(x, 0.3, axis=1), False),
    Option(
        "quantile",
        "method=nearest",
        lambda m, x, y: m.quantile(x, 0.3, axis=1, method="nearest"),
        False,
    ),  # fmt: skip
    Option(
        "quantile",
        "method=midpoint",
        lambda m, x, y: m.quantile(x, 0.4, axis=0, method="midpoint"),
        False,
    ),  # fmt: skip
    Option(
        "percentile", "keepdims", lambda m, x, y: m.percentile(x, 70, axis=1, keepdims=True), False
    ),  # fmt: skip
    # --- cumulative and differences: axis, prepend/append, n, edge_order, period -------------
    Option("cumsum", "axis=0", lambda m, x, y: m.cumsum(x * y, axis=0)),
    Option("cumprod", "axis=None", lambda m, x, y: m.cumprod(x)),
    Option("diff", "n=2, axis=0", lambda m, x, y: m.diff(x * y, n=2, axis=0)),
    Option(
        "diff", "prepend, append", lambda m, x, y: m.diff(x, axis=1, prepend=y[:, :1], append=0.5)
    ),  # fmt: skip
    Option("gradient", "axis=1", lambda m, x, y: m.gradient(x * y, axis=1)),
    Option("gradient", "edge_order=2", lambda m, x, y: m.gradient(x, axis=1, edge_order=2)),
    Option("gradient", "spacing", lambda m, x, y: m.gradient(x[0] * y[0], 0.5)),
    Option("unwrap", "period", lambda m, x, y: m.unwrap(x * 10.0, period=3.0, axis=1), False),
    Option("trapezoid", "dx, axis", lambda m, x, y: m.trapezoid(x * y, dx=0.3, axis=0)),
    Option("trapezoid", "x=", lambda m, x, y: m.trapezoid(x[0] * y[0], x=m.cumsum(y[1]))),
    # --- diagonals: offset, axis1, axis2 --------------------------------------------------------
    Option("trace", "offset=1", lambda m, x, y: m.trace(x * y, offset=1)),
    Option("trace", "axis1, axis2", lambda m, x, y: m.trace(m.stack([x, y]), axis1=1, axis2=2)),
    Option("diagonal", "offset=-1", lambda m, x, y: m.diagonal(x * y, offset=-1)),
    Option(
        "diagonal",
        "axis1, axis2",
        lambda m, x, y: m.diagonal(m.stack([x, y]), offset=1, axis1=2, axis2=0),
    ),  # fmt: skip
    # --- interpolation and clipping: left/right, bounds ------------------------------------------
    Option(
        "interp",
        "left, right",
        lambda m, x, y: m.interp(
            x[0] * 2.0 - 0.3, m.sort(y[1]), x[2] * y[2], left=x[1, 0], right=0.1
        ),
        False,
    ),  # fmt: skip
    Option(
        "interp",
        "period",
        lambda m, x, y: m.interp(x[0] * 9.0, [0.0, 2.0, 5.0], y[1, :3], period=6.0),
        False,
    ),  # fmt: skip
    Option("clip", "Tensor bounds", lambda m, x, y: m.clip(x, y - 0.2, y + 0.05), False),
    Option("clip", "a_max only", lambda m, x, y: m.clip(x, None, 0.6), False),
    # --- padding and taking: modes ---------------------------------------------------------------
    Option("pad", "mode=constant", lambda m, x, y: m.pad(x * y, ((1, 0), (2, 1)))),
    Option("pad", "constant_values", lambda m, x, y: m.pad(x, 1, constant_values=0.5)),
    Option("pad", "mode=edge", lambda m, x, y: m.pad(x * y, 2, mode="edge")),
    Option("pad", "mode=reflect", lambda m, x, y: m.pad(x, ((1, 2), (2, 1)), mode="reflect")),
    Option("pad", "mode=symmetric", lambda m, x, y: m.pad(x * y, 2, mode="symmetric")),
    Option("pad", "mode=wrap", lambda m, x, y: m.pad(x, ((0, 2), (3, 1)), mode="wrap")),
    Option("take", "axis=1", lambda m, x, y: m.take(x * y, [0, 3, 3], axis=1)),
    Option("take", "mode=wrap", lambda m, x, y: m.take(x, [5, -1, 13], mode="wrap")),
    Option("take", "mode=clip", lambda m, x, y: m.take(x * y, [9, -2, 40], axis=None, mode="clip")),
    Option(
        "take_along_axis",
        "axis=0",
        lambda m, x, y: m.take_along_axis(x, np.array([[2, 0, 1, 1]]), axis=0),
    ),  # fmt: skip
    # --- products: modes, axes ---------------------------------------------------------------
    Option("convolve", "mode=same", lambda m, x, y: m.convolve(x[0], y[0, :3], mode="same")),
    Option("convolve", "mode=valid", lambda m, x, y: m.convolve(x[0], y[1, :2], mode="valid")),
    Option("correlate", "mode=full", lambda m, x, y: m.correlate(x[0], y[0, :3], mode="full")),
    Option(
        "tensordot", "axes=([1], [1])", lambda m, x, y: m.tensordot(x, y, axes=([1], [1]))
    ),  # fmt: skip
    Option("tensordot", "axes=0", lambda m, x, y: m.tensordot(x[0], y[1], axes=0)),
    Option("cross", "axisa, axisb", lambda m, x, y: m.cross(x[:, :3].T, y[:, 1:], axisa=0)),
    Option("einsum", "repeated subscript", lambda m, x, y: m.einsum("ii->i", x[:, :3] * y[:, :3])),
    Option("einsum", "ellipsis", lambda m, x, y: m.einsum("...j,...j->...", x, y)),
    Option("einsum", "interleaved", lambda m, x, y: m.einsum(x, [0, 1], y, [2, 1], [0, 2])),
    Option("einsum", "implicit output", lambda m, x, y: m.einsum("ij,kj", x, y)),
    # --- ufunc methods ------------------------------------------------------------------------
    Option("add.reduce", "axis=1", lambda m, x, y: m.add.reduce(x * y, axis=1)),
    Option("multiply.reduce", "axis=0", lambda m, x, y: m.multiply.reduce(x)),
    Option("add.accumulate", "axis=1", lambda m, x, y: m.add.accumulate(x * y, axis=1)),
    Option("multiply.accumulate", "axis=0", lambda m, x, y: m.multiply.accumulate(x)),
    Option("multiply.outer", "outer", lambda m, x, y: m.multiply.outer(x[0], y[1])),
    Option("maximum.reduce", "axis=0", lambda m, x, y: m.maximum.reduce(x * y), False),
    # --- linear algebra: UPLO, ord, mode, full_matrices ------------------------------------------
    Option("linalg.eigh", "UPLO=L", lambda m, x, y: m.linalg.eigh(_spd(m, x)).eigenvalues),
    Option("linalg.eigh", "UPLO=U", lambda m, x, y: m.linalg.eigh(_spd(m, x), "U").eigenvalues),
    Option(
        "linalg.eigh",
        "eigenvectors, UPLO=U",
        lambda m, x, y: m.linalg.eigh(_spd(m, x) + m.triu(y[:, :3], 1), "U").eigenvectors ** 2,
    ),
    Option(
        "linalg.eigvalsh",
        "UPLO=U",
        lambda m, x, y: m.linalg.eigvalsh(m.tril(x[:, :3]) + _spd(m, y), "U"),
    ),
    Option("linalg.norm", "ord=None", lambda m, x, y: m.linalg.norm(x * y)),
    Option(
        "linalg.norm", "ord=1, axis=1", lambda m, x, y: m.linalg.norm(x - 0.6, ord=1, axis=1), False
    ),  # fmt: skip
    Option("linalg.norm", "ord=inf", lambda m, x, y: m.linalg.norm(x[0] - y[0], ord=np.inf), False),
    Option("linalg.norm", "ord=fro", lambda m, x, y: m.linalg.norm(x, ord="fro")),
    Option("linalg.norm", "ord=nuc", lambda m, x, y: m.linalg.norm(x, ord="nuc")),
    Option("linalg.norm", "ord=2 (matrix)", lambda m, x, y: m.linalg.norm(x, ord=2)),
    Option(
        "linalg.norm", "ord=-1 (matrix)", lambda m, x, y: m.linalg.norm(_spd(m, x), ord=-1), False
    ),  # fmt: skip
    Option("linalg.norm", "keepdims", lambda m, x, y: m.linalg.norm(x, axis=0, keepdims=True)),
    Option("linalg.norm", "ord=3", lambda m, x, y: m.linalg.norm(x[1] - 0.4, ord=3)),
    Option("linalg.qr", "mode=reduced", lambda m, x, y: m.abs(m.linalg.qr(x.T).R)),
    Option("linalg.qr", "mode=r", lambda m, x, y: m.abs(m.linalg.qr(x.T, mode="r"))),
    Option("linalg.qr", "mode=complete", lambda m, x, y: m.abs(m.linalg.qr(x, mode="complete").R)),
    Option("linalg.svd", "compute_uv=False", lambda m, x, y: m.linalg.svd(x, compute_uv=False)),
    Option(
        "linalg.svd",
        "full_matrices=False",
        lambda m, x, y: m.abs(m.linalg.svd(x, full_matrices=False).U),
    ),  # fmt: skip
    Option("linalg.pinv", "rcond", lambda m, x, y: m.linalg.pinv(x, rcond=1e-10)),
    Option("linalg.lstsq", "rcond=None", lambda m, x, y: m.linalg.lstsq(x.T, y[0], rcond=None)[0]),
    Option("linalg.matrix_power", "n=3", lambda m, x, y: m.linalg.matrix_power(_spd(m, x), 3)),
    Option(
        "linalg.matrix_power", "n=-2", lambda m, x, y: m.linalg.matrix_power(_spd(m, x), -2)
    ),  # fmt: skip
    Option("linalg.slogdet", "sign, logabsdet", lambda m, x, y: m.linalg.slogdet(_spd(m, x))[1]),
    Option(
        "linalg.tensorsolve", "axes", lambda m, x, y: m.linalg.tensorsolve(_spd(m, x), y[:, 0])
    ),  # fmt: skip
    # --- Fourier transforms: n, axis, norm -------------------------------------------------------
    Option("fft.fft", "n, norm=ortho", lambda m, x, y: m.abs(m.fft.fft(x, n=6, norm="ortho")) ** 2),
    Option("fft.rfft", "norm=forward", lambda m, x, y: m.real(m.fft.rfft(x, norm="forward"))),
    Option("fft.irfft", "n, axis=0", lambda m, x, y: m.fft.irfft(x * y, n=5, axis=0)),
    Option("fft.fft2", "s, axes", lambda m, x, y: m.imag(m.fft.fft2(x, s=(2, 5), axes=(0, 1)))),
    Option("fft.ifftn", "norm=backward", lambda m, x, y: m.real(m.fft.ifftn(x * y))),
    Option("fft.hfft", "n", lambda m, x, y: m.fft.hfft(x[0] * y[0], n=6)),
]
