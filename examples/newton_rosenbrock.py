"""Newton's method on the Rosenbrock function with tg.grad and tg.hessian.

    f(x, y) = (1 - x)**2 + 100 (y - x**2)**2,   minimum f(1, 1) = 0.

From the classic start (-1.2, 1) each step solves H d = -g with the exact
gradient and Hessian from the tape, and reaches (1, 1) in a handful of steps.
Run: python examples/newton_rosenbrock.py
"""

from __future__ import annotations

import numpy as np

import tapegrad as tg


def rosenbrock(p: tg.Tensor) -> tg.Tensor:
    x, y = p[0], p[1]
    return (1.0 - x) ** 2 + 100.0 * (y - x**2) ** 2


def newton(
    start: tuple[float, float] = (-1.2, 1.0), tol: float = 1e-10, max_steps: int = 30
) -> tuple[np.ndarray, int]:
    """Minimise :func:`rosenbrock` from ``start``; returns the point and the steps taken."""
    gradient, hessian = tg.grad(rosenbrock), tg.hessian(rosenbrock)
    p = np.array(start, dtype=np.float64)
    g = gradient(p)  # arrays in, arrays out
    _report(0, p, g)
    for step in range(1, max_steps + 1):
        p = p - np.linalg.solve(hessian(p), g)
        g = gradient(p)
        _report(step, p, g)
        if np.linalg.norm(g) < tol:
            return p, step
    raise RuntimeError(f"Newton's method did not converge in {max_steps} steps (at {p})")


def _report(step: int, p: np.ndarray, g: np.ndarray) -> None:
    value = rosenbrock(tg.tensor(p)).item()
    print(
        f"step {step:2d}: x = {p[0]: .10f}  y = {p[1]: .10f}  f = {value:.3e}  "
        f"|grad f| = {np.linalg.norm(g):.3e}"
    )


if __name__ == "__main__":
    point, steps = newton()
    print(f"converged to ({point[0]:.12f}, {point[1]:.12f}) in {steps} steps")
