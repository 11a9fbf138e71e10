"""tapegrad/random.py: seeding, dtypes, placement, Generators."""

import numpy as np
import pytest

import tapegrad as tg


def test_seed_makes_the_default_stream_reproducible():
    tg.random.seed(7)
    a = (tg.random.normal((3, 2)).numpy(), tg.random.uniform(4).numpy())
    tg.random.seed(7)
    b = (tg.random.normal((3, 2)).numpy(), tg.random.uniform(4).numpy())
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[0], tg.random.normal((3, 2)).numpy())


def test_generators_are_independent_streams():
    tg.random.seed(0)
    g = tg.random.Generator(1)
    first = g.uniform((5,)).numpy()
    tg.random.normal((100,))  # drawing from the default stream does not move g
    again = tg.random.Generator(1)
    again.uniform((5,))
    np.testing.assert_array_equal(first, tg.random.Generator(1).uniform((5,)).numpy())
    np.testing.assert_array_equal(g.uniform((5,)).numpy(), again.uniform((5,)).numpy())


def test_distribution_parameters_shapes_and_dtypes():
    g = tg.random.Generator(0)
    x = g.normal((20000,), mean=2.0, std=0.5)
    assert x.dtype == np.float64 and x.device == "cpu"
    assert abs(x.numpy().mean() - 2.0) < 0.02 and abs(x.numpy().std() - 0.5) < 0.02
    u = g.uniform((2, 3), low=-2.0, high=-1.0, dtype="float32")
    assert u.shape == (2, 3) and u.dtype == np.float32
    assert ((u.numpy() >= -2) & (u.numpy() < -1)).all()
    like = tg.ones(2, dtype=np.float32)
    assert g.normal(4, like=like).dtype == np.float32
    assert g.normal((), dtype=np.float64).shape == ()
    ints = g.integers(3, 6, shape=(1000,)).numpy()
    assert ints.dtype == np.int64 and set(np.unique(ints)) == {3, 4, 5}
    assert sorted(g.permutation(5).numpy().tolist()) == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("dtype", [np.int64, "float16", bool])
def test_only_float32_and_float64_samples(dtype):
    with pytest.raises(TypeError, match="dtype must be float32 or float64"):
        tg.random.normal((2,), dtype=dtype)


def test_like_places_samples_in_its_namespace():
    strict = pytest.importorskip("array_api_strict")
    like = tg.Tensor(strict.asarray(np.zeros(2, dtype=np.float32)))
    sample = tg.random.Generator(0).uniform((3,), like=like)
    assert type(sample.data) is type(like.data) and sample.dtype == strict.float32


def test_a_stream_continues_from_a_saved_state():
    generator = tg.random.Generator(5)
    generator.normal(3)
    state = generator.get_state()
    expected = generator.uniform((2, 2)).numpy()
    generator.normal(10)  # move on
    generator.set_state(state)
    np.testing.assert_array_equal(generator.uniform((2, 2)).numpy(), expected)
    state["state"]["state"] = 0  # a copy: changing it leaves the stream alone
    tg.random.seed(1)
    saved = tg.random.get_state()
    first = tg.random.normal(4).numpy()
    tg.random.set_state(saved)
    np.testing.assert_array_equal(tg.random.normal(4).numpy(), first)
