"""The NumPy namespace kept honest: every public NumPy callable is classified, the
committed docs/numpy.md is current, every name is in tapegrad.numpy, and every function
classified differentiable is: its value matches NumPy's and its gradient matches finite
differences, both as ``tnp.X(t)`` and as ``np.X(t)`` (NumPy's protocols)."""

import pathlib
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.numpy import coverage
from tapegrad.testing import gradcheck

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "numpy.md"


def test_every_public_callable_is_classified():
    unclassified = [
        name for name, (kind, _) in coverage.classify().items() if kind == "unclassified"
    ]
    assert unclassified == [], f"classify these in tapegrad/numpy/coverage.py: {unclassified}"


def test_the_committed_table_is_current():
    text = DOC.read_text()
    version = ".".join(np.__version__.split(".")[:2])
    if f"NumPy {version}:" not in text:
        pytest.skip(f"docs/numpy.md was generated with another NumPy than {np.__version__}")
    assert text == coverage.markdown(), (
        "docs/numpy.md is stale: run python -m tapegrad.numpy.coverage > docs/numpy.md"
    )


def test_every_numpy_name_is_in_tapegrad_numpy():
    missing = [name for name in dir(np) if not name.startswith("_") and not hasattr(tnp, name)]
    assert missing == []
    assert tnp.random is np.random and tnp.pi == np.pi and tnp.float32 is np.float32


def test_functions_that_dispatch_are_numpys_own():
    # np.X and tnp.X agree by construction: they are the same object
    assert tnp.sin is np.sin and tnp.sum is np.sum and tnp.sort is np.sort
    assert tnp.array is not np.array  # NumPy does not hand np.array over


X = np.array([[0.31, 0.52, 0.73, 0.44], [0.65, 0.36, 0.87, 0.58], [0.49, 0.81, 0.62, 0.33]])
Y = np.array([[0.57, 0.38, 0.69, 0.84], [0.42, 0.75, 0.34, 0.61], [0.88, 0.47, 0.56, 0.39]])
MASK = np.array([[True, False, True, False], [False, True, True, False], [True, True, False, True]])

