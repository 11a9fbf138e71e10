"""An operand no op takes (a string, a dict, an array of strings or objects, any other
object) gives every primitive of the package a TypeError that names the primitive and the
operand, and records nothing: never a crash inside tapegrad, never an array of objects.

The primitives are the ones tests/ops/test_complex_decisions.py finds by walking the
package; each gets the bad operand in each of its differentiable positions, Tensors in the
others.
"""

import numpy as np
import pytest
from test_complex_decisions import PRIMITIVES

import tapegrad as tg

# Ops that NumPy itself applies to arrays of strings or objects (copying, sorting,
# selecting, truth values): handed such an array directly they pass it through, as NumPy
# does (the hot path of every op reads no dtype). Nothing differentiates the result:
# recording an op on it raises (tapegrad/core/record.py).
NUMPY_TAKES_STRINGS = {
    "argsort", "argwhere", "copy", "identity", "imag", "logical_not", "median", "nanmedian",
    "real", "stop_gradient",
}  # fmt: skip

BAD = {
    "a str": "a",
    "a dict": {"a": 1.0},
    "an array of dtype <U1": np.array(["x", "y"]),
    "an array of dtype object": np.array(["x", "y"], dtype=object),
    "an object": object(),
}


@pytest.mark.parametrize("kind", list(BAD))
def test_every_primitive_names_a_bad_operand(kind):
    x = tg.Variable([0.5, 0.25])
    failures = []
    for primitive in PRIMITIVES:
        arity = max(1, len(primitive.vjps))
        for position in range(arity):
            if arity > 1 and primitive.rule(position) is None:
                continue  # a parameter-like input (a condition, a count)
            if kind.startswith("an array") and primitive.name in NUMPY_TAKES_STRINGS:
                continue
            inputs = [BAD[kind] if k == position else x for k in range(arity)]
            with tg.GradientTape() as tape:
                try:
                    primitive(*inputs)
                except TypeError as error:
                    message = str(error)
                    if not message.startswith(f"{primitive.name}:") or kind.split()[-1] not in (
                        message
                    ):
                        failures.append(f"{primitive.name}[{position}]: {message[:120]}")
                except Exception as error:  # noqa: BLE001 - any other kind is the failure
                    failures.append(f"{primitive.name}[{position}]: {type(error).__name__}")
                else:
                    failures.append(f"{primitive.name}[{position}]: no error")
            if len(tape):
                failures.append(f"{primitive.name}[{position}]: recorded {len(tape)} entries")
    assert not failures, f"{len(failures)} calls: " + "; ".join(failures[:12])
