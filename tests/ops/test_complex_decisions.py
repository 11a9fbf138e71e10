"""Every differentiable primitive of tapegrad decides whether its rules hold for complex
values (``complex_rules=True``, checked against finite differences in
test_complex_rules.py and test_complex_numpy_rules.py) or not (``False``: the op orders
values or is a function of a real variable). Undecided, a new primitive fails here.

The primitives are found by walking every module of the package: module attributes, and
the dicts, lists and tuples they hold (``_COMPLEX_MEDIANS``).
"""

import importlib
import pkgutil
import sys

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.ops.primitive import Primitive


def _primitives() -> list[Primitive]:
    for info in pkgutil.walk_packages(tg.__path__, "tapegrad."):
        importlib.import_module(info.name)
    found: dict[int, Primitive] = {}
    for name, module in list(sys.modules.items()):
        if name != "tapegrad" and not name.startswith("tapegrad."):
            continue
        for value in vars(module).values():
            held = value.values() if isinstance(value, dict) else value
            for candidate in held if isinstance(value, (dict, list, tuple)) else [value]:
                if isinstance(candidate, Primitive):
                    found[id(candidate)] = candidate
    return sorted(found.values(), key=lambda p: (p.name, str(p.complex_rules)))


PRIMITIVES = _primitives()


def test_the_walk_finds_the_families():
    names = {p.name for p in PRIMITIVES}
    # one of each kind of home: ops, linalg, fft, nn, scipy, a dict of primitives
    assert {"exp", "cumprod", "eigvals", "fft", "erf", "expm", "median", "i0"} <= names
    assert len(PRIMITIVES) > 150


def test_every_differentiable_primitive_decides_complex_rules():
    # differentiable=False ops (comparisons, argsort, isnan...) have no rules to decide on
    undecided = sorted(p.name for p in PRIMITIVES if p.differentiable and p.complex_rules is None)
    assert not undecided, (
        f"declare complex_rules=True (the rules follow docs/complex.md, with a complex "
        f"gradcheck) or complex_rules=False (real-only) for: {undecided}"
    )


REAL_ONLY = [p for p in PRIMITIVES if p.differentiable and p.complex_rules is False]

# Params of the real-only primitives that take some (the others are called p(z) or p(z, w)).
PARAMS = {
    "max": {"axis": None, "keepdims": False},
    "min": {"axis": None, "keepdims": False},
    "logsumexp": {"axis": None, "keepdims": False},
}
# Inputs other than the complex one, for primitives whose other inputs are bounds.
ARGUMENTS = {"clip": lambda z: (z, 0.0, 1.0)}
MATRIX = np.array([[2.0 + 1j, 0.5], [0.25j, 1.5 - 0.5j]])


def _call(primitive: Primitive, z: tg.Tensor) -> None:
    if primitive.name == "odeint":
        from tapegrad.scipy.integrate import odeint

        odeint(lambda y, t: -y, z, np.array([0.0, 0.1]))
        return
    if primitive.name in ARGUMENTS:
        primitive(*ARGUMENTS[primitive.name](z))
        return
    arity = len(primitive.vjps) if primitive.argnum_rule is None else 2
    # inputs without a rule (an order, a parameter) get a real constant
    ruled = [primitive.rule(k) is not None for k in range(arity)]
    inputs = [z if has or not any(ruled) else 0.5 for has in ruled]
    primitive(*inputs, **PARAMS.get(primitive.name, {}))


@pytest.mark.parametrize("primitive", REAL_ONLY, ids=[p.name for p in REAL_ONLY])
def test_a_complex_value_through_a_real_only_primitive_raises_naming_op_and_dtype(primitive):
    # Either NumPy/SciPy refuses complex input (the forward's TypeError), or the forward
    # computes a complex result that record() refuses to differentiate: both name the op
    # and the dtype, and leave the tape as it was.
    z = tg.tensor(MATRIX if primitive.name == "lu_factor" else np.array([0.5 + 0.25j, 1.5 - 0.5j]))
    with tg.GradientTape() as tape:
        tape.watch(z)
        with pytest.raises(TypeError) as error:
            _call(primitive, z)
    message = str(error.value)
    assert f"{primitive.name}:" in message, message
    assert "complex128" in message, message
    assert len(tape) == 0


