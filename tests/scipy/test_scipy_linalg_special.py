"""tapegrad/scipy/linalg's special matrices: the constant ones are SciPy's own, the ones
built from arrays match SciPy on edge shapes and batches, and refuse bad input clearly.
(Values and gradients on the sample inputs: tests/scipy/test_scipy_options.py.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("scipy.linalg", reason="the scipy extra is not installed")

import scipy.linalg as sl  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import linalg  # noqa: E402
from tapegrad.scipy.linalg import constant_matrices  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

CONSTANT_CALLS = [
    ("dft", (4,), {}),
    ("dft", (3,), {"scale": "sqrtn"}),
    ("dft", (3,), {"scale": "n"}),
    ("hadamard", (4,), {}),
    ("hadamard", (2,), {"dtype": float}),
    ("helmert", (4,), {}),
    ("helmert", (4,), {"full": True}),
    ("hilbert", (3,), {}),
    ("invhilbert", (4,), {}),
    ("invhilbert", (4,), {"exact": True}),
    ("pascal", (4,), {}),
    ("pascal", (4,), {"kind": "upper", "exact": False}),
    ("invpascal", (4,), {"kind": "lower"}),
    ("invpascal", (3,), {"exact": False}),
]


@pytest.mark.parametrize("name, args, kwargs", CONSTANT_CALLS)
def test_constant_matrices_are_scipys(name, args, kwargs):
    expected = getattr(sl, name)(*args, **kwargs)
    for n in (args[0], tg.tensor(args[0])):  # an integer Tensor is read as its int
        ours = getattr(constant_matrices, name)(n, **kwargs)
        assert type(ours) is np.ndarray and ours.dtype == expected.dtype
        np.testing.assert_array_equal(ours, expected)


def test_constant_matrices_refuse_a_non_integer_size():
    with pytest.raises(TypeError, match="hilbert: n must be an integer"):
        constant_matrices.hilbert(tg.tensor([2, 3]))


def test_the_namespace_has_every_special_matrix():
    names = ["block_diag", "circulant", "companion", "convolution_matrix", "dft", "fiedler",
             "fiedler_companion", "hadamard", "hankel", "helmert", "hilbert", "invhilbert",
             "invpascal", "leslie", "pascal", "toeplitz"]  # fmt: skip
    assert [n for n in names if n not in linalg.__all__ or not hasattr(linalg, n)] == []


EDGES = [
    ("toeplitz", ([2.0],), {}),
    ("toeplitz", ([1.0, 2.0], [3.0]), {}),
    ("toeplitz", (np.arange(6.0).reshape(2, 3), np.ones((4, 1, 5))), {}),
    ("toeplitz", (np.array([1.0, 2.0], np.float32),), {}),
    ("circulant", ([2.0],), {}),
    ("circulant", (np.arange(24.0).reshape(2, 3, 4),), {}),
    ("hankel", ([1.0, 2.0, 3.0], [7.0]), {}),
    ("companion", (np.array([2.0, 3.0, 4.0], np.float32),), {}),
    ("companion", (np.arange(1.0, 13.0).reshape(2, 3, 2),), {}),
    ("convolution_matrix", ([1.0, 2.0, 3.0, 4.0], 6, "same"), {}),
    ("convolution_matrix", ([1.0], 3, "valid"), {}),
    ("convolution_matrix", (np.arange(1.0, 7.0).reshape(2, 3), 3), {"mode": "same"}),
    ("fiedler", ([],), {}),
    ("fiedler", ([[3.0]],), {}),
    ("fiedler", (np.arange(6.0).reshape(2, 3),), {}),
    ("fiedler_companion", ([],), {}),
    ("fiedler_companion", ([2.0],), {}),
    ("fiedler_companion", ([2.0, 3.0],), {}),
    ("fiedler_companion", (np.arange(1.0, 15.0).reshape(2, 7),), {}),
    ("leslie", ([1.0, 2.0], [3.0]), {}),
    ("leslie", (np.ones((2, 3)), np.arange(8.0).reshape(4, 1, 2)), {}),
]


@pytest.mark.parametrize(
    "name, args, kwargs", EDGES, ids=[f"{e[0]}-{i}" for i, e in enumerate(EDGES)]
)
def test_edge_shapes_and_batches_match_scipy(name, args, kwargs):
    expected = getattr(sl, name)(*args, **kwargs)
    tensors = [tg.tensor(np.asarray(a)) if not isinstance(a, (int, str)) else a for a in args]
    ours = getattr(linalg, name)(*tensors, **kwargs)
    assert isinstance(ours, tg.Tensor)
    assert ours.shape == expected.shape and ours.dtype == expected.dtype
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-12)


def test_hankel_ravels_multidimensional_input_with_scipys_warning():
    c = np.arange(4.0).reshape(2, 2)
    with pytest.warns(FutureWarning, match="ravel"):
        expected = sl.hankel(c, [9.0, 5.0])
    with pytest.warns(FutureWarning, match="ravel"):
        ours = linalg.hankel(tg.tensor(c), tg.tensor([9.0, 5.0]))
    np.testing.assert_array_equal(ours.numpy(), expected)


def test_complex_toeplitz_differentiates_twice():
    def f(re, im):
        z = linalg.toeplitz(re + 1j * im)
        return tg.real(z * z)

    args = [np.array([0.3, 0.5, 0.7]), np.array([0.2, -0.4, 0.6])]
    gradcheck(f, args)
    gradgradcheck(f, args, atol=1e-5)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: linalg.toeplitz(tg.ones((2, 3)), tg.ones((4, 5))), ValueError, r"\(2, 3\)"),
        (lambda: linalg.companion(tg.tensor([1.0])), ValueError, "at least 2"),
        (lambda: linalg.companion(tg.tensor([0.0, 1.0])), ValueError, "must not be zero"),
        (lambda: linalg.fiedler_companion(tg.tensor([0.0, 1.0, 2.0])), ValueError, "zero"),
        (lambda: linalg.leslie(tg.ones(3), tg.ones(3)), ValueError, r"\(3,\) and \(3,\)"),
        (lambda: linalg.leslie(tg.ones(1), tg.ones(0)), ValueError, "at least 1"),
        (lambda: linalg.convolution_matrix(tg.ones(3), 2.0), TypeError, "integer"),
        (lambda: linalg.convolution_matrix(tg.ones(0), 2), ValueError, "at least 1"),
        (lambda: linalg.hankel(tg.tensor(1.0)), ValueError, "at least one axis"),
    ],
)
def test_bad_input_is_refused_naming_the_problem(call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        with pytest.raises(error, match=message):
            call()
