"""Data-parallel training of an MLP (64-128-10) on scikit-learn's 8x8 digits.

    python examples/distributed_digits.py                  # one process
    mpiexec -n 2 python examples/distributed_digits.py     # two, each on half of every batch

Each step's batch of --batch-size examples is split evenly across the processes
(``dist.shard`` deals every rank its share of the epoch's permutation), each rank
computes the gradient on its part, and ``DistributedOptimizer`` averages the
gradients before Adam's step: every step sees the same examples however many
processes take part, so the runs agree up to rounding (and the few examples that
``shard`` repeats when the processes do not divide the data). Rank 0 prints.

With ``--checkpoint PATH`` the run saves its state after every epoch (``dist.save``:
the model, Adam's state, the epoch and the seed that ``shard`` draws from) and, when
PATH exists, resumes from it (``dist.load``), on any number of processes that divide
the batch: a run killed mid-way and started again ends bit for bit as one that was not
interrupted. ``--until EPOCH`` stops after that epoch (a job of limited length; the next
one resumes)::

    mpiexec -n 2 python examples/distributed_digits.py --checkpoint run.npz --until 10
    mpiexec -n 3 python examples/distributed_digits.py --checkpoint run.npz --batch-size 60

Needs the mpi extra for ``mpiexec`` (pip install 'tapegrad[mpi]') and scikit-learn.
"""

import argparse
import time

import numpy as np
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

import tapegrad as tg
import tapegrad.distributed as dist


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--epochs", type=int, default=20, help="passes over the training set")
    parser.add_argument("--batch-size", type=int, default=64, help="examples per step, all ranks")
    parser.add_argument("--lr", type=float, default=1e-2, help="Adam's initial learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--checkpoint", help="save after every epoch; resume if it exists")
    parser.add_argument("--until", type=int, help="stop after this epoch (default: the last)")
    return parser.parse_args()


def load(seed: int) -> tuple[tg.Tensor, ...]:
    """(x_train, y_train, x_test, y_test): 1,437 and 360 images, pixels in [0, 1], float32."""
    digits = load_digits()
    images = (digits.data / 16.0).astype(np.float32)
    x_train, x_test, y_train, y_test = train_test_split(
        images, digits.target, test_size=0.2, stratify=digits.target, random_state=seed
    )
    return tuple(tg.tensor(a) for a in (x_train, y_train, x_test, y_test))


def evaluate(model: tg.nn.Module, x: tg.Tensor, y: tg.Tensor) -> tuple[float, float]:
    """(mean cross-entropy, accuracy) on (x, y): each rank scores its part, then a sum."""
    mine = np.array_split(np.arange(len(x)), dist.world_size())[dist.rank()]
    logits = model(x[mine])
    totals = dist.all_reduce(
        {
            "loss": tg.nn.cross_entropy(logits, y[mine]).item() * len(mine),
            "correct": int((tg.argmax(logits, axis=1) == y[mine]).numpy().sum()),
            "count": len(mine),
        },
        op="sum",
    )
    return totals["loss"] / totals["count"], totals["correct"] / totals["count"]


def resume(args: argparse.Namespace, model: tg.nn.Module, optimizer: tg.optim.Optimizer) -> int:
    """Load ``--checkpoint`` into the model and optimizer if it exists: the last epoch done."""
    if not args.checkpoint:
        return 0
    try:
        state = dist.load(args.checkpoint)  # read by rank 0, sent to every rank
    except FileNotFoundError:  # raised on every rank alike
        return 0
    settings = {"seed": args.seed, "epochs": args.epochs, "batch_size": args.batch_size}
    saved = {key: state[key] for key in settings}
    if saved != settings:
        raise SystemExit(f"{args.checkpoint} was saved with {saved}; this run has {settings}")
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    if dist.rank() == 0:
        print(f"resumed from {args.checkpoint} after epoch {state['epoch']}", flush=True)
    return int(state["epoch"])


def main() -> None:
    args = parse_args()
    dist.init()
    rank, size = dist.rank(), dist.world_size()
    if args.batch_size % size:
        raise SystemExit(f"--batch-size {args.batch_size} does not split over {size} processes")
    per_rank = args.batch_size // size

    tg.random.seed(args.seed)  # the initial weights
    x_train, y_train, x_test, y_test = load(args.seed)
    model = tg.nn.Sequential(tg.nn.Linear(64, 128), tg.nn.ReLU(), tg.nn.Linear(128, 10))
    dist.broadcast(model.trainable_variables, root=0)  # every rank starts from rank 0's
    steps = -(-len(x_train) // args.batch_size)  # per epoch, however many processes
    schedule = tg.optim.CosineDecay(args.lr, decay_steps=args.epochs * steps, min_lr=args.lr / 10)
    optimizer = dist.DistributedOptimizer(tg.optim.Adam(model.trainable_variables, lr=schedule))
    done = resume(args, model, optimizer)

    start = time.perf_counter()
    test_loss, test_accuracy = evaluate(model, x_test, y_test)
    for epoch in range(done + 1, min(args.epochs, args.until or args.epochs) + 1):
        mine = dist.shard(len(x_train), shuffle=True, seed=args.seed, epoch=epoch)
        for first in range(0, len(mine), per_rank):
            batch = mine[first : first + per_rank]
            with tg.GradientTape() as tape:
                loss = tg.nn.cross_entropy(model(x_train[batch]), y_train[batch])
            optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
        test_loss, test_accuracy = evaluate(model, x_test, y_test)
        if args.checkpoint:  # written whole or not at all, so a kill leaves the last one
            state = {"model": model.state_dict(), "optimizer": optimizer.state_dict()}
            state.update(epoch=epoch, seed=args.seed, epochs=args.epochs)
            dist.save(args.checkpoint, {**state, "batch_size": args.batch_size})
        if rank == 0:
            print(
                f"epoch {epoch:3d}: loss {test_loss:.4f}, accuracy {test_accuracy:.4f}", flush=True
            )
    seconds = time.perf_counter() - start
    if rank == 0:
        processes = "1 process" if size == 1 else f"{size} processes"
        print(
            f"test accuracy {test_accuracy:.4f}  test loss {test_loss:.4f}  ({args.epochs} epochs "
            f"in {seconds:.1f} s on {processes}, {per_rank} examples per process per step)"
        )


if __name__ == "__main__":
    main()
