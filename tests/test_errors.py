"""Bad input gets a clear error naming the op, and leaves every tape and Variable as it was."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops import Primitive


def _snapshot(tape, *variables):
    return (
        len(tape),
        set(tape._watched),
        [(v.version, np.array(v.data)) for v in variables],
    )


def _same(before, after):
    assert before[0] == after[0] and before[1] == after[1]
    for (v1, a1), (v2, a2) in zip(before[2], after[2]):
        assert v1 == v2 and np.array_equal(a1, a2)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda w: w + tg.ones(4),
            ValueError,
            r"^add: shapes \(2, 3\) and \(4,\) cannot broadcast$",
        ),
        (
            lambda w: w @ tg.ones((4, 5)),
            ValueError,
            r"^matmul: inner dimensions differ: \(2, 3\) @ \(4, 5\)",
        ),
        (lambda w: tg.reshape(w, (4,)), ValueError, r"^reshape: .*size 6.*\(2, 3\) float64"),
        (lambda w: tg.sum(w, axis=2), ValueError, r"^sum: axis 2 is out of bounds for a 2-d input"),
        (lambda w: tg.concatenate([w, tg.ones((2, 2))], axis=0), ValueError, r"^concatenate: .*"),
        (lambda w: w[5], IndexError, r"^getitem: .*out of bounds"),
        (
            lambda w: np.lib.stride_tricks.sliding_window_view(w, 2),
            TypeError,
            r"numpy\.lib\.stride_tricks\.sliding_window_view",
        ),
        (lambda w: np.exp(w, out=np.empty((2, 3))), TypeError, r"out=\.\.\."),
        (lambda w: tg.pad(w, 1, mode="median"), NotImplementedError, r"pad: mode 'median'"),
    ],
)
def test_bad_input_names_the_op_and_leaves_the_tape(call, error, message):
    w = tg.Variable(np.arange(6.0).reshape(2, 3), name="w")
    with tg.GradientTape() as tape:
        y = w * 2.0
        before = _snapshot(tape, w)
        with pytest.raises(error, match=message):
            call(w)
        _same(before, _snapshot(tape, w))
    assert tape.gradient(y, w).numpy().tolist() == [[2.0] * 3] * 2


def test_watching_an_integer_tensor_raises_type_error():
    tape = tg.GradientTape()
    with pytest.raises(TypeError, match=r"watch: cannot watch an int64 Tensor of shape \(3,\)"):
        tape.watch(tg.tensor([1, 2, 3]))
    with pytest.raises(TypeError, match="expected a Tensor, got ndarray"):
        tape.watch(np.ones(3))
    assert tape._watched == set()


def test_a_floating_op_without_a_rule_raises_lookup_error_before_recording():
    no_rule = Primitive("mystery", lambda xp, x: x * 2)
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 3.0
        with pytest.raises(LookupError, match=r"mystery: no gradient rule for input 0"):
            no_rule(x)
        assert len(tape) == 1
    # Without a tape watching its input, the op just runs.
    assert no_rule(x).numpy().tolist() == [2.0, 4.0]
    assert tape.gradient(y, x).numpy().tolist() == [3.0, 3.0]


def test_a_wrong_rule_fails_loudly_naming_the_op():
    bad = Primitive("badsum", lambda xp, x: xp.sum(x)).defvjp(lambda g, ans, x: g)
    x = tg.tensor([1.0, 2.0, 3.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = bad(x)
    with pytest.raises(
        RuntimeError, match=r"badsum: the gradient rule for input 0 returned shape \(\)"
    ):
        tape.gradient(y, x)


def test_sources_must_be_tensors():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(TypeError, match="sources must be Tensors, got float"):
        tape.gradient(y, [x, 1.0])
    assert tape.gradient(y, x).item() == 2.0


def test_variable_assign_checks_shape_and_dtype():
    w = tg.Variable(np.zeros((2, 2), dtype=np.float32), name="w")
    with pytest.raises(ValueError, match=r"assign: Variable 'w' is \(2, 2\) float32, got \(3,\)"):
        w.assign(np.zeros(3))
    assert w.version == 0


def test_unknown_device_is_rejected():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        tg.tensor(1.0, device="tpu")


def test_complex_targets_need_output_gradients():
    z = tg.tensor(np.array([1 + 2j, 3 - 1j]))
    with tg.GradientTape() as tape:
        tape.watch(z)
        y = z * z
    with pytest.raises(TypeError, match=r"target is complex128 \(shape \(2,\)\).*must be real"):
        tape.gradient(y, z)
    assert len(tape) == 1  # checked before the sweep: the tape can still answer
    g = tape.gradient(y, z, output_gradients=np.ones(2, complex))
    np.testing.assert_allclose(g.numpy(), 2 * np.conj(z.numpy()))
    with pytest.raises(TypeError, match="real floating-point scalar .*loss must be real"):
        tg.grad(lambda x: tg.sum(x * x))(np.array([1j]))


def test_ordering_ops_have_no_complex_gradient():
    z = tg.tensor(np.array([1 + 2j, 3 - 1j]))
    with tg.GradientTape() as tape:
        tape.watch(z)
        with pytest.raises(TypeError, match=r"max: no gradient for complex values \(complex128"):
            tg.max(z)
        with pytest.raises(TypeError, match="maximum: no gradient for complex values"):
            tg.maximum(z, 0)
    assert len(tape) == 0
    assert tg.max(z).item() == 3 - 1j  # computing, as NumPy does, is fine


def test_an_unsupported_numpy_function_says_what_to_do():
    with pytest.raises(TypeError, match=r"tg\.custom_gradient or tg\.Primitive.*docs/extending"):
        np.lib.stride_tricks.sliding_window_view(tg.tensor(np.eye(2)), 2)


def test_numpy_warnings_point_at_the_users_line(tmp_path):
    # NumPy warns from C at the innermost Python frame: tapegrad's forward, unless redirected.
    script = tmp_path / "user_code.py"
    script.write_text(
        "import numpy as np\n"
        "import tapegrad as tg\n"
        "x = tg.tensor([-1.0, 0.0])\n"
        "y = tg.log(x)\n"
        "z = np.log(x)\n"
        "for _ in range(3):\n"
        "    w = x / 0.0\n"
    )
    import subprocess
    import sys

    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=True)
    lines = [line for line in run.stderr.splitlines() if "RuntimeWarning" in line]
    assert all(line.startswith(f"{script}:") for line in lines), run.stderr
    assert sorted({line.split(":")[1] for line in lines}) == ["4", "5", "7"]
    assert len(lines) == 6  # two kinds (divide by zero, invalid) per line; the loop once
    assert "primitive.py" not in run.stderr
    # Code with no file of its own (python -c, a notebook cell) is fine too.
    run = subprocess.run(
        [sys.executable, "-c", "import tapegrad as tg; tg.log(tg.tensor(-1.0))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "<string>:1: RuntimeWarning: invalid value encountered in log" in run.stderr
