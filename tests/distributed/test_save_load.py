"""dist.save and dist.load in one process (tests/distributed/mpi_resume.py runs them under
mpiexec): what a checkpoint holds, that it is written atomically, and the errors."""

import os

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
import tapegrad.distributed as dist
from tapegrad.distributed import checkpoint

arrays = hnp.arrays(
    dtype=st.sampled_from([np.float64, np.float32, np.int64, np.bool_, np.complex128]),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3),
)
leaves = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | arrays
)
nests = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


def same(a, b):
    """Equal values, kinds and dtypes, bit for bit."""
    assert type(a) is type(b), (a, b)
    if isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, (np.ndarray, np.generic)):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    else:
        assert a == b


@given(nests)
def test_a_nest_comes_back_as_it_was_saved(tmp_path_factory, nest):
    path = tmp_path_factory.mktemp("checkpoint") / "state.npz"
    dist.save(path, nest)
    same(dist.load(path), nest)


def test_tensors_and_optimizer_state_come_back_as_numpy(world_of_one, tmp_path):
    model = tg.nn.Linear(3, 2, dtype=np.float32)
    optimizer = tg.optim.Adam(model.trainable_variables, lr=0.1)
    with tg.GradientTape() as tape:
        loss = (model(tg.tensor(np.ones((4, 3), dtype=np.float32))) ** 2).sum()
    optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
    state = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "w": model.weight,
        "step": np.int64(7),
        "seed": 3,
    }
    dist.save(str(tmp_path / "c.npz"), state)
    back = dist.load(tmp_path / "c.npz")
    assert isinstance(back["w"], np.ndarray) and back["w"].dtype == np.float32
    np.testing.assert_array_equal(back["w"], model.weight.numpy())
    assert isinstance(back["step"], np.int64) and back["seed"] == 3
    again = tg.optim.Adam(tg.nn.Linear(3, 2, dtype=np.float32).trainable_variables, lr=0.1)
    again.load_state_dict(back["optimizer"])
    assert again.iterations == 1


def test_a_failed_write_leaves_the_previous_checkpoint_and_no_temporary_file(
    world_of_one, tmp_path, monkeypatch
):
    path = tmp_path / "c.npz"
    dist.save(path, {"epoch": 1})

    def full_disk(file, **arrays):
        file.write(b"half a checkpoint")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(np, "savez", full_disk)
    with pytest.raises(OSError, match="save \\(on rank 0\\): No space left on device"):
        dist.save(path, {"epoch": 2})
    monkeypatch.undo()
    assert dist.load(path) == {"epoch": 1}
    assert os.listdir(tmp_path) == ["c.npz"]


def test_bad_state_and_bad_files_name_the_problem(world_of_one, tmp_path):
    with pytest.raises(TypeError, match=r"save: state\['f'\] is a function; checkpoints take"):
        dist.save(tmp_path / "c.npz", {"f": lambda: 0})
    with pytest.raises(TypeError, match=r"save: state\[0\] has the key 1 \(int\)"):
        dist.save(tmp_path / "c.npz", [{1: 2}])
    with pytest.raises(TypeError, match=r"state is an array of Python objects"):
        dist.save(tmp_path / "c.npz", np.array([None, 1], dtype=object))
    assert not os.listdir(tmp_path)
    with pytest.raises(FileNotFoundError, match="load \\(on rank 0\\)"):
        dist.load(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="load: .*junk.npz is not a checkpoint written by save"):
        dist.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "plain.npz", x=np.ones(2))  # an .npz, but not save's
    with pytest.raises(ValueError, match="is not a checkpoint written by save"):
        dist.load(tmp_path / "plain.npz")


def test_save_and_load_agree_with_the_other_ranks_first(loopback, tmp_path):
    dist.save(tmp_path / "c.npz", {"x": 1})
    assert dist.load(tmp_path / "c.npz") == {"x": 1}
    assert [what for _, what in loopback.agreed] == ["save", "load"]
    assert checkpoint._STRUCTURE not in dist.load(tmp_path / "c.npz")
