"""Compare the tape's gradients with central finite differences, in float64 (complex128).

Complex inputs are checked in both directions: the tape's gradient must be
``dL/dx + i dL/dy`` for each element ``z = x + iy`` (the convention of docs/complex.md),
where ``L`` is the real projection of ``f``'s outputs on random cotangents.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.nests import flatten
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor, tensor


def _as_float64(x: Any) -> Tensor:
    """``x`` in float64, or complex128 when it is complex."""
    data = x._data if isinstance(x, Tensor) else x
    xp = backend.namespace(data)
    if xp is np:
        data = np.asarray(data)
        dtype = np.complex128 if backend.is_complex(data.dtype) else np.float64
        return Tensor(np.array(data, dtype=dtype))
    data = xp.asarray(data)
    return Tensor(xp.astype(data, xp.complex128 if backend.is_complex(data.dtype) else xp.float64))


def _cotangent(rng: np.random.Generator, output: Tensor) -> np.ndarray:
    """A random cotangent for ``output``: complex for a complex output."""
    u = rng.standard_normal(output.shape)
    if backend.is_complex(output.dtype):
        u = u + 1j * rng.standard_normal(output.shape)
    return u


def _outputs(f: Callable[..., Any], inputs: Sequence[Tensor]) -> list[Tensor]:
    """``f``'s outputs as Tensors: arrays and numbers too (a transform called inside ``f``
    with arrays gives arrays when no tape sees the result, as at the finite-difference
    points)."""
    out = []
    for o in flatten(f(*inputs)):
        if not isinstance(o, Tensor):
            if not hasattr(o, "dtype") and not isinstance(o, (int, float, complex)):
                raise TypeError(
                    f"gradcheck: f must return Tensors or arrays, got {type(o).__name__}"
                )
            o = tensor(o)
        out.append(o)
    return out


def _projected(f: Callable[..., Any], inputs: Sequence[Tensor], cotangents: list[Any]) -> float:
    """``sum(<f(inputs)_k, u_k>)`` as a Python float, with no tape involved: the real inner
    product ``sum(real(conj(u) * f))``, of which ``u`` is the gradient with respect to f."""
    total = 0.0
    for o, u in zip(_outputs(f, inputs), cotangents):
        total += float(np.sum(np.real(np.conj(u) * backend.to_host(o._data))))
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

    ``f`` takes the inputs (converted to float64 Tensors, complex128 for complex ones)
    and returns a Tensor or a nest of them. For a random cotangent ``u`` (fixed by
    ``seed``; complex for complex outputs), the tape's ``J^T u`` must match
    ``(<u, f(x + eps e_i)> - <u, f(x - eps e_i)>) / 2 eps`` for every input element, and
    for a complex element also ``i`` times the same difference along ``i eps e_i``
    (``<u, v>`` is ``sum(real(conj(u) * v))``). Raises AssertionError naming the worst
    element; returns True.

    Args:
        f: The function: Tensors in, a Tensor or a nest of Tensors out.
        inputs: One value per positional argument of ``f`` (Tensors, arrays, nested lists).
        eps: The finite-difference step.
        atol: The absolute tolerance.
        rtol: The tolerance relative to the finite difference.
        seed: Seeds the random cotangent.

    Returns:
        True.

    Raises:
        AssertionError: An element's gradient differs from its finite difference by more
            than ``atol + rtol * |finite difference|``; the message names it.

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
    cotangents = [_cotangent(rng, o) for o in outputs]
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
        got = np.zeros_like(numeric) if grad is None else backend.to_host(grad._data)
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
    host = backend.to_host(x._data)
    xp = backend.namespace(x._data)
    numeric = np.zeros(host.shape, host.dtype)
    directions = (1.0, 1j) if backend.is_complex(host.dtype) else (1.0,)
    for j in np.ndindex(*host.shape):
        for direction in directions:  # d/dx, then i d/dy: dL/dx + i dL/dy
            values = []
            for step in (eps, -eps):
                moved = host.copy()
                moved[j] += step * direction
                data = moved if xp is np else xp.asarray(moved, device=x._data.device)
                trial = list(inputs)
                trial[i] = Tensor(data)
                values.append(_projected(f, trial, cotangents))
            numeric[j] += direction * (values[0] - values[1]) / (2 * eps)
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

    Args:
        f: The function: Tensors in, a Tensor or a nest of Tensors out.
        inputs: One value per positional argument of ``f`` (Tensors, arrays, nested lists).
        eps: The finite-difference step.
        atol: The absolute tolerance.
        rtol: The tolerance relative to the finite difference.
        seed: Seeds the random cotangent.

    Returns:
        True.

    Raises:
        AssertionError: A second derivative differs from its finite difference; the message
            names the element.

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
            cotangents.extend(_cotangent(rng, o) for o in outputs)
        seeds = [ops.asarray(u, dtype=o.dtype, like=o) for o, u in zip(outputs, cotangents)]
        grads = inner.gradient(
            outputs, list(xs), output_gradients=seeds, unconnected_gradients="zero"
        )
        flat = [ops.reshape(g, (-1,)) for g in grads]
        return ops.concatenate(flat)

    return gradcheck(first_derivatives, inputs, eps=eps, atol=atol, rtol=rtol, seed=seed)
