"""tapegrad/linalg/norms.py: norm (every ord) vector_norm matrix_norm cond matrix_rank."""

import numpy as np
import pytest
from helpers import value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, problems

import tapegrad as tg

VECTOR_ORDS = [None, 2, 1, np.inf, -np.inf, 3, 0.5, -1.5]
MATRIX_ORDS = [None, "fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]


@given(problem=problems(batch=False), ord=st.sampled_from(VECTOR_ORDS), data=st.data())
def test_vector_norms(problem, ord, data, backend):
    x = problem.random(3, 4) + 2.0  # no zeros: every order is differentiable
    x = x * np.sign(problem.rng.standard_normal(x.shape))  # no ties either, almost surely
    axis = data.draw(st.sampled_from([0, 1, -1]), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    got = tg.linalg.norm(backend.tensor(x), ord, axis=axis, keepdims=keepdims)
    expected = np.linalg.norm(x, ord, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    check(
        lambda x: tg.linalg.norm(x, ord, axis=axis, keepdims=keepdims),
        [backend.tensor(x)],
        ord not in (np.inf, -np.inf),
    )


@given(problem=problems(), ord=st.sampled_from(MATRIX_ORDS), keepdims=st.booleans())
def test_matrix_norms(problem, ord, keepdims, backend):
    a = problem.general(3, problem.n)
    axis = (-2, -1) if problem.batch else (1, 0)
    got = tg.linalg.norm(backend.tensor(a), ord, axis=axis, keepdims=keepdims)
    expected = np.linalg.norm(a, ord, axis=axis, keepdims=keepdims)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12)
    check(
        lambda a: tg.linalg.norm(a, ord, axis=axis, keepdims=keepdims), [backend.tensor(a)], False
    )


@given(problem=problems(batch=False))
def test_norm_without_axis_and_the_array_api_names(problem, backend):
    x = problem.random(2, 3)
    for ord in (None, "fro", 2, "nuc"):
        np.testing.assert_allclose(
            tg.linalg.norm(backend.tensor(x), ord).numpy(), np.linalg.norm(x, ord)
        )
    np.testing.assert_allclose(
        tg.linalg.norm(backend.tensor(x), keepdims=True).numpy(), np.linalg.norm(x, keepdims=True)
    )
    np.testing.assert_allclose(
        tg.linalg.vector_norm(backend.tensor(x), ord=3, axis=(0, 1)).numpy(),
        np.linalg.vector_norm(x, ord=3, axis=(0, 1)),
    )
    np.testing.assert_allclose(
        tg.linalg.matrix_norm(backend.tensor(x), ord=1).numpy(), np.linalg.matrix_norm(x, ord=1)
    )
    check(lambda x: tg.linalg.vector_norm(x, ord=3), [backend.tensor(x)], False)


def test_norm_zero_order_counts_nonzeros():
    x = tg.tensor([0.0, 2.0, -1.0])
    assert tg.linalg.norm(x, 0).item() == 2.0


@pytest.mark.parametrize("ord", [None, 2, 3, 1, np.inf, "fro"])
def test_norm_gradient_at_zero_is_zero(ord):
    # autograd and JAX give NaN at the zero vector; 0 is the smallest subgradient (abs at 0)
    x = np.zeros((2, 2)) if ord == "fro" else np.zeros(3)
    _, (g,) = value_and_gradients(lambda x: tg.linalg.norm(x, ord), tg.tensor(x))
    np.testing.assert_array_equal(g.numpy(), np.zeros_like(x))


def test_norm_gradients_at_ties_and_zero_entries():
    _, (g,) = value_and_gradients(lambda x: tg.linalg.norm(x, np.inf), tg.tensor([3.0, -3.0, 1.0]))
    np.testing.assert_allclose(g.numpy(), [0.5, -0.5, 0.0])  # autograd: NaN
    _, (g,) = value_and_gradients(lambda x: tg.linalg.norm(x, 3), tg.tensor([0.0, 2.0]))
    np.testing.assert_allclose(g.numpy(), [0.0, 1.0])
    _, (g,) = value_and_gradients(lambda x: tg.linalg.norm(x, 0.5), tg.tensor([0.0, 2.0]))
    assert np.isnan(g.numpy()[0])  # |x|^0.5: infinite slope at 0
    np.testing.assert_allclose(g.numpy()[1], 1.0, rtol=1e-14)  # 2 sqrt(2) / (2 sqrt(2))


@given(problem=problems(), p=st.sampled_from([None, 2, -2, 1, np.inf, "fro", "nuc"]))
def test_cond(problem, p, backend):
    a = problem.general()
    np.testing.assert_allclose(
        tg.linalg.cond(backend.tensor(a), p).numpy(), np.linalg.cond(a, p), rtol=1e-10
    )
    check(lambda a: tg.linalg.cond(a, p), [backend.tensor(a)], False)


def test_cond_of_singular_matrices_is_inf():
    a = np.stack([np.eye(2), np.zeros((2, 2)), np.ones((2, 2))])
    for p in (None, 1):
        np.testing.assert_array_equal(tg.linalg.cond(a, p).numpy(), np.linalg.cond(a, p))


def test_matrix_rank(backend):
    rng = np.random.default_rng(0)
    a = np.stack([rng.standard_normal((4, r)) @ rng.standard_normal((r, 3)) for r in (0, 1, 3)])
    got = tg.linalg.matrix_rank(backend.tensor(a))
    np.testing.assert_array_equal(got.numpy(), np.linalg.matrix_rank(a))
    np.testing.assert_array_equal(
        tg.linalg.matrix_rank(backend.tensor(a), tol=1.0).numpy(), np.linalg.matrix_rank(a, tol=1.0)
    )
    h = a[2].T @ a[2]
    assert int(tg.linalg.matrix_rank(backend.tensor(h), hermitian=True)) == 3
    assert tg.linalg.matrix_rank(np.zeros(3)) == 0 and tg.linalg.matrix_rank(np.ones(3)) == 1
    with tg.GradientTape() as tape:
        x = tg.tensor(a)
        tape.watch(x)
        tg.linalg.matrix_rank(x)
    assert len(tape) == 0  # no gradient, nothing recorded


def test_norm_errors():
    with pytest.raises(ValueError, match="norm: invalid norm order 'nuc' for vectors"):
        tg.linalg.norm(tg.ones(3), "nuc")
    with pytest.raises(ValueError, match="norm: invalid norm order 3 for matrices"):
        tg.linalg.norm(tg.ones((2, 2)), 3)
    with pytest.raises(ValueError, match="norm: improper number of dimensions"):
        tg.linalg.norm(tg.ones((2, 2, 2)), 2)
    with pytest.raises(ValueError, match="norm: duplicate axes"):
        tg.linalg.norm(tg.ones((2, 2)), axis=(0, 0))
