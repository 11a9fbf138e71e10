"""tg.compile(f, fuse=True) (tapegrad/replay/fuse.py): fused replays equal eager runs, values
and gradients, on hand-picked and random elementwise programs; unsupported recordings fall
back with one FuseWarning; guards and composition as the plain replay; the compiled code is
loaded from the on-disk cache by another process."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st
from random_programs import BY_NAME, describe, run

import tapegrad as tg
from tapegrad.core.nests import flatten
from tapegrad.testing import strategies as tst

numba = pytest.importorskip("numba")

from tapegrad.replay.fuse import FusedRecording  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory):
    """One cache directory for the module: programs compiled by one test serve the others."""
    directory = str(tmp_path_factory.mktemp("fused"))
    old = os.environ.get("TAPEGRAD_CACHE_DIR")
    os.environ["TAPEGRAD_CACHE_DIR"] = directory
    yield directory
    if old is None:
        del os.environ["TAPEGRAD_CACHE_DIR"]
    else:
        os.environ["TAPEGRAD_CACHE_DIR"] = old


def _value_and_grads(f, args, watched):
    with tg.GradientTape() as tape:
        tape.watch([args[i] for i in watched])
        out = f(*args)
    return out, tape.gradient(out, [args[i] for i in watched])


def _close(got, want, rtol=1e-12):
    for a, b in zip(flatten(want), flatten(got)):
        if a is None:
            assert b is None
        else:
            np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=rtol, atol=1e-13)


def _fused(compiled):
    return all(
        isinstance(r, FusedRecording) and r.fused
        for kept in compiled.recordings.values()
        for r in kept
    )


def scalar_chain(y, w, b=0.25):
    for _ in range(6):
        y = tg.tanh(y * w + b)
    return tg.sum(y)


def smooth_mix(x, y):
    a = tg.sigmoid(x) * tg.exp(-y * y) + tg.log1p(x * x) - tg.sqrt(tg.square(y) + 1.0)
    b = tg.sin(a) * tg.cos(x) + tg.arctan(y) / (1.0 + tg.cosh(x)) - tg.sinh(y * 0.5)
    c = tg.tan(tg.tanh(b)) + tg.expm1(-tg.abs(a)) ** 2 + (x * x + 1.0) ** tg.tanh(y)
    return tg.mean(c) * 3.0 + tg.sum(-a / (2.0 + tg.square(b)))


def kinks(x, y):
    m = tg.maximum(x, y) - tg.minimum(x, 0.25) + tg.clip(x, -0.5, 0.5) + tg.relu(y)
    w = tg.where(x > y, tg.softplus(x), tg.abs(y) * 0.5) + tg.where(tg.less(y, 0.0), y, -x)
    return tg.sum(m * w)


def inverse_trig(x, y):
    t = tg.tanh(x) * 0.9
    u = tg.arcsin(t) + tg.arccos(t) * tg.arctanh(t * 0.5) + tg.arcsinh(y)
    v = tg.log2(x * x + 1.5) + tg.log10(y * y + 2.0) + tg.reciprocal(1.5 + t)
    return tg.sum(u * v)


def after_sum(x, y):
    # scalars computed from sums feed more scalar ops: the gradient takes a second pass
    lse = tg.log(tg.sum(tg.exp(x)))
    return lse * tg.sum(y * y) / (1.0 + tg.mean(x) ** 2)


def scalar_weight(x, w):  # w is 0-d: broadcast against x, its gradient a sum over elements
    return tg.sum((x * w - 1.0) ** 2) + w * w


def two_outputs(x, y):
    return tg.sum(x * y), tg.tanh(x) * y


PROGRAMS = [scalar_chain, smooth_mix, kinks, inverse_trig, after_sum]


@pytest.mark.parametrize("f", PROGRAMS, ids=lambda f: f.__name__)
def test_fused_equals_eager(f):
    compiled = tg.compile(f, fuse=True)
    rng = np.random.default_rng(0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FuseWarning)
        for _ in range(3):  # records, then two fused calls on new values
            x, y = (tg.tensor(rng.uniform(-1.5, 1.5, 5)) for _ in range(2))
            _close(_value_and_grads(compiled, (x, y), (0, 1)), _value_and_grads(f, (x, y), (0, 1)))
    assert compiled.traces == 1
    assert _fused(compiled)


def test_scalar_broadcast_and_forward_without_a_tape():
    compiled = tg.compile(scalar_weight, fuse=True)
    rng = np.random.default_rng(1)
    for _ in range(3):
        x, w = tg.tensor(rng.uniform(-1, 1, (2, 3))), tg.tensor(rng.uniform(-1, 1))
        _close(
            _value_and_grads(compiled, (x, w), (0, 1)),
            _value_and_grads(scalar_weight, (x, w), (0, 1)),
        )
        _close(compiled(x, w), scalar_weight(x, w))  # the forward-only kernel
    assert _fused(compiled)


def test_cotangent_other_than_one_and_several_outputs():
    f = tg.compile(scalar_chain, fuse=True)
    x, w, b = (tg.tensor(np.linspace(-1, 1, 4) * k) for k in (1.0, 0.7, 0.3))
    for _ in range(2):
        with tg.GradientTape() as tape:
            tape.watch([w, b])
            out = f(x, w, b)
        got = tape.gradient(out, [w, b], output_gradients=tg.tensor(2.5))
        want = tg.grad(lambda w, b: scalar_chain(x, w, b) * 2.5, argnums=(0, 1))(w, b)
        _close(got, want)
    g = tg.compile(two_outputs, fuse=True)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        x, y = (tg.tensor(rng.uniform(-1, 1, 3)) for _ in range(2))
        cotangents = (tg.tensor(1.5), tg.tensor(rng.uniform(-1, 1, 3)))
        got_out, got_vjp = tg.vjp(g, x, y)
        want_out, want_vjp = tg.vjp(two_outputs, x, y)
        _close(got_out, want_out)
        _close(got_vjp(cotangents), want_vjp(cotangents))
    assert _fused(g)


def test_composes_with_transforms_and_variables():
    w = tg.Variable(np.full(4, 0.5), name="w")

    def loss(x):
        return tg.sum(tg.tanh(x * w) ** 2)

    compiled = tg.compile(loss, fuse=True)
    x = tg.tensor(np.array([0.1, -0.4, 0.9, 1.3]))
    for _ in range(3):
        _close(tg.value_and_grad(compiled)(x), tg.value_and_grad(loss)(x))
        with tg.GradientTape() as tape:
            value = compiled(x)
        got = tape.gradient(value, w)
        with tg.GradientTape() as tape:
            want = tape.gradient(loss(x), w)
        _close(got, want)
        w.assign_sub(0.1 * got.numpy())  # the replay reads the Variable's new value
    # second order: the sweep is recorded, so it runs unfused, and agrees
    _close(tg.hessian(compiled)(x), tg.hessian(loss)(x))
    assert _fused(compiled)


def test_guards_re_record_or_raise():
    def signed(x):
        total = tg.sum(x * x)
        return total if tg.sum(x) > 0 else -total  # a bool() guard on the outcome

    compiled = tg.compile(signed, fuse=True)
    for values in ([1.0, 2.0], [3.0, 1.0], [-1.0, -2.0], [2.0, 0.5], [-3.0, 1.0]):
        x = tg.tensor(values)
        _close(tg.value_and_grad(compiled)(x), tg.value_and_grad(signed)(x))
    assert compiled.traces == 2  # one recording per sign of the sum
    assert _fused(compiled)
    strict = tg.compile(signed, fuse=True, on_guard_failure="raise")
    strict(tg.tensor([1.0, 2.0]))
    strict(tg.tensor([1.0, 3.0]))
    with pytest.raises(tg.GuardError, match="bool"):
        strict(tg.tensor([-1.0, -2.0]))
    # a new shape is a new signature: recorded again, fused again
    compiled(tg.tensor([1.0, 2.0, 3.0]))
    assert compiled.traces == 3


def test_fallback_warns_once_per_recording_and_stays_right():
    def with_matmul(x, y):
        return tg.sum(tg.tanh(x @ y) * 2.0)

    compiled = tg.compile(with_matmul, fuse=True)
    x, y = tg.tensor(np.eye(2) + 0.5), tg.tensor(np.arange(4.0).reshape(2, 2))
    with pytest.warns(tg.FuseWarning, match="matmul"):
        got = _value_and_grads(compiled, (x, y), (0, 1))
    _close(got, _value_and_grads(with_matmul, (x, y), (0, 1)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FuseWarning)  # no second warning on a replay
        _close(
            _value_and_grads(compiled, (y, x), (0, 1)),
            _value_and_grads(with_matmul, (y, x), (0, 1)),
        )

    def partial_broadcast(x, y):  # (3, 1) against (1, 4): not one shape and scalars
        return tg.sum(x * y)

    compiled = tg.compile(partial_broadcast, fuse=True)
    x, y = tg.tensor(np.ones((3, 1))), tg.tensor(np.arange(4.0).reshape(1, 4))
    with pytest.warns(tg.FuseWarning, match="broadcast"):
        got = _value_and_grads(compiled, (x, y), (0, 1))
    _close(got, _value_and_grads(partial_broadcast, (x, y), (0, 1)))

    def integers(x):
        return tg.sum(x * 2)

    compiled = tg.compile(integers, fuse=True)
    with pytest.warns(tg.FuseWarning, match="int64"):
        assert compiled(tg.tensor(np.arange(3))).item() == 6


def test_without_numba_warns_and_replays(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba raises ImportError
    with pytest.warns(tg.FuseWarning, match="numba is not installed"):
        compiled = tg.compile(scalar_chain, fuse=True)
    x = tg.tensor([0.5, -0.5])
    _close(
        _value_and_grads(compiled, (x, x * 2.0, x * 0.5), (1, 2)),
        _value_and_grads(scalar_chain, (x, x * 2.0, x * 0.5), (1, 2)),
    )
    assert not compiled.fuse


def test_a_second_process_loads_the_compiled_code_from_disk(tmp_path):
    script = textwrap.dedent(
        """
        import numpy as np
        import tapegrad as tg

        def f(x, y):
            return tg.sum(tg.sin(x * y) + y)

        compiled = tg.compile(f, fuse=True)
        x, y = tg.tensor(np.linspace(0, 1, 6)), tg.tensor(np.linspace(1, 2, 6))
        for _ in range(2):
            value, grads = tg.value_and_grad(compiled, argnums=(0, 1))(x, y)
        (recording,) = compiled.recordings[next(iter(compiled.recordings))]
        stats = recording.kernel.functions["gradient"].stats
        print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()), value.item())
        """
    )
    env = dict(os.environ, TAPEGRAD_CACHE_DIR=str(tmp_path / "cache"))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")

    def run_once():
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    hits, misses, first = run_once()
    assert (hits, misses) == ("0", "1")  # compiled, and written to the cache
    hits, misses, second = run_once()
    assert (hits, misses) == ("1", "0")  # loaded from the cache
    assert first == second
    assert any(name.endswith(".nbi") for name in os.listdir(tmp_path / "cache" / "__pycache__"))


# Random elementwise programs: the op library's elementwise ops of tests/random_programs.py
# on one shape and 0-d scalars, summed by random_programs.run into one loss.
ELEMENTWISE = [
    "tanh", "sin", "sigmoid", "softplus", "exp_tanh", "log1p_sq", "sqrt_sq1", "arctan", "neg",
    "relu", "abs", "add", "sub", "mul", "div", "pow", "maximum", "where",
]  # fmt: skip


@st.composite
def elementwise_programs(draw):
    shape = draw(st.sampled_from([(3,), (2, 3), ()]), label="shape")
    count = draw(st.integers(1, 3), label="inputs")
    shapes = [draw(st.sampled_from([shape, ()])) for _ in range(count)]
    inputs = [draw(tst.arrays(s, domain="small")) for s in shapes]
    program = []
    for n in range(draw(st.integers(1, 6), label="length")):
        op = BY_NAME[draw(st.sampled_from(ELEMENTWISE))]
        operands = tuple(draw(st.integers(0, count + n - 1)) for _ in range(op.arity))
        program.append((op.name, operands, {}))
    return program, inputs


@settings(max_examples=8)
@given(elementwise_programs(), st.integers(0, 2**32 - 1))
def test_random_elementwise_programs(case, seed):
    program, inputs = case
    note(describe(program, inputs))

    def f(*values):
        return run(program, list(values))

    compiled = tg.compile(f, fuse=True)
    rng = np.random.default_rng(seed)
    others = [rng.uniform(-2, 2, np.shape(x)) for x in inputs]
    argnums = tuple(range(len(inputs)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", tg.FuseWarning)
        for values in (inputs, others, inputs):
            tensors = [tg.tensor(x) for x in values]
            want = tg.value_and_grad(f, argnums=argnums)(*tensors)
            got = tg.value_and_grad(compiled, argnums=argnums)(*tensors)
            _close(got, want, rtol=1e-10)
    assert compiled.traces == 1 and _fused(compiled)
