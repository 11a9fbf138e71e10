"""Where the eager chain's time goes: ``python -m benchmarks.chain_split``.

Times the chain workload (benchmarks/chain.py) in stages, each the median of
interleaved rounds, and prints microseconds per recorded op: hand-written NumPy,
tapegrad's forward with nothing recording, the same forward on a tape, and the
whole step with the gradient. The differences are the overhead of dispatch,
recording and the reverse sweep (docs/performance.md).
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

import tapegrad as tg  # noqa: E402
from benchmarks import chain  # noqa: E402


def stages(steps: int) -> dict[str, Callable[[], Any]]:
    """The chain cut at each stage, as functions of no arguments."""
    y0, w, b = chain.inputs()
    ty0, tw, tb = tg.tensor(y0), tg.tensor(w), tg.tensor(b)

    def numpy_forward() -> Any:
        y = y0
        for _ in range(steps):
            y = np.tanh(y * w + b)
        return y

    def forward() -> Any:
        y = ty0
        for _ in range(steps):
            y = tg.tanh(y * tw + tb)
        return y

    def taped_forward() -> Any:
        with tg.GradientTape() as tape:
            tape.watch([tw, tb])
            return tape, tg.sum(forward())

    def gradient() -> Any:
        tape, loss = taped_forward()
        return tape.gradient(loss, [tw, tb])

    return {
        "numpy forward": numpy_forward,
        "numpy forward + backward": lambda: chain.numpy_chain(y0, w, b, steps),
        "tapegrad forward": forward,
        "tapegrad forward on a tape": taped_forward,
        "tapegrad forward + gradient": gradient,
    }


def measure(steps: int = 500, rounds: int = 40) -> dict[str, float]:
    """Median seconds per recorded op of each stage, interleaved over ``rounds``."""
    runs = stages(steps)
    samples: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            samples[name].append(time.perf_counter() - start)
    ops = 3 * steps
    return {name: statistics.median(times) / ops for name, times in samples.items()}


def main() -> None:
    per_op = {name: seconds * 1e6 for name, seconds in measure().items()}
    for name, us in per_op.items():
        print(f"{name:34s} {us:6.2f} us/op")
    print()
    dispatch = per_op["tapegrad forward"] - per_op["numpy forward"]
    print(f"{'dispatch (no tape)':34s} +{dispatch:5.2f}")
    recording = per_op["tapegrad forward on a tape"] - per_op["tapegrad forward"]
    print(f"{'recording':34s} +{recording:5.2f}")
    numpy_backward = per_op["numpy forward + backward"] - per_op["numpy forward"]
    sweep = per_op["tapegrad forward + gradient"] - per_op["tapegrad forward on a tape"]
    print(f"{'sweep, beyond the NumPy backward':34s} +{sweep - numpy_backward:5.2f}")
    ratio = per_op["tapegrad forward + gradient"] / per_op["numpy forward + backward"]
    print(f"{'ratio to hand-written NumPy':34s} {ratio:6.2f}x")


if __name__ == "__main__":
    main()
