"""tapegrad/scipy/linalg: values against SciPy, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.linalg", reason="the scipy extra is not installed")

import scipy.linalg as sl  # noqa: E402
from helpers import value_and_gradients  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy_checks import require_scipy_kernel  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import linalg  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


@st.composite
def problems(draw, max_n=3, batch=True):
    """A seeded generator, a matrix size and a batch shape (possibly empty)."""
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    n = draw(st.integers(1, max_n), label="n")
    shape = draw(st.sampled_from([(), (), (2,)] if batch else [()]), label="batch")
    return np.random.default_rng(seed), n, shape


def _triangular(rng, shape, n, lower):
    a = (
        rng.uniform(-0.5, 0.5, shape + (n, n))
        + np.eye(n) * rng.uniform(1.0, 2.0, shape + (n,))[..., None]
    )
    return a  # both triangles filled: the solver must read only one


def _spd(rng, shape, n):
    m = rng.standard_normal(shape + (n, n))
    return m @ np.swapaxes(m, -1, -2) + n * np.eye(n)


@given(problem=problems(), data=st.data())
def test_solve_triangular(problem, data, backend):
    rng, n, shape = problem
    lower, unit, trans = (data.draw(st.booleans()) for _ in range(3))
    a = _triangular(rng, shape, n, lower)
    b = rng.standard_normal(data.draw(st.sampled_from([(n,), (n, 2), shape + (n, 1)])))
    kwargs = dict(lower=lower, unit_diagonal=unit, trans=int(trans))
    got = linalg.solve_triangular(backend.tensor(a), backend.tensor(b), **kwargs)
    np.testing.assert_allclose(got.numpy(), sl.solve_triangular(a, b, **kwargs), rtol=1e-12)
    f = lambda a, b: linalg.solve_triangular(a, b, **kwargs)  # noqa: E731
    gradcheck(f, [backend.tensor(a), backend.tensor(b)])
    if _small(shape, n):
        gradgradcheck(f, [backend.tensor(a), backend.tensor(b)])


def _small(shape, n):
    """Second derivatives (finite differences of a gradient) on single matrices up to 2x2."""
    return shape == () and n <= 2


@given(problem=problems(), lower=st.booleans())
def test_cholesky(problem, lower, backend):
    rng, n, shape = problem
    a = _spd(rng, shape, n)
    a_asym = a + np.triu(rng.standard_normal(a.shape), 1) * (0.1 if lower else 0.0)
    got = linalg.cholesky(backend.tensor(a_asym), lower=lower)
    np.testing.assert_allclose(got.numpy(), sl.cholesky(a_asym, lower=lower), rtol=1e-12)
    f = lambda a: linalg.cholesky(a, lower=lower)  # noqa: E731
    gradcheck(f, [backend.tensor(a)])
    if _small(shape, n):
        gradgradcheck(f, [backend.tensor(a)], atol=1e-4)


@given(seed=st.integers(0, 2**32 - 1), trans=st.sampled_from([0, 1, 2]), lower=st.booleans())
def test_complex_solve_triangular_and_cholesky(seed, trans, lower, backend):
    # tg.linalg's implementation behind SciPy's names: complex values, trans="C" included
    rng = np.random.default_rng(seed)
    a = _triangular(rng, (), 3, lower) + 1j * rng.uniform(-0.5, 0.5, (3, 3))
    b = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    kwargs = dict(lower=lower, trans=trans)
    got = linalg.solve_triangular(backend.tensor(a), backend.tensor(b), **kwargs)
    np.testing.assert_allclose(got.numpy(), sl.solve_triangular(a, b, **kwargs), rtol=1e-12)
    gradcheck(
        lambda a, b: linalg.solve_triangular(a, b, **kwargs), [backend.tensor(a), backend.tensor(b)]
    )
    m = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    spd = m @ m.conj().T + 3 * np.eye(3)
    got = linalg.cholesky(backend.tensor(spd), lower=lower)
    np.testing.assert_allclose(got.numpy(), sl.cholesky(spd, lower=lower), rtol=1e-12)
    gradcheck(lambda a: linalg.cholesky(a, lower=lower), [backend.tensor(spd)])


def test_cholesky_of_a_symmetric_parametrization_matches_the_full_gradient():
    m = tg.tensor(np.random.default_rng(0).standard_normal((3, 3)))
    for lower in (True, False):
        gradcheck(lambda m, lower=lower: linalg.cholesky(m @ m.T + 3 * tg.eye(3), lower=lower), [m])


@given(problem=problems(), lower=st.booleans())
def test_cho_factor_and_cho_solve(problem, lower, backend):
    rng, n, shape = problem
    a = _spd(rng, shape, n)
    b = rng.standard_normal((n,))
    c, low = linalg.cho_factor(backend.tensor(a), lower=lower)
    c_ref, low_ref = sl.cho_factor(a, lower=lower)
    np.testing.assert_allclose(c.numpy(), c_ref, rtol=1e-12)
    assert low is bool(np.all(low_ref))  # batched SciPy repeats it per matrix
    x = linalg.cho_solve((c, low), backend.tensor(b))
    np.testing.assert_allclose(x.numpy(), sl.cho_solve((c_ref, low_ref), b), rtol=1e-10)
    f = lambda a, b: linalg.cho_solve(linalg.cho_factor(a, lower=lower), b)  # noqa: E731
    gradcheck(f, [backend.tensor(a), backend.tensor(b)])


@given(problem=problems(), trans=st.sampled_from([0, 1]))
def test_lu_factor_and_lu_solve(problem, trans, backend):
    require_scipy_kernel(backend, "lu_factor")
    rng, n, shape = problem
    a = rng.standard_normal(shape + (n, n)) + 2 * np.eye(n)
    b = rng.standard_normal((n,))
    lu, piv = linalg.lu_factor(backend.tensor(a))
    lu_ref, piv_ref = sl.lu_factor(a)
    np.testing.assert_allclose(lu.numpy(), lu_ref, rtol=1e-12, atol=1e-14)
    np.testing.assert_array_equal(piv, piv_ref)
    x = linalg.lu_solve((lu, piv), backend.tensor(b), trans=trans)
    np.testing.assert_allclose(x.numpy(), sl.lu_solve((lu_ref, piv_ref), b, trans=trans), rtol=1e-9)
    gradcheck(lambda a: linalg.lu_factor(a)[0], [backend.tensor(a)])
    if _small(shape, n):
        gradgradcheck(lambda a: linalg.lu_factor(a)[0], [backend.tensor(a)], atol=1e-4)
    f = lambda a, b: linalg.lu_solve(linalg.lu_factor(a), b, trans=trans)  # noqa: E731
    gradcheck(f, [backend.tensor(a), backend.tensor(b)])


@given(problem=problems(max_n=3))
def test_expm(problem, backend):
    require_scipy_kernel(backend, "expm")
    rng, n, shape = problem
    a = rng.uniform(-1, 1, shape + (n, n))
    np.testing.assert_allclose(linalg.expm(backend.tensor(a)).numpy(), sl.expm(a), rtol=1e-12)
    gradcheck(linalg.expm, [backend.tensor(a)])
    if _small(shape, n):
        gradgradcheck(linalg.expm, [backend.tensor(a)])


@given(problem=problems(max_n=3, batch=False))
def test_sqrtm_and_solve_sylvester(problem, backend):
    require_scipy_kernel(backend, "sqrtm")
    rng, n, _ = problem
    a = 2 * np.eye(n) + rng.uniform(-0.3, 0.3, (n, n))  # eigenvalues near 2: a real root
    np.testing.assert_allclose(linalg.sqrtm(backend.tensor(a)).numpy(), sl.sqrtm(a), rtol=1e-10)
    gradcheck(linalg.sqrtm, [backend.tensor(a)])
    if n <= 2:
        gradgradcheck(linalg.sqrtm, [backend.tensor(a)])
    b, q = 2 * np.eye(n) + rng.uniform(-0.3, 0.3, (n, n)), rng.standard_normal((n, n))
    inputs = [backend.tensor(v) for v in (a, b, q)]
    expected = sl.solve_sylvester(a, b, q)
    np.testing.assert_allclose(linalg.solve_sylvester(*inputs).numpy(), expected, rtol=1e-10)
    gradcheck(linalg.solve_sylvester, inputs)


def test_sqrtm_of_a_real_matrix_with_a_complex_root_has_a_real_gradient():
    a = tg.tensor([[-1.0, 0.3], [0.2, 4.0]])
    assert linalg.sqrtm(a).dtype.kind == "c"
    gradcheck(lambda a: tg.real(linalg.sqrtm(a)), [a])
    gradcheck(lambda a: tg.imag(linalg.sqrtm(a)), [a])
    assert tg.grad(lambda a: tg.sum(tg.imag(linalg.sqrtm(a))))(a).dtype == np.float64


@given(problem=problems(), lower=st.booleans())
def test_eigh(problem, lower, backend):
    rng, n, shape = problem
    m = rng.standard_normal(shape + (n, n))
    a = m + np.swapaxes(m, -1, -2) + np.diag(np.arange(n) * 3.0)  # distinct eigenvalues
    w, v = linalg.eigh(backend.tensor(a), lower=lower)
    w_ref, v_ref = sl.eigh(a, lower=lower)
    np.testing.assert_allclose(w.numpy(), w_ref, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.abs(v.numpy()), np.abs(v_ref), rtol=1e-10, atol=1e-12)

    def f(a):  # eigenvectors up to sign: v * v is what a sign-free loss sees
        w, v = linalg.eigh(a, lower=lower)
        return w, v * v

    gradcheck(f, [backend.tensor(a)])
    if _small(shape, n):
        gradgradcheck(f, [backend.tensor(a)], atol=1e-4)
    np.testing.assert_allclose(linalg.eigvalsh(backend.tensor(a), lower=lower).numpy(), w_ref)


@given(seed=st.integers(0, 2**32 - 1))
def test_block_diag(seed, backend):
    rng = np.random.default_rng(seed)
    blocks = [rng.standard_normal(()), rng.standard_normal((3,)), rng.standard_normal((2, 2))]
    tensors = [backend.tensor(b) for b in blocks]
    np.testing.assert_array_equal(linalg.block_diag(*tensors).numpy(), sl.block_diag(*blocks))
    gradcheck(linalg.block_diag, tensors)
    assert linalg.block_diag().shape == sl.block_diag().shape


def test_gradient_of_a_batch_matches_each_matrix():
    a = _spd(np.random.default_rng(1), (3,), 3)
    _, (batched,) = value_and_gradients(lambda a: linalg.cholesky(a, lower=True), tg.tensor(a))
    for k in range(3):
        _, (one,) = value_and_gradients(lambda a: linalg.cholesky(a, lower=True), tg.tensor(a[k]))
        np.testing.assert_allclose(batched.numpy()[k], one.numpy(), rtol=1e-12)


@given(problem=problems(max_n=2))
def test_matrix_functions_on_complex_matrices(problem):
    # Conjugate transposes in the rules (Aᴴ, Xᴴ): checked along the real and imaginary
    # direction of every element.
    rng, n, shape = problem

    def complex_matrix(scale, shift):
        values = rng.standard_normal(shape + (n, n)) + 1j * rng.standard_normal(shape + (n, n))
        return scale * values + shift * np.eye(n)

    a, b, q = complex_matrix(0.3, 2.0), complex_matrix(0.3, 2.0), complex_matrix(1.0, 0.0)
    np.testing.assert_allclose(linalg.expm(tg.tensor(a)).numpy(), sl.expm(a), rtol=1e-10)
    gradcheck(linalg.expm, [tg.tensor(a * 0.5)])
    if not shape:  # SciPy's sqrtm and solve_sylvester take one matrix
        np.testing.assert_allclose(linalg.sqrtm(tg.tensor(a)).numpy(), sl.sqrtm(a), rtol=1e-10)
        gradcheck(linalg.sqrtm, [tg.tensor(a)])
        inputs = [tg.tensor(v) for v in (a, b, q)]
        gradcheck(linalg.solve_sylvester, inputs)
        gradgradcheck(linalg.solve_sylvester, inputs)
        small = tg.tensor(a * 0.2)  # spectral radius below 1
        np.testing.assert_allclose(
            linalg.solve_discrete_lyapunov(small, inputs[2]).numpy(),
            sl.solve_discrete_lyapunov(a * 0.2, q),
            rtol=1e-10,
        )
        gradcheck(linalg.solve_discrete_lyapunov, [small, inputs[2]])
    np.testing.assert_allclose(linalg.logm(tg.tensor(a)).numpy(), _logm(a), rtol=1e-10)
    gradcheck(linalg.logm, [tg.tensor(a)])
    gradcheck(linalg.cosm, [tg.tensor(a * 0.5)])


def _logm(a):
    """SciPy's logm, matrix by matrix (it takes one)."""
    if a.ndim == 2:
        return sl.logm(a)
    return np.stack([sl.logm(m) for m in a.reshape((-1,) + a.shape[-2:])]).reshape(a.shape)


