"""``python -m benchmarks.programs``: see benchmarks/programs/run.py."""

from benchmarks.programs.run import main

main()
