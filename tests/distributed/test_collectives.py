"""all_reduce and broadcast in one process: a world of one, and a loopback world of 3
ranks that all pass the same values (the real thing runs in test_mpi.py)."""

import collections

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.distributed as dist
from tapegrad.distributed.buckets import Plan, Spec
from tapegrad.distributed.world import World

Point = collections.namedtuple("Point", "x y")


def nest():
    return {
        "b": [tg.tensor(np.arange(3, dtype=np.float32)), np.ones((2, 2))],
        "a": (1, 2.5, np.float32(3)),
        "none": None,
        "point": Point(tg.Variable([1.0, -1.0]), np.array(7, dtype=np.int32)),
        "ordered": collections.OrderedDict(z=np.zeros(1), y=2),
    }


@pytest.mark.parametrize("op", ["sum", "mean", "max", "min"])
def test_a_world_of_one_returns_the_nest_with_the_same_values_and_kinds(world_of_one, op):
    given = nest()
    out = dist.all_reduce(given, op)
    assert list(out) == list(given) and out["none"] is None
    assert isinstance(out["b"][0], tg.Tensor) and out["b"][0].dtype == np.float32
    np.testing.assert_array_equal(out["b"][0].numpy(), [0, 1, 2])
    assert isinstance(out["b"][1], np.ndarray) and out["b"][1] is not given["b"][1]
    assert isinstance(out["a"], tuple) and out["a"][1] == 2.5
    assert type(out["a"][0]) is (float if op == "mean" else int) and out["a"][0] == 1
    assert isinstance(out["a"][2], np.float32)
    assert isinstance(out["point"], Point) and type(out["point"].x) is tg.Tensor
    assert out["point"].y.dtype == (np.float64 if op == "mean" else np.int32)
    assert isinstance(out["ordered"], collections.OrderedDict) and list(out["ordered"]) == [
        "z",
        "y",
    ]


def test_dict_subclasses_keep_their_type_and_settings(world_of_one):
    counts = collections.defaultdict(list, {"k": 1.0})
    out = dist.all_reduce(counts)
    assert isinstance(out, collections.defaultdict) and out.default_factory is list
    assert out["k"] == 1.0


def test_results_are_fresh_arrays(world_of_one):
    x = np.array([1.0, 2.0])
    first, second = dist.all_reduce([x]), dist.all_reduce([x])
    first[0][0] = 99.0
    assert x[0] == 1.0 and second[0][0] == 1.0


def test_a_loopback_world_of_three_sums_means_and_extremes(loopback):
    values = {"w": tg.tensor([1.0, -2.0]), "n": 2, "h": np.float32(0.5)}
    total = dist.all_reduce(values, "sum")
    np.testing.assert_array_equal(total["w"].numpy(), [3.0, -6.0])
    assert total["n"] == 6 and total["h"] == np.float32(1.5)
    mean = dist.all_reduce(values, "mean")
    np.testing.assert_array_equal(mean["w"].numpy(), [1.0, -2.0])
    assert mean["n"] == 2.0 and mean["h"].dtype == np.float32
    assert dist.all_reduce(values, "max")["n"] == 2
    # One collective per dtype (float64 for w, int64 for n, float32 for h), each call.
    assert len(loopback.calls) == 9
    assert {dtype for _, dtype, _ in loopback.calls} == {"float64", "int64", "float32"}
    assert ("allreduce sum", "float64", 2) in loopback.calls  # a mean travels as a sum


def test_one_plan_per_structure_and_reused_buffers(loopback):
    from tapegrad.distributed import collectives

    dist.all_reduce([np.ones(3)])
    ((plan, digest),) = collectives._plans.values()
    buffer = plan.buckets[0].buffer
    dist.all_reduce([np.zeros(3)])
    assert len(collectives._plans) == 1 and plan.buckets[0].buffer is buffer
    dist.all_reduce([np.zeros(4)])
    assert len(collectives._plans) == 2
    # Every call is agreed on, each with its structure's fingerprint.
    first, second, third = loopback.agreed
    assert first == second == (digest, "all_reduce") and third[0] != digest


