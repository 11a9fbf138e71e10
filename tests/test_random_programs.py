"""Differential tests on random programs built from the op library (tests/random_programs.py).

Each program is checked against independent oracles: central finite differences in
float64 (first and second order, smooth ops only), the same program run eagerly versus
replayed by ``tg.compile`` on new values of the same shapes (every op, masks whose size
follows the values included), and PyTorch in float64 when it is installed. The ``ci``
Hypothesis profile runs a fixed set; ``HYPOTHESIS_PROFILE=dev`` a larger random search, and
``HYPOTHESIS_PROFILE=long`` thousands of programs (minutes; before a release).
"""

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from random_programs import describe, programs, run

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck


def _program_function(program):
    return lambda *xs: run(program, list(xs))


def _close(got, want, what):
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10, err_msg=what)


@given(programs(smooth_only=True))
def test_gradients_match_finite_differences(case):
    program, inputs = case
    note(describe(program, inputs))
    gradcheck(_program_function(program), [tg.tensor(x) for x in inputs])


# Second order costs more: half the profile's examples.
HALF = settings(max_examples=max(1, settings.default.max_examples // 2))


@HALF
@given(programs(smooth_only=True, max_ops=4))
def test_second_derivatives_match_finite_differences(case):
    program, inputs = case
    note(describe(program, inputs))
    gradgradcheck(_program_function(program), [tg.tensor(x) for x in inputs])


def _value_and_grads(f, inputs):
    argnums = tuple(range(len(inputs)))
    value, grads = tg.value_and_grad(f, argnums=argnums)(*inputs)
    return value.item(), [g.numpy() for g in grads]


@given(programs(), st.integers(0, 2**32 - 1))
def test_replays_match_eager_runs_on_new_values(case, seed):
    # Replays of one recording on other values of the same shapes: the recorded shapes
    # must not leak into results (a mask's kept count changes from call to call).
    program, inputs = case
    note(describe(program, inputs))
    f = _program_function(program)
    compiled = tg.compile(f)
    rng = np.random.default_rng(seed)
    others = [rng.uniform(-2, 2, np.shape(x)) for x in inputs]
    for values in (inputs, others, inputs, others):
        tensors = [tg.tensor(x) for x in values]
        want_value, want_grads = _value_and_grads(f, tensors)
        got_value, got_grads = _value_and_grads(compiled, tensors)
        _close(got_value, want_value, "value")
        for k, (got, want) in enumerate(zip(got_grads, want_grads)):
            _close(got, want, f"gradient of input {k}")


@HALF
@given(programs(max_ops=4), st.integers(0, 2**32 - 1))
def test_second_order_through_replays_matches_eager(case, seed):
    program, inputs = case
    note(describe(program, inputs))
    f = _program_function(program)
    compiled = tg.compile(f)

    def grad_norm(g):  # a scalar function of the first derivatives
        return lambda *xs: sum(
            tg.sum(d * d) for d in tg.grad(g, argnums=tuple(range(len(xs))))(*xs)
        )

    rng = np.random.default_rng(seed)
    for values in (inputs, [rng.uniform(-2, 2, np.shape(x)) for x in inputs]):
        tensors = [tg.tensor(x) for x in values]
        want = _value_and_grads(grad_norm(f), tensors)
        got = _value_and_grads(grad_norm(compiled), tensors)
        _close(got[0], want[0], "value")
        for k, (g, w) in enumerate(zip(got[1], want[1])):
            _close(g, w, f"second-order gradient of input {k}")


@given(programs())
def test_pytorch_agrees(case):
    torch = pytest.importorskip("torch", reason="PyTorch is an optional oracle (pip install torch)")
    program, inputs = case
    note(describe(program, inputs))
    value, grads = _value_and_grads(_program_function(program), [tg.tensor(x) for x in inputs])
    leaves = [torch.tensor(x, dtype=torch.float64, requires_grad=True) for x in inputs]
    total = run(program, leaves, library="torch")
    expected = torch.autograd.grad(total, leaves, allow_unused=True)
    _close(value, total.item(), "value")
    for k, (got, want) in enumerate(zip(grads, expected)):
        want = np.zeros(np.shape(inputs[k])) if want is None else want.numpy()
        _close(got, want, f"gradient of input {k}")