# --- solve -----------------------------------------------------------------------------------
@pytest.mark.parametrize("assume_a", [None, "gen", "sym", "her", "pos"])
@pytest.mark.parametrize("lower", [False, True])
def test_solve_matches_scipy_and_reads_the_triangle_scipy_reads(assume_a, lower):
    rng = np.random.default_rng(7)
    m = rng.standard_normal((3, 3))
    a = m @ m.T + 3.0 * np.eye(3)
    if assume_a not in (None, "gen"):  # garbage in the triangle SciPy does not read
        a = a + (np.triu(m, 1) if lower else np.tril(m, -1))
    b = rng.standard_normal((3, 2))
    ours = linalg.solve(tg.tensor(a), tg.tensor(b), lower=lower, assume_a=assume_a)
    np.testing.assert_allclose(
        np.asarray(ours), sl.solve(a, b, lower=lower, assume_a=assume_a), rtol=1e-12
    )
    gradcheck(lambda a, b: linalg.solve(a, b, lower=lower, assume_a=assume_a), [a, b])
    gradgradcheck(lambda a, b: linalg.solve(a, b[:, 0], lower=lower, assume_a=assume_a), [a, b])


def test_solve_transposed_vectors_and_bad_input():
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((3, 3)) + 3.0 * np.eye(3), rng.standard_normal(3)
    got = linalg.solve(tg.tensor(a), tg.tensor(b), transposed=True)
    np.testing.assert_allclose(np.asarray(got), sl.solve(a, b, transposed=True), rtol=1e-12)
    assert type(linalg.solve(a, b)) is np.ndarray  # plain in, SciPy's own out
    with pytest.raises(ValueError, match="must not contain infs or NaNs"):
        linalg.solve(tg.tensor(np.full((2, 2), np.nan)), tg.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"b must be \(n,\) or \(n, k\) with n = 3"):
        linalg.solve(tg.tensor(a), tg.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="assume_a"):
        linalg.solve(tg.tensor(a), tg.tensor(b), assume_a="triangle")