# name: a call of the function through the namespace ``m`` (numpy or tapegrad.numpy) on
# x and y of shape (3, 4) with distinct values in (0.3, 0.9).
SAMPLES = {
    "abs": lambda m, x, y: m.abs(x - 0.6),
    "absolute": lambda m, x, y: m.absolute(x - 0.6),
    "acos": lambda m, x, y: m.acos(x),
    "acosh": lambda m, x, y: m.acosh(x + 1.0),
    "add": lambda m, x, y: m.add(x, y),
    "amax": lambda m, x, y: m.amax(x, axis=0),
    "amin": lambda m, x, y: m.amin(x, axis=1),
    "angle": lambda m, x, y: m.angle(x - 0.6) * x,
    "append": lambda m, x, y: m.append(x, y[0]),
    "apply_along_axis": lambda m, x, y: m.apply_along_axis(lambda r: r[:2] * r[3], 1, x),
    "apply_over_axes": lambda m, x, y: m.apply_over_axes(m.sum, x * y, [0, 1]),
    "arccos": lambda m, x, y: m.arccos(x),
    "arccosh": lambda m, x, y: m.arccosh(x + 1.0),
    "arcsin": lambda m, x, y: m.arcsin(x),
    "arcsinh": lambda m, x, y: m.arcsinh(x),
    "arctan": lambda m, x, y: m.arctan(x),
    "arctan2": lambda m, x, y: m.arctan2(x, y - 0.6),
    "arctanh": lambda m, x, y: m.arctanh(x),
    "array": lambda m, x, y: m.array([x[0, 0], y[1, 1], 2.0]),
    "array_split": lambda m, x, y: m.array_split(x, 3, axis=1)[1],
    "asanyarray": lambda m, x, y: m.asanyarray([[x[0, 0], 1.0]]),
    "asarray": lambda m, x, y: m.asarray([x[0], y[1]]),
    "asarray_chkfinite": lambda m, x, y: m.asarray_chkfinite(x),
    "ascontiguousarray": lambda m, x, y: m.ascontiguousarray(x[0, 0]),
    "asfortranarray": lambda m, x, y: m.asfortranarray(x),
    "asin": lambda m, x, y: m.asin(x),
    "asinh": lambda m, x, y: m.asinh(x),
    "astype": lambda m, x, y: m.astype(x, "float64"),
    "atan": lambda m, x, y: m.atan(x),
    "atan2": lambda m, x, y: m.atan2(y, x),
    "atanh": lambda m, x, y: m.atanh(x),
    "atleast_1d": lambda m, x, y: m.atleast_1d(x[0, 0]),
    "atleast_2d": lambda m, x, y: m.atleast_2d(x[0]),
    "atleast_3d": lambda m, x, y: m.atleast_3d(x),
    "average": lambda m, x, y: m.average(x, axis=1, weights=y),
    "bincount": lambda m, x, y: m.bincount([0, 2, 2, 1], weights=x[0]),
    "block": lambda m, x, y: m.block([[x, y], [y, x]]),
    "broadcast_arrays": lambda m, x, y: m.broadcast_arrays(x, y[0])[1] * x,
    "broadcast_to": lambda m, x, y: m.broadcast_to(x[0], (2, 4)),
    "cbrt": lambda m, x, y: m.cbrt(x - 0.6),
    "choose": lambda m, x, y: m.choose([[0, 1, 1, 0]], [x, y]),
    "clip": lambda m, x, y: m.clip(x, 0.4, 0.8),
    "column_stack": lambda m, x, y: m.column_stack([x[0], y[0]]),
    "compress": lambda m, x, y: m.compress([True, False, True], x, axis=0),
    "concat": lambda m, x, y: m.concat([x, y]),
    "concatenate": lambda m, x, y: m.concatenate([x, y], axis=1),
    "conj": lambda m, x, y: m.conj(x),
    "conjugate": lambda m, x, y: m.conjugate(x),
    "convolve": lambda m, x, y: m.convolve(x[0], y[0, :3]),
    "copy": lambda m, x, y: m.copy(x),
    "copysign": lambda m, x, y: m.copysign(x, y - 0.6),
    "corrcoef": lambda m, x, y: m.corrcoef(x, y),
    "correlate": lambda m, x, y: m.correlate(x[0], y[0, :2]),
    "cos": lambda m, x, y: m.cos(x),
    "cosh": lambda m, x, y: m.cosh(x),
    "cov": lambda m, x, y: m.cov(x, y),
    "cross": lambda m, x, y: m.cross(x[:, :3], y[:, 1:]),
    "cumprod": lambda m, x, y: m.cumprod(x, axis=1),
    "cumsum": lambda m, x, y: m.cumsum(x),
    "cumulative_prod": lambda m, x, y: m.cumulative_prod(x, axis=0),
    "cumulative_sum": lambda m, x, y: m.cumulative_sum(x[0], include_initial=True),
    "deg2rad": lambda m, x, y: m.deg2rad(x),
    "degrees": lambda m, x, y: m.degrees(x),
    "delete": lambda m, x, y: m.delete(x, [1, 3], axis=1),
    "diag": lambda m, x, y: m.diag(x[0], 1),
    "diagflat": lambda m, x, y: m.diagflat(x[:2, :2]),
    "diagonal": lambda m, x, y: m.diagonal(x, 1),
    "diff": lambda m, x, y: m.diff(x, n=2),
    "divide": lambda m, x, y: m.divide(x, y),
    "divmod": lambda m, x, y: m.divmod(x, 0.23)[1],
    "dot": lambda m, x, y: m.dot(x, y.T),
    "dsplit": lambda m, x, y: m.dsplit(m.atleast_3d(x), 1)[0],
    "dstack": lambda m, x, y: m.dstack([x, y]),
    "ediff1d": lambda m, x, y: m.ediff1d(x),
    "einsum": lambda m, x, y: m.einsum("ij,kj->ik", x, y),
    "exp": lambda m, x, y: m.exp(x),
    "exp2": lambda m, x, y: m.exp2(x),
    "expand_dims": lambda m, x, y: m.expand_dims(x, 1),
    "expm1": lambda m, x, y: m.expm1(x),
    "extract": lambda m, x, y: m.extract(MASK, x),
    "fabs": lambda m, x, y: m.fabs(x - 0.6),
    "fill_diagonal": lambda m, x, y: _in_place(m, "fill_diagonal", x, y[0, :3]),
    "flip": lambda m, x, y: m.flip(x, 1),
    "fliplr": lambda m, x, y: m.fliplr(x),
    "flipud": lambda m, x, y: m.flipud(x),
    "float_power": lambda m, x, y: m.float_power(x, y),
    "fmax": lambda m, x, y: m.fmax(x, y),
    "fmin": lambda m, x, y: m.fmin(x, y),
    "fmod": lambda m, x, y: m.fmod(x, 0.23),
    "frexp": lambda m, x, y: m.frexp(x)[0],
    "full": lambda m, x, y: m.full((2, 2), x[0, 0]),
    "full_like": lambda m, x, y: m.full_like(x, y[0, 0]),
    "geomspace": lambda m, x, y: m.geomspace(x[0], y[0], 3),
    "gradient": lambda m, x, y: m.gradient(x * x, axis=1),
    "heaviside": lambda m, x, y: m.heaviside(np.array([-1.0, 0.0, 1.0, 0.0]), x),
    "hsplit": lambda m, x, y: m.hsplit(x, 2)[1],
    "hstack": lambda m, x, y: m.hstack([x, y]),
    "hypot": lambda m, x, y: m.hypot(x, y),
    "i0": lambda m, x, y: m.i0(x),
    "imag": lambda m, x, y: m.imag(x) + x,
    "inner": lambda m, x, y: m.inner(x, y),
    "insert": lambda m, x, y: m.insert(x, 2, y[0, 0], axis=1),
    "interp": lambda m, x, y: m.interp(x[0] + 0.013, [0.2, 0.5, 0.9], y[0, :3]),
    "intersect1d": lambda m, x, y: m.intersect1d(m.round(x, 1), np.array([0.5, 0.6, 0.7])),
    "kron": lambda m, x, y: m.kron(x[:2, :2], y[:2, :2]),
    "ldexp": lambda m, x, y: m.ldexp(x, 3),
    "linspace": lambda m, x, y: m.linspace(x[0], y[0], 5),
    "log": lambda m, x, y: m.log(x),
    "log10": lambda m, x, y: m.log10(x),
    "log1p": lambda m, x, y: m.log1p(x),
    "log2": lambda m, x, y: m.log2(x),
    "logaddexp": lambda m, x, y: m.logaddexp(x, y),
    "logaddexp2": lambda m, x, y: m.logaddexp2(x, y),
    "logspace": lambda m, x, y: m.logspace(x[0], y[0], 3),
    "matmul": lambda m, x, y: m.matmul(x, y.T),
    "matrix_transpose": lambda m, x, y: m.matrix_transpose(x),
    "matvec": lambda m, x, y: m.matvec(x, y[0]),
    "max": lambda m, x, y: m.max(x, axis=1, keepdims=True),
    "maximum": lambda m, x, y: m.maximum(x, y),
    "mean": lambda m, x, y: m.mean(x, axis=0),
    "median": lambda m, x, y: m.median(x, axis=1),
    "meshgrid": lambda m, x, y: m.meshgrid(x[0], y[0])[0],
    "min": lambda m, x, y: m.min(x),
    "minimum": lambda m, x, y: m.minimum(x, y),
    "mod": lambda m, x, y: m.mod(x, 0.23),
    "modf": lambda m, x, y: m.modf(x * 3.0)[0],
    "moveaxis": lambda m, x, y: m.moveaxis(x, 0, -1),
    "multiply": lambda m, x, y: m.multiply(x, y),
    "nan_to_num": lambda m, x, y: m.nan_to_num(x),
    "nancumprod": lambda m, x, y: m.nancumprod(x, axis=1),
    "nancumsum": lambda m, x, y: m.nancumsum(x, axis=0),
    "nanmax": lambda m, x, y: m.nanmax(x, axis=0),
    "nanmean": lambda m, x, y: m.nanmean(x, axis=1),
    "nanmedian": lambda m, x, y: m.nanmedian(x, axis=0),
    "nanmin": lambda m, x, y: m.nanmin(x),
    "nanpercentile": lambda m, x, y: m.nanpercentile(x, 30.0, axis=1),
    "nanprod": lambda m, x, y: m.nanprod(x, axis=0),
    "nanquantile": lambda m, x, y: m.nanquantile(x, [0.2, 0.9]),
    "nanstd": lambda m, x, y: m.nanstd(x, axis=1),
    "nansum": lambda m, x, y: m.nansum(x),
    "nanvar": lambda m, x, y: m.nanvar(x, axis=0, ddof=1),
    "negative": lambda m, x, y: m.negative(x),
    "nextafter": lambda m, x, y: m.nextafter(x, y),
    "outer": lambda m, x, y: m.outer(x[0], y[0]),
    "pad": lambda m, x, y: m.pad(x, ((1, 0), (2, 1)), mode="reflect"),
    "partition": lambda m, x, y: m.partition(x, 2, axis=1),
    "percentile": lambda m, x, y: m.percentile(x, [25.0, 60.0], axis=0),
    "permute_dims": lambda m, x, y: m.permute_dims(x, (1, 0)),
    "piecewise": lambda m, x, y: m.piecewise(x, [MASK], [lambda t: t * t, lambda t: -t]),
    "place": lambda m, x, y: _in_place(m, "place", x, MASK, y[0, :3]),
    "poly": lambda m, x, y: m.poly(x[0]),
    "polyadd": lambda m, x, y: m.polyadd(x[0], y[1, :2]),
    "polyder": lambda m, x, y: m.polyder(x[0]),
    "polydiv": lambda m, x, y: m.polydiv(x[0], y[0, :2])[0],
    "polyfit": lambda m, x, y: m.polyfit(np.arange(4.0), x[0] * 2.0, 2),
    "roots": lambda m, x, y: m.roots(x[0]),
    "polyint": lambda m, x, y: m.polyint(x[0]),
    "polymul": lambda m, x, y: m.polymul(x[0], y[0]),
    "polysub": lambda m, x, y: m.polysub(x[0], y[0]),
    "polyval": lambda m, x, y: m.polyval(x[0], y[0]),
    "positive": lambda m, x, y: m.positive(x),
    "pow": lambda m, x, y: m.pow(x, y),
    "power": lambda m, x, y: m.power(x, y),
    "prod": lambda m, x, y: m.prod(x, axis=1),
    "ptp": lambda m, x, y: m.ptp(x, axis=0),
    "put": lambda m, x, y: _in_place(m, "put", x, [0, 5], y[0, :2]),
    "put_along_axis": lambda m, x, y: _in_place(
        m, "put_along_axis", x, np.array([[0], [3], [1]]), y[:, :1], 1
    ),
    "quantile": lambda m, x, y: m.quantile(x, 0.4, axis=1, keepdims=True),
    "rad2deg": lambda m, x, y: m.rad2deg(x),
    "radians": lambda m, x, y: m.radians(x),
    "ravel": lambda m, x, y: m.ravel(x),
    "real": lambda m, x, y: m.real(x),
    "real_if_close": lambda m, x, y: m.real_if_close(x),
    "reciprocal": lambda m, x, y: m.reciprocal(x),
    "remainder": lambda m, x, y: m.remainder(x, 0.23),
    "repeat": lambda m, x, y: m.repeat(x, 2, axis=0),
    "require": lambda m, x, y: m.require(x),
    "reshape": lambda m, x, y: m.reshape(x, (2, 6)),
    "resize": lambda m, x, y: m.resize(x, (5, 3)),
    "roll": lambda m, x, y: m.roll(x, -1, axis=1),
    "rollaxis": lambda m, x, y: m.rollaxis(x, 1),
    "rot90": lambda m, x, y: m.rot90(x),
    "row_stack": lambda m, x, y: m.vstack([x, y]),
    "select": lambda m, x, y: m.select([MASK], [x], default=y),
    "setdiff1d": lambda m, x, y: m.setdiff1d(x, y),
    "setxor1d": lambda m, x, y: m.setxor1d(x[0], y[0]),
    "sin": lambda m, x, y: m.sin(x),
    "sinc": lambda m, x, y: m.sinc(x),
    "sinh": lambda m, x, y: m.sinh(x),
    "sort": lambda m, x, y: m.sort(x, axis=0),
    "split": lambda m, x, y: m.split(x, 2, axis=1)[0],
    "sqrt": lambda m, x, y: m.sqrt(x),
    "square": lambda m, x, y: m.square(x),
    "squeeze": lambda m, x, y: m.squeeze(x[:1]),
    "stack": lambda m, x, y: m.stack([x, y], axis=-1),
    "std": lambda m, x, y: m.std(x, axis=1, ddof=1),
    "subtract": lambda m, x, y: m.subtract(x, y),
    "sum": lambda m, x, y: m.sum(x, axis=(0, 1)),
    "swapaxes": lambda m, x, y: m.swapaxes(x, 0, 1),
    "take": lambda m, x, y: m.take(x, [0, 0, 5]),
    "take_along_axis": lambda m, x, y: m.take_along_axis(x, np.array([[1], [0], [3]]), 1),
    "tan": lambda m, x, y: m.tan(x),
    "tanh": lambda m, x, y: m.tanh(x),
    "tensordot": lambda m, x, y: m.tensordot(x, y, axes=([1], [1])),
    "tile": lambda m, x, y: m.tile(x, (1, 2)),
    "trace": lambda m, x, y: m.trace(x),
    "transpose": lambda m, x, y: m.transpose(x),
    "trapezoid": lambda m, x, y: m.trapezoid(x, y[0]),
    "tril": lambda m, x, y: m.tril(x),
    "trim_zeros": lambda m, x, y: m.trim_zeros(x[0] * np.array([0.0, 1.0, 1.0, 0.0])),
    "triu": lambda m, x, y: m.triu(x, 1),
    "true_divide": lambda m, x, y: m.true_divide(x, y),
    "union1d": lambda m, x, y: m.union1d(x[0], y[0]),
    "unique": lambda m, x, y: m.unique(x),
    "unique_all": lambda m, x, y: m.unique_all(x).values,
    "unique_counts": lambda m, x, y: m.unique_counts(x).values,
    "unique_inverse": lambda m, x, y: m.unique_inverse(x).values,
    "unique_values": lambda m, x, y: m.unique_values(x),
    "unstack": lambda m, x, y: m.unstack(x)[1],
    "unwrap": lambda m, x, y: m.unwrap(x * 9.0),
    "vander": lambda m, x, y: m.vander(x[0], 3),
    "var": lambda m, x, y: m.var(x, axis=0),
    "vdot": lambda m, x, y: m.vdot(x, y),
    "vecdot": lambda m, x, y: m.vecdot(x, y),
    "vecmat": lambda m, x, y: m.vecmat(x[:, 0], y),
    "vsplit": lambda m, x, y: m.vsplit(x, 3)[2],
    "vstack": lambda m, x, y: m.vstack([x[0], y]),
    "where": lambda m, x, y: m.where(MASK, x, y),
}


