"""Anomaly detection's checks: what the first NaN or inf's error says, forward or backward.

The switch is the engine's (:func:`tapegrad.detect_anomaly`, tapegrad/core/anomaly.py);
while it is on, every primitive calls :func:`check_forward` on its result and every
sweep :func:`check_backward` on each cotangent a rule returns. They are registered with
the engine when tapegrad.debug is imported (tapegrad/debug/__init__.py).
"""

from __future__ import annotations

from typing import Any

from tapegrad.backends import namespaces as backend
from tapegrad.core import anomaly
from tapegrad.core.active import RECORDING, _active
from tapegrad.core.sites import caller_site, format_site
from tapegrad.core.tensor import Tensor, _reads


def _bad_value(value: Any) -> str | None:
    """``"nan"``, ``"inf"`` or None for a Tensor or array (non-floating ones are always fine)."""
    data = value._data if isinstance(value, Tensor) else value
    if not backend.is_floating(data.dtype):
        return None
    xp = backend.namespace(data)
    if bool(xp.any(xp.isnan(data))):
        return "nan"
    if bool(xp.any(xp.isinf(data))):
        return "inf"
    return None


def _describe_inputs(inputs: tuple[Any, ...], what: str) -> str:
    """Which inputs were already non-finite: then the bad value came from earlier."""
    notes = []
    for k, x in enumerate(inputs):
        if hasattr(x, "dtype") and hasattr(x, "shape"):
            bad = _bad_value(x)
            if bad is not None:
                notes.append(f"{what} {k} ({tuple(x.shape)} {x.dtype}) already contained {bad}")
    return "; ".join(notes)


def check_forward(primitive: Any, inputs: tuple[Any, ...], result: Any) -> None:
    """Called by every primitive while anomaly detection is on, before it records."""
    if anomaly.in_rules():
        return
    bad = _bad_value(result)
    if bad is None:
        return
    # The index the entry would get on each tape that would record it.
    indices = [
        str(len(tape._entries))
        for tape in _active.get()
        if tape._mode is RECORDING and any(_reads(tape, x) for x in inputs if isinstance(x, Tensor))
    ]
    if not indices:
        position = "not recorded on any tape"
    elif len(indices) == 1:
        position = f"tape index {indices[0]}"
    else:
        position = f"tape indices {', '.join(indices)} (outermost tape first)"
    message = (
        f"{primitive.name} produced {bad} in the forward pass at "
        f"{format_site(caller_site())} ({position}, output {result.shape} {result.dtype})"
    )
    earlier = _describe_inputs(inputs, "input")
    if earlier:
        message += f"; {earlier}, so the {bad} came from before this op"
    raise FloatingPointError(message)


def check_backward(entry: Any, index: int, k: int, cotangent: Any, received: Any) -> None:
    """Called by the sweep on each cotangent a rule returns while anomaly detection is on.

    ``received`` is the cotangent the rule was given (its output's), ``k`` the
    input whose cotangent ``cotangent`` is.
    """
    bad = _bad_value(cotangent)
    if bad is None:
        return
    name = entry.primitive.name
    message = (
        f"the gradient rule of {name} produced {bad} for input {k} "
        f"({tuple(cotangent.shape)} {cotangent.dtype}) in the reverse sweep "
        f"(tape index {index}, recorded at {entry.where})"
    )
    upstream = _bad_value(received)
    if upstream is not None:
        message += f"; the cotangent {name} received already contained {upstream}"
    saved = _describe_inputs(entry.inputs, "its saved input")
    if saved:
        message += f"; {saved}"
    raise FloatingPointError(message)
