"""Differentially-private-style training (DP-SGD) of the digits MLP with per-example gradients.

    python examples/private_digits.py --epochs 20

Each batch's gradient is the sum of per-example gradients, each clipped to norm at most
``--clip``, plus Gaussian noise of standard deviation ``--noise * --clip``, divided by the
batch size (Abadi et al., 2016). The per-example gradients come from one call:
``tg.vmap(per_example)(x, y)``, where ``per_example`` is an ordinary tape over one image,
run on the whole batch at once by vmap's batching rules (no Python loop over the examples).
The script checks them against a loop over the first batch's examples before training.
There is no privacy accounting here: the point is the gradients. Writes
private_digits.png (loss and accuracy by epoch) beside this script.
"""

import time
from pathlib import Path

import digits_common as common
import numpy as np
from tqdm import tqdm

import tapegrad as tg


def per_example_gradients(model, x, y):
    """One gradient per example: the same arrays as a tape per image, in one batched call."""

    def one(image, label):
        with tg.GradientTape() as tape:
            loss = tg.nn.cross_entropy(model(image[None]), label[None])
        return tape.gradient(loss, model.trainable_variables)

    return tg.vmap(one)(x, y)


def private_gradient(grads, clip: float, noise: float, rng: tg.random.Generator):
    """The clipped per-example gradients' sum, noised, over the batch size (DP-SGD's step)."""
    batch = grads[0].shape[0]
    squares = sum((g.reshape(batch, -1) ** 2).sum(axis=1) for g in grads)
    scale = np.minimum(1.0, clip / (squares**0.5 + 1e-12))  # each example's norm <= clip
    return [
        (tg.tensordot(scale, g, axes=1) + rng.normal(g.shape[1:], std=noise * clip, like=g)) / batch
        for g in grads
    ]


def check_against_a_loop(model, x, y) -> None:
    batched = per_example_gradients(model, x[:8], y[:8])
    for i in range(8):
        with tg.GradientTape() as tape:
            loss = tg.nn.cross_entropy(model(x[i : i + 1]), y[i : i + 1])
        for g, h in zip(batched, tape.gradient(loss, model.trainable_variables), strict=True):
            np.testing.assert_allclose(
                tg.tensor(g[i]).numpy(), tg.tensor(h).numpy(), rtol=1e-4, atol=1e-6
            )
    print("per-example gradients: vmap equals a loop over 8 examples")


def main() -> None:
    args = common.parse_args(
        __doc__, epochs=20, plot=Path(__file__).with_suffix(".png"), extra=add_arguments
    )
    tg.random.seed(args.seed)  # the initial weights
    rng = tg.random.Generator(args.seed + 1)  # the noise
    data = common.load((64,), args.device, args.seed)
    x_train, y_train, x_test, y_test = data
    model = tg.nn.Sequential(tg.nn.Linear(64, 128), tg.nn.ReLU(), tg.nn.Linear(128, 10))
    model.to(args.device)
    check_against_a_loop(model, x_train, y_train)
    optimizer = tg.optim.Adam(model.trainable_variables, lr=args.lr)
    batches = tg.data.DataLoader((x_train, y_train), args.batch_size, shuffle=True, seed=args.seed)
    history = {"train_loss": [], "train_acc": [], "test_loss": [], "test_acc": []}
    start = time.perf_counter()
    for _ in tqdm(range(1, args.epochs + 1), desc="epochs", unit="epoch"):
        for x, y in batches:
            grads = per_example_gradients(model, x, y)
            optimizer.apply_gradients(private_gradient(grads, args.clip, args.noise, rng))
        for split, (x, y) in (("train", (x_train, y_train)), ("test", (x_test, y_test))):
            loss, accuracy = common.evaluate(model, x, y)
            history[f"{split}_loss"].append(loss)
            history[f"{split}_acc"].append(accuracy)
    history["seconds"] = time.perf_counter() - start
    title = f"DP-SGD MLP on 8x8 digits (clip {args.clip}, noise {args.noise}; tapegrad)"
    common.plot(history, args.plot, title)
    common.report(history, args.plot)


def add_arguments(parser) -> None:
    parser.add_argument("--clip", type=float, default=1.0, help="per-example gradient norm bound")
    parser.add_argument("--noise", type=float, default=0.5, help="noise std, in units of --clip")


if __name__ == "__main__":
    main()
