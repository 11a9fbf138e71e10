"""Matrix functions: expm, logm, sqrtm, fractional_matrix_power, the trigonometric and
hyperbolic ones, expm_frechet, khatri_rao; funm and signm on plain arrays only.

- ``expm``: the VJP is the Fréchet derivative at Aᴴ, L(Aᴴ, Ḡ), read off the upper-right
  block of ``expm([[Aᴴ, Ḡ], [0, Aᴴ]])`` (Mathias 1996): built from ``expm`` itself, so
  every order of derivative works (each order doubles the matrix).
- ``sqrtm``: X X = A gives X dX + dX X = dA, so Ā solves Xᴴ Ā + Ā Xᴴ = X̄ (a Sylvester
  equation, tapegrad.scipy.linalg.matrix_equations).
- ``logm``: as ``expm``, the VJP is L(Aᴴ, Ḡ), the upper-right block of
  ``logm([[Aᴴ, Ḡ], [0, Aᴴ]])`` (the block matrix has A's spectrum, away from the branch cut).
- The rest are built from these: ``cosm``/``sinm`` from expm(±iA), ``tanm``/``tanhm`` as
  solves, ``fractional_matrix_power`` as expm(t logm(A)), ``expm_frechet`` as the blocks of
  expm([[A, E], [0, A]]), so they differentiate to every order with nothing new.

The conjugate transposes (Aᵀ for real A) make the rules hold for complex matrices in
tapegrad's convention (docs/complex.md), and for a real matrix with a complex square root.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.backends.namespaces import is_complex
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, mH
from tapegrad.ops.primitive import Primitive, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy
from tapegrad.scipy.linalg.matrix_equations import _square, solve_sylvester

__all__ = [
    "coshm", "cosm", "expm", "expm_frechet", "fractional_matrix_power", "funm",
    "khatri_rao", "logm", "signm", "sinhm", "sinm", "sqrtm", "tanhm", "tanm",
]  # fmt: skip

ArrayLike = Any


def _upper_block(a: Any, e: Any) -> Any:
    """``[[a, e], [0, a]]``, whose analytic functions hold f(a) and its Fréchet derivative
    L(a, e) in their upper blocks."""
    zeros = ops.zeros_like(a)
    return ops.concatenate(
        [ops.concatenate([a, e], axis=-1), ops.concatenate([zeros, a], axis=-1)], axis=-2
    )


def _expm_vjp(g: Any, ans: Any, a: Any) -> Any:
    n = shape_of(a)[-1]
    return expm(_upper_block(mH(a), g))[..., :n, n:]


_expm = Primitive("expm", lambda xp, a: kernel(xp, "linalg", "expm")(a), complex_rules=True).defvjp(
    _expm_vjp
)


@plain_calls_scipy("linalg")
def expm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix exponential (batched over leading axes).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import expm
    >>> expm(tg.tensor([[0.0, 1.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [0., 1.]])
    """
    return _expm._unary(A)


# Ā solves Xᴴ Ā + Ā Xᴴ = X̄
_sqrtm = Primitive(
    "sqrtm", lambda xp, a: kernel(xp, "linalg", "sqrtm")(a), complex_rules=True
).defvjp(lambda g, ans, a: solve_sylvester(mH(ans), mH(ans), g))


@plain_calls_scipy("linalg")
def sqrtm(A: ArrayLike, disp: Any = True, blocksize: Any = 64) -> Tensor:  # noqa: N803
    """The principal square root ``X`` of ``A`` (``X @ X == A``). Real when ``A`` has no
    negative real eigenvalues; a complex root otherwise, differentiable as every complex
    value is (a real ``A`` gets the real part of its complex cotangent). ``disp`` and
    ``blocksize`` (deprecated in SciPy) are accepted and ignored.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import sqrtm
    >>> sqrtm(tg.tensor([[4.0, 0.0], [0.0, 9.0]])).numpy()
    array([[2., 0.],
           [0., 3.]])
    """
    return _sqrtm._unary(A)


def _logm_vjp(g: Any, ans: Any, a: Any) -> Any:
    n = shape_of(a)[-1]
    return logm(_upper_block(mH(a), g))[..., :n, n:]


