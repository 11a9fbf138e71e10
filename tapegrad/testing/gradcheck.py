"""Compare the tape's gradients with central finite differences, in float64."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import backend, ops
from tapegrad.tape import GradientTape, _flatten
from tapegrad.tensor import Tensor


def _as_float64(x: Any) -> Tensor:
    data = x._data if isinstance(x, Tensor) else x
    xp = backend.namespace(data)
    if xp is np:
        return Tensor(np.array(data, dtype=np.float64))
    return Tensor(xp.astype(xp.asarray(data), xp.float64))


def _outputs(f: Callable[..., Any], inputs: Sequence[Tensor]) -> list[Tensor]:
    out = _flatten(f(*inputs))
    for o in out:
        if not isinstance(o, Tensor):
            raise TypeError(f"gradcheck: f must return Tensors, got {type(o).__name__}")
    return out


def _projected(f: Callable[..., Any], inputs: Sequence[Tensor], cotangents: list[Any]) -> float:
    """``sum(<f(inputs)_k, u_k>)`` as a Python float, with no tape involved."""
    total = 0.0
    for o, u in zip(_outputs(f, inputs), cotangents):
        total += float(np.sum(backend.to_host(o._data) * u))
    return total


def gradcheck(
    f: Callable[..., Any],
    inputs: Sequence[Any],
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-4,
    seed: int = 0,
) -> bool:
    """Check ``f``'s reverse-mode gradient against central differences.

    ``f`` takes the inputs (converted to float64 Tensors) and returns a Tensor
    or a nest of them. For a random cotangent ``u`` (fixed by ``seed``), the
    tape's ``J^T u`` must match ``(<u, f(x + eps e_i)> - <u, f(x - eps e_i)>) / 2 eps``
    for every input element. Raises AssertionError naming the worst element;
    returns True.

    >>> import tapegrad as tg
    >>> from tapegrad.testing import gradcheck
    >>> gradcheck(lambda x: tg.sin(x) * x, [[0.1, 0.5, 2.0]])
    True
    """
    inputs = [_as_float64(x) for x in inputs]
    rng = np.random.default_rng(seed)
    with GradientTape() as tape:
        tape.watch(inputs)
        outputs = _outputs(f, inputs)
    cotangents = [rng.standard_normal(o.shape) for o in outputs]
    seeds = [ops.asarray(u, dtype=o.dtype, like=o) for o, u in zip(outputs, cotangents)]
    # No path is a zero gradient, checked against the numeric one like any other.
    analytic = tape.gradient(outputs, inputs, output_gradients=seeds, unconnected_gradients="zero")

    worst = None  # (excess, message)
    for i, (x, grad) in enumerate(zip(inputs, analytic)):
        if grad is not None and (grad.shape != x.shape or grad.dtype != x.dtype):
            raise AssertionError(
                f"gradcheck: gradient of input {i} is {grad.shape} {grad.dtype}, "
                f"expected {x.shape} {x.dtype}"
            )
        numeric = _numeric_gradient(f, inputs, i, cotangents, eps)
        got = np.zeros(x.shape) if grad is None else backend.to_host(grad._data)
        error = np.abs(got - numeric) - (atol + rtol * np.abs(numeric))
        if error.size and error.max() > 0:
            j = np.unravel_index(int(np.argmax(error)), error.shape)
            label = "None (no gradient)" if grad is None else f"{got[j]!r}"
            message = (
                f"gradcheck: input {i} (shape {x.shape}) element {tuple(int(k) for k in j)}: "
                f"tape gradient {label}, finite differences {numeric[j]!r} "
                f"(atol={atol}, rtol={rtol})"
            )
            if worst is None or error[j] > worst[0]:
                worst = (error[j], message)
    if worst is not None:
        raise AssertionError(worst[1])
    return True


def _numeric_gradient(
    f: Callable[..., Any], inputs: list[Tensor], i: int, cotangents: list[Any], eps: float
) -> np.ndarray:
    x = inputs[i]
    host = backend.to_host(x._data).astype(np.float64)
    xp = backend.namespace(x._data)
    numeric = np.zeros(host.shape)
    for j in np.ndindex(*host.shape):
        values = []
        for step in (eps, -eps):
            moved = host.copy()
            moved[j] += step
            data = moved if xp is np else xp.asarray(moved, device=x._data.device)
            trial = list(inputs)
            trial[i] = Tensor(data)
            values.append(_projected(f, trial, cotangents))
        numeric[j] = (values[0] - values[1]) / (2 * eps)
    return numeric


def gradgradcheck(
    f: Callable[..., Any],
    inputs: Sequence[Any],
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-4,
    seed: int = 0,
) -> bool:
    """Check second derivatives: :func:`gradcheck` of ``x -> d<u, f(x)>/dx`` (nested tapes).

    >>> import tapegrad as tg
    >>> from tapegrad.testing import gradgradcheck
    >>> gradgradcheck(lambda x: x**3 * tg.sin(x), [[0.3, 1.2]])
    True
    """
    rng = np.random.default_rng(seed + 1)
    cotangents: list[Any] = []

    def first_derivatives(*xs: Tensor) -> Tensor:
        with GradientTape() as inner:
            inner.watch(list(xs))
            outputs = _outputs(f, xs)
        if not cotangents:
            cotangents.extend(rng.standard_normal(o.shape) for o in outputs)
        seeds = [ops.asarray(u, dtype=o.dtype, like=o) for o, u in zip(outputs, cotangents)]
        grads = inner.gradient(
            outputs, list(xs), output_gradients=seeds, unconnected_gradients="zero"
        )
        flat = [ops.reshape(g, (-1,)) for g in grads]
        return ops.concatenate(flat)

    return gradcheck(first_derivatives, inputs, eps=eps, atol=atol, rtol=rtol, seed=seed)
