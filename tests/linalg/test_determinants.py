"""tapegrad/linalg/determinants.py: det slogdet, and their gradients at singular matrices."""

import numpy as np
import pytest
from helpers import value_and_gradients
from hypothesis import given
from linalg_inputs import check, problems

import tapegrad as tg
from tapegrad.linalg.determinants import adjugate
from tapegrad.testing import gradcheck


@given(problem=problems())
def test_det(problem, backend):
    a = problem.general()
    np.testing.assert_allclose(tg.linalg.det(backend.tensor(a)).numpy(), np.linalg.det(a))
    check(tg.linalg.det, [backend.tensor(a)], problem.small)


@given(problem=problems())
def test_slogdet(problem, backend):
    a = problem.general()
    sign, logabsdet = tg.linalg.slogdet(backend.tensor(a))
    expected = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign.numpy(), expected.sign)
    np.testing.assert_allclose(logabsdet.numpy(), expected.logabsdet, atol=1e-12)
    # the sign of a complex matrix is the phase of its determinant: differentiable
    check(lambda a: tuple(tg.linalg.slogdet(a)), [backend.tensor(a)], problem.small)


def _adjugate(a):
    """The adjugate by cofactors: adj(a)_ij = (-1)^(i+j) det(a without row j, column i)."""
    n = a.shape[-1]
    out = np.empty_like(a)
    for i in range(n):
        for j in range(n):
            minor = np.delete(np.delete(a, j, axis=0), i, axis=1)
            out[i, j] = (-1) ** (i + j) * (np.linalg.det(minor) if n > 1 else 1.0)
    return out


@pytest.mark.parametrize("rank", [0, 1, 2])
def test_det_gradient_at_a_singular_matrix_is_the_adjugate(rank, backend):
    # PyTorch's backward gives zeros at rank n - 1 and autograd raises; the gradient is the
    # (conjugate transposed) adjugate: nonzero at rank n - 1, zero below.
    rng = np.random.default_rng(rank)
    a = rng.standard_normal((3, rank)) @ rng.standard_normal((rank, 3))
    _, (g,) = value_and_gradients(tg.linalg.det, backend.tensor(a))
    np.testing.assert_allclose(g.numpy(), _adjugate(a).T, atol=1e-12)
    assert (np.abs(g.numpy()).max() > 0.1) == (rank == 2)
    gradcheck(tg.linalg.det, [backend.tensor(a)])


def test_det_gradient_at_a_singular_complex_matrix():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((3, 2)) + 1j * rng.standard_normal((3, 2))
    a = a @ (rng.standard_normal((2, 3)) + 1j * rng.standard_normal((2, 3)))
    _, (g,) = value_and_gradients(lambda a: tg.real(tg.linalg.det(a)), tg.tensor(a))
    np.testing.assert_allclose(g.numpy(), np.conj(_adjugate(a)).T, atol=1e-12)
    gradcheck(tg.linalg.det, [a])


def test_adjugate_matches_cofactors_and_differentiates():
    rng = np.random.default_rng(0)
    for n in (1, 2, 3):
        a = rng.standard_normal((n, n))
        np.testing.assert_allclose(adjugate(a).numpy(), _adjugate(a), atol=1e-12)
        gradcheck(adjugate, [a])


def test_slogdet_gradient_at_a_singular_matrix_is_an_error():
    a = tg.tensor([[1.0, 2.0], [2.0, 4.0]])
    sign, logabsdet = tg.linalg.slogdet(a)
    assert sign.item() == 0 and logabsdet.item() == -np.inf  # NumPy's values
    with tg.GradientTape() as tape:
        tape.watch(a)
        logabsdet = tg.linalg.slogdet(a).logabsdet
    with pytest.raises(np.linalg.LinAlgError, match="slogdet: log|det| of a singular"):
        tape.gradient(logabsdet, a)


def test_slogdet_sign_of_a_real_matrix_has_zero_gradient():
    a = tg.tensor([[0.0, 2.0], [3.0, 1.0]])
    _, (g,) = value_and_gradients(lambda a: tg.linalg.slogdet(a).sign, a)
    np.testing.assert_array_equal(g.numpy(), np.zeros((2, 2)))
