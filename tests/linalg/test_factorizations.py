"""tapegrad/linalg/factorizations.py: cholesky qr."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, mh, problems

import tapegrad as tg
from tapegrad.testing import gradcheck


@given(problem=problems(), upper=st.booleans())
def test_cholesky(problem, upper, backend):
    a = problem.positive_definite()
    junk = np.tril(problem.random(problem.n, problem.n), -1)  # in the triangle not read
    a = a + (junk if upper else mh(junk))
    got = tg.linalg.cholesky(backend.tensor(a), upper=upper)
    np.testing.assert_allclose(got.numpy(), np.linalg.cholesky(a, upper=upper), rtol=1e-12)
    check(lambda a: tg.linalg.cholesky(a, upper=upper), [backend.tensor(a)], problem.small)


def test_cholesky_of_a_parametrized_positive_definite_matrix():
    # A = B Bᴴ + I reads every entry of B, through both triangles of A
    b = np.random.default_rng(0).standard_normal((3, 3)) + 1j
    gradcheck(lambda b: tg.linalg.cholesky(b @ tg.conj(tg.transpose(b)) + 3 * tg.eye(3)), [b])


@given(problem=problems(), data=st.data())
def test_qr(problem, data, backend):
    m = data.draw(st.integers(1, 4), label="m")
    mode = data.draw(st.sampled_from(["reduced", "complete", "r"]), label="mode")
    a = problem.general(m, problem.n)
    expected = np.linalg.qr(a, mode=mode)
    if mode == "r":
        got = tg.linalg.qr(backend.tensor(a), mode="r")
        np.testing.assert_allclose(got.numpy(), expected, atol=1e-12)
        check(lambda a: tg.linalg.qr(a, mode="r"), [backend.tensor(a)], problem.small)
        return
    q, r = tg.linalg.qr(backend.tensor(a), mode=mode)
    np.testing.assert_allclose(q.numpy(), expected.Q, atol=1e-12)
    np.testing.assert_allclose(r.numpy(), expected.R, atol=1e-12)
    k = min(m, problem.n)

    def f(a):
        q, r = tg.linalg.qr(a, mode=mode)
        extra = q[..., :, k:]  # complete: only the span of these columns is defined
        return q[..., :, :k], r, extra @ tg.conj(tg.swapaxes(extra, -1, -2))

    check(f, [backend.tensor(a)], problem.small and m <= 2)


def test_qr_raw_mode_has_no_gradient():
    a = np.arange(6.0).reshape(3, 2) + np.eye(3, 2)
    h, tau = tg.linalg.qr(a, mode="raw")
    expected = np.linalg.qr(a, mode="raw")
    np.testing.assert_array_equal(h.numpy(), expected[0])
    np.testing.assert_array_equal(tau.numpy(), expected[1])
    with pytest.raises(NotImplementedError, match="qr: mode='raw'"):
        tg.grad(lambda a: tg.sum(tg.linalg.qr(a, mode="raw")[0]))(a)
    with pytest.raises(ValueError, match="qr: mode must be one of"):
        tg.linalg.qr(a, mode="economic")


def test_cholesky_errors():
    with pytest.raises(np.linalg.LinAlgError, match="cholesky: .*not positive definite"):
        tg.linalg.cholesky(tg.tensor([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(np.linalg.LinAlgError, match=r"cholesky: expected a matrix .* \(3,\)"):
        tg.linalg.cholesky(tg.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match=r"cholesky: expected a square .* \(2, 3\)"):
        tg.linalg.cholesky(tg.ones((2, 3)))


@given(problem=problems())
def test_choleskys_rule_on_raw_arrays_is_its_rule_on_tensors(problem):
    # The sweep's raw mode (NumPy arrays: np.tril, BLAS's trmm) and the recorded mode
    # (Tensors: masks, matmul) compute the same gradient.
    from tapegrad.linalg.factorizations import _cholesky_vjp

    low = np.linalg.cholesky(problem.positive_definite())
    g = problem.random(problem.n, problem.n)
    raw = _cholesky_vjp(g, low, None)
    assert type(raw) is np.ndarray
    taped = _cholesky_vjp(tg.tensor(g), tg.tensor(low), None)
    np.testing.assert_allclose(raw, taped.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("lower", [False, True])
def test_the_triangular_product_is_matmul(dtype, adjoint, lower):
    from tapegrad.linalg.solvers import triangular_product_numpy

    rng = np.random.default_rng(1)
    t = rng.standard_normal((5, 5)) + (
        1j * rng.standard_normal((5, 5)) if dtype in (np.complex64, np.complex128) else 0
    )
    t = (np.tril(t) if lower else np.triu(t)).astype(dtype)
    b = rng.standard_normal((5, 3)).astype(dtype)
    got = triangular_product_numpy(t, b, lower=lower, adjoint=adjoint)
    expected = (np.conj(t.T) if adjoint else t) @ b
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(
        got, expected, rtol=1e-5 if dtype in (np.float32, np.complex64) else 1e-12
    )
    stacked = triangular_product_numpy(
        np.stack([t, t]), np.stack([b, b]), lower=lower, adjoint=adjoint
    )
    np.testing.assert_allclose(stacked[1], expected, rtol=1e-5)
