"""A fluid simulation differentiated in its initial velocity field: semi-Lagrangian
advection (bilinear interpolation at integer indices computed from the velocities) and a
Jacobi pressure projection on a periodic grid, ``STEPS`` steps, and the squared distance
of the final smoke density to a target (autograd's ``fluidsim.py`` example)."""

from __future__ import annotations

from typing import Any

import numpy

GRID, STEPS, JACOBI = 32, 8, 10
TINY = 6


def description(grid: int) -> str:
    return f"fluid simulation: {grid}x{grid} grid, {STEPS} steps (advect + {JACOBI}-sweep project)"


def inputs(grid: int = GRID, seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """The initial velocities (vx, vy), and the smoke density and its target."""
    rng = numpy.random.default_rng(seed)
    rows, cols = numpy.meshgrid(numpy.linspace(-1, 1, grid), numpy.linspace(-1, 1, grid))
    smoke = numpy.exp(-8.0 * (rows**2 + cols**2))
    target = numpy.exp(-8.0 * ((rows - 0.3) ** 2 + (cols + 0.2) ** 2))
    params = [0.5 * rng.standard_normal((grid, grid)), 0.5 * rng.standard_normal((grid, grid))]
    return params, {"smoke": smoke, "target": target}


def project(np: Any, vx: Any, vy: Any) -> tuple[Any, Any]:
    """Make the velocity field divergence-free: Jacobi sweeps for the pressure."""
    h = 1.0 / vx.shape[0]
    div = -0.5 * h * (
        np.roll(vx, -1, axis=0) - np.roll(vx, 1, axis=0)
        + np.roll(vy, -1, axis=1) - np.roll(vy, 1, axis=1)
    )  # fmt: skip
    p = np.zeros(vx.shape)
    for _ in range(JACOBI):
        p = (
            div
            + np.roll(p, 1, axis=0) + np.roll(p, -1, axis=0)
            + np.roll(p, 1, axis=1) + np.roll(p, -1, axis=1)
        ) / 4.0  # fmt: skip
    vx = vx - 0.5 * (np.roll(p, -1, axis=0) - np.roll(p, 1, axis=0)) / h
    vy = vy - 0.5 * (np.roll(p, -1, axis=1) - np.roll(p, 1, axis=1)) / h
    return vx, vy


def advect(np: Any, f: Any, vx: Any, vy: Any) -> Any:
    """Move field ``f`` along the velocities: sample it, bilinearly, where each cell's
    contents came from one step ago."""
    rows, cols = f.shape
    cell_ys, cell_xs = numpy.meshgrid(numpy.arange(rows), numpy.arange(cols))
    center_xs = np.ravel(cell_xs - vx)
    center_ys = np.ravel(cell_ys - vy)
    left = np.floor(center_xs).astype(int)
    top = np.floor(center_ys).astype(int)
    right_weight = center_xs - left
    bottom_weight = center_ys - top
    left, right = np.mod(left, rows), np.mod(left + 1, rows)
    top, bottom = np.mod(top, cols), np.mod(top + 1, cols)
    flat = (1 - right_weight) * (
        (1 - bottom_weight) * f[left, top] + bottom_weight * f[left, bottom]
    ) + right_weight * ((1 - bottom_weight) * f[right, top] + bottom_weight * f[right, bottom])
    return np.reshape(flat, (rows, cols))


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """Simulate from the initial velocities; the squared error of the final smoke."""
    vx, vy = params
    smoke = data["smoke"]
    for _ in range(STEPS):
        vx, vy = project(np, vx, vy)
        vx, vy = advect(np, vx, vx, vy), advect(np, vy, vx, vy)
        smoke = advect(np, smoke, vx, vy)
    return np.sum((smoke - data["target"]) ** 2)
