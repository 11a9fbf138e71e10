"""Real programs, side by side: each workload is written once in NumPy style, as a
function of the NumPy-like module ``np`` (and ``sp``, SciPy's counterparts), and runs
unchanged under tapegrad (eager and ``tg.compile``), HIPS autograd and JAX (eager and
``jax.jit``). ``python -m benchmarks.programs`` times them; see benchmarks/programs/run.py.
The table of workloads is benchmarks/programs/workloads.py.

A workload module has ``inputs(size)`` (the parameters and the data, as NumPy arrays),
``loss(np, sp, params, data)`` and ``description(size)``; one with ``fit`` (logreg) is
timed as a whole optimisation rather than as one value-and-gradient call.

This package must not import NumPy at import time: ``run.py`` pins the BLAS thread
counts first.
"""