# Where each primitive declared complex_rules=True is checked against finite differences
# on complex values (a new one is added here with its test).
_RULES = "tests/ops/test_complex_rules.py"
_NUMPY = "tests/ops/test_complex_numpy_rules.py"
_LINALG = "tests/linalg (DTYPES holds complex128)"
COMPLEX_CHECKED = {
    **dict.fromkeys(
        [
            "abs",
            "add",
            "angle",
            "astype",
            "broadcast_to",
            "concatenate",
            "conj",
            "cos",
            "cosh",
            "cumsum",
            "divide",
            "einsum",
            "exp",
            "expm1",
            "flip",
            "getitem",
            "imag",
            "log",
            "log1p",
            "matmul",
            "matmul_add",
            "multiply",
            "negative",
            "power",
            "prod",
            "real",
            "reshape",
            "sigmoid",
            "sin",
            "sinh",
            "sqrt",
            "square",
            "subtract",
            "sum",
            "tan",
            "tanh",
            "to_device",
            "transpose",
            "where",
            "arctan",
        ],
        _RULES,
    ),  # fmt: skip
    **dict.fromkeys(
        [
            "arccos",
            "arccosh",
            "arcsin",
            "arcsinh",
            "arctanh",
            "sinc",
            "log2",
            "log10",
            "exp2",
            "reciprocal",
            "erf",
            "cumprod",
            "copy",
            "im2col",
            "col2im",
            "index_add",
            "checkpoint",
        ],
        _NUMPY,
    ),  # fmt: skip
    **dict.fromkeys(
        [
            "adjugate",
            "cholesky",
            "det",
            "eig",
            "eigh",
            "eigvals",
            "eigvalsh",
            "inv",
            "lstsq",
            "pinv",
            "qr",
            "slogdet",
            "solve",
            "solve_triangular",
            "svd",
            "svdvals",
            "vector_norm",
        ],
        _LINALG,
    ),  # fmt: skip
    **dict.fromkeys(["fft", "rfft", "irfft"], "tests/fft/test_fft_transforms.py"),
    **dict.fromkeys(
        ["expm", "sqrtm", "solve_sylvester", "logm", "solve_discrete_lyapunov"],
        "tests/scipy/test_scipy_linalg.py",
    ),
    "convolve": "tests/scipy/test_scipy_signal.py",
    "roots": "tests/ops/test_grids.py (tg.roots at a repeated root)",
    "identity": "tests/test_complex_engine.py (tg.grad of complex arguments)",
    "dct": "tests/scipy/test_scipy_fft.py",
    "lfilter": "tests/scipy/test_scipy_signal_more.py",
    **dict.fromkeys(
        ["expm_multiply", "sparse_matmul", "sparse_solve"], "tests/scipy/test_scipy_sparse.py"
    ),
    **dict.fromkeys(
        [
            "airy[0]",
            "airy[1]",
            "airy[2]",
            "airy[3]",
            "dawsn",
            "erfc",
            "erfcx",
            "erfi",
            "eval_chebyc",
            "eval_chebys",
            "eval_chebyt",
            "eval_chebyu",
            "eval_gegenbauer",
            "eval_genlaguerre",
            "eval_jacobi",
            "eval_laguerre",
            "eval_legendre",
            "eval_sh_chebyt",
            "eval_sh_chebyu",
            "eval_sh_legendre",
            "exp1",
            "expi",
            "fresnel[0]",
            "fresnel[1]",
            "hankel1",
            "hankel1e",
            "hankel2",
            "hankel2e",
            "hyp1f1",
            "hyp2f1",
            "lambertw",
            "loggamma",
            "shichi[0]",
            "shichi[1]",
            "sici[0]",
            "sici[1]",
            "spence",
            "sph_harm_y[0]",
            "sph_harm_y[1]",
            "sph_harm_y[2]",
            "spherical_in",
            "spherical_in'",
            "spherical_jn",
            "spherical_jn'",
            "spherical_kn",
            "spherical_kn'",
            "spherical_yn",
            "spherical_yn'",
            "wofz",
            "wrightomega",
        ],
        "tests/scipy/test_scipy_special_complex.py",
    ),
    # complex digamma and gamma behind loggamma and factorial(extend="complex"), checked
    # through them; their own rules refuse complex arguments (no complex trigamma in SciPy)
    **dict.fromkeys(["psi", "gamma"], "tests/scipy/test_scipy_special_more.py"),
    # SciPy has no complex loop: a complex argument is a TypeError naming the function
    **dict.fromkeys(
        ["eval_hermite", "eval_hermitenorm"], "tests/scipy/test_scipy_special_complex.py"
    ),
    # vmap's entering, leaving, per-example and summing primitives (linear maps)
    **dict.fromkeys(
        [
            "vmap_in",
            "vmap_out",
            "vmap_example",
            "vmap_place",
            "vmap_stack",
            "vmap_sum",
            "vmap_spread",
        ],
        "tests/test_vmap.py",
    ),  # fmt: skip
}


def test_every_primitive_with_complex_rules_has_a_complex_gradient_check():
    declared = {p.name for p in PRIMITIVES if p.differentiable and p.complex_rules is True}
    unchecked = sorted(declared - set(COMPLEX_CHECKED))
    assert not unchecked, f"add a complex gradcheck for {unchecked} and list it here"
