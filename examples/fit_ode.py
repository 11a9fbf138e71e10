"""Fit the four rates of a Lotka-Volterra predator-prey model to noisy counts, differentiating
through SciPy's ODE solver with tapegrad.scipy.integrate.odeint (adjoint gradients).

    python examples/fit_ode.py --steps 200

Writes fit_ode.png (the data, the initial guess and the fitted trajectories, and the loss
by step) beside this script. Needs SciPy and matplotlib (pip install 'tapegrad[scipy]'
matplotlib).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import tapegrad as tg
from tapegrad.scipy.integrate import odeint

TRUE_RATES = np.array([1.0, 0.1, 1.5, 0.075])  # prey growth, predation, predator death, growth
START = np.array([10.0, 5.0])  # prey, predators at t = 0
TIMES = np.linspace(0.0, 15.0, 21)
SOLVER = dict(rtol=1e-6, atol=1e-6)


def lotka_volterra(y, t, log_rates):
    alpha, beta, gamma, delta = tg.exp(log_rates)  # rates stay positive
    prey, predators = y[0], y[1]
    return [alpha * prey - beta * prey * predators, delta * prey * predators - gamma * predators]


def simulate(log_rates, times=TIMES):
    return odeint(lotka_volterra, START, times, (log_rates,), **SOLVER)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", type=int, default=200, help="Adam steps")
    parser.add_argument("--lr", type=float, default=0.08)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", type=Path, default=Path(__file__).with_suffix(".png"))
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    clean = simulate(tg.tensor(np.log(TRUE_RATES))).numpy()
    data = tg.tensor(clean + rng.normal(0.0, 1.0, clean.shape))

    guess = np.log(TRUE_RATES * np.array([1.3, 0.8, 0.75, 1.25]))
    log_rates = tg.Variable(guess, name="log_rates")
    optimizer = tg.optim.Adam([log_rates], lr=args.lr)
    losses = []
    start = time.perf_counter()
    for step in range(1, args.steps + 1):
        with tg.GradientTape() as tape:
            loss = tg.mean((simulate(log_rates) - data) ** 2)
        optimizer.apply_gradients(tape.gradient(loss, [log_rates]))
        losses.append(loss.item())
        if step == 1 or step % 50 == 0 or step == args.steps:
            rates = np.array2string(np.exp(log_rates.numpy()), precision=4)
            print(f"step {step:4d}  loss {losses[-1]:8.4f}  rates {rates}")
    seconds = time.perf_counter() - start
    rates = np.exp(log_rates.numpy())
    print(f"fitted rates {np.array2string(rates, precision=4)}  (true {TRUE_RATES})")
    print(f"final loss {losses[-1]:.4f}  ({seconds / args.steps * 1e3:.0f} ms a step)")
    plot(data.numpy(), guess, log_rates.numpy(), losses, args.plot)
    print(f"plot written to {args.plot}")


def plot(data, guess, fitted, losses, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fine = np.linspace(TIMES[0], TIMES[-1], 300)
    before = simulate(tg.tensor(guess), fine).numpy()
    after = simulate(tg.tensor(fitted), fine).numpy()
    truth = simulate(tg.tensor(np.log(TRUE_RATES)), fine).numpy()
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(11, 4), gridspec_kw={"width_ratios": [2, 1]}
    )
    for k, (name, color) in enumerate([("prey", "tab:blue"), ("predators", "tab:red")]):
        left.plot(TIMES, data[:, k], "o", color=color, ms=4, label=f"{name}: noisy counts")
        left.plot(fine, truth[:, k], ":", color=color, lw=1, label=f"{name}: true model")
        left.plot(fine, before[:, k], "--", color=color, alpha=0.4, label=f"{name}: initial guess")
        left.plot(fine, after[:, k], "-", color=color, lw=2, label=f"{name}: fitted")
    left.set(xlabel="time", ylabel="population", title="Lotka-Volterra fit through odeint")
    left.set_ylim(0, 1.4 * data.max())  # room for the legend above the curves
    left.legend(fontsize=7, ncol=4, loc="upper center")
    right.semilogy(np.arange(1, len(losses) + 1), losses)
    right.set(xlabel="Adam step", ylabel="mean squared error", title="loss")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


if __name__ == "__main__":
    main()
