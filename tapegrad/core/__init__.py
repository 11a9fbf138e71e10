"""The engine: Tensor and Variable, the tape, recording, and the reverse sweep.

A Tensor is an array and a serial number (tensor.py); a GradientTape is a list of
entries (tape.py, entry.py) that primitives append to while it is active (active.py,
record.py); ``tape.gradient`` walks it backwards (sweep.py, sweep_raw.py) and says why a
source got no gradient (explain.py). grad_mode.py is ``tg.no_grad``, anomaly.py the
switch of ``tg.detect_anomaly``, sites.py finds the user's line, nests.py flattens
nested sources and targets.

Layer: the engine imports only ``tapegrad.backends`` and ``tapegrad.wording``, never the
op library or anything else above it. What it needs from above is handed to it when those
layers are imported: Tensor's operators and methods (declared in tensor_methods.py), the
ops the sweep calls (hooks.py), anomaly detection's checks (anomaly.py) and the tape's
listing and drawing (tape.py). tests/test_architecture.py keeps it so.
"""
