"""tg.compile's generated code (tapegrad/replay/codegen.py): on random programs of the op
library, every call of a compiled function (the recording, the first replay with a
checked sweep, the replays with generated forward and reverse code, and the lean forward
that keeps only what the generated sweeps read) gives eager's values and gradients, with
guards (a Python branch on a value, a shape that follows the values) failing and passing
from call to call; and the generated code itself, unit by unit."""

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from random_programs import describe, programs, run

import tapegrad as tg
from tapegrad.replay import codegen


def _close(got, want, what):
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10, err_msg=what)


def _guarded(program):
    """The program, then Python that branches on a value and a mask whose size follows it."""

    def f(*xs):
        total = run(program, list(xs))
        first = tg.reshape(xs[0], (-1,))
        kept = first[first > 0.0]  # a shape guard: how many are positive
        total = total + tg.sum(kept * kept)
        if total > 1.0:  # a bool() guard
            return total * 0.5, kept
        return tg.tanh(total), kept

    return f


def _call(f, tensors):
    """f's outputs and the gradients of their sum w.r.t. every input, through a tape."""
    with tg.GradientTape() as tape:
        tape.watch(tensors)
        value, kept = f(*tensors)
        loss = value + tg.sum(kept)
    grads = tape.gradient(loss, tensors, unconnected_gradients="zero")
    return [value.numpy(), kept.numpy()], [g.numpy() for g in grads]


# Each example is eight calls of one compiled function: half the profile's examples.
HALF = settings(max_examples=max(1, settings.default.max_examples // 2))


@HALF
@given(programs(), st.lists(st.integers(0, 2**32 - 1), min_size=6, max_size=6))
def test_every_call_of_a_compiled_random_program_equals_eager(case, seeds):
    _check_random_program(case, seeds)


@HALF
@given(programs(), st.lists(st.integers(0, 2**32 - 1), min_size=6, max_size=6))
def test_random_programs_with_every_value_counted_large(case, seeds):
    # The generator writes into temporaries, drops unread values and passes placeholders
    # only for arrays of DROP_BYTES or more, which these small programs never reach: with
    # the threshold at 0 every value takes those paths.
    from tapegrad.replay import sweep_code

    saved = codegen.DROP_BYTES, sweep_code.DROP_BYTES
    codegen.DROP_BYTES = sweep_code.DROP_BYTES = 0
    try:
        _check_random_program(case, seeds)
    finally:
        codegen.DROP_BYTES, sweep_code.DROP_BYTES = saved


def _check_random_program(case, seeds):
    program, inputs = case
    note(describe(program, inputs))
    f = _guarded(program)
    compiled = tg.compile(f)
    # Repeats of the same values come first (record, checked sweep, generated code, lean
    # forward), then new values that move the guards, then the first values again.
    values = [inputs] * 4
    for seed in seeds:
        rng = np.random.default_rng(seed)
        values.append([rng.uniform(-2, 2, np.shape(x)) for x in inputs])
    values.append(inputs)
    for n, call_values in enumerate(values):
        tensors = [tg.tensor(x) for x in call_values]
        want_values, want_grads = _call(f, tensors)
        got_values, got_grads = _call(compiled, tensors)
        for k, (got, want) in enumerate(zip(got_values, want_values)):
            _close(got, want, f"call {n}: output {k}")
        for k, (got, want) in enumerate(zip(got_grads, want_grads)):
            _close(got, want, f"call {n}: gradient of input {k}")
    recording = next(iter(compiled.recordings.values()))[0]
    assert recording.generated is not None, "the forward fell back to the interpreter"
    assert "def forward(" in compiled.source(*[tg.tensor(x) for x in inputs])


def _chain(y, w, b):
    for _ in range(3):
        y = tg.tanh(y * w + b)
    return tg.sum(y)


def _watched_gradient(f, args, sources, persistent=False):
    with tg.GradientTape(persistent=persistent) as tape:
        tape.watch(sources)
        out = f(*args)
    return out, tape.gradient(out, sources)


def test_the_generated_code_runs_from_the_second_gradient_on():
    compiled = tg.compile(_chain)
    y, w, b = (tg.tensor(np.linspace(-1, 1, 4) * k) for k in (1.0, 0.5, 0.25))
    want = _watched_gradient(_chain, (y, w, b), [w, b])[1]
    for _ in range(4):
        got = _watched_gradient(compiled, (y, w, b), [w, b])[1]
        for g, e in zip(got, want):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-13)
    recording = compiled.recordings[next(iter(compiled.recordings))][0]
    (plan,) = recording.reverse_plans.values()
    assert plan.code and recording.kept is not None
    source = compiled.source(y, w, b)
    # One line per op: 3 x (multiply, add, tanh) and the sum; rules inlined.
    assert source.count("tanh(") == 3 and "(1.0 - " in source
    assert "for " not in source  # straight-line: no dispatch loop
    # The lean forward drops what the sweep does not read (the products and sums).
    assert "None" in source.split("def sweep")[0]


def test_a_new_set_of_sources_after_the_lean_forward_replays_every_value():
    # The forward keeps what the generated sweep for (w, b) reads; a gradient w.r.t. y
    # alone needs another plan, checked on every value: the replay recomputes them.
    compiled = tg.compile(_chain)
    y, w, b = (tg.tensor(np.linspace(-1, 1, 4) * k) for k in (1.0, 0.5, 0.25))
    for _ in range(3):
        _watched_gradient(compiled, (y, w, b), [w, b])
    for sources in ([y], [y, w, b], [b], [w, b]):
        got = _watched_gradient(compiled, (y, w, b), sources)[1]
        want = _watched_gradient(_chain, (y, w, b), sources)[1]
        for g, e in zip(got, want):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-13)


