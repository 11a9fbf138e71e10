"""Stop a training run and resume it from a file, bit for bit.

An MLP with BatchNorm and Dropout on scikit-learn's 8x8 digits, Adam with a
ReduceLROnPlateau schedule, batches from a seeded DataLoader. Everything the next epoch
depends on goes into one .npz file: the model's Variables (BatchNorm's running statistics
too), the optimizer's state (moments, step counts, the schedule's plateau), the data
loader's pass count and the random stream Dropout draws from.

    python examples/resume_training.py --epochs 8                 # uninterrupted
    python examples/resume_training.py --epochs 8 --stop-after 4  # epochs 1-4, then saves
    python examples/resume_training.py --epochs 8 --resume        # loads, epochs 5-8

Each run ends by printing a fingerprint of the final weights: the resumed run's equals the
uninterrupted run's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import digits_common as common
import numpy as np

import tapegrad as tg
from tapegrad import nn


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=int, default=8, help="the whole run's length")
    parser.add_argument("--stop-after", type=int, help="save after this epoch and stop")
    parser.add_argument("--resume", action="store_true", help="continue from --checkpoint")
    parser.add_argument(
        "--checkpoint", type=Path, default=Path(__file__).with_name("resume_training.npz")
    )
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args()


def build(seed: int):
    """The model, optimizer and data loader, as a fresh run starts them."""
    tg.random.seed(seed)  # the initial weights, then the Dropout masks
    model = nn.Sequential(
        nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10)
    )
    plateau = tg.optim.ReduceLROnPlateau(1e-2, factor=0.5, patience=1)
    optimizer = tg.optim.Adam(model.trainable_variables, lr=plateau)
    return model, optimizer, plateau


def save(path: Path, epoch: int, model, optimizer, loader) -> None:
    arrays = {f"model.{k}": v for k, v in model.state_dict().items()}
    arrays.update({f"optimizer.{k}": v for k, v in optimizer.state_dict().items()})
    arrays["loader.epoch"] = np.asarray(loader.state_dict()["epoch"])
    # The random stream's position is a small dict of ints: kept as JSON text.
    arrays["random_state"] = np.asarray(json.dumps(tg.random.get_state()))
    arrays["epoch"] = np.asarray(epoch)
    np.savez(path, **arrays)


def restore(path: Path, model, optimizer, loader) -> int:
    """Load everything :func:`save` wrote; returns the number of epochs done."""
    with np.load(path, allow_pickle=False) as archive:
        part = {k: archive[k] for k in archive.files}
    model.load_state_dict({k[6:]: v for k, v in part.items() if k.startswith("model.")})
    optimizer.load_state_dict({k[10:]: v for k, v in part.items() if k.startswith("optimizer.")})
    loader.load_state_dict({"epoch": int(part["loader.epoch"])})
    tg.random.set_state(json.loads(str(part["random_state"])))
    return int(part["epoch"])


def fingerprint(model: nn.Module) -> str:
    digest = hashlib.sha256()
    for name, value in model.state_dict().items():
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    return digest.hexdigest()[:16]


def main() -> None:
    args = parse_args()
    data = common.load((64,), "cpu", args.seed)
    x_train, y_train, x_test, y_test = data
    model, optimizer, plateau = build(args.seed)
    loader = tg.data.DataLoader((x_train, y_train), 64, shuffle=True, seed=args.seed)
    done = restore(args.checkpoint, model, optimizer, loader) if args.resume else 0
    if args.resume:
        print(f"resumed from {args.checkpoint} after epoch {done}")
    last = args.epochs if args.stop_after is None else min(args.stop_after, args.epochs)
    for epoch in range(done + 1, last + 1):
        losses = []
        for x, y in loader:
            with tg.GradientTape() as tape:
                loss = nn.cross_entropy(model(x), y)
            optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
            losses.append(loss.item())
        plateau.step(np.mean(losses))  # the schedule watches the epoch's training loss
        _, accuracy = common.evaluate(model, x_test, y_test)
        print(
            f"epoch {epoch}: train loss {np.mean(losses):.4f}  test accuracy {accuracy:.4f}  "
            f"lr {optimizer.learning_rate:.2e}"
        )
    if args.stop_after is not None:
        save(args.checkpoint, last, model, optimizer, loader)
        print(f"stopped after epoch {last}; saved {args.checkpoint} (continue with --resume)")
    print(f"weights after epoch {last}: fingerprint {fingerprint(model)}")


if __name__ == "__main__":
    main()
