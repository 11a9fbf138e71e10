"""tapegrad/fft/transforms.py: values against NumPy, gradients against finite differences."""

import doctest
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck

NORMS = st.sampled_from([None, "backward", "ortho", "forward"])
ONE_AXIS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
REAL_INPUT = {"rfft", "ihfft"}


def _signal(rng, shape, complex_values):
    x = rng.standard_normal(shape)
    return x + 1j * rng.standard_normal(shape) if complex_values else x


def _check(f, reference, x, backend, second):
    got = f(backend.tensor(x))
    expected = reference(x)
    assert got.numpy().dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-10, atol=1e-12)
    gradcheck(f, [backend.tensor(x)])
    if second:  # linear maps: the second derivative of |f|^2 is the interesting one
        gradgradcheck(lambda x: tg.abs(f(x)) ** 2, [backend.tensor(x)])


@pytest.mark.parametrize("name", ONE_AXIS)
@given(data=st.data(), norm=NORMS)
def test_one_axis(name, data, norm, backend):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    shape = data.draw(st.sampled_from([(5,), (2, 4), (3, 1), (2, 3, 2)]), label="shape")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = data.draw(st.sampled_from([None, 1, 2, 3, 6]), label="n")
    if n is None and name in ("irfft", "hfft") and shape[axis] == 1:
        n = 2  # the default 2 (m - 1) is 0 for one bin
    complex_values = name not in REAL_INPUT and data.draw(st.booleans(), label="complex")
    x = _signal(rng, shape, complex_values)

    def f(x):
        return getattr(tg.fft, name)(x, n=n, axis=axis, norm=norm)

    def reference(x):
        return getattr(np.fft, name)(x, n=n, axis=axis, norm=norm)

    _check(f, reference, x, backend, second=len(shape) == 1)


N_DIMS = ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"]


@pytest.mark.parametrize("name", N_DIMS)
@given(data=st.data(), norm=NORMS)
def test_n_dims(name, data, norm, backend):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    shape = data.draw(st.sampled_from([(3, 4), (2, 3, 2), (4, 2)]), label="shape")
    if name.endswith("2"):
        axes = data.draw(st.sampled_from([(-2, -1), (-1, -2), (0, 1)]), label="axes")
    else:
        axes = data.draw(st.sampled_from([None, (0,), (1, 0), (-1, 0)]), label="axes")
    count = len(shape) if axes is None else len(axes)
    s = data.draw(st.sampled_from([None, tuple([3] * count), tuple([2, 4, 1][:count])]), label="s")
    real = name.startswith("rfft")
    x = _signal(rng, shape, not real and data.draw(st.booleans(), label="complex"))
    kwargs = {"s": s, "axes": axes, "norm": norm}
    if axes is None and s is not None:  # NumPy deprecates s without axes
        kwargs["axes"] = tuple(range(len(shape) - count, len(shape)))
    _check(
        lambda x: getattr(tg.fft, name)(x, **kwargs),
        lambda x: getattr(np.fft, name)(x, **kwargs),
        x,
        backend,
        second=False,
    )


def test_rfft_gradient_is_the_full_transforms_restricted_to_the_kept_bins():
    # rfft's rule corrects for Hermitian symmetry (half weight on the bins that stand for
    # two); it must agree with fft's rule seen through a slice, for even and odd lengths
    rng = np.random.default_rng(0)
    for n in (4, 5):
        x = tg.tensor(rng.standard_normal(n))
        u = rng.standard_normal(n // 2 + 1) + 1j * rng.standard_normal(n // 2 + 1)

        def loss(x, u=u):
            return tg.real(tg.sum(tg.fft.rfft(x) * u))

        def through_fft(x, u=u, n=n):
            return tg.real(tg.sum(tg.fft.fft(x)[: n // 2 + 1] * u))

        np.testing.assert_allclose(tg.grad(loss)(x).numpy(), tg.grad(through_fft)(x).numpy())


def test_irfft_ignores_the_imaginary_parts_of_the_self_conjugate_bins():
    # bins 0 and n/2 of an even-length irfft: their imaginary parts are not read, so their
    # gradient is real; the other bins count twice (they stand for their mirror images too)
    c = tg.tensor([1.0 + 2j, 0.5 - 1j, 3.0 + 4j])
    g = tg.grad(lambda c: tg.sum(tg.fft.irfft(c) * np.array([1.0, 2.0, 3.0, 4.0])))(c)
    np.testing.assert_allclose(g.numpy().imag[[0, 2]], 0.0)
    gradcheck(tg.fft.irfft, [c])
    gradcheck(lambda c: tg.fft.irfft(c, n=5), [c])  # odd n: bin 2 is mirrored too


def test_cropped_inputs_get_no_gradient_and_padding_adds_none():
    x = tg.tensor(np.arange(6.0))
    g = tg.grad(lambda x: tg.sum(tg.abs(tg.fft.fft(x, n=4)) ** 2))(x)
    np.testing.assert_array_equal(g.numpy()[4:], 0.0)
    gradcheck(lambda x: tg.fft.rfft(x, n=10), [x])


def test_single_precision_stays_single():
    for name in ONE_AXIS + N_DIMS:
        for dtype in (np.float32, np.complex64):
            if name.startswith("rfft") or name == "ihfft":
                if dtype == np.complex64:
                    continue
            x = np.ones((4, 4), dtype)
            got = getattr(tg.fft, name)(tg.tensor(x))
            assert got.numpy().dtype == getattr(np.fft, name)(x).dtype, name


def test_numpy_calls_tapegrad_on_tensors():
    x = tg.tensor(np.arange(4.0))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.abs(np.fft.rfft(x)) ** 2) + tg.sum(np.fft.fftshift(x) * np.arange(4.0))
    assert isinstance(y, tg.Tensor) and len(tape) > 2
    assert tape.gradient(y, x) is not None


def test_errors_name_the_transform():
    with pytest.raises(ValueError, match='fft: norm must be "backward"'):
        tg.fft.fft(tg.ones(4), norm="unitary")
    with pytest.raises(ValueError, match=r"ifft: invalid number of data points \(0\)"):
        tg.fft.ifft(tg.ones(4), n=0)
    with pytest.raises(TypeError, match="rfft: the input must be real, got complex128"):
        tg.fft.rfft(tg.ones(4) * 1j)
    with pytest.raises(TypeError, match=r"fft\(out=...\) is not supported"):
        tg.fft.fft(tg.ones(4), out=np.empty(4, complex))
    with pytest.raises(ValueError, match="fftn: s and axes have different lengths"):
        tg.fft.fftn(tg.ones((2, 2)), s=(2,), axes=(0, 1))
    with pytest.raises(ValueError, match="fft: axis 2 is out of bounds"):
        tg.fft.fft(tg.ones((2, 2)), axis=2)


def test_the_guide_examples_run():
    guide = Path(__file__).parents[2] / "docs" / "fft.md"
    result = doctest.testfile(str(guide), module_relative=False)
    assert result.attempted and not result.failed
