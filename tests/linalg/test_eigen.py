"""tapegrad/linalg/eigen.py: eigh eigvalsh eig eigvals, and repeated eigenvalues."""

import numpy as np
import pytest
from helpers import value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, mh, problems

import tapegrad as tg
from tapegrad.testing import gradcheck


def _same_columns_up_to_phase(v, expected):
    overlap = np.abs(np.sum(np.conj(v) * expected, axis=-2))
    np.testing.assert_allclose(overlap, np.ones_like(overlap), rtol=1e-9)


def _phase_free(a, uplo="L"):
    # complex eigenvectors are defined up to a phase each: a loss must not see it
    w, v = tg.linalg.eigh(a, UPLO=uplo)
    return w, tg.abs(v) ** 2


@given(problem=problems(), uplo=st.sampled_from("LU"))
def test_eigh(problem, uplo, backend):
    a = problem.hermitian()
    # the other triangle holds garbage: NumPy reads one only, and so must the gradient
    junk = np.triu(problem.random(problem.n, problem.n), 1)
    a = a + (junk if uplo == "L" else mh(junk))
    w, v = tg.linalg.eigh(backend.tensor(a), UPLO=uplo)
    expected = np.linalg.eigh(a, UPLO=uplo)
    np.testing.assert_allclose(w.numpy(), expected.eigenvalues, atol=1e-12)
    _same_columns_up_to_phase(v.numpy(), expected.eigenvectors)
    check(lambda a: _phase_free(a, uplo), [backend.tensor(a)], problem.small)


@given(problem=problems(), uplo=st.sampled_from("LU"))
def test_eigvalsh(problem, uplo, backend):
    a = problem.hermitian()
    w = tg.linalg.eigvalsh(backend.tensor(a), UPLO=uplo)
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(a, UPLO=uplo), atol=1e-12)
    check(lambda a: tg.linalg.eigvalsh(a, UPLO=uplo), [backend.tensor(a)], problem.small)


@given(problem=problems())
def test_eig(problem, backend):
    a = problem.diagonalizable()
    w, v = tg.linalg.eig(backend.tensor(a))
    expected = np.linalg.eig(a)
    np.testing.assert_allclose(w.numpy(), expected.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(v.numpy(), expected.eigenvectors, rtol=1e-8, atol=1e-10)
    # every loss: NumPy's normalisation fixes each eigenvector's phase
    check(lambda a: tuple(tg.linalg.eig(a)), [backend.tensor(a)], problem.small)


@given(problem=problems())
def test_eigvals(problem, backend):
    a = problem.diagonalizable()
    w = tg.linalg.eigvals(backend.tensor(a))
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvals(a), rtol=1e-10)
    check(tg.linalg.eigvals, [backend.tensor(a)], problem.small)


def test_eig_of_a_real_matrix_with_complex_eigenvalues():
    # rotation-scaling blocks: eigenvalues 1 +- 2i and 3; NumPy returns complex vectors
    p = np.eye(3) + 0.2 * np.random.default_rng(0).standard_normal((3, 3))
    block = np.array([[1.0, -2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 3.0]])
    a = p @ block @ np.linalg.inv(p)
    w, v = tg.linalg.eig(tg.tensor(a))
    assert w.dtype == np.complex128
    np.testing.assert_allclose(v.numpy(), np.linalg.eig(a).eigenvectors, rtol=1e-10)
    gradcheck(lambda a: tuple(tg.linalg.eig(a)), [a])
    gradcheck(tg.linalg.eigvals, [a])


def test_eig_normalisation_is_numpys():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 4)) + 1j * rng.standard_normal((4, 4))
    v = tg.linalg.eig(a).eigenvectors.numpy()
    np.testing.assert_allclose(np.linalg.norm(v, axis=0), np.ones(4))
    largest = v[np.argmax(np.abs(v), axis=0), np.arange(4)]
    np.testing.assert_array_equal(largest.imag, np.zeros(4))


