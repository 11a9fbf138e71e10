"""Explained gradients: why a source got no gradient, for ``unconnected_gradients="raise"``.

The tape remembers enough to answer: which Tensors it watches, which values
left it through a host conversion (``tape._escapes``, filled by
:func:`tapegrad.core.tensor.note_escape`), and which watched values were read under
``stop_recording`` (``tape._stopped_reads``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable, _reads

if TYPE_CHECKING:
    from tapegrad.core.tape import GradientTape


def why_unconnected(tape: GradientTape, source: Tensor, targets: list[Tensor]) -> str:
    """The reason ``source`` has no path to ``targets`` on ``tape``, as a sentence.

    The reasons, most specific first: an integer dtype; the source (or a value
    computed from it) left the tape through a host conversion; it was never
    watched; it was read only under ``stop_recording``; the target was computed
    outside the tape; otherwise there is simply no path.

    >>> import tapegrad as tg
    >>> x, y = tg.tensor(1.0), tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch([x, y])
    ...     z = x * 3.0
    >>> tape.gradient(z, y, unconnected_gradients="raise")
    Traceback (most recent call last):
    ...
    ValueError: gradient: source Tensor of shape () float64 is unconnected: there is no path ...
    """
    if not backend.is_floating(source.dtype):
        return (
            f"it has dtype {source.dtype}, and only floating Tensors have gradients "
            "(make it floating first, e.g. x.astype('float64'), and watch that)"
        )
    dependents = _dependents(tape, source)
    escaped = [i for i in dependents if i in tape._escapes]
    if escaped:
        if escaped[0] == source._id:
            return f"its value left the tape through {tape._escapes[source._id]}"
        return (
            f"a value computed from it left the tape through {tape._escapes[escaped[0]]}, "
            "and the target was computed from that host copy"
        )
    if source._id not in tape._watched:
        if isinstance(source, Variable) and not source.trainable:
            return "it is a non-trainable Variable, which is never watched automatically"
        if isinstance(source, Variable) and _reads(tape, source):
            outside = not any(_on_tape(tape, t) for t in targets)
            return (
                "it was never watched: a trainable Variable is watched when an op reads it "
                "while the tape records, and no op did"
                + (
                    " (the target was computed outside the `with GradientTape()` block)"
                    if outside
                    else ""
                )
            )
        return "it was never watched (call tape.watch on it, or use a trainable Variable)"
    if any(i in tape._stopped_reads for i in dependents):
        return "it was only read under tape.stop_recording(), which records nothing"
    if not any(_on_tape(tape, t) for t in targets):
        dtypes = {str(t.dtype) for t in targets if not backend.is_floating(t.dtype)}
        if dtypes:
            return f"the target has dtype {', '.join(sorted(dtypes))}, which has no gradient"
        return (
            "the target is not on this tape: it was computed outside the "
            "`with GradientTape()` block, or by an op with no gradient (floor, round, sign, ...)"
        )
    return "there is no path from it to the target on this tape"


def _dependents(tape: GradientTape, source: Tensor) -> list[int]:
    """Serials of ``source`` and of every output computed from it, in tape order."""
    found = [source._id]
    depends = {source._id}
    for entry in tape:
        if any(isinstance(x, Tensor) and x._id in depends for x in entry.inputs):
            depends.add(entry.output._id)
            found.append(entry.output._id)
    return found


def _on_tape(tape: GradientTape, target: Any) -> bool:
    return isinstance(target, Tensor) and target._id in tape._watched
