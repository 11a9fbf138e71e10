"""DistributedOptimizer: average the gradients over every rank, then take the step."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Variable
from tapegrad.distributed.buckets import BUCKET_BYTES, Plan, spec_of
from tapegrad.distributed.mpi_world import World, fingerprint
from tapegrad.distributed.world import world as _world
from tapegrad.ops.primitive import raw


class DistributedOptimizer:
    """Wrap an optimizer so that each ``apply_gradients`` averages the gradients over
    every rank (one all-reduce per bucket of ``bucket_bytes``) before the wrapped step.

    Each rank computes the gradient of the mean loss over its own batch; the mean over
    ranks is then the gradient of the mean loss over all ranks' batches together
    (equal per-rank batch sizes), so N ranks take the step one process would take on
    the concatenated batch, and every rank, holding the same reduced gradients, keeps
    bitwise the same Variables (start them equal with :func:`broadcast`).

    ``apply_gradients`` takes what the wrapped optimizer takes: one gradient per
    Variable in its order, or ``(gradient, variable)`` pairs. A gradient that is None on
    some ranks counts as zeros there (its loss does not depend on that Variable); one
    that is None on every rank stays None, and the Variable is left alone. Every other
    attribute (``variables``, ``lr``, ``iterations``, ``state`` ...) is the wrapped
    optimizer's. In a world of one it hands the gradients straight through.

    Args:
        optimizer: The optimizer to wrap (any object with ``apply_gradients``).
        bucket_bytes: The size of each all-reduce's buffer, at least 1 byte.

    Raises:
        TypeError: ``optimizer`` has no ``apply_gradients``.
        ValueError: ``bucket_bytes`` is below 1.

    >>> import tapegrad as tg
    >>> import tapegrad.distributed as dist
    >>> w = tg.Variable([1.0])
    >>> optimizer = dist.DistributedOptimizer(tg.optim.SGD([w], lr=0.5))
    >>> optimizer.apply_gradients([tg.tensor([1.0])])
    >>> w.numpy(), optimizer.iterations
    (array([0.5]), 1)
    """

    _OWN = ("optimizer", "bucket_bytes", "_plans")

    def __init__(self, optimizer: Any, bucket_bytes: int = BUCKET_BYTES) -> None:
        if not hasattr(optimizer, "apply_gradients"):
            raise TypeError(
                f"DistributedOptimizer: {type(optimizer).__name__} has no apply_gradients"
            )
        if bucket_bytes < 1:
            raise ValueError(f"DistributedOptimizer: bucket_bytes must be >= 1, got {bucket_bytes}")
        self.optimizer = optimizer
        self.bucket_bytes = int(bucket_bytes)
        self._plans: dict[tuple[int, ...], tuple[Plan, int, list[Variable]]] = {}

    def __getattr__(self, name: str) -> Any:
        if name in DistributedOptimizer._OWN:  # not set yet (copying, unpickling)
            raise AttributeError(name)
        return getattr(self.optimizer, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in DistributedOptimizer._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.optimizer, name, value)

    def __repr__(self) -> str:
        return f"DistributedOptimizer({self.optimizer!r})"

    def apply_gradients(self, grads: Any) -> Any:
        """Average ``grads`` over every rank, then apply them with the wrapped optimizer."""
        world = _world()
        if world.size == 1:
            return self.optimizer.apply_gradients(grads)
        grads = list(grads)
        if grads and all(_is_pair(item) for item in grads):
            variables = [v for _, v in grads]
            averaged = self._average([g for g, _ in grads], variables, world)
            return self.optimizer.apply_gradients(list(zip(averaged, variables)))
        return self.optimizer.apply_gradients(
            self._average(grads, list(self.optimizer.variables), world)
        )

    def _average(self, grads: list[Any], variables: list[Variable], world: World) -> list[Any]:
        what = f"DistributedOptimizer({type(self.optimizer).__name__}).apply_gradients"
        if len(grads) != len(variables):
            raise ValueError(
                f"{what}: {len(grads)} gradients for {len(variables)} variables "
                "(pass one per variable, None to skip)"
            )
        plan = self._plan(variables, world, what)
        arrays = [_gradient(g, v, k, what) for k, (g, v) in enumerate(zip(grads, variables))]
        averaged = plan.all_reduce(arrays, "mean")
        return [
            None if a is None else backend.move(a, backend.placement_of(v.data))
            for a, v in zip(averaged, variables)
        ]

    def _plan(self, variables: list[Variable], world: World, what: str) -> Plan:
        """The buckets for these Variables (made once), after every rank agrees on this step."""
        key = tuple(map(id, variables))
        cached = self._plans.get(key)
        if cached is None:
            specs = [spec_of(v.data, world) for v in variables]
            signature = (what, tuple(specs))
            plan = Plan(specs, [v.data for v in variables], world, self.bucket_bytes, counted=True)
            # The plan keeps its Variables alive, so their ids cannot be reused by others.
            cached = self._plans[key] = (plan, fingerprint(signature), variables)
        plan, digest, _ = cached
        world.agree(digest, what, lambda: _describe(what, plan))
        return plan


def _is_pair(item: Any) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Variable)


def _gradient(g: Any, v: Variable, k: int, what: str) -> Any:
    """Gradient ``k`` as a backend array of its Variable's shape on its device (or None)."""
    if g is None:
        return None
    g = raw(g)
    if not hasattr(g, "shape"):  # a list or a Python number
        g = np.asarray(g, dtype=backend.dtype_name(v.dtype))
    if tuple(g.shape) != v.shape:
        raise ValueError(
            f"{what}: gradient {k} has shape {tuple(g.shape)}, its Variable {v.name or ''!r} "
            f"{v.shape}"
        )
    backend.namespace(v.data, g)  # raises MixedDevicesError naming both devices
    return g


def _describe(what: str, plan: Plan) -> list[str]:
    lines = [what]
    for k, spec in enumerate(plan.specs):
        if spec is not None:  # a Variable's spec never is
            lines.append(f"variable {k}: shape {spec.shape} {spec.dtype} ({spec.home})")
    return lines