def test_a_persistent_tape_sweeps_generated_code_twice_and_several_outputs():
    def two(x, w):
        h = tg.tanh(x * w)
        return tg.sum(h * h), tg.sum(tg.exp(h) * w)

    compiled = tg.compile(two)
    x, w = tg.tensor([0.1, -0.4, 0.7]), tg.tensor([1.5, 0.5, -1.0])
    for _ in range(4):
        for f in (two, compiled):
            with tg.GradientTape(persistent=True) as tape:
                tape.watch([x, w])
                a, b = f(x, w)
            results = [tape.gradient(a, [x, w]), tape.gradient(b, [w]), tape.gradient(a, [x])]
            if f is two:
                want = results
        for got_list, want_list in zip(results, want):
            for g, e in zip(got_list, want_list):
                np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-13)


def test_a_guard_in_the_generated_forward_records_again_or_raises():
    def f(x):
        return tg.sum(x * 2.0) if tg.sum(x) > 0 else tg.sum(x * -3.0)

    for on_failure in ("retrace", "raise"):
        compiled = tg.compile(f, on_guard_failure=on_failure)
        positive = tg.tensor([1.0, 2.0])
        for _ in range(3):  # the generated forward runs the guard from the second call
            assert compiled(positive).item() == 6.0
        assert "check_value" in compiled.source(positive)
        negative = tg.tensor([-1.0, -2.0])
        if on_failure == "raise":
            with pytest.raises(tg.GuardError, match="bool"):
                compiled(negative)
        else:
            assert compiled(negative).item() == 9.0
            assert compiled.traces == 2


def test_errors_in_generated_replays_name_the_op():
    # The generated forward gives way to the interpreted replay, whose error names the op.
    compiled = tg.compile(lambda x, i: tg.take(x, i))
    x = tg.tensor([1.0, 2.0, 3.0])
    for _ in range(2):
        compiled(x, np.array([0, 2]))
    with pytest.raises(IndexError, match=r"getitem: index 7 .*array\(\[0, 7\]\)"):
        compiled(x, np.array([0, 7]))


def test_anomaly_mode_runs_the_checked_interpreted_replay():
    compiled = tg.compile(lambda x: tg.sum(tg.log(x)))
    for _ in range(3):
        compiled(tg.tensor([1.0, 2.0]))
    with tg.detect_anomaly(), pytest.raises(FloatingPointError, match="log"):
        compiled(tg.tensor([-1.0, 2.0]))


def test_allocate_reuses_a_local_once_its_value_is_dead():
    lines = [
        "    v3 = multiply(v0, v1)",
        "    v4 = add(v3, v2)",
        "    v5 = tanh(v4)",
        "    v6 = multiply(v5, v3)",
        "    return [v0, v5, v6]",
    ]
    assert codegen.allocate(lines, {"v0", "v1", "v2", "v5", "v6"}) == [
        "    t0 = multiply(v0, v1)",
        "    t1 = add(t0, v2)",  # v3 is read again below: it keeps t0
        "    v5 = tanh(t1)",
        "    v6 = multiply(v5, t0)",
        "    return [v0, v5, v6]",
    ]


def test_a_one_expression_lambda_rule_is_inlined_and_others_are_called():
    scope = codegen._Scope()
    rule = lambda g, ans, x: g * (1.0 - ans * ans)  # noqa: E731
    assert codegen.inline_rule(rule, ["g5", "v5", "v4"], scope) == "(g5 * (1.0 - v5 * v5))"
    offset = 2.0
    closure = lambda g, ans, x: g * offset  # noqa: E731 - a free variable: called, not inlined
    assert codegen.inline_rule(closure, ["g", "a", "x"], scope) is None

    def named(g, ans, x):
        return g

    assert codegen.inline_rule(named, ["g", "a", "x"], scope) is None
    # Globals the expression reads are bound under their own names.
    from tapegrad.ops.arithmetic import _add

    text = codegen.inline_rule(_add.vjps[0], ["g1", "v2", "v0", "v1"], scope)
    assert text == "(unbroadcast(g1, shape_of(v0)))"
    assert scope.bound["unbroadcast"] is _add.vjps[0].__globals__["unbroadcast"]


