"""tapegrad/optim/clip.py: clip_by_global_norm."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.optim import clip_by_global_norm
from tapegrad.testing import gradcheck
from tapegrad.testing import strategies as tst


@given(
    shapes=st.lists(tst.shapes(max_dims=2, max_side=3), min_size=1, max_size=3),
    max_norm=st.floats(0.1, 10.0),
    data=st.data(),
)
def test_clipped_norm_and_direction(shapes, max_norm, data):
    grads = [tg.tensor(data.draw(tst.arrays(s))) for s in shapes]
    clipped, norm = clip_by_global_norm(grads, max_norm)
    expected_norm = np.sqrt(sum((g.numpy() ** 2).sum() for g in grads))
    np.testing.assert_allclose(norm.item(), expected_norm, rtol=1e-12)
    scale = min(1.0, max_norm / expected_norm) if expected_norm else 1.0
    for g, c in zip(grads, clipped):
        assert c.shape == g.shape and c.dtype == g.dtype
        np.testing.assert_allclose(c.numpy(), g.numpy() * scale, rtol=1e-12, atol=1e-300)
    new_norm = np.sqrt(sum((c.numpy() ** 2).sum() for c in clipped))
    assert new_norm <= max_norm * (1 + 1e-12)


def test_none_entries_stay_in_place_and_float32_stays_float32():
    grads = [None, tg.tensor([30.0, 40.0], dtype=np.float32), None]
    clipped, norm = clip_by_global_norm(grads, 5.0)
    assert clipped[0] is None and clipped[2] is None
    assert clipped[1].dtype == np.float32 and norm.dtype == np.float32
    np.testing.assert_allclose(clipped[1].numpy(), [3.0, 4.0], rtol=1e-6)
    nothing, zero = clip_by_global_norm([None], 1.0)
    assert nothing == [None] and zero.item() == 0.0


@given(data=st.data())
def test_clipping_is_differentiable(data):
    a = tg.tensor(data.draw(tst.arrays((3,), domain="nonzero")))
    b = tg.tensor(data.draw(tst.arrays((2,), domain="nonzero")))
    gradcheck(lambda a, b: clip_by_global_norm([a, b], 1.5), [a, b])


@pytest.mark.parametrize("max_norm", [0.0, -1.0, float("nan")])
def test_max_norm_must_be_positive(max_norm):
    with pytest.raises(ValueError, match="max_norm must be positive"):
        clip_by_global_norm([tg.ones(2)], max_norm)
