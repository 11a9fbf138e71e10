"""tapegrad/ops/complex.py: real imag conj angle, their Tensor methods and NumPy spellings.

Their gradients on complex inputs (both directions, second order) are checked with
every other op in tests/ops/test_complex_rules.py; here, values, real inputs and the
exact gradients the convention gives (docs/complex.md).
"""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given

import tapegrad as tg
from tapegrad.ops.arithmetic import cast_cotangent
from tapegrad.testing import gradcheck
from tapegrad.testing import strategies as tst

Z = np.array([[1 + 2j, -0.5 + 0.25j, 0j], [3 - 1j, -2 - 2j, 1.5j]])


@pytest.mark.parametrize(
    ("op", "reference"),
    [(tg.real, np.real), (tg.imag, np.imag), (tg.conj, np.conj), (tg.angle, np.angle)],
    ids=["real", "imag", "conj", "angle"],
)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_values_and_dtypes_match_numpy(op, reference, dtype, backend):
    z = backend.tensor(Z.astype(dtype))
    assert_matches(op(z), reference(Z.astype(dtype)), rtol=1e-6)


def test_angle_in_degrees(backend):
    z = backend.tensor(Z)
    assert_matches(tg.angle(z, deg=True), np.angle(Z, deg=True), rtol=1e-12)
    gradcheck(lambda a: tg.angle(a, deg=True), [backend.tensor(np.array([1 + 1j, -1 + 2j]))])


def test_exact_gradients(backend):
    # L = sum(real(z)) + 2 sum(imag(z)): dL/dx + i dL/dy = 1 + 2i everywhere.
    z = backend.tensor(Z)
    _, (g,) = value_and_gradients(lambda a: tg.sum(tg.real(a)) + 2 * tg.sum(tg.imag(a)), z)
    np.testing.assert_array_equal(g.numpy(), np.full(Z.shape, 1 + 2j))
    # real(conj(z) * w) = x u + y v for w = u + iv: the gradient is w.
    w = 0.5 - 3j
    _, (g,) = value_and_gradients(lambda a: tg.real(tg.conj(a) * w), z)
    np.testing.assert_array_equal(g.numpy(), np.full(Z.shape, w))


@given(data=tst.st.data())
def test_real_inputs(backend, data):
    # real and conj of a real value are that value, imag is zeros, angle is 0 or pi.
    x = backend.tensor(data.draw(tst.arrays(domain="nonzero"), label="x"))
    assert tg.real(x) is x and tg.conj(x) is x and x.conj() is x and x.real is x
    assert_matches(tg.imag(x), np.imag(x.numpy()))
    assert_matches(tg.angle(x), np.angle(x.numpy()))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.angle(x))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), np.zeros(x.shape))


def test_python_numbers_and_lists():
    assert tg.real([1 + 2j, 3.0]).numpy().tolist() == [1.0, 3.0]
    assert tg.imag(2.0).item() == 0.0
    assert tg.conj(1j).item() == -1j
    assert tg.angle(-1.0).item() == pytest.approx(np.pi)


def test_tensor_methods_and_numpy_spellings(backend):
    z = backend.tensor(Z)
    with tg.GradientTape() as tape:
        tape.watch(z)
        parts = [z.real, z.imag, z.conj(), z.conjugate()]
        if backend.name == "numpy":  # the protocols are NumPy's
            parts += [np.real(z), np.imag(z), np.conj(z), np.conjugate(z), np.angle(z)]
    for got, want in zip(parts, [Z.real, Z.imag, Z.conj(), Z.conj(), *[Z.real, Z.imag]]):
        np.testing.assert_array_equal(got.numpy(), want)
    if backend.name == "numpy":
        np.testing.assert_array_equal(parts[-1].numpy(), np.angle(Z))
    assert len(tape) == len(parts)  # each recorded


def test_conjugate_is_conj():
    assert tg.conjugate is tg.conj


@pytest.mark.parametrize(
    ("dtype", "to", "expected"),
    [
        (np.complex128, np.float64, np.float64),
        (np.complex128, np.float32, np.float32),
        (np.float64, np.complex64, np.complex64),
        (np.complex64, np.complex128, np.complex128),
    ],
)
def test_cast_cotangent_takes_the_real_part_for_a_real_input(dtype, to, expected, backend):
    values = np.array([1.5 + 2j, -1 - 1j])
    values = (values if np.dtype(dtype).kind == "c" else values.real).astype(dtype)
    out = cast_cotangent(backend.tensor(values), backend.tensor(np.zeros(1, to)).dtype)
    want = values.real if np.dtype(to).kind == "f" else values
    assert_matches(out, want.astype(expected), rtol=1e-6)
