"""What the eigen- and singular-value rules share: which values count as equal, and the
inverse gaps 1/(λ_j - λ_i) of perturbation theory made safe where values repeat.

Values closer than ``64 n eps max|λ|`` are taken as one repeated value (LAPACK returns a
repeated eigenvalue spread over about ``n eps max|λ|``). Two conventions follow (see
docs/linalg.md):

- A cotangent of repeated values is shared evenly among them (``cluster_mean``), as ``max``
  splits its gradient among ties: symmetric functions of the spectrum (``sum``, norms) get
  their exact gradient, any other function a valid subgradient, the same whichever basis
  LAPACK picked inside the eigenspace.
- Within a repeated value the eigenvectors are not unique. A term of an eigenvector rule
  that would divide by a zero gap is 0 where its numerator is rounding noise (the loss does
  not depend on the basis of the eigenspace: projectors, ``sum(eigvalsh(a))``...), and NaN
  where it is not: there the gradient does not exist.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.linalg._matrix import constant_like, eps, mH
from tapegrad.ops.primitive import raw, shape_of


def host(x: Any) -> np.ndarray:
    """The values of a Tensor or array, on the host."""
    return backend.to_host(raw(x))


def tolerance(values: np.ndarray, eps: float) -> np.ndarray:
    """The distance below which two of ``values`` (..., n) count as one, per matrix."""
    n = values.shape[-1]
    scale = np.max(np.abs(values), axis=-1, initial=0.0)
    return 64 * n * eps * scale


def clusters(values: Any, zero: Any = None) -> np.ndarray:
    """``same[..., i, j]``: whether values i and j (host or Tensor, real or complex) count as
    one repeated value; the relation is closed transitively, so it splits the values into
    groups. ``zero``, when given, adds values within that distance of 0 (singular values)
    to one group."""
    v = host(values)
    tol = tolerance(v, eps(values))[..., None, None]
    same = np.abs(v[..., :, None] - v[..., None, :]) <= tol
    if zero is not None:
        small = np.abs(v) <= zero[..., None]
        same |= small[..., :, None] & small[..., None, :]
    labels = np.broadcast_to(np.arange(v.shape[-1]), v.shape).copy()
    for _ in range(v.shape[-1]):  # each group takes its smallest member's label
        spread = np.min(np.where(same, labels[..., None, :], v.shape[-1]), axis=-1)
        if np.array_equal(spread, labels):
            break
        labels = spread
    return labels[..., :, None] == labels[..., None, :]


def cluster_mean(g: Any, same: np.ndarray) -> Any:
    """The cotangent ``g`` (..., n) of the values, averaged over each group of ``same``."""
    if np.all(same == np.eye(same.shape[-1], dtype=bool)):
        return g
    weights = same / np.sum(same, axis=-1, keepdims=True)
    return ops.squeeze(constant_like(weights, g) @ ops.expand_dims(g, -1), -1)


def reciprocal(x: Any, undefined: np.ndarray) -> Any:
    """``1 / x``, with 0 where ``undefined`` (a host mask); written with ops on ``x``, so
    its own derivative is recorded."""
    mask = constant_like(undefined.astype(np.float64), x)
    return (1.0 - mask) / (x + mask)


def inverse_gaps(values: Any, same: np.ndarray) -> Any:
    """``F[..., i, j] = 1 / (λ_j - λ_i)``, 0 within a group (and on the diagonal)."""
    return reciprocal(ops.expand_dims(values, -2) - ops.expand_dims(values, -1), same)


def repeated_pairs(same: np.ndarray) -> np.ndarray:
    """The pairs i != j of one group of repeated values."""
    return same & ~np.eye(same.shape[-1], dtype=bool)


def undefined_where(numerator: Any, mask: np.ndarray, scale: Any) -> Any:
    """NaN where ``mask`` holds and ``numerator`` is more than rounding noise next to
    ``scale`` (a term that would divide it by zero: the gradient does not exist there); 0
    elsewhere. Added to a rule's result, it marks the gradient undefined."""
    values = host(numerator)
    noise = np.sqrt(eps(numerator)) * np.max(host(scale), initial=0.0)
    bad = mask & (np.abs(values) > noise)
    if not bad.any():
        return 0.0
    return constant_like(np.where(bad, np.nan, 0.0), numerator)


def check_phase_invariant(op: str, vectors: str, imaginary: Any, scale: Any) -> None:
    """ValueError unless ``imaginary`` (the derivative of the loss along a common phase of
    each singular/eigenvector pair) is rounding noise next to ``scale``: complex eigenvectors
    are defined up to such a phase, so a loss that depends on it has no gradient."""
    noise = np.sqrt(eps(imaginary)) * np.max(host(scale), initial=0.0)
    worst = np.max(np.abs(host(imaginary)), initial=0.0)
    if worst > noise:
        raise ValueError(
            f"{op}: the loss depends on the phase of the complex {vectors} (by {worst:.3g}), "
            f"which {op} does not define (each may be multiplied by e^(i phi)); make the loss "
            "invariant to it, e.g. use abs(v) or v v^H"
        )


def fold_complement(q: Any, gq: Any, k: int, op: str) -> tuple[Any, Any]:
    """Columns k: of ``q`` complete columns :k to an orthonormal basis in any way: a loss
    invariant to that choice (Q₂ᴴ Q̄₂ Hermitian) moves Q₁ only through the complement's span,
    so Q̄₁ - Q₂ Q̄₂ᴴ Q₁ is the cotangent of Q₁ (with the gauge of Q₂ fixed)."""
    q1, q2, g1, g2 = q[..., :k], q[..., k:], gq[..., :k], gq[..., k:]
    if shape_of(q2)[-1]:
        inner = mH(q2) @ g2
        skew = inner - mH(inner)
        worst = float(np.max(np.abs(host(skew)), initial=0.0))
        noise = np.sqrt(eps(q)) * float(np.max(np.abs(host(inner)), initial=0.0))
        if worst > noise:
            raise ValueError(
                f"{op}: the loss depends on which orthonormal basis of the complement the "
                f"extra columns of the complete factor hold (by {worst:.3g}), which is not "
                "defined; use the reduced factor, or a loss invariant to that basis"
            )
        g1 = g1 - q2 @ mH(g2) @ q1
    return q1, g1
