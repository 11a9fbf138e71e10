"""Draw two tapes as PNG files: z = x + y, and one training step of a small MLP.

Drawing needs the viz extra and Graphviz's ``dot`` program::

    pip install 'tapegrad[viz]'      # the graphviz Python package
    apt-get install graphviz         # or: brew install graphviz
    python examples/draw_tape.py --out drawings

Without them it writes the ``.dot`` files instead and says how to turn them into
PNGs. Each tape is also printed as its Wengert list and memory report.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

import tapegrad as tg


def add_tape() -> tuple[tg.GradientTape, tg.Tensor]:
    """The smallest tape: two watched sources and one add."""
    x = tg.tensor([1.0, 2.0, 3.0])
    y = tg.tensor([4.0, 5.0, 6.0])
    with tg.GradientTape() as tape:
        tape.watch([x, y])
        z = x + y
    return tape, z


def mlp_step_tape(seed: int = 0) -> tuple[tg.GradientTape, tg.Tensor, list[tg.Variable]]:
    """The forward pass of one training step: 4 -> 8 -> 3 with ReLU and cross-entropy."""
    rng = np.random.default_rng(seed)
    w1 = tg.Variable(rng.normal(scale=0.5, size=(4, 8)), name="w1")
    b1 = tg.Variable(np.zeros(8), name="b1")
    w2 = tg.Variable(rng.normal(scale=0.5, size=(8, 3)), name="w2")
    b2 = tg.Variable(np.zeros(3), name="b2")
    x = tg.tensor(rng.normal(size=(16, 4)))
    labels = rng.integers(0, 3, size=16)
    with tg.GradientTape() as tape:
        hidden = tg.relu(x @ w1 + b1)
        logits = hidden @ w2 + b2
        log_probs = tg.log_softmax(logits, axis=1)
        loss = -tg.mean(tg.take_along_axis(log_probs, labels[:, None], axis=1))
    return tape, loss, [w1, b1, w2, b2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=".", help="directory for the drawings")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    tape, z = add_tape()
    print(tape, end="\n\n")
    print("wrote", tape.render(os.path.join(args.out, "tape_add.png"), target=z))

    tape, loss, variables = mlp_step_tape()
    print(tape, end="\n\n")
    print(tape.summary(), end="\n\n")
    # Draw before the gradient: a non-persistent tape drops its entries as it sweeps.
    print("wrote", tape.render(os.path.join(args.out, "tape_mlp_step.png"), target=loss))
    grads = tape.gradient(loss, variables)
    for v, g in zip(variables, grads):
        v.assign_sub(0.1 * g.data)
    print(f"loss {loss.item():.4f}; took one SGD step")


if __name__ == "__main__":
    main()
