"""tapegrad/fft/helper.py: fftshift ifftshift fftfreq rfftfreq."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradcheck


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@given(shape=st.sampled_from([(5,), (4,), (2, 3), (3, 4, 1)]), data=st.data())
def test_shifts(name, shape, data, backend):
    x = np.arange(np.prod(shape), dtype=float).reshape(shape)
    axes = data.draw(st.sampled_from([None, 0, -1, (0, -1)]), label="axes")
    got = getattr(tg.fft, name)(backend.tensor(x), axes=axes)
    np.testing.assert_array_equal(got.numpy(), getattr(np.fft, name)(x, axes=axes))
    weights = backend.tensor(np.arange(x.shape[-1], dtype=float))  # sees where values went
    gradcheck(lambda x: getattr(tg.fft, name)(x, axes=axes) * weights, [backend.tensor(x)])


def test_shifts_undo_each_other():
    x = tg.tensor(np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(tg.fft.ifftshift(tg.fft.fftshift(x)).numpy(), x.numpy())


@pytest.mark.parametrize("n", [1, 4, 7])
def test_frequencies(n):
    np.testing.assert_array_equal(tg.fft.fftfreq(n, 0.1).numpy(), np.fft.fftfreq(n, 0.1))
    np.testing.assert_array_equal(tg.fft.rfftfreq(n, 0.1).numpy(), np.fft.rfftfreq(n, 0.1))
    d = tg.tensor(0.25)  # the spacing as a Tensor: f = k / (n d), df/dd = -f / d
    g = tg.grad(lambda d: tg.sum(tg.fft.fftfreq(n, d)))(d)
    np.testing.assert_allclose(g.item(), -np.sum(np.fft.fftfreq(n, 0.25)) / 0.25)
    assert tg.fft.fftfreq(n, device="cpu").device == "cpu"
