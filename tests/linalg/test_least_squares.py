"""tapegrad/linalg/least_squares.py: pinv lstsq."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, problems

import tapegrad as tg
from tapegrad.testing import gradcheck


@given(problem=problems(), m=st.integers(1, 4))
def test_pinv(problem, m, backend):
    a = problem.general(m, problem.n)
    np.testing.assert_allclose(tg.linalg.pinv(backend.tensor(a)).numpy(), np.linalg.pinv(a))
    check(tg.linalg.pinv, [backend.tensor(a)], problem.small and m <= 2)


@given(problem=problems(batch=False), m=st.integers(1, 4), vector=st.booleans())
def test_lstsq(problem, m, vector, backend):
    a = problem.general(m, problem.n)
    b = problem.random(m) if vector else problem.random(m, 2)
    x, residuals, rank, s = tg.linalg.lstsq(backend.tensor(a), backend.tensor(b))
    expected = np.linalg.lstsq(a, b)
    np.testing.assert_allclose(x.numpy(), expected[0], atol=1e-12)
    np.testing.assert_allclose(residuals.numpy(), expected[1], rtol=1e-8, atol=1e-12)
    assert residuals.shape == expected[1].shape and rank == expected[2]
    np.testing.assert_allclose(s.numpy(), expected[3], rtol=1e-12)

    def f(a, b):
        x, residuals, _, s = tg.linalg.lstsq(a, b)
        return x, residuals, s

    check(f, [backend.tensor(a), backend.tensor(b)], problem.small and m <= 2)


def test_pinv_of_a_rank_deficient_matrix_is_the_constant_rank_derivative():
    # perturbations that keep the rank: finite differences along them agree
    rng = np.random.default_rng(0)
    left, right = rng.standard_normal((4, 2)), rng.standard_normal((2, 3))
    gradcheck(lambda left: tg.linalg.pinv(left @ right), [left])
    x, _, rank, _ = tg.linalg.lstsq(left @ right, np.ones(4))
    assert rank == 2
    np.testing.assert_allclose(x.numpy(), np.linalg.lstsq(left @ right, np.ones(4))[0])


def test_pinv_rcond_and_rtol():
    a = np.diag([1.0, 1e-10])
    np.testing.assert_array_equal(tg.linalg.pinv(a, rcond=1e-5).numpy(), np.diag([1.0, 0.0]))
    np.testing.assert_allclose(tg.linalg.pinv(a, rtol=None).numpy(), np.linalg.pinv(a, rtol=None))
    with pytest.raises(ValueError, match="pinv: rtol and rcond cannot both be set"):
        tg.linalg.pinv(a, rcond=1e-5, rtol=1e-5)
    with pytest.raises(np.linalg.LinAlgError, match="lstsq: a must be 2-d"):
        tg.linalg.lstsq(np.ones((2, 3, 3)), np.ones(3))