def _in_place(m, name, a, *args):
    """NumPy's in-place writers on a copy (numpy), the functional form (tapegrad.numpy)."""
    if m is np:
        out = np.array(a, copy=True)
        getattr(np, name)(out, *args)
        return out
    return getattr(m, name)(a, *args, inplace=False)


DIFFERENTIABLE = sorted(n for n, (k, _) in coverage.classify().items() if k == "differentiable")


def test_every_differentiable_function_has_a_sample():
    assert sorted(SAMPLES) == DIFFERENTIABLE


@pytest.mark.parametrize("name", DIFFERENTIABLE)
def test_differentiable_functions_match_numpy_and_finite_differences(name):
    sample = SAMPLES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = sample(np, X, Y)
        x, y = tg.tensor(X), tg.tensor(Y)
        ours = sample(tnp, x, y)
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)
        assert ours.shape == np.shape(expected)
        assert ours.dtype == np.asarray(expected).dtype, (ours.dtype, np.asarray(expected).dtype)
        gradcheck(lambda a, b: sample(tnp, a, b), [X, Y])
        if getattr(np, name) is getattr(tnp, name):  # NumPy's own function: the protocol path
            through_numpy = sample(np, x, y)
            assert isinstance(through_numpy, tg.Tensor)
            gradcheck(lambda a, b: sample(np, a, b), [X, Y])