def test_the_generated_code_shown_in_docs_replay_md_is_what_it_prints(capsys):
    import pathlib
    import re

    text = (pathlib.Path(__file__).parent.parent / "docs" / "replay.md").read_text()
    section = text.split("## Seeing the generated code", 1)[1]
    code, printed = re.findall(r"^```(?:python)?\n(.*?)^```$", section, re.M | re.S)[:2]
    exec(compile(code, "docs/replay.md", "exec"), {})
    assert capsys.readouterr().out.rstrip() == printed.rstrip()


def _relu_net(x, w1, w2):
    return tg.sum(tg.relu(x @ w1) @ w2)


def _two_relus(p, q, c):
    return tg.sum(c * (tg.relu(p) + tg.relu(q)))  # one cotangent local serves both relus


@pytest.mark.parametrize(
    "f, shapes",
    [(_relu_net, [(64, 40), (40, 300), (300, 3)]), (_two_relus, [(90, 100), (90, 100), (100,)])],
)
def test_a_relu_cotangent_read_by_nothing_after_is_written_in_place(f, shapes):
    rng = np.random.default_rng(0)
    args = [tg.tensor(rng.standard_normal(s)) for s in shapes]
    compiled = _compiled_as_eager(f, args)
    assert "relu_vjp0_same_shape_in_place(" in compiled.source(*args)


def _compiled_as_eager(f, args):
    """tg.compile(f), its gradients checked against eager's from the first call to the
    fourth (the generated sweep runs from the third)."""
    want = _watched_gradient(f, args, args)[1]
    compiled = tg.compile(f)
    for _ in range(4):
        got = _watched_gradient(compiled, args, args)[1]
        for g, e in zip(got, want):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-13)
    return compiled


def test_the_callers_cotangent_is_never_written_in_place():
    compiled = tg.compile(tg.relu)
    x = tg.tensor(np.linspace(-1.0, 1.0, 200 * 100).reshape(200, 100))
    seed = np.ones((200, 100))
    for _ in range(4):
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = compiled(x)
        (g,) = tape.gradient(y, [x], output_gradients=tg.tensor(seed))
        np.testing.assert_array_equal(g.numpy(), (x.numpy() > 0).astype(float))
        np.testing.assert_array_equal(seed, 1.0)


def test_a_large_value_no_rule_reads_is_neither_kept_nor_read():
    # matmul_add's rules read x and y, not the product: the sweep gets a placeholder of its
    # shape, and the lean forward drops the (64, 300) pre-activation.
    from tapegrad.nn import linear

    def f(x, w, b):
        return tg.sum(tg.relu(linear(x, w, b)))

    rng = np.random.default_rng(1)
    args = [tg.tensor(rng.standard_normal(s)) for s in ((64, 40), (40, 300), (300,))]
    compiled = _compiled_as_eager(f, args)
    source = compiled.source(*args)
    assert "unread" in source.split("def sweep")[1]
    recording = compiled.recordings[next(iter(compiled.recordings))][0]
    (product_step,) = [s for s in recording.steps if s.primitive.name == "matmul_add"]
    assert product_step.out not in recording.kept


def _unary_chain(x):
    h = tg.exp(x * 0.5)  # multiply's product: read by exp alone, kept by no rule
    r = tg.reshape(tg.sin(h) * 2.0, (-1,))  # a view: written in place by nothing
    return tg.sum(tg.tanh(r)) + tg.sum(tg.relu(x - 0.1))


def test_a_large_temporary_nothing_reads_after_its_ufunc_is_written_in_place():
    x = tg.tensor(np.linspace(-2.0, 2.0, 120 * 90).reshape(120, 90))
    want_value, want = _watched_gradient(_unary_chain, [x], [x])
    compiled = tg.compile(_unary_chain)
    for _ in range(4):
        value, got = _watched_gradient(compiled, [x], [x])
        assert value.item() == want_value.item()  # NumPy's values, bit for bit
        np.testing.assert_array_equal(got[0].numpy(), want[0].numpy())
    forward = compiled.source(x).split("def sweep")[0]
    assert "exp_in_place(" in forward and "relu_in_place(" in forward
    assert "sin_in_place(" not in forward  # sin's input is exp's output: its rule reads it
    assert "tanh_in_place(" not in forward  # reshape's rule reads the view


def test_a_forward_in_place_is_refused_at_run_time_for_a_view_or_a_shared_array():
    run = codegen._when_alone(np.exp, codegen._ufunc_in_place(np.exp))
    base = np.linspace(0.0, 1.0, 12)
    view = base.reshape(3, 4)
    out = run(view)
    assert out is not view and np.array_equal(base, np.linspace(0.0, 1.0, 12))
    shared = np.linspace(0.0, 1.0, 12)
    other_name = shared  # noqa: F841 - a second reference
    assert run(shared) is not shared
    np.testing.assert_array_equal(out.reshape(-1), np.exp(base))
