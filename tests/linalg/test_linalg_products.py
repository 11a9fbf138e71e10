"""tapegrad/linalg/products.py: matrix_power multi_dot."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, problems

import tapegrad as tg


@given(problem=problems(), power=st.integers(-4, 5))
def test_matrix_power(problem, power, backend):
    a = problem.general() / 2
    got = tg.linalg.matrix_power(backend.tensor(a), power)
    np.testing.assert_allclose(got.numpy(), np.linalg.matrix_power(a, power), rtol=1e-10)
    if power:
        check(lambda a: tg.linalg.matrix_power(a, power), [backend.tensor(a)], problem.small)


@given(
    count=st.integers(2, 5), ends=st.tuples(st.booleans(), st.booleans()), seed=st.integers(0, 99)
)
def test_multi_dot(count, ends, seed, backend):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 4, count + 1)
    arrays = [rng.standard_normal((sizes[k], sizes[k + 1])) for k in range(count)]
    if ends[0]:
        arrays[0] = arrays[0][0]
    if ends[1]:
        arrays[-1] = arrays[-1][:, 0]
    tensors = [backend.tensor(a) for a in arrays]
    np.testing.assert_allclose(tg.linalg.multi_dot(tensors).numpy(), np.linalg.multi_dot(arrays))
    check(lambda *xs: tg.linalg.multi_dot(list(xs)), tensors, False)


def test_errors():
    with pytest.raises(TypeError, match="matrix_power: the exponent must be an integer"):
        tg.linalg.matrix_power(tg.eye(2), 1.5)
    with pytest.raises(ValueError, match="multi_dot: expecting at least two arrays"):
        tg.linalg.multi_dot([tg.eye(2)])
    with pytest.raises(ValueError, match=r"multi_dot: the arrays must be 2-d .* \(2, 2, 2\)"):
        tg.linalg.multi_dot([tg.eye(2), tg.ones((2, 2, 2)), tg.eye(2)])
