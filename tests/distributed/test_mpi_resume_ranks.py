"""A run killed mid-way on 3 ranks and resumed on 2 ends bit for bit like one that was not
killed and changed from 3 ranks to 2 at the same epoch (stopped there with ``--until``).

(Another number of ranks sums the gradients' mean in another order, so the rounding, and
with it the run, is that of the ranks that took each step: the reference changes the
number of ranks at the same point.)
"""

import shutil

from mpi_launch import checkpoint_entries
from test_mpi_resume import example, killed, pytestmark  # noqa: F401  # the same skips


def test_a_killed_run_resumed_on_other_ranks_ends_as_one_that_changed_ranks_cleanly(tmp_path):
    saved = killed(3, tmp_path / "killed.npz")
    example(3, tmp_path / "reference.npz", "--until", str(saved))
    # The checkpoint the kill left is the state after its epoch, bit for bit.
    want = checkpoint_entries(tmp_path / "reference.npz")
    assert checkpoint_entries(tmp_path / "killed.npz") == want
    shutil.copy(tmp_path / "reference.npz", tmp_path / "reference-copy.npz")
    resumed = example(2, tmp_path / "killed.npz")
    assert f"after epoch {saved}" in resumed.stdout and "on 2 processes" in resumed.stdout
    example(2, tmp_path / "reference.npz")
    assert checkpoint_entries(tmp_path / "killed.npz") == checkpoint_entries(
        tmp_path / "reference.npz"
    )
    assert checkpoint_entries(tmp_path / "killed.npz") != checkpoint_entries(
        tmp_path / "reference-copy.npz"
    )  # it did train on
