"""scipy.integrate's quadratures of samples: ``x`` (1-d uneven, or of y's shape), ``dx``,
``axis``, ``initial``, Romberg's ``show``; differentiated in the samples and the points.
``solve_ivp`` (every method, at tight tolerances so that finite differences of re-solved
problems are accurate; first derivatives only) and ``quad`` (first derivatives only)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "integrate.trapezoid", "integrate.cumulative_trapezoid", "integrate.simpson",
    "integrate.cumulative_simpson", "integrate.romb", "integrate.solve_ivp", "integrate.quad",
]  # fmt: skip

ROWS: list[Sample] = []
for _name in ("trapezoid", "cumulative_trapezoid", "simpson", "cumulative_simpson"):
    _full = f"integrate.{_name}"
    ROWS += [
        Sample(_full, "default", lambda m, x, y, f=_name: getattr(m.integrate, f)(y)),
        Sample(_full, "x (1-d, uneven)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x[0]))),
        Sample(_full, "x (y's shape)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x, axis=-1))),
        Sample(_full, "x, axis=0 (3 samples)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x[:, 0]), axis=0)),
        Sample(_full, "dx", lambda m, x, y, f=_name: getattr(m.integrate, f)(y, dx=x[0, 0])),
        Sample(_full, "odd samples, x",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y[:, :3], x=np.cumsum(x[1, :3]))),
    ]  # fmt: skip
ROWS += [
    Sample("integrate.cumulative_trapezoid", "initial=0",
           lambda m, x, y: m.integrate.cumulative_trapezoid(y, x=np.cumsum(x[0]), initial=0)),
    Sample("integrate.cumulative_simpson", "initial (scalar)",
           lambda m, x, y: m.integrate.cumulative_simpson(y, x=np.cumsum(x[0]), initial=x[0, 1])),
    Sample("integrate.cumulative_simpson", "initial, dx (arrays of one point)",
           lambda m, x, y: m.integrate.cumulative_simpson(y, dx=x[:, :1], initial=y[:, 1:2])),
    Sample("integrate.romb", "default", lambda m, x, y: m.integrate.romb(y[:, :3])),
    Sample("integrate.romb", "dx, axis=0", lambda m, x, y: m.integrate.romb(y, dx=x[0, 0], axis=0)),
    Sample("integrate.romb", "show", lambda m, x, y: m.integrate.romb(y[0, :3], show=True)),
]  # fmt: skip


# solve_ivp: du/dt = -x u + y sin(t) from u0 = y[1, :2], a 2-state system closing over x, y.
_TIGHT = dict(rtol=1e-10, atol=1e-12)


def _decay(x: Any, y: Any) -> Any:
    return lambda t, u: -x[0, :2] * u + y[0, :2] * np.sin(t)


def _mark(t: Any, u: Any) -> Any:  # a non-terminal event: SciPy notes when u[0] crosses 0.5
    return u[0] - 0.5


def _ivp(m: Any, x: Any, y: Any, **kw: Any) -> Any:
    kw.setdefault("t_eval", [0.5, 1.0 + x[2, 3]])
    return m.integrate.solve_ivp(_decay(x, y), (0.0, 2.0), y[1, :2], **_TIGHT, **kw).y


ROWS += [
    Sample(
        "integrate.solve_ivp",
        "default (its own times; y at the end of t_span)",
        lambda m, x, y: m.integrate.solve_ivp(
            _decay(x, y), (x[2, 0], 1.0 + x[2, 1]), y[1, :2], **_TIGHT
        ).y[:, -1],
        twice=False,
    ),
    Sample("integrate.solve_ivp", "t_eval", lambda m, x, y: _ivp(m, x, y), twice=False),
    *(
        Sample(
            "integrate.solve_ivp",
            f"method={method!r}",
            lambda m, x, y, method=method: _ivp(m, x, y, method=method),
            twice=False,
        )
        for method in ("RK23", "DOP853", "Radau", "BDF", "LSODA")
    ),
    Sample(
        "integrate.solve_ivp",
        "dense_output=True (sol is SciPy's, plain)",
        lambda m, x, y: _ivp(m, x, y, dense_output=True),
        twice=False,
    ),
    Sample(
        "integrate.solve_ivp",
        "events (non-terminal: constant times)",
        lambda m, x, y: _ivp(m, x, y, events=_mark),
        twice=False,
    ),
    Sample(
        "integrate.solve_ivp",
        "vectorized=True, method='BDF'",
        lambda m, x, y: (
            m.integrate.solve_ivp(
                lambda t, u: -x[0, :2, None] * u,
                (0.0, 1.5),
                y[1, :2],
                method="BDF",
                vectorized=True,
                t_eval=[0.7, 1.5],
                **_TIGHT,
            ).y
        ),
        twice=False,
    ),
    Sample(
        "integrate.solve_ivp",
        "args",
        lambda m, x, y: (
            m.integrate.solve_ivp(
                lambda t, u, k, c: -k * u + c,
                (0.0, 1.5),
                y[1, :2],
                args=(x[0, :2], y[2, 2]),
                t_eval=[0.7, 1.5],
                **_TIGHT,
            ).y
        ),
        twice=False,
    ),
]


def _bump(x: Any, y: Any) -> Any:
    return lambda s: np.exp(-x[0, 0] * s * s) * y[0, 1]


def _quad(m: Any, x: Any, y: Any, **kw: Any) -> Any:
    return m.integrate.quad(_bump(x, y), x[0, 1], 1.0 + x[1, 2], **kw)[0]


ROWS += [
    Sample("integrate.quad", "default (limits and the closed-over x, y)",
           lambda m, x, y: _quad(m, x, y), twice=False),
    Sample("integrate.quad", "args",
           lambda m, x, y: m.integrate.quad(lambda s, k, c: np.exp(-k * s) * c, x[0, 1],
                                            1.0 + x[1, 2], args=(x[0, 0], y[0, 1]))[0],
           twice=False),
    Sample("integrate.quad", "b=inf (no gradient in an infinite limit)",
           lambda m, x, y: m.integrate.quad(_bump(x, y), x[0, 1], np.inf)[0], twice=False),
    Sample("integrate.quad", "full_output=1",
           lambda m, x, y: _quad(m, x, y, full_output=1), twice=False),
    Sample("integrate.quad", "epsabs, epsrel",
           lambda m, x, y: _quad(m, x, y, epsabs=1e-12, epsrel=1e-12), twice=False),
    Sample("integrate.quad", "points, limit",
           lambda m, x, y: m.integrate.quad(lambda s: abs(s - x[2, 2]) * y[0, 1], 0.0, 1.0,
                                            points=[x[2, 2]], limit=20)[0], twice=False),
    Sample("integrate.quad", "maxp1, limlst (no effect without weight, as in SciPy)",
           lambda m, x, y: _quad(m, x, y, maxp1=20, limlst=20), twice=False),
]  # fmt: skip

REFUSALS: list[Refusal] = [
    Refusal("integrate.cumulative_trapezoid", "initial",
            lambda m, x, y: m.integrate.cumulative_trapezoid(y, initial=1.0), ValueError),
    Refusal("integrate.romb", "samples",
            lambda m, x, y: m.integrate.romb(y), ValueError),
    *(Refusal("integrate.quad", option,
              lambda m, x, y, kw=kw: _quad(m, x, y, **kw), NotImplementedError)
      for option, kw in (("weight", dict(weight="cos", wvar=2.0)),
                         ("wvar", dict(wvar=2.0)),
                         ("wopts", dict(wopts=(1, np.zeros((25, 1))))),
                         ("complex_func", dict(complex_func=True)))),
]  # fmt: skip
