"""Ops on Tensors that no tape watches, against the bare NumPy call on the same arrays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import peers

CALLS = 2000  # calls per timed sample: one call is well under a microsecond


def builders(op: str, shape: tuple[int, ...]) -> dict[str, Callable[[], Callable[[], Any]]]:
    """``op`` is ``"multiply"`` (x * y) or ``"tanh"``; each sample runs it CALLS times."""
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(shape), rng.standard_normal(shape)

    def numpy_() -> Callable[[], Any]:
        fn = np.multiply if op == "multiply" else None

        if op == "multiply":

            def run() -> Any:
                for _ in range(CALLS):
                    fn(x, y)

        else:

            def run() -> Any:
                for _ in range(CALLS):
                    np.tanh(x)

        return run

    def tapegrad_() -> Callable[[], Any]:
        import tapegrad as tg

        tx, ty = tg.tensor(x), tg.tensor(y)
        if op == "multiply":

            def run() -> Any:
                for _ in range(CALLS):
                    tx * ty

        else:
            tanh = tg.tanh

            def run() -> Any:
                for _ in range(CALLS):
                    tanh(tx)

        return run

    def torch_() -> Callable[[], Any]:
        torch = peers.torch()
        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        if op == "multiply":

            def run() -> Any:
                for _ in range(CALLS):
                    tx * ty

        else:
            tanh = torch.tanh

            def run() -> Any:
                for _ in range(CALLS):
                    tanh(tx)

        return run

    def mygrad_() -> Callable[[], Any]:
        import mygrad as mg

        mx, my = mg.tensor(x), mg.tensor(y)
        if op == "multiply":

            def run() -> Any:
                for _ in range(CALLS):
                    mx * my

        else:

            def run() -> Any:
                for _ in range(CALLS):
                    mg.tanh(mx)

        return run

    return {"numpy": numpy_, "tapegrad": tapegrad_, "torch": torch_, "mygrad": mygrad_}
