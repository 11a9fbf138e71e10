"""scipy.special: the functions of mathematical physics: spherical harmonics, Bessel
(scaled, Hankel, spherical, Airy, Struve), elliptic integrals, Lambert W and the
orthogonal polynomials, in real and complex arguments.
"""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample
from tapegrad.testing.scipy_samples.special_calls import _real, _third, _watched

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "special.lambertw", "special.spherical_jn", "special.spherical_yn", "special.spherical_in",
    "special.spherical_kn",
]  # fmt: skip


def _poly(name: str, *params: Any, scale: float = 1.0, shift: float = 0.0) -> list[Sample]:
    """Rows of an orthogonal polynomial in x: integer degrees, a non-integer degree, complex."""

    def call(n: Any, complex_x: bool = False) -> Any:
        def row(m: Any, x: Any, y: Any) -> Any:
            f = getattr(m.special, name)
            arg = scale * x + shift
            if complex_x:
                return _real(f(n, *params, arg + 0.3j * y))
            return f(n, *params, arg)

        return row

    rows = [
        Sample(f"special.{name}", "x, degree 3", call(3)),
        Sample(f"special.{name}", "x, degrees 0..3 (array n)", call([0, 1, 2, 3])),
    ]
    if name not in ("eval_hermite", "eval_hermitenorm"):  # integer degrees, real x in SciPy
        rows.append(Sample(f"special.{name}", "x, non-integer degree 2.5", call(2.5)))
        rows.append(Sample(f"special.{name}", "complex x", call(4, complex_x=True)))
    return rows


