"""Property-based gradient checks of tapegrad/ops/shape.py.

Every shape op is linear, so besides its value against NumPy and its gradient,
the second derivative must be exactly zero through nested tapes (gradgradcheck
of ``op(x) ** 2`` checks that the recorded first derivative is itself right).
"""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, axes, value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

SHAPES = tst.shapes(max_dims=3, max_side=3)


def _check(op, reference, *inputs, second=True):
    """``op`` matches NumPy's ``reference``; its first (and second) derivatives check."""
    expected = reference(*(x.numpy() for x in inputs))
    got = op(*inputs)
    if isinstance(expected, list):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_matches(g, e)
    else:
        assert_matches(got, expected)
    gradcheck(op, list(inputs))
    if second:
        gradgradcheck(lambda *xs: _squares(op(*xs)), list(inputs))


def _squares(out):
    return [o * o for o in out] if isinstance(out, list) else out * out


def _draw_tensor(data, backend, shape=SHAPES):
    return backend.tensor(data.draw(tst.arrays(shape), label="x"))


@given(data=tst.st.data())
def test_reshape(backend, data):
    x = _draw_tensor(data, backend)
    targets = [(-1,), (x.size,), (1, -1), tuple(reversed(x.shape)), (*x.shape, 1), ()]
    new = data.draw(st.sampled_from(targets if x.size == 1 else targets[:-1]), label="shape")
    _check(lambda a: tg.reshape(a, new), lambda a: np.reshape(a, new), x)
    assert_matches(x.reshape(*new) if new else x.reshape(()), np.reshape(x.numpy(), new))


@given(data=tst.st.data())
def test_transpose(backend, data):
    x = _draw_tensor(data, backend)
    order = data.draw(st.none() | st.permutations(range(x.ndim)).map(tuple), label="axes")
    _check(lambda a: tg.transpose(a, order), lambda a: np.transpose(a, order), x)
    assert_matches(x.T, x.numpy().T)


@given(data=tst.st.data())
def test_transpose_with_negative_axes(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_side=3))
    order = tuple(a - x.ndim for a in data.draw(st.permutations(range(x.ndim)), label="axes"))
    _check(lambda a: tg.transpose(a, order), lambda a: np.transpose(a, order), x)


@given(data=tst.st.data())
def test_swapaxes(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_side=3))
    a1 = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis1")
    a2 = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis2")
    _check(lambda a: tg.swapaxes(a, a1, a2), lambda a: np.swapaxes(a, a1, a2), x)


@given(data=tst.st.data())
def test_expand_dims(backend, data):
    x = _draw_tensor(data, backend)
    new = data.draw(st.integers(1, 2), label="new axes")
    axis = data.draw(
        st.integers(-x.ndim - 1, x.ndim)
        | hnp.valid_tuple_axes(x.ndim + new, min_size=new, max_size=new),
        label="axis",
    )
    _check(lambda a: tg.expand_dims(a, axis), lambda a: np.expand_dims(a, axis), x)


@given(data=tst.st.data())
def test_squeeze(backend, data):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2), label="s")
    x = _draw_tensor(data, backend, shape)
    ones = [i for i, n in enumerate(shape) if n == 1]
    axis = data.draw(st.none() | st.sampled_from(ones or [None]), label="axis")
    _check(lambda a: tg.squeeze(a, axis), lambda a: np.squeeze(a, axis), x)


def test_squeeze_of_a_long_axis_names_it():
    with pytest.raises(ValueError, match=r"squeeze: axis 1 of shape \(1, 3\)"):
        tg.squeeze(tg.tensor(np.ones((1, 3))), 1)


@given(data=tst.st.data())
def test_broadcast_to(backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(max_side=3), label="shapes")
    target = np.broadcast_shapes(sx, sy)
    x = _draw_tensor(data, backend, sx)
    _check(lambda a: tg.broadcast_to(a, target), lambda a: np.broadcast_to(a, target), x)


@given(data=tst.st.data())
def test_concatenate(backend, data):
    base = data.draw(tst.shapes(min_dims=1, max_side=3), label="base")
    axis = data.draw(st.integers(-len(base), len(base) - 1), label="axis")
    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3), label="sizes")
    shapes = [base[: axis % len(base)] + (n,) + base[axis % len(base) + 1 :] for n in sizes]
    xs = [_draw_tensor(data, backend, s) for s in shapes]
    _check(
        lambda *a: tg.concatenate(a, axis=axis),
        lambda *a: np.concatenate(a, axis=axis),
        *xs,
        second=len(xs) < 3,
    )


def test_concatenate_flattened_and_errors(backend):
    x = backend.tensor(np.arange(6.0).reshape(2, 3))
    y = backend.tensor(np.arange(2.0))
    _check(
        lambda a, b: tg.concatenate([a, b], axis=None),
        lambda a, b: np.concatenate([a, b], None),
        x,
        y,
    )
    with pytest.raises(ValueError, match=r"concatenate: cannot join shapes \(2, 3\), \(2,\)"):
        tg.concatenate([x, y], axis=0)


