"""Seeing what a tape recorded: its listing, its drawing, and anomaly detection's checks.

``print(tape)`` and ``tape.summary()`` (listing.py), ``tape.to_dot()``, ``tape.render()``
and the drawing Jupyter shows (viz.py) are set on :class:`~tapegrad.GradientTape` here,
and the checks behind :func:`tapegrad.detect_anomaly` (anomaly.py) are registered with
the engine, which holds the switch: the engine cannot import this layer, which reads its
tapes and entries.

Layer: built on ``tapegrad.core`` and ``tapegrad.backends`` only.
"""

from tapegrad.core import anomaly as _switch
from tapegrad.core.tape import GradientTape
from tapegrad.debug import anomaly, listing, viz

GradientTape.__str__ = listing.format_tape  # type: ignore[method-assign]
GradientTape.summary = listing.summary
GradientTape.to_dot = viz.to_dot
GradientTape.render = viz.render
GradientTape._repr_svg_ = viz.to_svg
_switch.register_checks(anomaly.check_forward, anomaly.check_backward)

__all__ = ["listing", "viz"]  # the functions behind print(tape), tape.summary(), tape.to_dot() ...