ROWS: list[Sample] = [
    # spherical harmonics
    Sample(
        "special.sph_harm_y",
        "theta and phi",
        lambda m, x, y: _real(m.special.sph_harm_y(3, 2, 3 * x, 6 * y)),
    ),
    Sample(
        "special.sph_harm_y",
        "array n, m (broadcast)",
        lambda m, x, y: _real(m.special.sph_harm_y([1, 2, 3, 4], [1, -1, 2, 0], 3 * x, 6 * y)),
    ),
    Sample(
        "special.sph_harm_y",
        "diff_n=1, the gradient (first order)",
        lambda m, x, y: _real(m.special.sph_harm_y(2, 1, 3 * x, 6 * y, diff_n=1)[1]),
        twice=False,
    ),
    Sample(
        "special.sph_harm_y",
        "diff_n=2, the value",
        lambda m, x, y: _real(m.special.sph_harm_y(2, -1, 3 * x, 6 * y, diff_n=2)[0]),
    ),
    # Legendre polynomials and their derivatives, stacked (legendre.py)
    Sample("special.legendre_p", "degree 3", lambda m, x, y: m.special.legendre_p(3, 2 * x - 1)),
    Sample(
        "special.legendre_p",
        "array n, diff_n=1",
        lambda m, x, y: m.special.legendre_p([0, 2, 4, 5], 2 * x - 1, diff_n=1),
    ),
    Sample(
        "special.legendre_p",
        "diff_n=2 (the third derivative in the gradient)",
        lambda m, x, y: m.special.legendre_p(6, 2 * x - 1, diff_n=2),
    ),
    # Bessel: scaled, Hankel, spherical, Airy, Struve
    Sample("special.jve", "real z", lambda m, x, y: m.special.jve(1.5, 5 * x)),
    Sample("special.yve", "real z", lambda m, x, y: m.special.yve([0, 1, 2.5, 3], 5 * x)),
    Sample("special.hankel1", "real z", lambda m, x, y: _real(m.special.hankel1(1.5, 5 * x))),
    Sample(
        "special.hankel1", "complex z", lambda m, x, y: _real(m.special.hankel1(0.5, x + 1j * y))
    ),
    Sample("special.hankel2", "real z", lambda m, x, y: _real(m.special.hankel2(2.0, 5 * x))),
    Sample(
        "special.hankel2", "complex z", lambda m, x, y: _real(m.special.hankel2(1.0, x - 1j * y))
    ),
    Sample("special.hankel1e", "real z", lambda m, x, y: _real(m.special.hankel1e(1.5, 5 * x))),
    Sample(
        "special.hankel1e",
        "complex z",
        lambda m, x, y: _real(m.special.hankel1e(0.5, x + 1j * y)),
    ),
    Sample("special.hankel2e", "real z", lambda m, x, y: _real(m.special.hankel2e(0.0, 5 * x))),
    Sample(
        "special.hankel2e",
        "complex z",
        lambda m, x, y: _real(m.special.hankel2e(2.5, x - 1j * y)),
    ),
    *[
        Sample(f"special.{name}", option, call)
        for name in ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn")
        for option, call in (
            ("z, n=2", lambda m, x, y, f=name: getattr(m.special, f)(2, 4 * x)),
            (
                "derivative=True",
                lambda m, x, y, f=name: getattr(m.special, f)(1, 4 * x, derivative=True),
            ),
            ("array n", lambda m, x, y, f=name: getattr(m.special, f)([0, 1, 2, 3], 4 * x)),
            (
                "complex z",
                lambda m, x, y, f=name: _real(getattr(m.special, f)(2, x + 1j * y)),
            ),
        )
    ],
    *[
        Sample(
            "special.airy", f"{label}, real z", lambda m, x, y, k=k: m.special.airy(4 * x - 2)[k]
        )
        for k, label in enumerate(("Ai", "Aip", "Bi", "Bip"))
    ],
    *[
        Sample(
            "special.airy",
            f"{label}, complex z",
            lambda m, x, y, k=k: _real(m.special.airy(x + 1j * y)[k]),
        )
        for k, label in enumerate(("Ai", "Aip", "Bi", "Bip"))
    ],
    *[
        Sample("special.airye", f"{label}, z > 0", lambda m, x, y, k=k: m.special.airye(4 * x)[k])
        for k, label in enumerate(("eAi", "eAip", "eBi", "eBip"))
    ],
    Sample("special.struve", "x", lambda m, x, y: m.special.struve(1.5, 4 * x)),
    Sample("special.struve", "array v", lambda m, x, y: m.special.struve([0, 1, 2.5, 4], 4 * x)),
    Sample("special.modstruve", "x", lambda m, x, y: m.special.modstruve(0.5, 4 * x)),
    Sample(
        "special.modstruve", "array v", lambda m, x, y: m.special.modstruve([0, 1, 2.5, 4], 4 * x)
    ),
    # elliptic integrals, Lambert W
    Sample("special.ellipk", "m", lambda m, x, y: m.special.ellipk(x)),
    Sample("special.ellipk", "m < 0", lambda m, x, y: m.special.ellipk(-x)),
    Sample("special.ellipkm1", "p", lambda m, x, y: m.special.ellipkm1(x)),
    Sample("special.ellipe", "m", lambda m, x, y: m.special.ellipe(x)),
    Sample("special.ellipe", "m < 0", lambda m, x, y: m.special.ellipe(-x)),
    Sample("special.ellipkinc", "phi and m", lambda m, x, y: m.special.ellipkinc(2 * x, y)),
    Sample("special.ellipkinc", "m < 0", lambda m, x, y: m.special.ellipkinc(2 * x, -y)),
    Sample("special.ellipeinc", "phi and m", lambda m, x, y: m.special.ellipeinc(2 * x, y)),
    Sample("special.ellipeinc", "m < 0", lambda m, x, y: m.special.ellipeinc(2 * x, -y)),
    Sample("special.lambertw", "k=0, real z", lambda m, x, y: _real(m.special.lambertw(3 * x))),
    Sample(
        "special.lambertw",
        "k=-1, z in (-1/e, 0)",
        lambda m, x, y: _real(m.special.lambertw(-0.35 * x, k=-1)),
    ),
    Sample(
        "special.lambertw",
        "k=1, complex z",
        lambda m, x, y: _real(m.special.lambertw(x + 1j * y, k=1)),
    ),
    Sample(
        "special.lambertw",
        "tol=1e-12",
        lambda m, x, y: _real(m.special.lambertw(x + 1j * y, tol=1e-12)),
    ),
    # orthogonal polynomials
    *_poly("eval_jacobi", 0.5, 1.5, scale=2.0, shift=-1.0),
    *_poly("eval_legendre", scale=2.0, shift=-1.0),
    *_poly("eval_gegenbauer", 0.7, scale=2.0, shift=-1.0),
    *_poly("eval_chebyt", scale=2.0, shift=-1.0),
    *_poly("eval_chebyu", scale=2.0, shift=-1.0),
    *_poly("eval_chebyc", scale=4.0, shift=-2.0),
    *_poly("eval_chebys", scale=4.0, shift=-2.0),
    *_poly("eval_sh_legendre"),
    *_poly("eval_sh_chebyt"),
    *_poly("eval_sh_chebyu"),
    *_poly("eval_hermite", scale=3.0, shift=-1.5),
    *_poly("eval_hermitenorm", scale=3.0, shift=-1.5),
    *_poly("eval_laguerre", scale=3.0),
    *_poly("eval_genlaguerre", 1.5, scale=3.0),
]


REFUSALS: list[Refusal] = [
    Refusal(
        "special.sph_harm_y",
        "diff_n=2, a third derivative",
        lambda m, x, y: _third(lambda t: m.special.sph_harm_y(2, 1, t, y, diff_n=2)[2].real, x),
        LookupError,
    ),
    Refusal(
        "special.sph_harm_y",
        "degree n",
        lambda m, x, y: _watched(lambda t: m.special.sph_harm_y(t, 1, y, y), x),
        LookupError,
    ),
    Refusal(
        "special.lambertw",
        "branch k",
        lambda m, x, y: _watched(lambda t: m.special.lambertw(y, k=t), x),
        LookupError,
    ),
    Refusal(
        "special.spherical_jn",
        "order",
        lambda m, x, y: _watched(lambda t: m.special.spherical_jn(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.struve",
        "order",
        lambda m, x, y: _watched(lambda t: m.special.struve(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.eval_jacobi",
        "alpha",
        lambda m, x, y: _watched(lambda t: m.special.eval_jacobi(2, t, 0.5, y), x),
        LookupError,
    ),
    Refusal(
        "special.eval_legendre",
        "degree n",
        lambda m, x, y: _watched(lambda t: m.special.eval_legendre(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.jve",
        "order v",
        lambda m, x, y: _watched(lambda t: m.special.jve(t, y), x),
        LookupError,
    ),
]