@given(data=tst.st.data())
def test_stack(backend, data):
    shape = data.draw(tst.shapes(max_dims=2, max_side=3), label="shape")
    count = data.draw(st.integers(1, 3), label="count")
    axis = data.draw(st.integers(-len(shape) - 1, len(shape)), label="axis")
    xs = [_draw_tensor(data, backend, shape) for _ in range(count)]
    _check(lambda *a: tg.stack(a, axis=axis), lambda *a: np.stack(a, axis=axis), *xs)


def test_stack_of_different_shapes_names_them():
    with pytest.raises(ValueError, match=r"stack: all inputs must have the same shape"):
        tg.stack([tg.tensor(np.ones(2)), tg.tensor(np.ones(3))])


@given(data=tst.st.data())
def test_split(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_side=4))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = x.shape[axis]
    sections = data.draw(
        st.sampled_from([d for d in range(1, n + 1) if n % d == 0])
        | st.lists(st.integers(0, n), max_size=3).map(sorted),
        label="sections",
    )
    _check(lambda a: tg.split(a, sections, axis=axis), lambda a: np.split(a, sections, axis), x)


def test_split_into_unequal_sections_names_the_shape():
    with pytest.raises(ValueError, match=r"split: .*\(shape \(3,\), axis 0\)"):
        tg.split(tg.tensor(np.ones(3)), 2)


@given(data=tst.st.data())
def test_flip(backend, data):
    x = _draw_tensor(data, backend)
    axis = data.draw(axes(x.ndim), label="axis")
    _check(lambda a: tg.flip(a, axis), lambda a: np.flip(a, axis), x)


@given(data=tst.st.data())
def test_tile(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(max_dims=2, max_side=3))
    reps = data.draw(st.integers(1, 3) | st.lists(st.integers(1, 2), max_size=3).map(tuple))
    _check(lambda a: tg.tile(a, reps), lambda a: np.tile(a, reps), x)


@given(data=tst.st.data())
def test_repeat(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(max_dims=2, max_side=3))
    axis = data.draw(axes(x.ndim, single=True), label="axis")
    n = x.size if axis is None else x.shape[axis]
    repeats = data.draw(
        st.integers(0, 3) | st.lists(st.integers(0, 3), min_size=n, max_size=n), label="repeats"
    )
    _check(lambda a: tg.repeat(a, repeats, axis), lambda a: np.repeat(a, repeats, axis), x)
    assert_matches(x.repeat(repeats, axis), np.repeat(x.numpy(), repeats, axis))


@given(data=tst.st.data())
def test_pad(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(max_dims=2, max_side=3))
    pair = st.tuples(st.integers(0, 2), st.integers(0, 2))
    per_axis = st.lists(pair, min_size=x.ndim, max_size=x.ndim).map(tuple)
    # NumPy rejects an empty pad_width, so a 0-d input gets the broadcast forms only.
    forms = st.integers(0, 2) | pair | (per_axis if x.ndim else pair)
    widths = data.draw(forms, label="pad_width")
    value = data.draw(st.sampled_from([0, 0.0, 1.5, -2]), label="constant_values")
    _check(
        lambda a: tg.pad(a, widths, constant_values=value),
        lambda a: np.pad(a, widths, constant_values=value),
        x,
    )


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
@given(data=st.data())
def test_pad_modes_that_copy_elements(mode, backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_dims=2, max_side=3))
    pair = st.tuples(st.integers(0, 2), st.integers(0, 2))
    widths = data.draw(st.lists(pair, min_size=x.ndim, max_size=x.ndim).map(tuple), label="w")
    _check(lambda a: tg.pad(a, widths, mode=mode), lambda a: np.pad(a, widths, mode=mode), x)


def test_pad_rejects_statistics_modes_and_bad_widths():
    x = tg.tensor(np.ones((2, 2)))
    with pytest.raises(NotImplementedError, match="pad: mode 'mean'"):
        tg.pad(x, 1, mode="mean")
    with pytest.raises(ValueError, match="pad: negative pad_width"):
        tg.pad(x, -1)
    with pytest.raises(ValueError, match=r"pad: pad_width .* does not fit shape \(2, 2\)"):
        tg.pad(x, [(1, 1)] * 3)


SHAPE_OPS = {
    "reshape": lambda a: tg.reshape(a, (3, 2)),
    "transpose": tg.transpose,
    "swapaxes": lambda a: tg.swapaxes(a, 0, 1),
    "expand_dims": lambda a: tg.expand_dims(a, 1),
    "squeeze": lambda a: tg.squeeze(tg.reshape(a, (1, 2, 3)), 0),
    "broadcast_to": lambda a: tg.broadcast_to(a, (4, 2, 3)),
    "concatenate": lambda a: tg.concatenate([a, a * 2.0], axis=1),
    "stack": lambda a: tg.stack([a, a], axis=-1),
    "split": lambda a: tg.split(a, 3, axis=1)[1],
    "flip": lambda a: tg.flip(a, 0),
    "tile": lambda a: tg.tile(a, (2, 1)),
    "repeat": lambda a: tg.repeat(a, 2, axis=0),
    "pad": lambda a: tg.pad(a, 1, constant_values=0.5),
}


@pytest.mark.parametrize("name", sorted(SHAPE_OPS))
def test_float32_stays_float32(name, backend):
    x = backend.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    y, (g,) = value_and_gradients(SHAPE_OPS[name], x)
    assert_dtype(np.float32, y, g)
    assert g.shape == (2, 3)
