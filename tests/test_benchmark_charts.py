"""The benchmark charts redraw from their committed results, and read cleanly: labelled
ticks, a legend entry only for a series that is drawn, and no label over another."""

import importlib.util
import itertools
import json
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="the charts need matplotlib (the test extra)")
import matplotlib.figure  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

from benchmarks import harness, run  # noqa: E402

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"


@pytest.fixture
def figures(monkeypatch):
    """The figures the code under test saves, kept open for inspection."""
    saved = []
    original = matplotlib.figure.Figure.savefig

    def savefig(self, *args, **kwargs):
        saved.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", savefig)
    return saved


def overlaps(fig):
    """Pairs of texts in the figure's axes whose boxes intersect."""
    canvas = FigureCanvasAgg(fig)  # the figure was closed: draw it again to measure
    canvas.draw()
    renderer = canvas.get_renderer()
    texts = [t for ax in fig.axes for t in ax.texts if t.get_text().strip()]
    for ax in fig.axes:
        texts += [t for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
    return [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)]


def test_latest_json_round_trips():
    payload = json.loads((RESULTS / "latest.json").read_text())
    header, results = harness.from_json(payload)
    assert harness.to_json(header, results) == payload


def test_latest_png_redraws_from_latest_json(tmp_path, figures):
    shutil.copy(RESULTS / "latest.json", tmp_path)
    run.main(["--plot-only", "--out", str(tmp_path)])
    assert (tmp_path / "latest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest.json", "latest.png"]
    (fig,) = figures
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    _, results = harness.from_json(json.loads((RESULTS / "latest.json").read_text()))
    drawn = {
        harness.SYSTEM_LABELS[r.system]
        for res in results
        for r in res.rows
        if r.system != "numpy" and harness.ratio(res, r.system) is not None
    }
    assert legend[0] == "hand-written NumPy (1×)" and set(legend[1:]) == drawn
    assert len(legend) == len(set(legend))
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        harness.textwrap.fill(res.description, 34) for res in results
    ]
    assert len([t for t in ax.get_xticklabels() if t.get_text()]) >= 3
    assert not overlaps(fig)


def load_cpu_vs_gpu():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "cpu_vs_gpu.py"
    spec = importlib.util.spec_from_file_location("cpu_vs_gpu", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_cpu_vs_gpu_table_reads_back():
    bench = load_cpu_vs_gpu()
    works = bench.workloads(quick=True)
    for k, w in enumerate(works):
        w.times["numpy"] = {size: (k + 1) * size * 1.234e-6 for size in w.sizes}
        if k == 0:
            w.times["cupy"] = {size: size * 1e-7 for size in w.sizes}
    read = bench.read_table(bench.table(works, gpu_note=None))
    assert [(w.name, w.unit, w.sizes) for w in read] == [(w.name, w.unit, w.sizes) for w in works]
    for w, r in zip(works, read):
        assert r.times.keys() == w.times.keys()
        for backend, times in w.times.items():
            assert r.times[backend] == pytest.approx(times, rel=1e-2, abs=1e-5)


def test_cpu_vs_gpu_png_redraws_from_the_committed_table(tmp_path, figures):
    bench = load_cpu_vs_gpu()
    shutil.copy(RESULTS / "cpu_vs_gpu.md", tmp_path)
    assert bench.main(["--plot-only", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "cpu_vs_gpu.md").read_text() == (RESULTS / "cpu_vs_gpu.md").read_text()
    assert (tmp_path / "cpu_vs_gpu.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (fig,) = figures
    works = bench.read_table((RESULTS / "cpu_vs_gpu.md").read_text())
    for ax, w in zip(fig.axes, works):
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend == [bench.SERIES[b] for b in ("numpy", "cupy") if b in w.times]
        assert [t.get_text() for t in ax.get_xticklabels()] == [str(s) for s in w.sizes]
        assert len([t for t in ax.get_yticklabels() if t.get_text()]) >= 3
    assert not overlaps(fig)
