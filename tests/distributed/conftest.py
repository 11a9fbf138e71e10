"""The mpi_*.py files are programs run under ``mpiexec`` by test_mpi.py, not test modules."""

collect_ignore_glob = ["mpi_*.py"]
