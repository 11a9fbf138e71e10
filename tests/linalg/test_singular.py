"""tapegrad/linalg/singular.py: svd svdvals, repeated and zero singular values."""

import numpy as np
import pytest
from helpers import value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, problems

import tapegrad as tg
from tapegrad.testing import gradcheck


def _phase_free(u, s, vh):
    # each pair (u_i, v_i) may share any phase: these see none of it
    return tg.abs(u) ** 2, s, tg.abs(vh) ** 2, u @ vh


@given(problem=problems(), data=st.data())
def test_svd(problem, data, backend):
    m = data.draw(st.integers(1, 3), label="m")
    full = data.draw(st.booleans(), label="full_matrices")
    a = problem.general(m, problem.n)
    u, s, vh = tg.linalg.svd(backend.tensor(a), full_matrices=full)
    expected = np.linalg.svd(a, full_matrices=full)
    np.testing.assert_allclose(s.numpy(), expected.S, rtol=1e-12)
    k = min(m, problem.n)
    rebuilt = (u.numpy()[..., :k] * s.numpy()[..., None, :]) @ vh.numpy()[..., :k, :]
    np.testing.assert_allclose(rebuilt, a, atol=1e-12)
    assert u.shape == expected.U.shape and vh.shape == expected.Vh.shape

    def f(a):
        u, s, vh = tg.linalg.svd(a, full_matrices=full)
        # the complete factors' extra columns: only their span is defined
        extra_u, extra_v = u[..., :, k:], vh[..., k:, :]
        spans = (
            extra_u @ tg.conj(tg.swapaxes(extra_u, -1, -2)),
            tg.conj(tg.swapaxes(extra_v, -1, -2)) @ extra_v,
        )
        return (*_phase_free(u[..., :, :k], s, vh[..., :k, :]), *spans)

    check(f, [backend.tensor(a)], problem.small and m <= 2)


@given(problem=problems(), m=st.integers(1, 3))
def test_svdvals(problem, m, backend):
    a = problem.general(m, problem.n)
    np.testing.assert_allclose(
        tg.linalg.svdvals(backend.tensor(a)).numpy(), np.linalg.svdvals(a), rtol=1e-12
    )
    np.testing.assert_allclose(
        tg.linalg.svd(backend.tensor(a), compute_uv=False).numpy(), np.linalg.svdvals(a)
    )
    check(tg.linalg.svdvals, [backend.tensor(a)], problem.small and m <= 2)


@given(problem=problems())
def test_hermitian_svd(problem, backend):
    a = problem.hermitian()
    u, s, vh = tg.linalg.svd(backend.tensor(a), hermitian=True)
    expected = np.linalg.svd(a, hermitian=True)
    np.testing.assert_allclose(s.numpy(), expected.S, rtol=1e-12)
    np.testing.assert_allclose(np.abs(u.numpy()), np.abs(expected.U), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(
        tg.linalg.svd(backend.tensor(a), compute_uv=False, hermitian=True).numpy(), expected.S
    )
    check(lambda a: _phase_free(*tg.linalg.svd(a, hermitian=True)), [backend.tensor(a)], False)


def _orthogonal(n, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((n, n))
    if dtype == np.complex128:
        m = m + 1j * rng.standard_normal((n, n))
    return np.linalg.qr(m)[0]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_nuclear_norm_and_polar_factor_at_repeated_singular_values(dtype):
    # an orthogonal matrix: every singular value is 1. The nuclear norm's gradient is
    # U Vᴴ = q itself; the polar factor U Vᴴ is smooth there. Peers: NaN or ~1e15.
    q = _orthogonal(4, dtype=dtype)
    _, (g,) = value_and_gradients(lambda a: tg.linalg.norm(a, "nuc"), tg.tensor(q))
    np.testing.assert_allclose(g.numpy(), q, atol=1e-12)
    gradcheck(lambda a: tg.linalg.norm(a, "nuc"), [q])

    def polar(a):
        u, _, vh = tg.linalg.svd(a)
        return u @ vh

    gradcheck(polar, [q])


def test_spectral_norm_at_a_repeated_top_singular_value_shares_the_gradient():
    q = _orthogonal(3)
    _, (g,) = value_and_gradients(lambda a: tg.linalg.norm(a, 2), tg.tensor(2 * q))
    np.testing.assert_allclose(g.numpy(), q / 3, atol=1e-12)  # like tied maxima


def test_zero_singular_values():
    # rank 2 of 3: the nuclear norm's gradient is the smallest subgradient U₁ V₁ᴴ (a zero
    # singular value's cotangent is dropped, as abs at 0); a loss on the singular vectors
    # of the zero singular value (not defined) gets NaN
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 2)) @ rng.standard_normal((2, 3))
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    _, (g,) = value_and_gradients(lambda a: tg.linalg.norm(a, "nuc"), tg.tensor(a))
    np.testing.assert_allclose(g.numpy(), u[:, :2] @ vh[:2], atol=1e-12)
    _, (g,) = value_and_gradients(
        lambda a: tg.sum(tg.linalg.svd(a, full_matrices=False).U ** 3), tg.tensor(a)
    )
    assert np.isnan(g.numpy()).all()


def test_svd_loss_that_depends_on_undefined_choices_is_an_error():
    rng = np.random.default_rng(1)
    z = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    with tg.GradientTape(persistent=True) as tape:
        z = tg.tensor(z)
        tape.watch(z)
        phase = tg.real(tg.sum(tg.linalg.svd(z).U))
        basis = tg.real(tg.sum(tg.linalg.svd(z[:, :2]).U[:, 2]))  # a complement column
    with pytest.raises(ValueError, match="svd: the loss depends on the phase"):
        tape.gradient(phase, z)
    with pytest.raises(ValueError, match="svd: the loss depends on which orthonormal basis"):
        tape.gradient(basis, z)
