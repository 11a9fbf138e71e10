"""examples/newton_rosenbrock.py: Newton's method with tg.grad and tg.hessian."""

import importlib.util
import pathlib

import numpy as np

import tapegrad as tg

PATH = pathlib.Path(__file__).resolve().parents[1] / "examples" / "newton_rosenbrock.py"
spec = importlib.util.spec_from_file_location("newton_rosenbrock", PATH)
example = importlib.util.module_from_spec(spec)
spec.loader.exec_module(example)


def test_gradient_and_hessian_of_rosenbrock_are_exact():
    x, y = -1.2, 1.0
    g = np.asarray(tg.grad(example.rosenbrock)(np.array([x, y])))
    h = np.asarray(tg.hessian(example.rosenbrock)(np.array([x, y])))
    np.testing.assert_allclose(g, [-2 * (1 - x) - 400 * x * (y - x**2), 200 * (y - x**2)])
    np.testing.assert_allclose(h, [[1200 * x**2 - 400 * y + 2, -400 * x], [-400 * x, 200]])


def test_newton_converges_from_the_classic_start(capsys):
    point, steps = example.newton((-1.2, 1.0))
    np.testing.assert_allclose(point, [1.0, 1.0], atol=1e-12)
    assert steps < 30
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == steps + 1 and printed[0].startswith("step  0: x = -1.2")
