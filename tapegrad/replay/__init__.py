"""Tape replay: ``tg.compile`` records a function's ops once and replays them.

compiled.py is ``tg.compile`` and the compiled function, which keeps a recording per input
signature; recording.py a recording and its replayed forward; trace.py the recording
pass; sweep.py the replayed reverse sweep; codegen.py and sweep_code.py the straight-line
Python they become; fuse.py, kernel.py and fuse_ops.py ``fuse=True``, the elementwise
chains compiled with Numba into one loop. (The folder is not called ``compile``: that name
is ``tg.compile``, the function.)

Layer: built on ``tapegrad.core``, ``tapegrad.backends`` and ``tapegrad.ops``; nothing
below imports it.
"""

from tapegrad.replay.compiled import GuardError, compile
from tapegrad.replay.kernel import FuseWarning

__all__ = ["FuseWarning", "GuardError", "compile"]
