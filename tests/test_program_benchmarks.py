"""The real-program benchmarks compute what they say (no timings here: benchmarks are not
tests). Each program runs at a tiny size under tapegrad: its value equals plain NumPy's
and SciPy's, and its gradient matches central differences of the plain-NumPy program
along random directions. Peers are checked only where installed (JAX is not run here:
its first call compiles for seconds)."""

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad.numpy as tnp
from benchmarks.harness import Result, Row
from benchmarks.programs import ode, report, systems
from benchmarks.programs.workloads import WORKLOADS, step, tiny
from tapegrad.testing import gradgradcheck

# One tiny workload per program (gp runs at two sizes in the benchmark).
PROGRAMS = list({w.module: tiny(w) for w in WORKLOADS}.values())
GRADIENT_PROGRAMS = [w for w in PROGRAMS if not hasattr(w.module, "fit")]
NUMPY = systems.numpy_system()


@pytest.fixture(autouse=True)
def tight_ode_tolerances(monkeypatch):
    # Central differences of an adaptive solve need a solve far more accurate than eps.
    monkeypatch.setattr(ode, "RTOL", 1e-11)
    monkeypatch.setattr(ode, "ATOL", 1e-11)


def _plain_loss(workload, params, data):
    return float(workload.module.loss(NUMPY.np, NUMPY.sp, params, data))


def _tree_map(fn, *trees):
    if isinstance(trees[0], (list, tuple)):
        return [_tree_map(fn, *parts) for parts in zip(*trees)]
    return fn(*trees)


def _dot(a, b):
    if isinstance(a, (list, tuple)):
        return sum(_dot(x, y) for x, y in zip(a, b))
    return float(np.sum(np.asarray(a) * np.asarray(b)))


@pytest.mark.parametrize("workload", GRADIENT_PROGRAMS, ids=lambda w: w.name)
def test_the_value_is_plain_numpys(workload):
    params, data = workload.module.inputs(workload.size)
    value, _ = step(workload, systems.tapegrad_system())()
    assert np.isfinite(float(value))
    np.testing.assert_allclose(float(value), _plain_loss(workload, params, data), rtol=1e-12)


@pytest.mark.parametrize("workload", GRADIENT_PROGRAMS, ids=lambda w: w.name)
@settings(max_examples=3)
@given(seed=st.integers(0, 2**16))
def test_the_gradient_matches_central_differences(workload, seed):
    # <grad, v> against (f(p + eps v) - f(p - eps v)) / 2 eps of the plain-NumPy program,
    # for a random direction v (autograd's check_grads idea).
    params, data = workload.module.inputs(workload.size)
    _, grad = step(workload, systems.tapegrad_system())()
    rng = np.random.default_rng(seed)
    direction = _tree_map(lambda p: rng.standard_normal(np.shape(p)), params)
    eps = 1e-6
    plus = _tree_map(lambda p, v: p + eps * v, params, direction)
    minus = _tree_map(lambda p, v: p - eps * v, params, direction)
    numeric = (_plain_loss(workload, plus, data) - _plain_loss(workload, minus, data)) / (2 * eps)
    analytic = _dot(grad, direction)
    assert analytic == pytest.approx(numeric, rel=1e-5, abs=1e-6), workload.name


@pytest.mark.parametrize("workload", GRADIENT_PROGRAMS, ids=lambda w: w.name)
def test_replay_gives_the_eager_value_and_gradient(workload):
    eager_value, eager_grad = step(workload, systems.tapegrad_system())()
    replay = step(workload, systems.tapegrad_system(compiled=True))
    for _ in range(3):  # records, then the first checked sweep, then generated code
        value, grad = replay()
    np.testing.assert_allclose(float(value), float(eager_value), rtol=1e-12)
    _tree_map(
        lambda g, e: np.testing.assert_allclose(g, e, rtol=1e-9, atol=1e-12), grad, eager_grad
    )