def test_buckets_fill_in_order_up_to_their_size_and_big_arrays_travel_alone():
    f64, f32 = np.dtype(np.float64), np.dtype(np.float32)
    specs = [
        Spec("host", f64, (4,)),
        Spec("host", f32, (2, 2)),
        Spec("host", f64, (2, 2)),  # 4 + 4 float64 = 64 bytes: fills the first bucket
        None,
        Spec("host", f64, (10,)),  # 80 bytes: a bucket of its own
        Spec("host", f64, (3,)),
    ]
    plan = Plan(specs, [None] * len(specs), World(), bucket_bytes=64)
    layout = [
        (str(b.buffer.dtype), [(s.index, s.start, s.stop) for s in b.slots]) for b in plan.buckets
    ]
    assert layout == [
        ("float64", [(0, 0, 4), (2, 4, 8)]),
        ("float64", [(4, 0, 10)]),
        ("float64", [(5, 0, 3)]),
        ("float32", [(1, 0, 4)]),
    ]
    arrays = [np.full(s.shape, i, dtype=s.dtype) if s else None for i, s in enumerate(specs)]
    results = plan.all_reduce(arrays, "sum")
    for got, want in zip(results, arrays):
        if want is None:
            assert got is None
        else:
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype


def test_arrays_of_another_library_travel_through_the_host_and_come_back(world_of_one):
    xp = pytest.importorskip("array_api_strict")
    out = dist.all_reduce({"raw": xp.asarray([1.0, 2.0]), "t": tg.tensor(xp.asarray([3.0]))})
    assert type(out["raw"]).__module__.startswith("array_api_strict")
    assert type(out["t"].data).__module__.startswith("array_api_strict")
    np.testing.assert_array_equal(np.asarray(out["raw"]), [1.0, 2.0])


def test_bad_input_names_the_call_and_the_leaf(world_of_one):
    with pytest.raises(ValueError, match="op must be one of sum, mean, max, min; got 'avg'"):
        dist.all_reduce([1.0], "avg")
    with pytest.raises(TypeError, match=r"all_reduce\(op='sum'\): \['b'\]\[1\] is bool"):
        dist.all_reduce({"b": [1.0, True]})
    with pytest.raises(TypeError, match=r"\[0\] is complex128, which max cannot reduce"):
        dist.all_reduce([1j], "max")
    with pytest.raises(TypeError, match=r"\[0\] is a str; pass Tensors, arrays or numbers"):
        dist.all_reduce(["text"])
    with pytest.raises(ValueError, match=r"broadcast: root must be a rank in \[0, 1\); got 1"):
        dist.broadcast([1.0], root=1)


def test_complex_sums_and_means_work(world_of_one):
    out = dist.all_reduce([np.array([1 + 2j])], "mean")
    np.testing.assert_array_equal(out[0], [1 + 2j])


def test_the_result_leaves_the_tape_with_a_warning(world_of_one):
    x = tg.Variable([1.0, 2.0])
    with tg.GradientTape() as tape:
        with pytest.warns(UserWarning, match=r"through tapegrad.distributed.all_reduce\(\)"):
            total = dist.all_reduce(x * 2.0)
    with pytest.raises(ValueError, match="left the tape through tapegrad.distributed.all_reduce"):
        tape.gradient(total.sum(), x, unconnected_gradients="raise")


def test_broadcast_in_a_world_of_one_leaves_variables_alone(world_of_one):
    w = tg.Variable([1.0, 2.0])
    out = dist.broadcast({"w": w, "step": 3, "x": np.ones(2)}, root=0)
    assert out["w"] is w and w.version == 0 and out["step"] == 3
    np.testing.assert_array_equal(out["x"], [1.0, 1.0])


def test_broadcast_on_a_receiving_rank_assigns_the_variables(loopback):
    loopback.rank = 1  # rank 0 sends; the loopback's buffers hold this rank's own values
    w, flags = tg.Variable(np.float32([1.5, 2.5])), np.array([True, False])
    out = dist.broadcast([w, flags], root=0)
    assert out[0] is w and w.version == 1 and w.dtype == np.float32
    assert out[1].dtype == bool
    assert loopback.calls == [("broadcast 0", "float32", 2), ("broadcast 0", "bool", 2)]
