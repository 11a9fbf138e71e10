"""tapegrad's benchmark suite: ``python -m benchmarks`` (or ``python benchmarks/run.py``).

Each workload is written in hand-written NumPy, in tapegrad (eager and with tape
replay) and, when installed, in PyTorch, HIPS autograd, MyGrad and JAX. Rounds
are interleaved (every system once per round, in turn) and the reported number
is the median over rounds, as a ratio to hand-written NumPy measured in the same
run. This package must not import NumPy at import time: ``run.py`` pins the BLAS
thread counts first.
"""