def _logm_forward(xp: Any, a: Any) -> Any:
    logm_ = kernel(xp, "linalg", "logm")
    if a.ndim == 2:
        return logm_(a)
    # SciPy 1.17's logm takes one matrix: a stack, matrix by matrix (one dtype for all)
    out = [logm_(m) for m in a.reshape((-1,) + a.shape[-2:])]
    dtype = xp.result_type(*out)
    return xp.stack([xp.asarray(m, dtype=dtype) for m in out]).reshape(a.shape)


_logm = Primitive("logm", _logm_forward, complex_rules=True).defvjp(_logm_vjp)


@plain_calls_scipy("linalg")
def logm(A: ArrayLike, disp: Any = True) -> Tensor:  # noqa: N803 - SciPy's name
    """The principal matrix logarithm (``expm(logm(A)) == A``), batched over leading axes.
    Real for a real ``A`` with no eigenvalue on the closed negative real axis; complex
    otherwise (as SciPy). ``disp`` (deprecated in SciPy) is accepted and ignored.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import logm
    >>> logm(tg.tensor([[1.0, 1.0], [0.0, 1.0]])).numpy()
    array([[0., 1.],
           [0., 0.]])
    """
    return _logm._unary(_square("logm", A))


@plain_calls_scipy("linalg")
def expm_frechet(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    E: ArrayLike,  # noqa: N803
    method: str | None = None,
    compute_expm: bool = True,
    check_finite: bool = True,
) -> Any:
    """The Fréchet derivative L(A, E) of expm at ``A`` in the direction ``E`` (and expm(A)
    first, with ``compute_expm``): the blocks of ``expm([[A, E], [0, A]])``, so
    differentiable in both, to every order. ``method`` ('SPS' or 'blockEnlarge', SciPy's
    algorithms) gives the same values to rounding.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import expm_frechet
    >>> expm_frechet(tg.tensor([[0.0]]), tg.tensor([[2.0]]), compute_expm=False).numpy()
    array([[2.]])
    """
    if method not in (None, "SPS", "blockEnlarge"):
        raise ValueError(
            f"expm_frechet: unknown method {method!r} (SciPy's: 'SPS', 'blockEnlarge')"
        )
    a, e = _square("expm_frechet", A), _square("expm_frechet", E)
    if shape_of(a) != shape_of(e):
        raise ValueError(
            f"expm_frechet: A and E must have the same shape, got {shape_of(a)} and {shape_of(e)}"
        )
    if check_finite:
        _check_finite("expm_frechet", a, e)
    n = shape_of(a)[-1]
    block = expm(_upper_block(a, e))
    frechet = block[..., :n, n:]
    return (block[..., :n, :n], frechet) if compute_expm else frechet


def _check_finite(name: str, *arrays: Any) -> None:
    if not all(bool(ops.all(ops.isfinite(a))) for a in arrays):
        raise ValueError(f"{name}: array must not contain infs or NaNs")


@plain_calls_scipy("linalg")
def fractional_matrix_power(A: ArrayLike, t: Any) -> Tensor:  # noqa: N803 - SciPy's name
    """``A`` to the power ``t``: ``expm(t logm(A))`` (the principal power), differentiable in
    ``A`` and ``t``; an integer ``t`` is a matrix power, as SciPy computes it.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import fractional_matrix_power
    >>> fractional_matrix_power(tg.tensor([[4.0, 0.0], [0.0, 9.0]]), 0.5).numpy()
    array([[2., 0.],
           [0., 3.]])
    """
    a = _square("fractional_matrix_power", A)
    if not isinstance(t, Tensor) and float(t) == int(t):
        from tapegrad import linalg

        return linalg.matrix_power(a, int(t))
    return expm(ops.multiply(t, logm(a)))


def _exp_i(a: Any) -> tuple[Any, Any]:
    """expm(iA) and expm(-iA)."""
    i = ops.multiply(a, 1j)
    return expm(i), expm(-i)


