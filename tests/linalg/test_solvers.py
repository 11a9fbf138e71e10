"""tapegrad/linalg/solvers.py: inv solve tensorinv tensorsolve solve_triangular."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linalg_inputs import check, problems

import tapegrad as tg
from tapegrad.linalg.solvers import solve_triangular


@given(problem=problems())
def test_inv(problem, backend):
    a = problem.general()
    np.testing.assert_allclose(tg.linalg.inv(backend.tensor(a)).numpy(), np.linalg.inv(a))
    check(tg.linalg.inv, [backend.tensor(a)], problem.small)


@given(problem=problems(), data=st.data())
def test_solve(problem, data, backend):
    a, n = problem.general(), problem.n
    # b: one vector (broadcast over a's batch), a stack of matrices, or a matrix broadcast
    shape = data.draw(st.sampled_from([(n,), problem.batch + (n, 2), (n, 1)]), label="b")
    b = problem.rng.standard_normal(shape).astype(problem.dtype)
    got = tg.linalg.solve(backend.tensor(a), backend.tensor(b))
    np.testing.assert_allclose(got.numpy(), np.linalg.solve(a, b), rtol=1e-10)
    check(tg.linalg.solve, [backend.tensor(a), backend.tensor(b)], problem.small)


@given(problem=problems(), lower=st.booleans(), adjoint=st.booleans(), unit=st.booleans())
def test_solve_triangular(problem, lower, adjoint, unit, backend):
    a = problem.random(problem.n, problem.n) * 0.3 + 2 * np.eye(problem.n)
    b = problem.random(problem.n, 2)
    t = np.tril(a) if lower else np.triu(a)
    if unit:  # the diagonal is not read: ones
        t = t * (1 - np.eye(problem.n)) + np.eye(problem.n)
    expected = np.linalg.solve(np.conj(np.swapaxes(t, -1, -2)) if adjoint else t, b)

    def f(a, b):
        return solve_triangular(a, b, lower=lower, adjoint=adjoint, unit_diagonal=unit)

    np.testing.assert_allclose(f(backend.tensor(a), backend.tensor(b)).numpy(), expected)
    check(f, [backend.tensor(a), backend.tensor(b)], problem.small)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128])
@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular_without_scipy_gives_scipys_solution(dtype, adjoint, unit, monkeypatch):
    # One matrix on the CPU goes to SciPy's LAPACK trtrs; without SciPy, the general solver.
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((4, 4)) + 4 * np.eye(4)).astype(dtype)
    b = rng.standard_normal((4, 2)).astype(dtype)
    if np.iscomplexobj(a):
        a, b = a + 0.5j * np.tril(a), b - 1j
    fast = solve_triangular(a, b, lower=True, adjoint=adjoint, unit_diagonal=unit).numpy()
    monkeypatch.setattr("tapegrad.linalg.solvers._scipy_solve_triangular", None)
    slow = solve_triangular(a, b, lower=True, adjoint=adjoint, unit_diagonal=unit).numpy()
    assert fast.dtype == slow.dtype == dtype
    np.testing.assert_allclose(fast, slow, rtol=1e-4 if dtype == np.float32 else 1e-12)


def test_solve_triangular_of_a_singular_triangle_names_the_op():
    with pytest.raises(np.linalg.LinAlgError, match=r"(?i)solve_triangular: .*singular"):
        solve_triangular(np.zeros((2, 2)), np.ones((2, 1)), lower=True)


@given(problem=problems(max_n=2, batch=False))
def test_tensorinv_and_tensorsolve(problem, backend):
    a = problem.general(6, 6).reshape(6, 2, 3)
    got = tg.linalg.tensorinv(backend.tensor(a), ind=1)
    np.testing.assert_allclose(got.numpy(), np.linalg.tensorinv(a, ind=1))
    check(lambda a: tg.linalg.tensorinv(a, ind=1), [backend.tensor(a)], False)
    a = a.reshape(2, 3, 2, 3)
    b = problem.random(2, 3)
    np.testing.assert_allclose(
        tg.linalg.tensorsolve(backend.tensor(a), backend.tensor(b)).numpy(),
        np.linalg.tensorsolve(a, b),
    )
    moved = np.moveaxis(a, -1, 0)  # axes=(0,) moves it back to the end
    f = lambda a, b: tg.linalg.tensorsolve(a, b, axes=(0,))  # noqa: E731
    np.testing.assert_allclose(
        f(backend.tensor(moved), backend.tensor(b)).numpy(),
        np.linalg.tensorsolve(moved, b, axes=(0,)),
    )
    check(f, [backend.tensor(moved), backend.tensor(b)], False)


def test_errors_name_the_function_and_the_shapes():
    with pytest.raises(np.linalg.LinAlgError, match=r"inv: expected a square matrix .* \(2, 3\)"):
        tg.linalg.inv(tg.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match=r"inv: .*Singular matrix"):
        tg.linalg.inv(tg.zeros((2, 2)))
    with pytest.raises(np.linalg.LinAlgError, match=r"solve: b of shape \(3,\) .* \(2, 2\)"):
        tg.linalg.solve(tg.eye(2), tg.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match=r"solve: the batch axes"):
        tg.linalg.solve(tg.ones((2, 2, 2)) + tg.eye(2), tg.ones((3, 2, 1)))
    with pytest.raises(np.linalg.LinAlgError, match="tensorinv: the first 1 axes"):
        tg.linalg.tensorinv(tg.ones((2, 2, 3)), ind=1)
    with pytest.raises(ValueError, match="tensorinv: ind must be a positive integer"):
        tg.linalg.tensorinv(tg.ones((2, 2)), ind=0)


def test_singular_solve_leaves_the_tape_as_it_was():
    a = tg.Variable(np.zeros((2, 2)))
    with tg.GradientTape() as tape:
        y = a * 2.0
        with pytest.raises(np.linalg.LinAlgError, match="solve"):
            tg.linalg.solve(y, tg.ones(2))
        assert len(tape) == 1
