"""tg.linalg as a whole: NumPy's functions reach it through the protocol (np.linalg.X(t)),
float32 and complex64 stay in their precision, every name is NumPy's, and the guide's
examples run."""

import doctest
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tg

rng = np.random.default_rng(0)
SQUARE = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
SPD = SQUARE @ np.swapaxes(SQUARE, -1, -2)
TALL = rng.standard_normal((4, 3))

# name -> (arguments, keyword arguments)
CALLS = {
    "cholesky": ((SPD,), {}),
    "cond": ((SQUARE,), {}),
    "det": ((SQUARE,), {}),
    "eig": ((SQUARE,), {}),
    "eigh": ((SPD,), {}),
    "eigvals": ((SQUARE,), {}),
    "eigvalsh": ((SPD,), {}),
    "inv": ((SQUARE,), {}),
    "lstsq": ((TALL, np.ones(4)), {}),
    "matrix_norm": ((SQUARE,), {"ord": "nuc"}),
    "matrix_power": ((SQUARE, 3), {}),
    "matrix_rank": ((TALL,), {}),
    "multi_dot": (([TALL, SQUARE[0], SQUARE[1]],), {}),
    "norm": ((TALL,), {"ord": 2}),
    "pinv": ((TALL,), {}),
    "qr": ((TALL,), {}),
    "slogdet": ((SQUARE,), {}),
    "solve": ((SQUARE, np.ones(3)), {}),
    "svd": ((TALL,), {"full_matrices": False}),
    "svdvals": ((TALL,), {}),
    "tensorinv": ((np.eye(6).reshape(6, 2, 3),), {"ind": 1}),
    "tensorsolve": ((np.eye(6).reshape(2, 3, 6), np.ones((2, 3))), {}),
    "vector_norm": ((TALL,), {"ord": 3}),
}


def _flat(result):
    if isinstance(result, (tuple, list)):
        return [x for r in result for x in _flat(r)]
    return [result]


def _as_tensors(args):
    return [
        [tg.tensor(x) for x in a]
        if isinstance(a, list)
        else tg.tensor(a)
        if isinstance(a, np.ndarray)
        else a
        for a in args
    ]


def test_every_function_is_tested_here():
    assert set(CALLS) | {"LinAlgError"} == {
        n for n in tg.linalg.__all__ if not n.endswith("Result")
    }
    assert all(hasattr(np.linalg, n) for n in tg.linalg.__all__ if not n.endswith("Result"))


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numpy_calls_tapegrad_on_tensors(name):
    args, kwargs = CALLS[name]
    expected = getattr(np.linalg, name)(*args, **kwargs)
    through_numpy = getattr(np.linalg, name)(*_as_tensors(args), **kwargs)
    direct = getattr(tg.linalg, name)(*_as_tensors(args), **kwargs)
    for want, got, same in zip(_flat(expected), _flat(through_numpy), _flat(direct)):
        if isinstance(want, np.ndarray) and want.size:
            assert isinstance(got, tg.Tensor) and got.dtype == want.dtype, (got, want)
            if name not in ("eig", "eigh", "svd", "qr"):  # vectors: up to sign
                np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-12)
            np.testing.assert_array_equal(got.numpy(), same.numpy())


@pytest.mark.parametrize("name", sorted(CALLS))
@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_single_precision_stays_single(name, dtype):
    if name in ("tensorinv", "tensorsolve", "matrix_rank"):
        pytest.skip(f"{name}: its inputs here are exact")
    args, kwargs = CALLS[name]
    low = [
        [x.astype(dtype) for x in a]
        if isinstance(a, list)
        else a.astype(dtype)
        if isinstance(a, np.ndarray)
        else a
        for a in args
    ]
    expected = getattr(np.linalg, name)(*low, **kwargs)
    got = getattr(tg.linalg, name)(*_as_tensors(low), **kwargs)
    for want, have in zip(_flat(expected), _flat(got)):
        if isinstance(want, np.ndarray) and want.size:
            assert have.dtype == want.dtype, (name, have.dtype, want.dtype)
            if name not in ("eig", "eigh", "svd", "qr"):
                np.testing.assert_allclose(have.numpy(), want, rtol=2e-4, atol=2e-5)


def test_the_guide_examples_run():
    guide = Path(__file__).parents[2] / "docs" / "linalg.md"
    result = doctest.testfile(str(guide), module_relative=False)
    assert result.attempted and not result.failed
