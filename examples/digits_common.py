"""Shared parts of the digits examples: data, the training loop, the plot.

scikit-learn's bundled 8x8 digits (1,797 images, no download), split 80/20
with a fixed seed; pixels scaled to [0, 1] as float32.
"""

from __future__ import annotations

import argparse
import os
import time

# The models' matrices are small (64 x 128 and the like): a BLAS thread pool costs more than
# it gains on them, up to ten times more on a busy machine. Set these yourself to override.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from sklearn.datasets import load_digits  # noqa: E402
from sklearn.model_selection import train_test_split  # noqa: E402
from tqdm import tqdm  # noqa: E402

import tapegrad as tg  # noqa: E402


def parse_args(description: str, epochs: int, plot: Path, extra=None) -> argparse.Namespace:
    """The digits examples' flags; ``extra(parser)`` adds a script's own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--epochs", type=int, default=epochs, help="passes over the training set")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--lr", type=float, default=1e-2, help="Adam's initial learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu", help="cpu, gpu or gpu:N (needs CuPy)")
    parser.add_argument("--plot", type=Path, default=plot, help="where to write the PNG")
    if extra is not None:
        extra(parser)
    return parser.parse_args()


def load(image_shape: tuple[int, ...], device: str, seed: int) -> tuple[tg.Tensor, ...]:
    """(x_train, y_train, x_test, y_test) as Tensors on ``device``."""
    digits = load_digits()
    images = (digits.data / 16.0).astype(np.float32).reshape(-1, *image_shape)
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target, test_size=0.2, stratify=digits.target, random_state=seed
    )
    return tuple(tg.tensor(a, device=device) for a in (x_train, y_train, x_test, y_test))


def cosine_schedule(args: argparse.Namespace, train_size: int) -> tg.optim.CosineDecay:
    """From ``args.lr`` down to a tenth of it over the whole run, one step per batch."""
    steps = args.epochs * -(-train_size // args.batch_size)
    return tg.optim.CosineDecay(args.lr, decay_steps=max(steps, 1), min_lr=args.lr / 10)


def evaluate(model: tg.nn.Module, x: tg.Tensor, y: tg.Tensor) -> tuple[float, float]:
    """(mean cross-entropy, accuracy) in evaluation mode, with no tape."""
    model.eval()
    logits = model(x)
    loss = tg.nn.cross_entropy(logits, y).item()
    accuracy = float((tg.argmax(logits, axis=1) == y).numpy().mean())
    model.train()
    return loss, accuracy


def fit(model, optimizer, data, epochs: int, batch_size: int, seed: int) -> dict[str, list]:
    """Minibatch training with a progress bar over epochs; returns the per-epoch history."""
    x_train, y_train, x_test, y_test = data
    batches = tg.data.DataLoader((x_train, y_train), batch_size, shuffle=True, seed=seed)
    history = {"train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
    start = time.perf_counter()
    bar = tqdm(range(1, epochs + 1), desc="epochs", unit="epoch")
    for _ in bar:
        for x, y in batches:
            with tg.GradientTape() as tape:
                loss = tg.nn.cross_entropy(model(x), y)
            optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
        for split, (x, y) in (("train", (x_train, y_train)), ("test", (x_test, y_test))):
            loss, accuracy = evaluate(model, x, y)
            history[f"{split}_loss"].append(loss)
            history[f"{split}_acc"].append(accuracy)
        bar.set_postfix(loss=f"{history['train_loss'][-1]:.3f}", test_acc=f"{accuracy:.3f}")
    history["seconds"] = time.perf_counter() - start
    return history


def plot(history: dict[str, list], path: Path, title: str) -> None:
    """Training and test loss and accuracy by epoch, side by side, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = range(1, len(history["train_loss"]) + 1)
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.4))
    for split in ("train", "test"):
        left.plot(epochs, history[f"{split}_loss"], label=split)
        right.plot(epochs, history[f"{split}_acc"], label=split)
    left.set(xlabel="epoch", ylabel="cross-entropy", yscale="log", title="loss")
    right.set(xlabel="epoch", ylabel="accuracy", title="accuracy")
    right.set_ylim(max(0.0, min(history["test_acc"]) - 0.02), 1.0)
    for axes in (left, right):
        axes.grid(alpha=0.3)
        axes.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)


def report(history: dict[str, list], path: Path) -> None:
    print(
        f"test accuracy {history['test_acc'][-1]:.4f}  test loss {history['test_loss'][-1]:.4f}  "
        f"({len(history['test_acc'])} epochs in {history['seconds']:.1f} s); plot: {path}"
    )
