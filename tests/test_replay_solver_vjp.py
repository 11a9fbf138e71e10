"""tapegrad/replay/solver_vjp.py: a function's VJP recorded once and replayed on raw arrays
agrees with tg.vjp at every new point, and answers None (for the caller's tape) where the
recording cannot serve: another path, other shapes, an untraceable function."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.core import hooks
from tapegrad.replay.solver_vjp import replayed_vjp

finite = st.floats(-2.0, 2.0, allow_nan=False)


def dynamics(y, s, theta):  # scalar indexing, products, a time dependence, a stack
    return tg.stack([theta[0] * y[0] - theta[1] * y[0] * y[1], tg.sin(s) * y[1] - theta[2]])


def tape_vjp(f, arrays, cotangent):
    out, vjp_fn = tg.vjp(f, *arrays)
    return out, vjp_fn(cotangent)


def test_import_tapegrad_hands_it_to_the_solvers():
    assert hooks.replayed_vjp is replayed_vjp


@settings(max_examples=20, deadline=None)
@given(points=st.lists(st.lists(finite, min_size=8, max_size=8), min_size=1, max_size=5))
def test_every_replay_matches_the_tape_at_a_new_point(points):
    vjp = replayed_vjp(dynamics)
    for p in points:  # the first records, the second checks the rules, the third is generated
        arrays = [np.array(p[0:2]), np.array(p[2]), np.array(p[3:6])]
        cotangent = np.array(p[6:8])
        out, grads = vjp(arrays, cotangent)
        expected_out, expected = tape_vjp(dynamics, arrays, cotangent)
        np.testing.assert_allclose(out, expected_out, rtol=1e-13, atol=1e-15)
        for got, want in zip(grads, expected):
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(vjp.value(arrays), expected_out, rtol=1e-13, atol=1e-15)
    assert vjp.compiled.traces == 1


def test_from_the_third_call_the_generated_sweep_is_called_directly():
    vjp = replayed_vjp(dynamics)
    rng = np.random.default_rng(0)
    for call in range(5):
        arrays = [rng.standard_normal(2), np.array(rng.standard_normal()), rng.standard_normal(3)]
        cotangent = rng.standard_normal(2)
        assert (vjp.sweep is not None) == (call >= 2)  # recorded, checked, generated
        out, grads = vjp(arrays, cotangent)
        expected_out, expected = tape_vjp(dynamics, arrays, cotangent)
        np.testing.assert_allclose(out, expected_out, rtol=1e-13)
        for got, want in zip(grads, expected):
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_an_input_the_result_does_not_depend_on_has_no_cotangent():
    vjp = replayed_vjp(lambda x, w: x * 2.0)
    for _ in range(4):  # the last through the generated sweep
        out, (gx, gw) = vjp([np.array([1.0, 2.0]), np.array([3.0])], np.array([1.0, -1.0]))
        assert gx.tolist() == [2.0, -2.0] and gw is None


def test_another_python_path_sends_the_caller_back_to_its_tape():
    calls = []

    def branchy(x):
        calls.append(1)
        return x * x if bool(tg.sum(x) > 0) else -x

    vjp = replayed_vjp(branchy)
    assert vjp([np.array([1.0, 2.0])], np.ones(2))[1][0].tolist() == [2.0, 4.0]
    assert vjp([np.array([3.0, 2.0])], np.ones(2))[1][0].tolist() == [6.0, 4.0]
    assert vjp([np.array([-3.0, 2.0])], np.ones(2)) is None  # the guard on bool() failed
    assert vjp([np.array([3.0, 2.0])], np.ones(2)) is None  # and it stays failed
    assert vjp.value([np.array([3.0, 2.0])]) is None and vjp.failed
    assert len(calls) == 1  # branchy's Python ran once, at the recording


def test_other_shapes_or_dtypes_are_not_replayed():
    vjp = replayed_vjp(lambda x: tg.exp(x))
    assert vjp.value([np.array([0.0, 1.0])]) is not None
    assert vjp.value([np.array([0.0, 1.0, 2.0])]) is None


def test_what_cannot_be_recorded_or_replayed_is_none():
    def inner_gradient(x):  # tg.compile refuses a tape's sweep inside the recording
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = tg.sum(x * x)
        return tape.gradient(y, x)

    assert replayed_vjp(inner_gradient)([np.array([1.0])], np.ones(1)) is None
    assert replayed_vjp(lambda x: x)([np.array([1.0])], np.ones(1)) is None  # the input itself
    assert replayed_vjp(lambda x: tg.zeros(2))([np.array([1.0])], np.ones(2)) is None
