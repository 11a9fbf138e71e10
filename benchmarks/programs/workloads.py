"""The workload table: every program at the sizes the benchmark runs, and ``step``, which
builds one call of a program under one system."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from benchmarks.programs import fluid, gp, hmm, logreg, lstm, ode, survival
from benchmarks.programs.systems import System


@dataclass(frozen=True)
class Workload:
    """One program at one size."""

    name: str
    module: ModuleType
    size: int

    @property
    def description(self) -> str:
        return str(self.module.description(self.size))


WORKLOADS = [
    Workload("gp-200", gp, 200),
    Workload("gp-1000", gp, 1000),
    Workload("hmm", hmm, hmm.STEPS),
    Workload("fluid", fluid, fluid.GRID),
    Workload("ode-fit", ode, ode.TIMES),
    Workload("lstm", lstm, lstm.LENGTH),
    Workload("logreg-lbfgs", logreg, logreg.ROWS),
    Workload("survival-80k", survival, survival.ROWS),
]


def tiny(workload: Workload) -> Workload:
    """The same program at the module's TINY size (for the tests)."""
    return Workload(workload.name, workload.module, workload.module.TINY)


def step(workload: Workload, system: System, seed: int = 0) -> Callable[[], Any]:
    """A call that runs ``workload`` once under ``system``: ``(value, gradient)``, or for a
    fit ``(weights, evaluations)``. Inputs are converted once, outside the call."""
    params, data = workload.module.inputs(workload.size, seed)
    data = system.inputs(data)
    module = workload.module

    def f(p: Any) -> Any:
        return module.loss(system.np, system.sp, p, data)

    value_and_grad = system.value_and_grad(f)
    if hasattr(module, "fit"):
        return lambda: module.fit(value_and_grad, params)
    params = system.inputs(params)
    return lambda: system.ready(value_and_grad(params))
