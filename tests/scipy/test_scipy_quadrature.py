"""tapegrad/scipy/integrate's quadratures: SciPy's values (rtol 1e-12) over random shapes,
axes and uneven sample points, gradients in y, x and dx to first and second order, and
SciPy's errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.integrate", reason="the scipy extra is not installed")

import scipy.integrate as si  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import integrate  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RULES = ("trapezoid", "cumulative_trapezoid", "simpson", "cumulative_simpson")


def _points(rng, n):
    return np.cumsum(rng.uniform(0.2, 1.0, size=n))


@settings(max_examples=40, deadline=None)
@given(
    shape=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    seed=st.integers(0, 2**16),
    full_x=st.booleans(),
    initial=st.sampled_from([None, 0.0, 1.5]),
)
def test_values_match_scipy_on_random_shapes_axes_and_points(shape, seed, full_x, initial):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=shape)
    axis = int(rng.integers(-len(shape), len(shape)))
    n = shape[axis]
    x = _points(rng, n)
    if full_x:  # x of y's shape: different points in each column
        x = np.moveaxis(np.cumsum(rng.uniform(0.2, 1.0, size=y.shape), axis=axis), axis, axis)
    dx = float(rng.uniform(0.1, 2.0))
    for name in RULES:
        for kw in (dict(x=x), dict(dx=dx), {}):
            if name == "cumulative_simpson" or (name.startswith("cumulative") and not initial):
                kw = dict(kw, initial=initial)
            expected = getattr(si, name)(y, axis=axis, **kw)
            got = getattr(integrate, name)(tg.tensor(y), axis=axis, **kw)
            assert got.shape == np.shape(expected), (name, kw)
            np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-13,
                                       err_msg=f"{name} {kw}")  # fmt: skip
    if n - 1 > 0 and (n - 1) & (n - 2) == 0:  # romb: 2^k + 1 samples
        np.testing.assert_allclose(
            integrate.romb(tg.tensor(y), dx=dx, axis=axis).numpy(),
            si.romb(y, dx=dx, axis=axis), rtol=1e-12, atol=1e-13,
        )  # fmt: skip


@pytest.mark.parametrize("name", RULES)
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_gradients_in_y_and_x_to_second_order(name, n):
    rng = np.random.default_rng(n)
    y, x = rng.normal(size=(2, n)), _points(rng, n)

    def f(y, x):
        return getattr(integrate, name)(y, x=x)

    gradcheck(f, [y, x])
    gradgradcheck(f, [y, x])


@pytest.mark.parametrize("name", [*RULES, "romb"])
def test_gradients_in_dx(name):
    y = np.random.default_rng(3).normal(size=(3, 5))
    kw = dict(initial=0.5 if name == "cumulative_simpson" else 0) if "cumul" in name else {}

    def f(y, dx):
        return getattr(integrate, name)(y, dx=dx, axis=-1, **kw) ** 2

    gradcheck(f, [y, np.array(0.7)])
    gradgradcheck(f, [y, np.array(0.7)])


def test_cumulative_simpson_array_dx_and_initial():
    rng = np.random.default_rng(4)
    y, dx, initial = rng.normal(size=(3, 5)), rng.uniform(0.5, 1, (3, 1)), rng.normal(size=(3, 1))
    expected = si.cumulative_simpson(y, dx=dx, initial=initial)
    got = integrate.cumulative_simpson(tg.tensor(y), dx=tg.tensor(dx), initial=tg.tensor(initial))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    gradgradcheck(
        lambda a, b, c: integrate.cumulative_simpson(a, dx=b, initial=c), [y, dx, initial]
    )


def test_romb_show_prints_scipys_table(capsys):
    y = np.arange(5.0) ** 3
    si.romb(y, show=True)
    expected = capsys.readouterr().out
    integrate.romb(tg.tensor(y), show=True)
    assert capsys.readouterr().out == expected and "Richardson" in expected


def test_errors_as_scipys_and_plain_calls():
    y = tg.tensor(np.ones(4))
    with pytest.raises(ValueError, match="power of 2"):
        integrate.romb(y)
    with pytest.raises(ValueError, match="scalar"):
        integrate.cumulative_trapezoid(y, initial=np.zeros(1))
    with pytest.raises(ValueError, match="`initial` must be"):
        integrate.cumulative_trapezoid(y, initial=1.0)
    with pytest.raises(ValueError, match="strictly increasing"):
        integrate.cumulative_simpson(y, x=np.array([0.0, 1.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="length of x"):
        integrate.simpson(y, x=np.array([0.0, 1.0, 2.0]))
    with pytest.raises(ValueError, match="dx"):
        integrate.cumulative_simpson(y, dx=np.ones(2))
    assert type(integrate.trapezoid(np.ones(3))) is type(si.trapezoid(np.ones(3)))
    assert integrate.quad(np.sin, 0.0, 1.0) == si.quad(np.sin, 0.0, 1.0)  # plain: SciPy's