def _transform(name):
    return lambda m, x, y: getattr(m.fft, name)(x)


SUBMODULE_SAMPLES = {
    "linalg.matmul": lambda m, x, y: m.linalg.matmul(x, y.T),
    "linalg.outer": lambda m, x, y: m.linalg.outer(x[0], y[1]),
    "linalg.vecdot": lambda m, x, y: m.linalg.vecdot(x, y),
    "linalg.tensordot": lambda m, x, y: m.linalg.tensordot(x, y.T, axes=1),
    "linalg.matrix_transpose": lambda m, x, y: m.linalg.matrix_transpose(x),
    "linalg.trace": lambda m, x, y: m.linalg.trace(x[None] * y[:, None], offset=1),
    "linalg.diagonal": lambda m, x, y: m.linalg.diagonal(x, offset=-1),
    "linalg.cross": lambda m, x, y: m.linalg.cross(x[:, :3], y[:, 1:]),
    "linalg.multi_dot": lambda m, x, y: m.linalg.multi_dot([x[0], y.T, x, y[1]]),
    "fft.fftshift": lambda m, x, y: m.fft.fftshift(x),
    "fft.ifftshift": lambda m, x, y: m.fft.ifftshift(x, axes=1),
    # factorizations, solves and norms (tapegrad/linalg): square and SPD inputs from x, y
    "linalg.cholesky": lambda m, x, y: m.linalg.cholesky(_spd(x)),
    "linalg.cond": lambda m, x, y: m.linalg.cond(_square(x, y)),
    "linalg.det": lambda m, x, y: m.linalg.det(_square(x, y)),
    "linalg.eig": lambda m, x, y: m.sort(m.linalg.eig(_spd(x)).eigenvalues),
    "linalg.eigh": lambda m, x, y: m.linalg.eigh(_spd(x)).eigenvalues,
    "linalg.eigvals": lambda m, x, y: m.sort(m.linalg.eigvals(_spd(x))),
    "linalg.eigvalsh": lambda m, x, y: m.linalg.eigvalsh(_spd(x)),
    "linalg.inv": lambda m, x, y: m.linalg.inv(_square(x, y)),
    "linalg.lstsq": lambda m, x, y: m.linalg.lstsq(x.T, y.T, rcond=None)[0],
    "linalg.matrix_norm": lambda m, x, y: m.linalg.matrix_norm(x),
    "linalg.matrix_power": lambda m, x, y: m.linalg.matrix_power(_square(x, y), 3),
    "linalg.norm": lambda m, x, y: m.linalg.norm(x, ord=2),
    "linalg.pinv": lambda m, x, y: m.linalg.pinv(x),
    "linalg.qr": lambda m, x, y: m.linalg.qr(x.T).R,
    "linalg.slogdet": lambda m, x, y: m.linalg.slogdet(_square(x, y)).logabsdet,
    "linalg.solve": lambda m, x, y: m.linalg.solve(_square(x, y), y),
    "linalg.svd": lambda m, x, y: m.linalg.svd(x).S,
    "linalg.svdvals": lambda m, x, y: m.linalg.svdvals(x),
    "linalg.tensorinv": lambda m, x, y: m.linalg.tensorinv(_square(x, y), ind=1),
    "linalg.tensorsolve": lambda m, x, y: m.linalg.tensorsolve(_square(x, y), y[:, 0]),
    "linalg.vector_norm": lambda m, x, y: m.linalg.vector_norm(x, axis=1),
    # transforms (tapegrad/fft)
    **{
        f"fft.{name}": _transform(name)
        for name in (
            "fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2 rfftn irfftn hfft ihfft"
        ).split()
    },
}


def _square(x, y):
    """A well-conditioned 3 x 3 matrix from the 3 x 4 samples."""
    return x @ y.T + 3.0 * np.eye(3)


def _spd(x):
    return x @ x.T + np.eye(3)


SUBMODULE_DIFFERENTIABLE = sorted(
    name
    for namespace, prefix in ((np.linalg, "linalg."), (np.fft, "fft."))
    for name, (kind, _) in coverage.classify(namespace, prefix).items()
    if kind == "differentiable"
)


def test_every_differentiable_linalg_and_fft_function_has_a_sample():
    assert sorted(SUBMODULE_SAMPLES) == SUBMODULE_DIFFERENTIABLE


@pytest.mark.parametrize("name", SUBMODULE_DIFFERENTIABLE)
def test_linalg_and_fft_functions_match_numpy_and_finite_differences(name):
    sample = SUBMODULE_SAMPLES[name]
    expected = sample(np, X, Y)
    got = sample(tnp, tg.tensor(X), tg.tensor(Y))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    gradcheck(lambda a, b: sample(tnp, a, b), [X, Y])


def test_matrix_rank_accepts_tensors_without_a_gradient():
    rank = tnp.linalg.matrix_rank(tg.tensor(X))
    assert int(rank) == 3