@pytest.mark.skipif(importlib.util.find_spec("autograd") is None, reason="autograd not installed")
@pytest.mark.parametrize("workload", GRADIENT_PROGRAMS, ids=lambda w: w.name)
def test_autograd_runs_the_same_source_to_the_same_numbers(workload):
    value, grad = step(workload, systems.tapegrad_system())()
    peer_value, peer_grad = step(workload, systems.autograd_system())()
    np.testing.assert_allclose(float(peer_value), float(value), rtol=1e-10)
    _tree_map(lambda g, e: np.testing.assert_allclose(g, e, rtol=1e-7, atol=1e-9), peer_grad, grad)


def test_the_gaussian_process_has_second_derivatives():
    workload = next(w for w in PROGRAMS if w.name.startswith("gp"))
    params, data = workload.module.inputs(workload.size)
    tapegrad = systems.tapegrad_system()
    assert gradgradcheck(lambda p: workload.module.loss(tnp, tapegrad.sp, p, data), [params])


def test_the_logistic_fit_converges_under_eager_and_replay():
    workload = next(w for w in PROGRAMS if hasattr(w.module, "fit"))
    params, data = workload.module.inputs(workload.size)
    weights, evaluations = step(workload, systems.tapegrad_system())()
    replayed, replay_evaluations = step(workload, systems.tapegrad_system(compiled=True))()
    assert evaluations > 2 and replay_evaluations == evaluations
    np.testing.assert_allclose(replayed, weights, rtol=1e-10, atol=1e-12)
    # The optimum: central differences of the plain-NumPy loss vanish there.
    eps = 1e-6
    for i in range(len(weights)):
        e = np.zeros_like(weights)
        e[i] = eps
        slope = (
            _plain_loss(workload, weights + e, data) - _plain_loss(workload, weights - e, data)
        ) / (2 * eps)
        assert abs(slope) < 1e-4


def test_the_numpy_system_has_no_gradient():
    with pytest.raises(NotImplementedError, match="numpy_system"):
        NUMPY.value_and_grad(lambda p: p)


def _measured():
    rows = [
        Row("tapegrad", 0.004, [0.004]),
        Row("autograd", 0.002, [0.002]),
        Row("jax", None, note="not run (E)"),
    ]
    return [report.Measured(Result("gp-200", "Gaussian process", "ms", 1, rows), {"tapegrad": 0.1})]


def test_the_report_gives_ratios_to_the_fastest_system():
    measured = _measured()
    text = report.table(measured, ["tapegrad", "autograd", "jax"])
    assert "4 ms (2.00x)" in text and "**2 ms (1.00x)**" in text and "not run (E)" in text
    assert "| gp-200 | eager | 2.00x | - | - |" in report.goals_table(measured)
    assert "100 ms" in report.first_call_table(measured, ["tapegrad", "autograd"])
    header, again = report.from_json(report.to_json(["date: d", "machine: m"], measured))
    assert header == ["date: d", "machine: m"]
    assert again[0].ratio("tapegrad") == pytest.approx(2.0)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")
def test_the_chart_is_drawn(tmp_path):
    path = tmp_path / "programs.png"
    assert report.chart(_measured(), ["tapegrad", "autograd"], str(path), "title")
    assert path.stat().st_size > 1000


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="no matplotlib")
def test_the_committed_chart_redraws_with_no_label_over_another(tmp_path, monkeypatch):
    import itertools
    import shutil
    from pathlib import Path

    import matplotlib.figure
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from benchmarks.programs import run

    results = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
    shutil.copy(results / "programs.json", tmp_path / "programs.json")
    saved = []
    original = matplotlib.figure.Figure.savefig
    monkeypatch.setattr(
        matplotlib.figure.Figure,
        "savefig",
        lambda self, *a, **k: (saved.append(self), original(self, *a, **k)),
    )
    measured = run.main(["--plot-only", "--out", str(tmp_path)])
    assert (tmp_path / "programs.png").exists() and len(measured) == 8
    (fig,) = saved
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    ax = fig.axes[0]
    texts = [t for t in ax.texts + ax.get_yticklabels() if t.get_text().strip()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    assert not [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)]