def _repeated(eigenvalues, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((len(eigenvalues),) * 2)
    if dtype == np.complex128:
        m = m + 1j * rng.standard_normal(m.shape)
    q, _ = np.linalg.qr(m)
    return (q * np.array(eigenvalues)) @ mh(q)


def test_sum_of_eigvalsh_at_a_repeated_eigenvalue_is_the_identity():
    a = _repeated([1.0, 1.0, 1.0, 3.0])
    _, (g,) = value_and_gradients(lambda a: tg.sum(tg.linalg.eigvalsh(a)), tg.tensor(a))
    np.testing.assert_allclose(g.numpy(), np.eye(4), atol=1e-12)
    gradcheck(lambda a: tg.sum(tg.linalg.eigvalsh(a)[:3]), [a])  # the repeated ones


def test_a_repeated_eigenvalue_shares_its_gradient_like_tied_maxima():
    # the largest eigenvalue of I is not differentiable; its gradient is the average of the
    # eigenspace's projectors, I / 3: a subgradient that does not depend on LAPACK's basis
    _, (g,) = value_and_gradients(lambda a: tg.linalg.eigvalsh(a)[-1], tg.tensor(np.eye(3)))
    np.testing.assert_allclose(g.numpy(), np.eye(3) / 3, atol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_eigh_projector_onto_a_repeated_eigenspace(dtype):
    # invariant to the basis of the eigenspace: finite and exact (peers give NaN or ~1e15)
    a = _repeated([2.0, 2.0, 5.0], dtype=dtype)

    def projector(a):
        v = tg.linalg.eigh(a).eigenvectors[:, :2]
        return v @ tg.conj(tg.transpose(v))

    gradcheck(projector, [a])


def test_eigh_gradient_depending_on_the_basis_of_an_eigenspace_is_nan():
    a = _repeated([1.0, 1.0, 3.0])
    weights = np.array([1.0, 2.0, 3.0])  # sum(v ** 2) would be 1: this one sees the basis

    def loss(a):
        return tg.sum(weights * tg.linalg.eigh(a).eigenvectors[:, 0] ** 2)

    _, (g,) = value_and_gradients(loss, tg.tensor(a))
    assert np.isnan(g.numpy()).all()


def test_complex_eigh_loss_that_depends_on_the_phase_is_an_error():
    a = _repeated([1.0, 2.0, 3.0], dtype=np.complex128)
    with tg.GradientTape() as tape:
        a = tg.tensor(a)
        tape.watch(a)
        loss = tg.real(tg.sum(tg.linalg.eigh(a).eigenvectors))
    with pytest.raises(ValueError, match="eigh: the loss depends on the phase"):
        tape.gradient(loss, a)


def test_sum_of_eigvals_at_a_repeated_eigenvalue_is_the_identity():
    p = np.eye(3) + 0.3 * np.random.default_rng(2).standard_normal((3, 3))
    a = p @ np.diag([2.0, 2.0, -1.0]) @ np.linalg.inv(p)
    _, (g,) = value_and_gradients(lambda a: tg.sum(tg.linalg.eigvals(a)), tg.tensor(a))
    np.testing.assert_allclose(g.numpy(), np.eye(3), atol=1e-10)


def test_bad_uplo_and_shapes():
    with pytest.raises(ValueError, match="eigh: UPLO must be 'L' or 'U'"):
        tg.linalg.eigh(tg.eye(2), UPLO="X")
    with pytest.raises(np.linalg.LinAlgError, match=r"eigvals: expected a square .* \(2, 3\)"):
        tg.linalg.eigvals(tg.ones((2, 3)))


@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh_gives_numpys_exact_values_for_each_triangle(uplo):
    # A drop-in returns NumPy's own values, eigenvector signs included, whichever triangle
    # is read (the rest of the matrix is garbage that must not be read).
    for seed in range(40):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(1, 6))
        a = rng.standard_normal((n, n))
        if seed % 2:
            a = a + 1j * rng.standard_normal((n, n))
        w, v = np.linalg.eigh(tg.tensor(a), uplo)
        expected_w, expected_v = np.linalg.eigh(a, uplo)
        np.testing.assert_array_equal(w.numpy(), expected_w)
        np.testing.assert_array_equal(v.numpy(), expected_v)
        np.testing.assert_array_equal(
            np.linalg.eigvalsh(tg.tensor(a), uplo).numpy(), np.linalg.eigvalsh(a, uplo)
        )
