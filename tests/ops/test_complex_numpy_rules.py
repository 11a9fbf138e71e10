"""Complex values through the NumPy namespace's families (issue 12, item 3).

The elementwise primitives those families added with ``complex_rules=True`` (inverse
trigonometric and hyperbolic functions, sinc, log2 log10 exp2 reciprocal, erf) are in
test_complex_rules.py's table; here, cumprod, copy, the convolution windows and
checkpoint, and the composite functions of the other families (statistics, joining,
layout, diagonals, selection, sorting, products, polynomials, interpolation, cumulative)
on complex input: values against NumPy's, gradients against finite differences along the
real and the imaginary direction of every element (``gradcheck``).
"""

import numpy as np
import pytest
from helpers import assert_matches
from hypothesis import given

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

C128 = np.complex128
SMALL = {"max_dims": 2, "max_side": 3}


def _complex(data, backend, shape, domain="real", label="z"):
    return backend.tensor(data.draw(tst.arrays(shape, dtype=C128, domain=domain), label=label))


@given(data=tst.st.data())
def test_cumprod(backend, data):
    z = _complex(data, backend, tst.shapes(min_dims=1, **SMALL), "nonzero")
    axis = data.draw(tst.st.integers(-z.ndim, z.ndim - 1), label="axis")
    assert_matches(tg.cumprod(z, axis=axis), np.cumprod(z.numpy(), axis=axis), rtol=1e-12)
    gradcheck(lambda a: tg.cumprod(a, axis=axis), [z])
    gradgradcheck(lambda a: tg.cumprod(a, axis=axis), [z])
    # a zero takes the rule's other branch (running products from both ends)
    values = z.numpy().copy()
    values.flat[data.draw(tst.st.integers(0, values.size - 1), label="zero")] = 0
    gradcheck(lambda a: tg.cumprod(a, axis=axis), [backend.tensor(values)])


def test_copy_and_the_convolution_windows_keep_complex_cotangents():
    rng = np.random.default_rng(0)
    z = tg.tensor(rng.standard_normal((1, 2, 4, 4)) + 1j * rng.standard_normal((1, 2, 4, 4)))
    gradcheck(tg.copy, [z])
    gradcheck(lambda a: tg.nn.im2col(a, 2, stride=1, padding=1), [z])
    gradgradcheck(lambda a: tg.nn.im2col(a, 2, stride=2), [z])
    gradgradcheck(lambda a: a[[0, 0], :, [1, 1]], [z])  # getitem, then index_add at order 2


def test_checkpoint_gives_complex_inputs_their_gradient():
    z = tg.tensor(np.array([1 + 2j, 0.5 - 1j]))
    w = tg.tensor(np.array([0.3, 0.2]))

    def f(a, b):
        return tg.sin(a) * tg.exp(a) * b

    gradcheck(lambda a, b: tg.checkpoint(f)(a, b), [z, w])
    plain = tg.grad(lambda a, b: tg.sum(tg.abs(f(a, b)) ** 2), argnums=(0, 1))(z, w)
    kept = tg.grad(lambda a, b: tg.sum(tg.abs(tg.checkpoint(f)(a, b)) ** 2), argnums=(0, 1))(z, w)
    for got, want in zip(kept, plain):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12)


# tnp function -> how to call it on a complex 2x3 z (and a second complex w, 2x3)
FAMILIES = {
    # cumulative
    "diff": lambda f, z, w: f(z, axis=1),
    "ediff1d": lambda f, z, w: f(z),
    "gradient": lambda f, z, w: f(z, axis=1),
    "trapezoid": lambda f, z, w: f(z, axis=1),
    "nancumsum": lambda f, z, w: f(z, axis=0),
    "nancumprod": lambda f, z, w: f(z, axis=1),
    # statistics
    "nansum": lambda f, z, w: f(z, axis=0),
    "nanprod": lambda f, z, w: f(z, axis=1),
    "nanmean": lambda f, z, w: f(z, axis=1),
    "nanvar": lambda f, z, w: f(z, axis=1),
    "nanstd": lambda f, z, w: f(z),
    "average": lambda f, z, w: f(z, axis=1, weights=[0.2, 0.3, 0.5]),
    "cov": lambda f, z, w: f(z),
    "corrcoef": lambda f, z, w: f(z),
    # joining and layout
    "hstack": lambda f, z, w: f([z, w]),
    "vstack": lambda f, z, w: f([z, w]),
    "dstack": lambda f, z, w: f([z, w]),
    "column_stack": lambda f, z, w: f([z, w]),
    "append": lambda f, z, w: f(z, w, axis=0),
    "moveaxis": lambda f, z, w: f(z, 0, 1),
    "roll": lambda f, z, w: f(z, 1, axis=1),
    "rot90": lambda f, z, w: f(z),
    "fliplr": lambda f, z, w: f(z),
    "ravel": lambda f, z, w: f(z),
    "insert": lambda f, z, w: f(z, 1, 7 - 2j, axis=1),
    "delete": lambda f, z, w: f(z, 1, axis=1),
    # diagonals
    "diag": lambda f, z, w: f(z, 1),
    "diagflat": lambda f, z, w: f(z[0]),
    "diagonal": lambda f, z, w: f(z),
    "trace": lambda f, z, w: f(z),
    "tril": lambda f, z, w: f(z),
    "triu": lambda f, z, w: f(z, 1),
    # selection
    "select": lambda f, z, w: f([np.array([[True, False, True]] * 2)], [z], default=w),
    "choose": lambda f, z, w: f(np.array([[0, 1, 0], [1, 1, 0]]), [z, w]),
    "compress": lambda f, z, w: f([True, False, True], z, axis=1),
    "extract": lambda f, z, w: f(np.array([[True, False, True]] * 2), z),
    # sorting: NumPy's lexicographic order, the gradient the permutation's
    "sort": lambda f, z, w: f(z, axis=1),
    "partition": lambda f, z, w: f(z, 1, axis=1),
    # products
    "inner": lambda f, z, w: f(z, w),
    "vdot": lambda f, z, w: f(z, w),
    "kron": lambda f, z, w: f(z, w),
    "tensordot": lambda f, z, w: f(z, w, axes=([1], [1])),
    "cross": lambda f, z, w: f(z, w),
    # polynomials and interpolation
    "polyval": lambda f, z, w: f(z[0], w[1]),
    "polymul": lambda f, z, w: f(z[0], w[0]),
    "polyder": lambda f, z, w: f(z[0]),
    "polyint": lambda f, z, w: f(z[0]),
    "convolve": lambda f, z, w: f(z[0], w[1]),
    "correlate": lambda f, z, w: f(z[0], w[1], mode="full"),
    "interp": lambda f, z, w: f(np.array([0.5, 1.5]), np.array([0.0, 1.0, 2.0]), z[0]),
    "float_power": lambda f, z, w: f(z, 2.0),
}


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_numpy_families_on_complex_values(name):
    call = FAMILIES[name]
    rng = np.random.default_rng(sorted(FAMILIES).index(name))
    zv, wv = (rng.uniform(0.5, 2.0, (2, 3)) + 1j * rng.uniform(-1, 1, (2, 3)) for _ in range(2))
    expected = call(getattr(np, name), zv, wv)
    got = call(getattr(tnp, name), tg.tensor(zv), tg.tensor(wv))
    assert_matches(got, expected, rtol=1e-10)
    z, w = tg.tensor(zv), tg.tensor(wv)
    gradcheck(lambda a, b: call(getattr(tnp, name), a, b), [z, w])
