"""Random programs built from tapegrad's op library, for differential tests.

A program is a list of instructions ``(op, operands, params)``; each operand is the
index of an earlier value (the inputs come first). :func:`run` interprets one with
tapegrad (``tg``), or with PyTorch (``torch``) as an independent oracle. Ops are
``smooth`` (finite differences are a fair oracle anywhere) or not (kinks, masks,
data-dependent shapes: compared between eager, replay and PyTorch only).

Every op keeps values in a moderate range (bounded maps, ``x / (1 + y*y)``), so
programs of any length stay finite.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import strategies as tst


@dataclass(frozen=True)
class Op:
    name: str
    arity: int
    smooth: bool
    tg: Any  # (args, params) -> Tensor
    torch: Any  # (torch module, args, params) -> torch.Tensor
    axis: bool = False  # takes an ``axis`` param drawn from its first operand's rank


def _axis(params: dict) -> Any:
    return params.get("axis")


OPS = [
    # elementwise, bounded or slowly growing
    Op("tanh", 1, True, lambda a, p: tg.tanh(a[0]), lambda T, a, p: T.tanh(a[0])),
    Op("sin", 1, True, lambda a, p: tg.sin(a[0]), lambda T, a, p: T.sin(a[0])),
    Op("sigmoid", 1, True, lambda a, p: tg.sigmoid(a[0]), lambda T, a, p: T.sigmoid(a[0])),
    Op(
        "softplus",
        1,
        True,
        lambda a, p: tg.softplus(a[0]),
        lambda T, a, p: T.nn.functional.softplus(a[0]),
    ),
    Op("exp_tanh", 1, True, lambda a, p: tg.exp(tg.tanh(a[0])), lambda T, a, p: a[0].tanh().exp()),
    Op(
        "log1p_sq", 1, True, lambda a, p: tg.log1p(a[0] * a[0]), lambda T, a, p: (a[0] ** 2).log1p()
    ),
    Op(
        "sqrt_sq1",
        1,
        True,
        lambda a, p: tg.sqrt(tg.square(a[0]) + 1.0),
        lambda T, a, p: (a[0] ** 2 + 1.0).sqrt(),
    ),
    Op("arctan", 1, True, lambda a, p: tg.arctan(a[0]), lambda T, a, p: T.atan(a[0])),
    Op("neg", 1, True, lambda a, p: -a[0], lambda T, a, p: -a[0]),
    Op("relu", 1, False, lambda a, p: tg.relu(a[0]), lambda T, a, p: T.relu(a[0])),
    Op("abs", 1, False, lambda a, p: tg.abs(a[0]), lambda T, a, p: a[0].abs()),
    # binary, broadcasting
    Op("add", 2, True, lambda a, p: a[0] + a[1], lambda T, a, p: a[0] + a[1]),
    Op("sub", 2, True, lambda a, p: a[0] - a[1], lambda T, a, p: a[0] - a[1]),
    Op("mul", 2, True, lambda a, p: a[0] * a[1], lambda T, a, p: a[0] * a[1]),
    Op(
        "div",
        2,
        True,
        lambda a, p: a[0] / (a[1] * a[1] + 1.0),
        lambda T, a, p: a[0] / (a[1] * a[1] + 1.0),
    ),
    Op(
        "pow",
        2,
        True,
        lambda a, p: (a[0] * a[0] + 1.0) ** tg.tanh(a[1]),
        lambda T, a, p: (a[0] * a[0] + 1.0) ** a[1].tanh(),
    ),
    Op("maximum", 2, False, lambda a, p: tg.maximum(a[0], a[1]), lambda T, a, p: T.maximum(*a)),
    Op(
        "where",
        2,
        False,
        lambda a, p: tg.where(a[0] > a[1], a[0], a[1] * 0.5),
        lambda T, a, p: T.where(a[0] > a[1], a[0], a[1] * 0.5),
    ),
    # reductions keep their axis, so results still broadcast with their neighbours
    Op(
        "sum",
        1,
        True,
        lambda a, p: tg.sum(a[0], axis=_axis(p), keepdims=True),
        lambda T, a, p: a[0].sum(dim=_axis(p), keepdim=True),
        axis=True,
    ),
    Op(
        "mean",
        1,
        True,
        lambda a, p: tg.mean(a[0], axis=_axis(p), keepdims=True),
        lambda T, a, p: a[0].mean(dim=_axis(p), keepdim=True),
        axis=True,
    ),
    Op(
        "logsumexp",
        1,
        True,
        lambda a, p: tg.logsumexp(a[0], axis=_axis(p), keepdims=True),
        lambda T, a, p: a[0].logsumexp(dim=_axis(p), keepdim=True),
        axis=True,
    ),
    Op(
        "max",
        1,
        False,
        lambda a, p: tg.max(a[0], axis=_axis(p), keepdims=True),
        lambda T, a, p: a[0].amax(dim=_axis(p), keepdim=True),
        axis=True,
    ),
    Op(
        "cumsum",
        1,
        True,
        lambda a, p: tg.cumsum(a[0], axis=_axis(p)),
        lambda T, a, p: a[0].cumsum(dim=_axis(p)),
        axis=True,
    ),
    Op(
        "flip",
        1,
        True,
        lambda a, p: tg.flip(a[0], axis=_axis(p)),
        lambda T, a, p: a[0].flip(dims=(_axis(p),)),
        axis=True,
    ),
    Op(
        "softmax",
        1,
        True,
        lambda a, p: tg.softmax(a[0], axis=_axis(p)),
        lambda T, a, p: a[0].softmax(dim=_axis(p)),
        axis=True,
    ),
    # indexing: a reversed gather, and a boolean mask whose size follows the values
    Op(
        "gather",
        1,
        True,
        lambda a, p: tg.take(a[0], np.arange(a[0].shape[p["axis"]])[::-1].copy(), axis=p["axis"]),
        lambda T, a, p: a[0].flip(dims=(p["axis"],)),
        axis=True,
    ),
    Op(
        "masked",
        2,
        False,
        lambda a, p: tg.reshape(
            tg.sum(a[0][a[0] > 0.0] * tg.reshape(tg.sum(a[1]), (1,))), (1,) * a[0].ndim
        ),
        lambda T, a, p: (a[0][a[0] > 0.0] * a[1].sum().reshape(1)).sum().reshape((1,) * a[0].ndim),
    ),
]
BY_NAME = {op.name: op for op in OPS}


def _broadcasts(*shapes: tuple[int, ...]) -> bool:
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        return False
    return True


@st.composite
def programs(draw: Any, smooth_only: bool = False, max_ops: int = 6) -> tuple[list, list]:
    """``(instructions, input arrays)``: 1-3 float64 inputs of broadcastable shapes."""
    count = draw(st.integers(1, 3), label="inputs")
    shapes = draw(tst.broadcastable_shapes(count, max_dims=3, max_side=3), label="shapes")
    inputs = [draw(tst.arrays(shape, domain="small")) for shape in shapes]
    pool = [np.shape(x) for x in inputs]
    ops = [op for op in OPS if op.smooth or not smooth_only]
    program = []
    for _ in range(draw(st.integers(1, max_ops), label="length")):
        op = draw(st.sampled_from(ops))
        first = draw(st.integers(0, len(pool) - 1))
        operands = [first]
        if op.arity == 2:
            partners = [k for k, s in enumerate(pool) if _broadcasts(pool[first], s)]
            if op.smooth is False:  # a kink or tie on x vs x is not a fair comparison
                partners = [k for k in partners if k != first] or partners
            operands.append(draw(st.sampled_from(partners)))
        params = {}
        shape = pool[first]
        if op.axis:
            if not shape:
                continue  # no axis to act on
            params["axis"] = draw(st.integers(0, len(shape) - 1))
        if op.name == "masked" and not shape:
            continue
        program.append((op.name, tuple(operands), params))
        pool.append(_result_shape(op, [pool[k] for k in operands], params))
    return program, inputs


def _result_shape(op: Op, shapes: list[tuple[int, ...]], params: dict) -> tuple[int, ...]:
    if op.name in ("sum", "mean", "logsumexp", "max"):
        shape = list(shapes[0])
        shape[params["axis"]] = 1
        return tuple(shape)
    if op.name == "masked":
        return (1,) * len(shapes[0])
    return np.broadcast_shapes(*shapes)


def run(program: list, inputs: list, library: str = "tg") -> Any:
    """The program's scalar result: the sum of every value it computed, each scaled so
    that no single value dominates. ``library`` is ``"tg"`` or ``"torch"``."""
    values = list(inputs)
    if library == "torch":
        import torch as T

        for name, operands, params in program:
            values.append(BY_NAME[name].torch(T, [values[k] for k in operands], params))
        return sum(
            (v.sum() * (0.5 + 0.1 * i) for i, v in enumerate(values)), T.zeros((), dtype=T.float64)
        )
    for name, operands, params in program:
        values.append(BY_NAME[name].tg([values[k] for k in operands], params))
    total = tg.tensor(0.0)
    for i, v in enumerate(values):
        total = total + tg.sum(v) * (0.5 + 0.1 * i)
    return total


def describe(program: list, inputs: list) -> str:
    """The program as text, for a failing example's message."""
    lines = [f"v{k} = input of shape {np.shape(x)}" for k, x in enumerate(inputs)]
    for n, (name, operands, params) in enumerate(program, start=len(inputs)):
        args = ", ".join(f"v{k}" for k in operands)
        extra = "".join(f", {k}={v}" for k, v in params.items())
        lines.append(f"v{n} = {name}({args}{extra})")
    return "\n".join(lines)
