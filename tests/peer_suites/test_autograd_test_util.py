"""The stand-in ``autograd.test_util`` (autograd_test_util.py) catches wrong derivatives
of each order and mode, and ``combo_check`` runs every combination."""

from __future__ import annotations

import numpy as np
import pytest
from autograd_test_util import check_grads, combo_check

import tapegrad as tg


@tg.custom_gradient
def sin_wrong_first(x):
    return tg.sin(x), lambda g: g * tg.cos(x) * 1.01


@tg.custom_gradient
def sin_wrong_second(x):
    # the right first derivative, but a constant to the next tape: no second derivative
    return tg.sin(x), lambda g: g * tg.stop_gradient(tg.cos(x))


def _x():
    return np.array([0.3, -1.2, 2.0])


@pytest.mark.parametrize("modes", [["rev"], ["fwd"], ["fwd", "rev"]])
def test_right_derivatives_pass(modes):
    check_grads(lambda x, y: tg.sin(x) * y**2, argnum=(0, 1), modes=modes)(_x(), 1.5)


@pytest.mark.parametrize("modes", [["rev"], ["fwd"]])
def test_a_wrong_first_derivative_fails(modes):
    with pytest.raises(AssertionError):
        check_grads(sin_wrong_first, modes=modes, order=1)(_x())


@pytest.mark.parametrize("modes", [["rev"], ["fwd"]])
def test_a_wrong_second_derivative_fails_at_order_two_only(modes):
    check_grads(sin_wrong_second, modes=modes, order=1)(_x())
    with pytest.raises(AssertionError):
        check_grads(sin_wrong_second, modes=modes, order=2)(_x())


def test_only_the_named_arguments_are_differentiated():
    # a wrong derivative in the argument not named is not checked
    f = lambda x, y: tg.sin(x) + sin_wrong_first(y)  # noqa: E731
    check_grads(f, argnum=0, modes=["rev"])(_x(), _x())
    with pytest.raises(AssertionError):
        check_grads(f, argnum=1, modes=["rev"])(_x(), _x())


def test_nested_arguments_are_differentiated_leaf_by_leaf():
    f = lambda pair: pair[0] * sin_wrong_first(pair[1])  # noqa: E731
    with pytest.raises(AssertionError):
        check_grads(f, modes=["rev"], order=1)((_x(), _x()))


def test_complex_inputs():
    check_grads(lambda z: tg.exp(z) * z, modes=["rev"])(np.array([0.3 + 0.2j, -1.0 + 0.5j]))


def test_combo_check_runs_every_combination():
    seen = []

    def f(x, power=1):
        seen.append((np.shape(x), power))
        return x**power

    combo_check(f, [0], modes=["rev"], order=1)([1.5, np.ones(2)], power=[1, 2, 3])
    assert {(s, p) for s, p in seen} == {(s, p) for s in [(), (2,)] for p in (1, 2, 3)}
