"""The benchmark workloads compute the same thing in every system (no timings here:
benchmarks are not tests). Peers that are not installed are skipped."""

import importlib.util

import numpy as np
import pytest

import tapegrad as tg
from benchmarks import chain, harness, mlp, mlp_train

PEERS = {"torch": "torch", "autograd": "autograd", "mygrad": "mygrad"}
COMPILING = {"jax jit", "torch compile"}  # seconds to minutes of compiling: not run here


def _values(result):
    """(loss, [gradients]) of any system as NumPy arrays."""
    loss, grads = result

    def host(a):
        if isinstance(a, tg.Tensor):
            return a.numpy()
        if hasattr(a, "detach"):
            return a.detach().numpy()
        return np.asarray(a)

    return host(loss), [host(g) for g in grads]


def _systems(builders):
    for name, build in builders.items():
        module = PEERS.get(name)
        if name in COMPILING or (module and importlib.util.find_spec(module) is None):
            continue
        yield name, build


def test_the_chain_agrees_across_systems():
    builders = chain.builders(5)
    reference = _values(_unpack_chain("numpy", builders["numpy"]()()))
    for name, build in _systems(builders):
        run = build()
        run()  # a replay's second call replays
        loss, grads = _values(_unpack_chain(name, run()))
        np.testing.assert_allclose(loss, reference[0], rtol=1e-12, err_msg=name)
        for g, r in zip(grads, reference[1]):
            np.testing.assert_allclose(g, r, rtol=1e-10, atol=1e-12, err_msg=name)


def _unpack_chain(name, result):
    if name == "numpy":
        return result[0], list(result[1:])
    if name == "autograd":
        return result[0], list(result[1])
    if name == "mygrad":
        return result[0], [result[1], result[2]]
    loss, grads = result
    return loss, list(grads)


def test_the_mlp_step_agrees_across_systems():
    builders = mlp.builders()
    loss_ref, grads_ref = builders["numpy"]()()
    for name, build in _systems(builders):
        run = build()
        run()
        loss, grads = run()
        loss, grads = _values((loss, list(grads)))
        np.testing.assert_allclose(loss, loss_ref, rtol=1e-5, err_msg=name)
        for g, r in zip(grads, grads_ref):
            np.testing.assert_allclose(g, r, rtol=1e-3, atol=1e-5, err_msg=name)


def test_the_mlp_training_step_agrees_across_systems():
    # The second call's loss and gradients follow the first call's update: equal values
    # check the forward, the gradients and the SGD step (and a replay's first replay).
    builders = mlp_train.builders()
    reference = builders["numpy"]()
    reference()
    loss_ref, grads_ref = reference()
    for name, build in _systems(builders):
        run = build()
        run()
        loss, grads = _values(run())
        np.testing.assert_allclose(loss, loss_ref, rtol=1e-5, err_msg=name)
        for g, r in zip(grads, grads_ref):
            np.testing.assert_allclose(g, r, rtol=1e-3, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("name", ["numpy", "tapegrad", "tapegrad replay"])
def test_the_mlp_training_step_peak_memory_is_measured(name):
    assert harness.peak_memory(mlp_train.builders()[name]()) > 0


def test_the_harness_interleaves_and_reports_ratios():
    calls = []
    samples = harness.time_interleaved(
        {"numpy": lambda: calls.append("a"), "other": lambda: calls.append("b")}, rounds=3
    )
    assert [len(v) for v in samples.values()] == [3, 3]
    assert calls[2:] == ["a", "b", "b", "a", "a", "b"]  # warm-up, then rotating order
    result = harness.Result("w", "a workload", "ms", 1, harness.rows_from(samples))
    table = harness.format_table([result], ["numpy", "other"])
    assert "| a workload | " in table and "(1.0x)" in table
    assert harness.peak_memory(lambda: np.ones(1 << 20)) >= 8 << 20


@pytest.mark.parametrize("name", ["numpy", "tapegrad", "tapegrad replay"])
def test_the_mlp_peak_memory_is_measured(name):
    assert harness.peak_memory(mlp.builders()[name]()) > 0


def test_the_chain_split_measures_every_stage():
    from benchmarks import chain_split

    per_op = chain_split.measure(steps=3, rounds=2)
    assert set(per_op) == set(chain_split.stages(3))
    assert all(seconds > 0 for seconds in per_op.values())
