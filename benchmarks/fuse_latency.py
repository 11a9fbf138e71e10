"""First-call latency of ``tg.compile(f, fuse=True)`` on the chain: numba's compile (cold
cache) and loading the compiled code from disk (warm cache, a new process).

    python -m benchmarks.fuse_latency            # the 500-step chain
    python -m benchmarks.fuse_latency --steps 50

Each measurement runs in a fresh process with ``TAPEGRAD_CACHE_DIR`` set to a new
temporary directory: the first process compiles (cold), the second loads (warm). The
first call records f and computes the gradient; the later calls replay.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

CHILD = """
import time
t0 = time.perf_counter()
from benchmarks import chain
run = chain.builders({steps})["tapegrad fused"]()  # builds, and calls once
t1 = time.perf_counter()
run()
t2 = time.perf_counter()
for _ in range(20):
    run()
t3 = time.perf_counter()
print(f"{{t1 - t0:.3f}} {{t2 - t1:.6f}} {{(t3 - t2) / 20:.6f}}")
"""


def measure(steps: int, cache: str) -> tuple[float, float, float]:
    """(import + first call, second call, later calls) in seconds, in a new process."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, TAPEGRAD_CACHE_DIR=cache)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(steps=steps)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    first, second, later = (float(v) for v in done.stdout.split())
    return first, second, later


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as cache:
        for label in ("cold cache (numba compiles)", "warm cache (loads from disk)"):
            first, second, later = measure(args.steps, cache)
            print(
                f"chain-{args.steps} fused, {label}: first call (import, record, compile, "
                f"gradient) {first:.2f} s; second call {second * 1e3:.2f} ms; "
                f"later calls {later * 1e6:.0f} us"
            )


if __name__ == "__main__":
    main()
