"""Leaving the tape is loud: a watched Tensor converted to an array or a number warns
once per call site and raises under tg.detect_anomaly(); tg.asarray and tapegrad.numpy's
array functions keep the gradient instead."""

import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp


@pytest.mark.parametrize(
    ("escape", "how"),
    [
        (lambda t: np.asarray(t), r"np\.asarray\(\)"),
        (lambda t: np.array([t[0], t[1]]), r"float\(\)|np\.asarray\(\)"),
        (lambda t: float(t[0]), r"float\(\)"),
        (lambda t: t.numpy(), r"numpy\(\)"),
    ],
    ids=["np.asarray", "np.array-of-list", "float", "numpy"],
)
def test_escapes_warn_once_per_site_and_raise_under_detect_anomaly(escape, how):
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for _ in range(3):
                escape(x * 1.0)  # one site, three times
        assert len([w for w in caught if "left the tape" in str(w.message)]) <= 1
        with tg.detect_anomaly(), pytest.raises(RuntimeError, match=how):
            escape(x * 1.0)


def test_detect_anomaly_does_not_mind_unwatched_values():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape(), tg.detect_anomaly():
        assert np.asarray(x).tolist() == [1.0, 2.0]
        assert float(x[0]) == 1.0


def test_tg_asarray_keeps_the_tape():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.asarray(x) * tg.asarray(x, dtype=np.float32))
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]


def test_tnp_array_keeps_the_tape_where_np_array_cuts_it():
    x = tg.tensor(3.0)
    with tg.GradientTape(persistent=True) as tape, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tape.watch(x)
        kept = tnp.sum(tnp.array([x, x * x]))
        cut = tg.sum(tg.tensor(np.array([x, x * x])))
    assert tape.gradient(kept, x).item() == 7.0
    with pytest.raises(ValueError, match=r"left the tape through np\.asarray\(\)"):
        tape.gradient(cut, x, unconnected_gradients="raise")


def test_no_gradient_functions_read_values_quietly():
    x = tg.tensor([3.0, 1.0, 2.0])
    with tg.GradientTape() as tape, warnings.catch_warnings():
        warnings.simplefilter("error")
        tape.watch(x)
        order = np.argsort(x)
        y = tnp.sum(x[order] * tnp.array([1.0, 2.0, 3.0])) + tnp.sum(np.where(np.isnan(x), 0.0, x))
    assert tape.gradient(y, x).numpy().tolist() == [4.0, 2.0, 3.0]


def test_a_floating_result_without_gradient_is_an_escape():
    x = tg.tensor([0.5, 1.5, 2.5])
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning, match=r"numpy\.histogram\(\)"):
            counts, edges = np.histogram(x * 1.0, bins=2)
    assert counts.numpy().tolist() == [1, 2] and edges.shape == (3,)
