"""The implicit gradient of a solver next to the solve and next to unrolling:
``python -m benchmarks.solvers`` (``--quick``: fewer rounds; ``--out DIR``: where
``solvers.md`` goes, benchmarks/results/ by default).

Four solves, each with parameters ``θ`` that are Tensors on a tape:

- ``minimize``: ridge regression's weights for a given ``log λ`` (trust-exact, tapegrad's
  gradient and Hessian), the loss the validation MSE; unrolled: gradient descent with step
  ``1/L`` on the training loss (its gradient from ``tg.grad``, recorded);
- ``root``: the equilibrium of a reaction network ``A + B <-> C <-> D1 <-> ... <-> Dm``
  (``hybr``, tapegrad's Jacobian) in its rate constants; unrolled: Newton's method (the
  Jacobian from ``tg.jacobian``, recorded);
- ``spsolve`` and ``cg``: the 2-D Poisson equation ``-Δu = f`` on an ``m x m`` grid (5-point
  Laplacian, ``scipy.sparse`` csr) with a source of Gaussian bumps whose amplitudes are the
  parameters; unrolled: Jacobi iterations (for spsolve) and conjugate gradients written with
  tapegrad ops (for cg), with a SciPy sparse matrix times a Tensor on the tape.

Every unrolled solver runs to the tolerance the SciPy solve was given, the number of
iterations decided on the host, and is differentiated on the tape. For each solve it reports
the median over interleaved rounds of: SciPy's solve on plain arrays, tapegrad's forward
(the solve with a tape recording: the probe of the user's function, SciPy's solve with
tapegrad's derivatives, the one recorded entry), the implicit gradient alone
(``tape.gradient``), their ratio, and the unrolled solver's forward + gradient, as a ratio to
the implicit forward + gradient; and the largest difference between the two gradients.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # steady timings on a shared machine, as benchmarks.chain_split

import argparse  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from typing import Any  # noqa: E402

import numpy  # noqa: E402
import scipy.optimize  # noqa: E402
import scipy.sparse  # noqa: E402
import scipy.sparse.linalg  # noqa: E402

import tapegrad as tg  # noqa: E402
import tapegrad.numpy as np  # noqa: E402
from tapegrad.scipy import optimize  # noqa: E402
from tapegrad.scipy.sparse import linalg as sparse_linalg  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
TOL = 1e-10  # every solve, SciPy's and the unrolled ones


def _value(t: tg.Tensor) -> numpy.ndarray:
    """A Tensor's value for a host-side test (the unrolled solvers' stopping rules): no
    gradient flows through the decision, so it is read off the tape on purpose."""
    return tg.stop_gradient(t).numpy()


@dataclass
class Solve:
    """One workload: SciPy's plain solve, the loss through tapegrad's solver, and the
    same loss through an unrolled solver, each a function of the parameters."""

    name: str
    description: str
    parameters: numpy.ndarray
    plain: Callable[[numpy.ndarray], Any]  # SciPy on plain arrays, no tape
    loss: Callable[[tg.Tensor], tg.Tensor]  # through tapegrad's implicit solver
    unrolled: Callable[[tg.Tensor], tuple[tg.Tensor, int]]  # (loss, iterations)
    seconds: dict[str, float] = field(default_factory=dict)
    iterations: int = 0
    difference: float = float("nan")


# --- minimize: ridge regression's weights -------------------------------------------------


def ridge(samples: int = 200, features: int = 20) -> Solve:
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((2 * samples, features))
    y = x @ rng.standard_normal(features) + 0.5 * rng.standard_normal(2 * samples)
    x_train, y_train, x_val, y_val = x[:samples], y[:samples], x[samples:], y[samples:]

    def train_loss(w: Any, log_lam: Any) -> Any:
        return np.mean((x_train @ w - y_train) ** 2) + np.exp(log_lam) * np.sum(w**2)

    gradient = tg.grad(train_loss)
    w0 = numpy.zeros(features)
    options = {"gtol": TOL}

    def plain(log_lam: numpy.ndarray) -> Any:
        return scipy.optimize.minimize(
            train_loss, w0, (log_lam[0],), "trust-exact", gradient, tg.hessian(train_loss),
            options=options,
        ).x  # fmt: skip

    def validation(w: Any) -> Any:
        return np.mean((x_val @ w - y_val) ** 2)

    def loss(log_lam: tg.Tensor) -> Any:
        w = optimize.minimize(train_loss, w0, (log_lam[0],), "trust-exact", options=options).x
        return validation(w)

    def unrolled(log_lam: tg.Tensor) -> tuple[Any, int]:
        lam = float(numpy.exp(_value(log_lam)[0]))
        curvature = numpy.linalg.eigvalsh(2 * x_train.T @ x_train / samples)
        step = 2.0 / (curvature[-1] + curvature[0] + 4 * lam)  # the optimal fixed step
        w, k = tg.tensor(w0), 0
        while True:
            g = gradient(w, log_lam[0])
            if numpy.abs(_value(g)).max() <= TOL:
                return validation(w), k
            w, k = w - step * g, k + 1

    return Solve("minimize", f"minimize: ridge, {samples} x {features}, d val MSE / d log λ",
                 numpy.array([-1.0]), plain, loss, unrolled)  # fmt: skip


# --- root: a reaction network's equilibrium -------------------------------------------------


def equilibrium(chain: int = 20) -> Solve:
    """``A + B <-> C``, ``C <-> D1 <-> ... <-> Dm``: unknowns the ``m + 3`` concentrations,
    parameters the forward and backward rate constants of the ``m + 1`` reactions."""
    total_a, total_b = 1.0, 0.8

    def mass_action(c: Any, k: Any) -> Any:
        a, b, species = c[0], c[1], c[2:]  # species: C, D1, ..., Dm
        forward, backward = k[0::2], k[1::2]
        binding = forward[0] * a * b - backward[0] * species[0]
        isomerisations = forward[1:] * species[:-1] - backward[1:] * species[1:]
        bound = np.sum(species)
        return np.concatenate(
            [np.stack([binding, a + bound - total_a, b + bound - total_b]), isomerisations]
        )

    c0 = numpy.concatenate([[0.5, 0.3], numpy.full(chain + 1, 0.2 / (chain + 1))])
    k0 = numpy.tile([1.5, 0.6], chain + 1) + 0.1 * numpy.arange(2 * chain + 2) / chain
    jacobian = tg.jacobian(mass_action)

    def plain(k: numpy.ndarray) -> Any:
        return scipy.optimize.root(mass_action, c0, (k,), jac=jacobian, tol=TOL).x

    def loss(k: tg.Tensor) -> Any:
        c = optimize.root(mass_action, c0, (k,), tol=TOL).x
        return np.sum(c[2:] ** 2)

    def unrolled(k: tg.Tensor) -> tuple[Any, int]:
        c, iterations = tg.tensor(c0), 0
        while True:
            residual = mass_action(c, k)
            if numpy.abs(_value(residual)).max() <= TOL:
                return np.sum(c[2:] ** 2), iterations
            c = c - np.linalg.solve(jacobian(c, k), residual)
            iterations += 1

    return Solve("root", f"root: reaction network, {chain + 3} species, d Σc² / d k",
                 k0, plain, loss, unrolled)  # fmt: skip


# --- spsolve and cg: the 2-D Poisson equation ---------------------------------------------


def _poisson(side: int) -> tuple[Any, Callable[[Any], Any], numpy.ndarray]:
    """``-Δ`` on the ``side x side`` interior grid (csr), the source of three Gaussian
    bumps with the given amplitudes (flat), and the sensors' indices."""
    h = 1.0 / (side + 1)
    line = numpy.linspace(h, 1 - h, side)
    gx, gy = numpy.meshgrid(line, line, indexing="ij")
    second = scipy.sparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(side, side)) / h**2
    eye = scipy.sparse.eye(side)
    matrix = (-(scipy.sparse.kron(eye, second) + scipy.sparse.kron(second, eye))).tocsr()
    centres = [(0.3, 0.3), (0.7, 0.4), (0.5, 0.75)]
    bumps = [numpy.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / 0.02).ravel() for cx, cy in centres]

    def source(amplitudes: Any) -> Any:
        return sum(amplitudes[i] * bumps[i] for i in range(len(bumps)))

    sensors = numpy.random.default_rng(1).choice(
        side * side, min(40, side * side // 2), replace=False
    )
    return matrix, source, sensors


def poisson(side: int = 20, solver: str = "spsolve") -> Solve:
    matrix, source, sensors = _poisson(side)
    target = scipy.sparse.linalg.spsolve(matrix, source(numpy.array([1.0, -0.5, 2.0])))[sensors]
    diagonal = matrix.diagonal()
    off_diagonal = (matrix - scipy.sparse.diags(diagonal)).tocsr()

    def misfit(u: Any) -> Any:
        return np.sum((u[sensors] - target) ** 2)

    def plain(amplitudes: numpy.ndarray) -> Any:
        if solver == "spsolve":
            return scipy.sparse.linalg.spsolve(matrix, source(amplitudes))
        return scipy.sparse.linalg.cg(matrix, source(amplitudes), rtol=TOL)[0]

    def loss(amplitudes: tg.Tensor) -> Any:
        if solver == "spsolve":
            return misfit(sparse_linalg.spsolve(matrix, source(amplitudes)))
        return misfit(sparse_linalg.cg(matrix, source(amplitudes), rtol=TOL)[0])

    def jacobi(amplitudes: tg.Tensor) -> tuple[Any, int]:
        f = source(amplitudes)
        f_host = _value(f)
        stop = TOL * numpy.linalg.norm(f_host)
        u, k = f / diagonal, 1
        while numpy.linalg.norm(f_host - matrix @ _value(u)) > stop:  # checked off the tape
            u, k = (f - off_diagonal @ u) / diagonal, k + 1
        return misfit(u), k

    def conjugate_gradients(amplitudes: tg.Tensor) -> tuple[Any, int]:
        f = source(amplitudes)
        stop = TOL * numpy.linalg.norm(_value(f))
        u, r = f * 0.0, f
        p, rr, k = r, np.sum(r * r), 0
        while numpy.sqrt(_value(rr)) > stop:
            ap = matrix @ p
            alpha = rr / np.sum(p * ap)
            u, r = u + alpha * p, r - alpha * ap
            rr_next = np.sum(r * r)
            p, rr, k = r + (rr_next / rr) * p, rr_next, k + 1
        return misfit(u), k

    unrolled = jacobi if solver == "spsolve" else conjugate_gradients
    how = "Jacobi" if solver == "spsolve" else "CG"
    return Solve(solver, f"{solver}: Poisson {side}x{side}, d misfit / d source (unrolled: {how})",
                 numpy.array([0.5, 0.5, 0.5]), plain, loss, unrolled)  # fmt: skip


def workloads(small: bool = False) -> list[Solve]:
    """The four solves (``small``: tiny sizes, for the test that the benchmark runs)."""
    if small:
        return [ridge(20, 4), equilibrium(2), poisson(5, "spsolve"), poisson(5, "cg")]
    return [ridge(), equilibrium(), poisson(20, "spsolve"), poisson(20, "cg")]


# --- timing ----------------------------------------------------------------------------------


def _gradient(loss: Callable[[tg.Tensor], Any], theta: tg.Tensor) -> tuple[Any, Any]:
    with tg.GradientTape() as tape:
        tape.watch(theta)
        value = loss(theta)
    return tape, value


def measure(solve: Solve, rounds: int) -> Solve:
    """Fill ``solve.seconds`` (medians), ``iterations`` and ``difference``."""
    theta = tg.tensor(solve.parameters)
    samples: dict[str, list[float]] = {
        "scipy": [], "forward": [], "backward": [], "unrolled": []
    }  # fmt: skip
    for _ in range(rounds + 1):  # the first round warms caches and is dropped
        gc.collect()
        start = time.perf_counter()
        solve.plain(solve.parameters)
        samples["scipy"].append(time.perf_counter() - start)

        gc.collect()
        start = time.perf_counter()
        tape, value = _gradient(solve.loss, theta)
        samples["forward"].append(time.perf_counter() - start)
        start = time.perf_counter()
        implicit = tape.gradient(value, theta).numpy()
        samples["backward"].append(time.perf_counter() - start)

        gc.collect()
        start = time.perf_counter()
        with tg.GradientTape() as tape:
            tape.watch(theta)
            value, solve.iterations = solve.unrolled(theta)
        unrolled = tape.gradient(value, theta).numpy()
        samples["unrolled"].append(time.perf_counter() - start)
    solve.seconds = {name: statistics.median(times[1:]) for name, times in samples.items()}
    solve.difference = float(numpy.abs(implicit - unrolled).max() / numpy.abs(implicit).max())
    return solve


def table(solves: list[Solve]) -> str:
    header = (
        "| solve | SciPy solve (plain) | tapegrad forward | implicit gradient (backward) "
        "| backward / forward | unrolled, forward + gradient | unrolled / implicit "
        "| gradients differ by |"
    )
    lines = [header, "|" + "---|" * 8]
    for s in solves:
        t = s.seconds
        implicit = t["forward"] + t["backward"]
        lines.append(
            f"| {s.description} | {t['scipy'] * 1e3:.2f} ms | {t['forward'] * 1e3:.2f} ms "
            f"| {t['backward'] * 1e3:.2f} ms | {t['backward'] / t['forward']:.2f}x "
            f"| {t['unrolled'] * 1e3:.1f} ms ({s.iterations} iterations) "
            f"| {t['unrolled'] / implicit:.1f}x | {s.difference:.1e} (relative) |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> list[Solve]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds instead of 11")
    parser.add_argument("--out", default=RESULTS, help="where solvers.md goes")
    args = parser.parse_args(argv)
    rounds = 3 if args.quick else 11
    solves = []
    for solve in workloads():
        print(f"- {solve.description} ...", flush=True)
        solves.append(measure(solve, rounds))
    now = datetime.datetime.now(datetime.timezone.utc)
    text = (
        f"Generated by `python -m benchmarks.solvers{' --quick' if args.quick else ''}` on "
        f"{now:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, one BLAS thread; median of "
        f"{rounds} interleaved rounds, every solve to tolerance {TOL:g}.\n\n{table(solves)}\n"
    )
    print()
    print(text)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "solvers.md"), "w") as f:
        f.write(text)
    print(f"wrote {os.path.join(args.out, 'solvers.md')}")
    return solves


if __name__ == "__main__":
    main()