@plain_calls_scipy("linalg")
def cosm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix cosine, ``(expm(iA) + expm(-iA)) / 2`` (the real part of expm(iA) for a
    real ``A``, as SciPy).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cosm
    >>> cosm(tg.tensor([[0.0]])).numpy()
    array([[1.]])
    """
    a = _square("cosm", A)
    if not is_complex(a.dtype):
        return ops.real(expm(ops.multiply(a, 1j)))
    plus, minus = _exp_i(a)
    return (plus + minus) * 0.5


@plain_calls_scipy("linalg")
def sinm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix sine, ``(expm(iA) - expm(-iA)) / 2i`` (the imaginary part of expm(iA)
    for a real ``A``, as SciPy).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import sinm
    >>> sinm(tg.tensor([[0.0]])).numpy()
    array([[0.]])
    """
    a = _square("sinm", A)
    if not is_complex(a.dtype):
        return ops.imag(expm(ops.multiply(a, 1j)))
    plus, minus = _exp_i(a)
    return (plus - minus) * -0.5j


@plain_calls_scipy("linalg")
def tanm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix tangent, ``cosm(A)⁻¹ sinm(A)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import tanm
    >>> tanm(tg.tensor([[0.5]])).numpy().round(6)
    array([[0.546302]])
    """
    from tapegrad import linalg

    a = _square("tanm", A)
    return linalg.solve(cosm(a), sinm(a))


@plain_calls_scipy("linalg")
def coshm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix hyperbolic cosine, ``(expm(A) + expm(-A)) / 2``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import coshm
    >>> coshm(tg.tensor([[0.0]])).numpy()
    array([[1.]])
    """
    a = _square("coshm", A)
    return (expm(a) + expm(-a)) * 0.5


@plain_calls_scipy("linalg")
def sinhm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix hyperbolic sine, ``(expm(A) - expm(-A)) / 2``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import sinhm
    >>> sinhm(tg.tensor([[0.0]])).numpy()
    array([[0.]])
    """
    a = _square("sinhm", A)
    return (expm(a) - expm(-a)) * 0.5


@plain_calls_scipy("linalg")
def tanhm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix hyperbolic tangent, ``coshm(A)⁻¹ sinhm(A)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import tanhm
    >>> tanhm(tg.tensor([[0.5]])).numpy().round(6)
    array([[0.462117]])
    """
    from tapegrad import linalg

    a = _square("tanhm", A)
    return linalg.solve(coshm(a), sinhm(a))


@plain_calls_scipy("linalg")
def khatri_rao(a: ArrayLike, b: ArrayLike) -> Tensor:
    """The column-wise Kronecker product: column j is ``kron(a[:, j], b[:, j])``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import khatri_rao
    >>> khatri_rao(tg.tensor([[1.0, 2.0]]), tg.tensor([[3.0, 4.0], [5.0, 6.0]])).numpy()
    array([[ 3.,  8.],
           [ 5., 12.]])
    """
    a, b = as_input(a), as_input(b)
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[1]:
        raise ValueError(
            f"khatri_rao: a and b must be 2-d with the same number of columns, got shapes "
            f"{sa} and {sb}"
        )
    return ops.reshape(a[:, None, :] * b[None, :, :], (sa[0] * sb[0], sa[1]))


@plain_calls_scipy("linalg")
def funm(A: ArrayLike, func: Any, disp: bool = True) -> Any:  # noqa: N803 - SciPy's name
    """SciPy's ``funm`` (Schur-Parlett) on plain arrays. On a Tensor it raises
    NotImplementedError: ``func`` is any Python function of arrays, whose derivative
    tapegrad cannot see; write the matrix function with expm, logm, sqrtm or solves.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import funm
    >>> funm(np.array([[1.0, 0.0], [0.0, 2.0]]), np.exp).round(4)
    array([[2.7183, 0.    ],
           [0.    , 7.3891]])
    """
    raise NotImplementedError(
        "funm: no gradient through an arbitrary func on Tensors; build the matrix function "
        "from expm, logm, sqrtm, fractional_matrix_power or solves"
    )


@plain_calls_scipy("linalg")
def signm(A: ArrayLike, disp: Any = True) -> Any:  # noqa: N803 - SciPy's name
    """SciPy's matrix sign function on plain arrays; on a Tensor NotImplementedError (its
    derivative, a Sylvester equation in sign(A), is not built yet).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import signm
    >>> signm(np.array([[2.0, 0.0], [0.0, -3.0]]))
    array([[ 1.,  0.],
           [ 0., -1.]])
    """
    raise NotImplementedError("signm: not differentiable on Tensors yet")
