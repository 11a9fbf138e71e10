"""tg.compile (tapegrad/replay/compiled.py): replays agree with eager runs, guards catch
data-dependent Python, and gradients of any order flow through replays."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.core.nests import flatten
from tapegrad.testing import strategies as tst


def _grads(f, args, watched):
    """f(*args) and the gradients of sum(f) with respect to ``args[i]`` for i in watched."""
    with tg.GradientTape() as tape:
        tape.watch([args[i] for i in watched])
        out = f(*args)
        total = tg.sum(out)
    return out, tape.gradient(total, [args[i] for i in watched])


def _assert_same(eager, replayed):
    for a, b in zip(flatten(eager), flatten(replayed)):
        if a is None:
            assert b is None
        else:
            np.testing.assert_allclose(b.numpy(), a.numpy(), rtol=1e-12, atol=1e-12)


def chain(y, w, b):
    for _ in range(4):
        y = tg.tanh(y * w + b)
    return y


def mixed(x, y):
    # broadcasting, reductions, matmul, division, indexing and a non-differentiable mask
    z = tg.exp(x) @ tg.transpose(y) / (1.0 + tg.sum(y * y))
    mask = tg.greater(z, 0.0)
    return tg.where(mask, z, 0.1 * z)[:, ::2] + tg.max(x, axis=1, keepdims=True)


@given(data=st.data())
def test_replay_matches_eager_on_random_inputs(data):
    # 0-d included: w and b each get four contributions, summed as 0-d arrays
    shape = data.draw(tst.shapes(min_dims=0, max_dims=2, max_side=4), label="shape")
    compiled = tg.compile(chain)
    for _ in range(3):  # the first call records, the others replay
        y, w, b = (tg.tensor(data.draw(tst.arrays(shape))) for _ in range(3))
        _assert_same(_grads(chain, (y, w, b), (0, 1, 2)), _grads(compiled, (y, w, b), (0, 1, 2)))
    assert compiled.traces == 1


@given(data=st.data())
def test_replay_of_broadcasting_reductions_and_indexing(data):
    compiled = tg.compile(mixed)
    for _ in range(3):
        x = tg.tensor(data.draw(tst.arrays((3, 4))))
        y = tg.tensor(data.draw(tst.arrays((5, 4))))
        _assert_same(_grads(mixed, (x, y), (0, 1)), _grads(compiled, (x, y), (0, 1)))
    assert compiled.traces == 1


def test_a_new_signature_records_again():
    compiled = tg.compile(chain)
    for shape in [(3,), (3,), (2, 3), (3,)]:
        args = [tg.tensor(np.full(shape, 0.5)) for _ in range(3)]
        _assert_same(chain(*args), compiled(*args))
    assert compiled.traces == 2
    compiled(*[tg.tensor(np.full(3, 0.5, dtype=np.float32)) for _ in range(3)])
    assert compiled.traces == 3  # dtype is part of the signature
    compiled(np.ones(3), np.ones(3), 0.5)  # arrays and Python scalars are accepted
    compiled(np.ones(3), np.ones(3), 0.25)
    assert compiled.traces == 5  # a Python scalar's value is part of the signature


def test_integer_arguments_and_traced_indices_are_replayed():
    # take_along_axis indexes with the labels' raw array: the replay must use the new labels
    def nll(logits, labels):
        logp = tg.log_softmax(logits, axis=1)
        return -tg.mean(tg.take_along_axis(logp, labels[:, None], axis=1))

    compiled = tg.compile(nll)
    rng = np.random.default_rng(0)
    w = tg.Variable(rng.standard_normal((4, 3)))
    for _ in range(3):
        x = tg.tensor(rng.standard_normal((5, 4)))
        labels = tg.tensor(rng.integers(0, 3, 5))
        with tg.GradientTape(persistent=True) as tape:
            eager = nll(x @ w, labels)
            replayed = compiled(x @ w, labels)
        _assert_same(eager, replayed)
        _assert_same(tape.gradient(eager, w), tape.gradient(replayed, w))
    assert compiled.traces == 1


def test_variables_are_read_again_by_every_replay():
    w = tg.Variable([1.0, 2.0], name="w")

    @tg.compile
    def f(x):
        return tg.sum(x * w * w)

    x = tg.tensor([3.0, 4.0])
    for _ in range(3):
        with tg.GradientTape() as tape:
            y = f(x)
        assert y.item() == pytest.approx(float(np.sum(x.numpy() * w.numpy() ** 2)))
        np.testing.assert_allclose(tape.gradient(y, w).numpy(), 2 * x.numpy() * w.numpy())
        w.assign_add([0.5, -0.25])
    assert f.traces == 1


@pytest.mark.parametrize("on_guard_failure", ["retrace", "raise"])
def test_a_failing_guard_records_again_or_raises(on_guard_failure):
    def f(x):
        if tg.sum(x) > 0:  # data-dependent Python: bool() of a Tensor is a guard
            return x * 2.0
        return x * -3.0

    compiled = tg.compile(f, on_guard_failure=on_guard_failure)
    positive, negative = tg.tensor([1.0, 2.0]), tg.tensor([-1.0, -2.0])
    _assert_same(f(positive), compiled(positive))
    _assert_same(f(tg.tensor([3.0, 1.0])), compiled(tg.tensor([3.0, 1.0])))
    assert compiled.traces == 1  # the guard holds: sum > 0 again
    if on_guard_failure == "raise":
        with pytest.raises(tg.GuardError, match=r"bool\(\).*got True.*give False"):
            compiled(negative)
        return
    _assert_same(f(negative), compiled(negative))
    assert compiled.traces == 2
    _assert_same(f(positive), compiled(positive))  # both paths are kept
    _assert_same(f(negative), compiled(negative))
    assert compiled.traces == 2


@pytest.mark.parametrize(
    "convert",
    [
        lambda t: bool(tg.sum(t) > 0),
        lambda t: int(tg.argmax(t)),
        lambda t: tg.sum(t).item() > 0,
        lambda t: t.numpy()[0] > 0,
        lambda t: np.asarray(t)[1] > 0,
        lambda t: [10, 20, 30][tg.argmax(t)] > 15,  # __index__
    ],
    ids=["bool", "int", "item", "numpy", "asarray", "index"],
)
def test_every_conversion_to_python_is_guarded(convert):
    # float(), int() and item() guard the exact value; comparisons in Tensor ops, then
    # bool(), guard only the outcome.
    def f(x):
        return x * 2.0 if convert(x) else x - 1.0

    compiled = tg.compile(f)
    for values in ([1.0, 2.0, 3.0], [-1.0, -2.0, -3.0], [-3.0, 2.0, 1.0], [1.0, 2.0, 3.0]):
        x = tg.tensor(values)
        _assert_same(f(x), compiled(x))


def test_second_derivatives_flow_through_a_replay():
    compiled = tg.compile(chain)
    rng = np.random.default_rng(1)
    for _ in range(2):
        y, w, b = (tg.tensor(rng.standard_normal(3)) for _ in range(3))
        results = []
        for f in (chain, compiled):
            with tg.GradientTape() as outer:
                outer.watch(w)
                with tg.GradientTape() as inner:
                    inner.watch(w)
                    total = tg.sum(f(y, w, b))
                g = inner.gradient(total, w)
                gg = tg.sum(g * tg.tensor([1.0, -2.0, 0.5]))
            results.append((g, outer.gradient(gg, w)))
        _assert_same(*results)


def test_persistent_tapes_jacobians_and_several_outputs():
    def f(x):
        return {"double": x * 2.0, "pair": (tg.sin(x), tg.argmax(x))}

    compiled = tg.compile(f)
    x = tg.tensor([0.1, 0.7, -0.3])
    for _ in range(2):
        outs = []
        for g in (f, compiled):
            with tg.GradientTape(persistent=True) as tape:
                tape.watch(x)
                out = g(x)
            outs.append(
                (
                    out["pair"][1],
                    tape.gradient(out["double"], x),
                    tape.gradient(out["pair"][0], x),
                    tape.jacobian(out["pair"][0], x),
                )
            )
        _assert_same(*outs)


def test_aliased_arguments_constants_and_stop_gradient():
    constant = tg.tensor([1.0, -1.0])

    def f(x, y):
        return x * y + tg.stop_gradient(x) * constant

    compiled = tg.compile(f)
    x, z = tg.tensor([0.5, 2.0]), tg.tensor([1.5, -2.0])
    _assert_same(_grads(f, (x, x), (0,)), _grads(compiled, (x, x), (0,)))
    _assert_same(_grads(f, (x, z), (0, 1)), _grads(compiled, (x, z), (0, 1)))
    _assert_same(_grads(f, (z, z), (0,)), _grads(compiled, (z, z), (0,)))
    assert compiled.traces == 2  # f(x, x) and f(x, y) are different signatures


def test_what_a_replay_cannot_repeat_raises_at_record_time():
    v = tg.Variable([1.0])

    @tg.compile
    def assigns(x):
        v.assign(x)
        return x

    with pytest.raises(NotImplementedError, match="assign.*compile"):
        assigns(tg.tensor([2.0]))
    assert v.numpy().tolist() == [1.0]

    @tg.compile
    def differentiates(x):
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = x * x
        return tape.gradient(y, x)

    with pytest.raises(NotImplementedError, match="value_and_grad"):
        differentiates(tg.tensor([2.0]))


def test_compiled_functions_called_while_recording_inline():
    inner = tg.compile(lambda x: tg.exp(x) * 2.0)
    outer = tg.compile(lambda x: inner(x) + inner(x * 3.0))
    x = tg.tensor([0.1, 0.2])
    for _ in range(2):
        _assert_same(
            _grads(lambda x: tg.exp(x) * 2.0 + tg.exp(x * 3.0) * 2.0, (x,), (0,)),
            _grads(outer, (x,), (0,)),
        )
    assert inner.traces == 0 and outer.traces == 1


def test_errors_in_a_replay_name_the_op():
    compiled = tg.compile(lambda x, i: x[i])
    x = tg.tensor([1.0, 2.0, 3.0])
    assert compiled(x, tg.tensor(np.array([0, 2]))).numpy().tolist() == [1.0, 3.0]
    with pytest.raises(IndexError, match="getitem"):
        compiled(x, tg.tensor(np.array([0, 7])))


def test_bad_arguments_are_explained():
    with pytest.raises(ValueError, match="on_guard_failure"):
        tg.compile(chain, on_guard_failure="ignore")
    with pytest.raises(TypeError, match="signature"):
        tg.compile(lambda x, options: x)(tg.tensor(1.0), {"a": [1, 2]}.items())


def test_a_freeing_sweep_through_several_outputs_of_one_replay():
    # A non-persistent tape frees each replay's values as it passes them; the second
    # output's gradient then replays the forward again.
    def f(x, w):
        h = tg.tanh(x * w)
        return h * 2.0, tg.exp(h) + w

    compiled = tg.compile(f)
    rng = np.random.default_rng(2)
    for _ in range(3):
        x, w = tg.tensor(rng.standard_normal(4)), tg.tensor(rng.standard_normal(4))
        grads = []
        for g in (f, compiled):
            with tg.GradientTape() as tape:
                tape.watch([x, w])
                a, b = g(x, w)
                total = tg.sum(a * b) + tg.sum(b)
            grads.append(tape.gradient(total, [x, w]))
        _assert_same(*grads)


def test_it_composes_with_the_functional_transforms():
    def f(x, w):
        return tg.sum(tg.tanh(x @ w) ** 2)

    compiled = tg.compile(f)
    rng = np.random.default_rng(3)
    for _ in range(2):
        x = tg.tensor(rng.standard_normal((3, 4)))
        w = tg.tensor(rng.standard_normal((4, 2)))
        _assert_same(
            tg.value_and_grad(f, argnums=(0, 1))(x, w),
            tg.value_and_grad(compiled, argnums=(0, 1))(x, w),
        )
        hessians = [tg.hessian(lambda w, x=x, g=g: g(x, w))(w) for g in (f, compiled)]
        _assert_same(*hessians)
    assert compiled.traces == 1
    with pytest.raises(NotImplementedError, match="value_and_grad"):
        tg.compile(tg.value_and_grad(f))(x, w)


def test_custom_gradients_inside_are_refused():
    @tg.custom_gradient
    def double(x):
        return x * 2.0, lambda g: g * 2.0

    compiled = tg.compile(lambda x: double(x) + 1.0)
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(NotImplementedError, match="custom_gradient"):
            compiled(x)


def test_variables_passed_as_arguments_get_their_gradient_once():
    def f(x, w, b):
        return tg.sum(tg.relu(x @ w + b))

    compiled = tg.compile(f)
    rng = np.random.default_rng(4)
    w, b = tg.Variable(rng.standard_normal((3, 2))), tg.Variable(rng.standard_normal(2))
    for _ in range(3):
        x = tg.tensor(rng.standard_normal((4, 3)))
        grads = []
        for g in (f, compiled):
            with tg.GradientTape() as tape:
                out = g(x, w, b)
            grads.append(tape.gradient(out, [w, b]))
        _assert_same(*grads)
        w.assign_sub(grads[0][0].numpy() * 0.1)
    assert compiled.traces == 1


def test_a_reused_cotangent_gives_a_fresh_gradient_each_sweep():
    # The replay's rule caches one sweep's results for the entry's other inputs; a later
    # sweep with the same cotangent object must not get them: the caller may have
    # refilled the array, or another tape may now have to record the gradient.
    compiled = tg.compile(lambda a: a * a * a)
    x = tg.tensor(3.0)
    compiled(x)
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = compiled(x)
    seed = np.array(1.0)
    assert tape.gradient(y, x, output_gradients=seed).item() == 27.0
    seed[...] = 2.0
    assert tape.gradient(y, x, output_gradients=seed).item() == 54.0
    _, vjp_fn = tg.vjp(compiled, x)
    assert vjp_fn(seed)[0].item() == 54.0
    seed[...] = 1.0
    assert vjp_fn(seed)[0].item() == 27.0
    ones = tg.tensor(1.0)
    for _ in range(2):  # a new outer tape each time: each must see the gradient's ops
        with tg.GradientTape() as outer:
            outer.watch(x)
            g = tape.gradient(y, x, output_gradients=ones)
        assert outer.gradient(g, x).item() == 18.0


def _mask_program(x, u):
    t = u + np.zeros(1)
    m = x[x > 0]
    return tg.sum(m * t) + tg.sum(t * 3.0)


@pytest.mark.parametrize(
    "xs",
    [
        ([1.0, -1.0, -1.0], [1.0, 2.0, 3.0]),  # the kept count grows: was 15.0 instead of 9.0
        ([1.0, 2.0, 3.0], [1.0, -1.0, -1.0]),  # shrinks: was a shape error in a rule
        ([1.0, -1.0, -1.0], [-1.0, -1.0, -1.0]),  # falls to 0: was 0.0 instead of 3.0
        ([-1.0, -1.0, -1.0], [1.0, 2.0, -1.0]),  # rises from 0: was a reshape error
    ],
)
def test_a_result_whose_shape_follows_the_values_is_guarded(xs):
    # Issue 11, item 2: the first sweep chose same-shape rules from the recorded shapes.
    compiled = tg.compile(_mask_program)
    for x in [*xs, *xs]:  # a second round replays both recordings
        x, u = tg.tensor(x), tg.tensor(0.5)
        want = tg.value_and_grad(_mask_program, argnums=1)(x, u)
        got = tg.value_and_grad(compiled, argnums=1)(x, u)
        assert got[0].item() == want[0].item() and got[1].item() == want[1].item()
    assert compiled.traces == 2


def test_a_shape_guard_raises_when_told_to():
    compiled = tg.compile(_mask_program, on_guard_failure="raise")
    compiled(tg.tensor([1.0, -1.0]), tg.tensor(0.5))
    with pytest.raises(tg.GuardError, match=r"shape \(1,\).*these inputs give shape \(2,\)"):
        compiled(tg.tensor([1.0, 1.0]), tg.tensor(0.5))


def test_a_traced_repeat_count_is_guarded():
    def f(x, counts):
        return tg.sum(tg.repeat(x, counts) ** 2)

    compiled = tg.compile(f)
    x = tg.tensor([1.0, 2.0])
    for counts in ([1, 2], [3, 0], [1, 2]):
        counts = tg.tensor(counts)
        np.testing.assert_allclose(
            tg.grad(compiled)(x, counts).numpy(), tg.grad(f)(x, counts).numpy()
        )


@pytest.mark.parametrize(
    "f",
    [lambda x: tg.sum(tg.floor(x) * 2.0 + 1.0), lambda x: tg.sum(tg.stop_gradient(x) ** 2)],
)
def test_a_replay_with_no_differentiable_path(f):
    # Issue 11, item 3: the second call's verified sweep indexed an empty plan.
    compiled = tg.compile(f)
    for _ in range(3):
        x = tg.tensor([1.5, 2.5])
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = compiled(x)
        assert tape.gradient(y, x, unconnected_gradients="zero").numpy().tolist() == [0, 0]
        value, grad = tg.value_and_grad(compiled)(x)
        assert value.item() == f(x).item() and grad.numpy().tolist() == [0, 0]
