"""tapegrad/scipy/special: tails, parameter derivatives, errors and SciPy's own functions on
Tensors."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("scipy.special", reason="the scipy extra is not installed")

import scipy.special as sc  # noqa: E402
from helpers import value_and_gradients  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy_checks import inputs  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import special  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


def _fd(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


# --- parameter derivatives of the incomplete functions, against SciPy's values ----------


def test_gammainc_gradient_in_a_over_both_evaluations():
    # x < a + 1 takes the series, x >= a + 1 the continued fraction
    a = np.array([0.01, 0.3, 1.0, 2.5, 10.0, 100.0, 0.5, 3.0, 50.0, 400.0, 5.0])
    x = np.array([0.5, 0.1, 2.0, 1.0, 15.0, 90.0, 40.0, 3.0, 49.0, 402.0, 300.0])
    _, (da, dx) = value_and_gradients(special.gammainc, tg.tensor(a), tg.tensor(x))
    expected = _fd(lambda s: sc.gammainc(s, x), a, 1e-6 * np.maximum(a, 1))
    np.testing.assert_allclose(np.asarray(da), expected, rtol=1e-6, atol=1e-12)
    dens = np.exp((a - 1) * np.log(x) - x - sc.gammaln(a))
    np.testing.assert_allclose(np.asarray(dx), dens, rtol=1e-12, atol=1e-300)
    _, (dca, _) = value_and_gradients(special.gammaincc, tg.tensor(a), tg.tensor(x))
    np.testing.assert_allclose(np.asarray(dca), -np.asarray(da), rtol=1e-14)


def test_betainc_gradient_in_a_and_b_on_both_sides_of_the_symmetry():
    a = np.array([0.3, 1.0, 2.5, 10.0, 100.0, 0.5, 3.0, 50.0])
    b = np.array([0.7, 1.0, 2.5, 0.5, 200.0, 40.0, 3.0, 49.0])
    x = np.array([0.1, 0.5, 0.9, 0.95, 0.3, 0.01, 0.6, 0.5])
    _, (da, db, dx) = value_and_gradients(special.betainc, tg.tensor(a), tg.tensor(b), tg.tensor(x))
    np.testing.assert_allclose(
        np.asarray(da), _fd(lambda s: sc.betainc(s, b, x), a, 1e-6), rtol=1e-6, atol=1e-12
    )
    np.testing.assert_allclose(
        np.asarray(db), _fd(lambda s: sc.betainc(a, s, x), b, 1e-6), rtol=1e-6, atol=1e-12
    )
    np.testing.assert_allclose(
        np.asarray(dx), _fd(lambda s: sc.betainc(a, b, s), x, 1e-8), rtol=1e-6, atol=1e-12
    )


def test_parameter_derivatives_are_zero_where_the_function_is_constant():
    a, x = tg.tensor([2.0, 2.0]), tg.tensor([0.0, np.inf])
    _, (da, _) = value_and_gradients(special.gammainc, a, x)
    np.testing.assert_array_equal(np.asarray(da), [0.0, 0.0])
    _, (da, db, _) = value_and_gradients(
        special.betainc, tg.tensor([2.0, 2.0]), tg.tensor([3.0, 3.0]), tg.tensor([0.0, 1.0])
    )
    np.testing.assert_array_equal(np.r_[np.asarray(da), np.asarray(db)], np.zeros(4))


@given(data=st.data())
def test_incomplete_functions_second_derivative_in_x_and_mixed(data):
    a, x = data.draw(inputs(["shape", "positive"], max_dims=1))
    gradgradcheck(lambda x: special.gammainc(a, x), [x])
    # d/dx of the a-derivative (closed form) against finite differences of the series
    gradcheck(lambda x: tg.grad(lambda a: tg.sum(special.gammainc(a, x)))(a), [x])
    p, q, y = data.draw(inputs(["shape", "shape", "prob"], max_dims=1))
    gradgradcheck(lambda y: special.betainc(p, q, y), [y])
    gradcheck(lambda y: tg.grad(lambda p: tg.sum(special.betainc(p, q, y)))(p), [y])
    gradcheck(lambda y: tg.grad(lambda q: tg.sum(special.betainc(p, q, y)))(q), [y])


def test_second_derivative_in_a_parameter_raises_lookup_error():
    with pytest.raises(LookupError, match="gammainc: no gradient with respect to a at second"):
        tg.grad(tg.grad(lambda a: special.gammainc(a, 2.0)))(1.5)
    with pytest.raises(LookupError, match="betainc: no gradient with respect to b at second"):
        tg.grad(tg.grad(lambda b: special.betainc(2.0, b, 0.3)))(1.5)


# --- orders and other arguments without a derivative -----------------------------------


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda v: special.jv(v, 1.0), "the order v"),
        (lambda v: special.iv(v, 1.0), "the order v"),
        (lambda v: special.kve(v, 1.0), "the order v"),
        (lambda n: special.polygamma(n, 1.0), "the order n"),
        (lambda x: special.zeta(x, 2.0), "x"),
    ],
)
def test_arguments_without_a_derivative_raise_lookup_error_naming_them(call, argument):
    v = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(v)
        with pytest.raises(LookupError, match=f"no gradient with respect to {argument} "):
            call(v)
    assert len(tape) == 0  # nothing recorded


def test_constant_orders_may_be_arrays_that_broadcast():
    x = tg.tensor(1.5)
    _, (dx,) = value_and_gradients(lambda x: special.jv(np.array([0.0, 1.0, 2.0]), x), x)
    expected = 0.5 * (sc.jv([-1.0, 0.0, 1.0], 1.5) - sc.jv([1.0, 2.0, 3.0], 1.5)).sum()
    assert float(dx) == pytest.approx(expected, rel=1e-12)


# --- tails -------------------------------------------------------------------------------


def test_log_ndtr_is_finite_and_accurate_in_both_tails():
    x = tg.tensor([-1e5, -40.0, -10.0, 0.0, 10.0, 40.0])
    y, (dx,) = value_and_gradients(special.log_ndtr, x)
    np.testing.assert_allclose(np.asarray(y), sc.log_ndtr(np.asarray(x)), rtol=1e-14)
    assert np.asarray(y)[1] == pytest.approx(-804.6084420137538, rel=1e-14)
    # d/dx log Φ(x) = φ(x)/Φ(x): about -x - 1/x far left, φ(x) far right
    expected = np.exp(-0.5 * np.asarray(x) ** 2 - sc.log_ndtr(np.asarray(x))) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(np.asarray(dx), expected, rtol=1e-10)
    assert np.asarray(dx)[1] == pytest.approx(40.02498, rel=1e-6)
    assert np.all(np.isfinite(np.asarray(dx)))


def test_logsumexp_of_huge_values_is_finite():
    a = tg.tensor([1e308, 1e308, -np.inf])
    assert float(special.logsumexp(a)) == 1e308  # log(2) is below 1e308's spacing
    a = tg.tensor([1e4, 1e4 + np.log(3.0), -np.inf])  # exp overflows: the shift does not
    y, (da,) = value_and_gradients(special.logsumexp, a)
    assert float(y) == pytest.approx(1e4 + np.log(4.0), rel=1e-15)
    np.testing.assert_allclose(np.asarray(da), [0.25, 0.75, 0.0], rtol=1e-12)
    y, (da, db) = value_and_gradients(lambda a, b: special.logsumexp(a, b=b), a, tg.tensor(2.0))
    assert float(y) == pytest.approx(1e4 + np.log(8.0), rel=1e-15)
    assert float(db) == pytest.approx(0.5)


@given(data=st.data())
def test_logsumexp_matches_scipy_with_axis_weights_and_sign(data):
    a, b = data.draw(inputs(["real", "real"], max_dims=3))
    axis = data.draw(st.sampled_from([None, 0, -1, (0, -1)]), label="axis")
    ndim = np.broadcast(a, b).ndim
    if ndim == 0 and axis is not None:
        axis = None
    if isinstance(axis, tuple) and ndim < 2:
        axis = -1
    keepdims = data.draw(st.booleans(), label="keepdims")
    got, sign = special.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=True)
    want, want_sign = sc.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=True)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(np.asarray(sign), want_sign)
    a = np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape))
    plain = special.logsumexp(a, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(np.asarray(plain), sc.logsumexp(a, axis=axis, keepdims=keepdims))
    positive = np.abs(b) + 0.5
    gradcheck(lambda a, b: special.logsumexp(a, axis=axis, b=b, keepdims=keepdims), [a, positive])


def test_logsumexp_of_a_negative_weighted_sum_is_nan_without_return_sign():
    assert np.isnan(float(special.logsumexp(tg.tensor([0.0, 1.0]), b=[1.0, -1.0])))
    assert np.isnan(sc.logsumexp([0.0, 1.0], b=[1.0, -1.0]))


@given(data=st.data())
def test_softmax_and_log_softmax_match_scipy_over_every_axis_by_default(data, backend):
    (x,) = data.draw(inputs(["real"], max_dims=3))
    t = backend.tensor(x)
    for axis in (None, -1) if x.ndim else (None,):
        np.testing.assert_allclose(
            np.asarray(special.softmax(t, axis=axis)), sc.softmax(x, axis=axis)
        )
        np.testing.assert_allclose(
            np.asarray(special.log_softmax(t, axis=axis)), sc.log_softmax(x, axis=axis), atol=1e-12
        )
    gradcheck(special.softmax, [t])
    gradgradcheck(special.log_softmax, [t])


def test_xlogy_gradients_are_zero_at_a_masked_zero_term():
    _, (dx, dy) = value_and_gradients(special.xlogy, tg.tensor([0.0, 0.0]), tg.tensor([0.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(dx), [0.0, np.log(2.0)])
    np.testing.assert_array_equal(np.asarray(dy), [0.0, 0.0])


def test_sinc_near_zero_uses_its_series():
    x = tg.tensor([0.0, 1e-9, 1e-4, -2e-4, 0.5])
    _, (dx,) = value_and_gradients(special.sinc, x)
    xs = np.asarray(x)
    exact = np.where(xs == 0, 0.0, (np.cos(np.pi * xs) - np.sinc(xs)) / np.where(xs == 0, 1, xs))
    series = -(np.pi**2) * xs / 3 + np.pi**4 * xs**3 / 30
    np.testing.assert_allclose(np.asarray(dx)[:4], series[:4], rtol=1e-12, atol=0)
    np.testing.assert_allclose(np.asarray(dx)[4], exact[4], rtol=1e-14)


def test_float32_stays_float32():
    x = tg.tensor([0.5, 1.5], dtype=np.float32)
    for f in (special.gammaln, special.erf, special.i0e, special.log_ndtr, special.xlogy):
        args = (x, x) if f is special.xlogy else (x,)
        y, grads = value_and_gradients(f, *args)
        assert y.dtype == np.float32, f.__name__
        assert all(g.dtype == np.float32 for g in grads), f.__name__


# --- SciPy's own functions on Tensors ---------------------------------------------------


def test_scipy_ufuncs_on_tensors_record():
    x, y = tg.tensor([0.5, 2.0]), tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch([x, y])
        total = tg.sum(sc.gammaln(x) + sc.xlogy(x, y) + sc.iv(1.0, x) + sc.jn(1, x))
    dx, dy = tape.gradient(total, [x, y])
    expected_dx = (
        sc.digamma(np.asarray(x))
        + np.log(3.0)
        + sc.ivp(1, np.asarray(x))
        + sc.jvp(1, np.asarray(x))
    )
    np.testing.assert_allclose(np.asarray(dx), expected_dx, rtol=1e-12)
    assert float(dy) == pytest.approx(2.5 / 3.0)


def test_scipy_ufuncs_record_without_importing_tapegrad_scipy():
    code = (
        "import sys, scipy.special as sc, tapegrad as tg\n"
        "assert 'tapegrad.scipy' not in sys.modules\n"
        "x = tg.tensor(2.0)\n"
        "with tg.GradientTape() as tape:\n"
        "    tape.watch(x)\n"
        "    y = sc.gammaln(x)\n"
        "print(float(tape.gradient(y, x)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert float(out.stdout) == pytest.approx(sc.digamma(2.0), rel=1e-14)


def test_unsupported_scipy_ufunc_is_named():
    with pytest.raises(TypeError, match="does not support scipy.special.agm on Tensors"):
        sc.agm(tg.tensor(1.0), 2.0)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda t: sc.logsumexp(t), "scipy.special.logsumexp"),
        (lambda t: sc.softmax(t), "scipy.special.softmax"),
        (lambda t: sc.polygamma(1, t), "scipy.special.polygamma"),
    ],
)
def test_scipy_python_functions_refuse_a_watched_tensor(call, name):
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        use = name.replace("scipy.", "tapegrad.scipy.")
        with pytest.raises(TypeError, match=f"{name} converts the watched Tensor.*use {use}"):
            call(x)
    assert len(tape) == 0
    call(x)  # outside a tape nothing is lost: SciPy computes on the values


def test_scipy_kernel_on_another_array_library_is_a_clear_error():
    strict = pytest.importorskip("array_api_strict")
    with pytest.raises(TypeError, match="gammaln: SciPy's kernels run on NumPy arrays"):
        special.gammaln(tg.Tensor(strict.asarray([1.0])))


def test_importing_tapegrad_scipy_without_scipy_says_how_to_install_it():
    code = (
        "import sys\n"
        "sys.modules['scipy'] = None  # as if SciPy were not installed\n"
        "try:\n"
        "    import tapegrad.scipy\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'tapegrad[scipy]'" in out.stdout
