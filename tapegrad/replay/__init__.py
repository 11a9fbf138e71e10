"""Tape replay: ``tg.compile`` records a function's ops once and replays them.

compiled.py is ``tg.compile`` and the compiled function (guards, recordings, the replayed
forward); trace.py the recording pass; sweep.py the replayed reverse sweep; codegen.py
the straight-line Python both become; fuse.py and fuse_ops.py ``fuse=True``, the
elementwise chains compiled with Numba. (The folder is not called ``compile``: that name
is ``tg.compile``, the function.)

Layer: built on ``tapegrad.core``, ``tapegrad.backends`` and ``tapegrad.ops``; nothing
below imports it.
"""

from tapegrad.replay.compiled import GuardError, compile
from tapegrad.replay.fuse import FuseWarning

__all__ = ["FuseWarning", "GuardError", "compile"]
