"""Peak memory of a training step with and without ``tg.checkpoint``:
``python -m benchmarks.checkpoint_memory``.

A deep residual MLP (each block ``h + Linear(4W, W)(tanh(Linear(W, 4W)(h)))``), one
forward and one gradient, float32. For each depth it reports what the tape saves after
the forward (``tape.summary().saved_bytes``), the peak of the memory NumPy allocates
during the step above what was allocated before it (tracemalloc sees NumPy's buffers),
and the time. With every block checkpointed the tape keeps one block input per block,
and the sweep rebuilds one block's intermediates at a time.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # steady timings on a shared machine, as benchmarks.chain_split

import argparse  # noqa: E402
import gc  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad import nn  # noqa: E402


class Block(nn.Module):
    def __init__(self, width: int) -> None:
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, h: tg.Tensor) -> tg.Tensor:
        return h + self.down(tg.tanh(self.up(h)))


def step(blocks: list[Block], x: tg.Tensor, checkpointed: bool) -> tuple[int, list]:
    """One forward and gradient: (the tape's saved bytes after the forward, the gradients)."""
    variables = [v for block in blocks for v in block.trainable_variables]
    with tg.GradientTape() as tape:
        h = x
        for block in blocks:
            h = tg.checkpoint(block)(h) if checkpointed else block(h)
        loss = tg.sum(h * h)
    saved = tape.summary().saved_bytes
    return saved, tape.gradient(loss, variables)


def measure(depth: int, width: int, batch: int, checkpointed: bool) -> dict[str, float]:
    tg.random.seed(0)
    blocks = [Block(width) for _ in range(depth)]
    x = tg.random.normal((batch, width), dtype="float32")
    step(blocks, x, checkpointed)  # warm up (first calls allocate caches)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        saved, grads = step(blocks, x, checkpointed)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    del grads
    start = time.perf_counter()
    for _ in range(3):
        step(blocks, x, checkpointed)
    seconds = (time.perf_counter() - start) / 3
    return {"saved": saved, "peak": peak, "seconds": seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[8, 16, 32, 64])
    parser.add_argument("--width", type=int, default=64)
    parser.add_argument("--batch", type=int, default=1024)
    args = parser.parse_args()
    mib = 2**20
    print(f"residual MLP blocks of width {args.width} (hidden {4 * args.width}), batch "
          f"{args.batch}, float32; one block's activations are "
          f"{args.batch * args.width * 4 * 4 / mib:.2f} MiB wide\n")  # fmt: skip
    print("| depth | saved by the tape | with checkpoint | peak during the step | "
          "with checkpoint | time | with checkpoint |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for depth in args.depths:
        plain = measure(depth, args.width, args.batch, False)
        ckpt = measure(depth, args.width, args.batch, True)
        print(
            f"| {depth} | {plain['saved'] / mib:.1f} MiB | {ckpt['saved'] / mib:.1f} MiB | "
            f"{plain['peak'] / mib:.1f} MiB | {ckpt['peak'] / mib:.1f} MiB | "
            f"{plain['seconds'] * 1e3:.0f} ms | {ckpt['seconds'] * 1e3:.0f} ms |"
        )


if __name__ == "__main__":
    main()
