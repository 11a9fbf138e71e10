"""tapegrad/scipy/fft: the cosine and sine transforms' VJPs are the transposes of SciPy's
explicit matrices for every type, norm, orthogonalize and n; values, second derivatives,
complex inputs, the n-d forms, SciPy's Fourier wrappers and the names SciPy keeps."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.fft as sf  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import fft  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

KINDS = ("dct", "idct", "dst", "idst")
NORMS = (None, "backward", "ortho", "forward")
ORTHOGONALIZE = (None, False, True)


def _vjp_matrix(kind, m, n, **kw):
    """``Aᵀ`` from the tape: the gradient of ``A x`` (x of shape (m, n_out)) for the
    cotangent I."""
    out = n if n is not None else m
    x = tg.tensor(np.random.default_rng(0).normal(size=(m, out)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = getattr(fft, kind)(x, n=n, axis=0, **kw)
    return tape.gradient(y, x, output_gradients=tg.tensor(np.eye(out))).numpy()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("type", [1, 2, 3, 4])
def test_vjp_is_the_transpose_of_scipys_matrix(kind, type):
    for norm, orthogonalize, (m, n) in itertools.product(
        NORMS, ORTHOGONALIZE, [(2, None), (5, None), (6, None), (5, 7), (6, 4)]
    ):
        kw = dict(type=type, norm=norm, orthogonalize=orthogonalize)
        matrix = getattr(sf, kind)(np.eye(m), n=n, axis=0, **kw)  # column j: A e_j
        np.testing.assert_allclose(
            _vjp_matrix(kind, m, n, **kw), matrix.T, rtol=1e-12, atol=1e-12, err_msg=str((kw, m, n))
        )


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("type", [1, 2, 3, 4])
def test_values_and_second_derivatives(kind, type):
    x = np.random.default_rng(type).normal(size=(3, 5))
    for norm, orthogonalize in [(None, None), ("ortho", None), ("forward", True), ("ortho", False)]:
        kw = dict(type=type, norm=norm, orthogonalize=orthogonalize)
        got = getattr(fft, kind)(tg.tensor(x), **kw)
        np.testing.assert_array_equal(got.numpy(), getattr(sf, kind)(x, **kw))

        def f(a, kw=kw):
            return getattr(fft, kind)(a, n=6, **kw) ** 2

        gradcheck(f, [x])
        gradgradcheck(f, [x])


def test_complex_input_and_float32():
    z = np.array([1.0 + 2.0j, -0.5j, 0.25, 3.0 - 1.0j])
    for kind in KINDS:
        np.testing.assert_allclose(getattr(fft, kind)(tg.tensor(z)).numpy(), getattr(sf, kind)(z))
        gradcheck(lambda a, kind=kind: getattr(fft, kind)(a, type=1, norm="ortho"), [z])
    with pytest.raises(NotImplementedError, match="orthogonalize"):  # SciPy ignores it there
        fft.dct(tg.tensor(z), orthogonalize=True)
    assert not np.allclose(sf.dct(z, orthogonalize=True).real, sf.dct(z.real, orthogonalize=True))
    x32 = np.array([1.0, 2.0, 4.0], dtype=np.float32)
    assert fft.dct(tg.tensor(x32)).dtype == sf.dct(x32).dtype == np.float32
    assert fft.dst(tg.tensor([1, 2, 3])).dtype == np.float64


@pytest.mark.parametrize("kind", ["dctn", "idctn", "dstn", "idstn"])
def test_nd_forms(kind):
    x = np.random.default_rng(1).normal(size=(3, 4, 5))
    cases = [{}, dict(type=1), dict(type=3, axes=(0, 2)), dict(s=(6, 3)), dict(s=(-1, 2, 7)),
             dict(type=4, axes=1, s=5, norm="ortho"),
             dict(norm="forward", orthogonalize=True)]  # fmt: skip
    for kw in cases:
        expected = getattr(sf, kind)(x, **kw)
        np.testing.assert_allclose(getattr(fft, kind)(tg.tensor(x), **kw).numpy(), expected,
                                   rtol=1e-12, atol=1e-12, err_msg=str(kw))  # fmt: skip
    gradgradcheck(lambda a: getattr(fft, kind)(a, s=(4, 3), axes=(0, 1)) ** 2, [x[:, :, 0]])


def test_plain_calls_are_scipys_and_errors():
    x = np.array([1.0, 2.0, 3.0])
    assert type(fft.dct(x)) is np.ndarray
    np.testing.assert_array_equal(fft.dctn(x, type=3), sf.dctn(x, type=3))
    with pytest.raises(ValueError, match="type"):
        fft.dct(tg.tensor(x), type=5)
    with pytest.raises(ValueError, match="norm"):
        fft.dst(tg.tensor(x), norm="both")
    with pytest.raises(ValueError, match="data points"):
        fft.dct(tg.tensor(x), n=0)
    with pytest.raises(ValueError, match="unique"):
        fft.dctn(tg.tensor(np.ones((2, 2))), axes=(0, 0))
    with pytest.raises(NotImplementedError, match="plan"):
        fft.fft(tg.tensor(x), plan=object())


def test_fourier_wrappers_and_scipys_own_names():
    x = np.random.default_rng(2).normal(size=(4, 6))
    cases = [("fft", dict(n=8, workers=2)), ("ifft", {}), ("rfft", dict(norm="ortho")),
             ("irfft", dict(n=9)), ("hfft", {}), ("ihfft", {}), ("fft2", {}),
             ("ifft2", dict(s=(3, 3))), ("fftn", dict(axes=(0,))), ("ifftn", {}),
             ("rfftn", {}), ("irfftn", dict(s=(4, 6))), ("rfft2", {}), ("irfft2", {})]  # fmt: skip
    for name, kw in cases:
        got = getattr(fft, name)(tg.tensor(x), **kw)
        np.testing.assert_allclose(got.numpy(), getattr(sf, name)(x, **kw), rtol=1e-12,
                                   atol=1e-12, err_msg=name)  # fmt: skip
    np.testing.assert_array_equal(fft.fftshift(tg.tensor(x)).numpy(), sf.fftshift(x))
    np.testing.assert_array_equal(fft.ifftshift(tg.tensor(x), axes=0).numpy(), sf.ifftshift(x, 0))
    np.testing.assert_allclose(fft.fftfreq(5, d=tg.tensor(0.3)).numpy(), sf.fftfreq(5, 0.3))
    np.testing.assert_allclose(fft.rfftfreq(5, d=tg.tensor(0.3)).numpy(), sf.rfftfreq(5, 0.3))
    assert fft.next_fast_len is sf.next_fast_len and fft.fht is sf.fht
    with pytest.raises(AttributeError, match="nothing_here"):
        _ = fft.nothing_here
