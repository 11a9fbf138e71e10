"""SciPy's linear filters with gradients: lfilter lfilter_zi sosfilt sosfilt_zi filtfilt
sosfiltfilt.

One primitive, the all-pole recursion ``y = lfilter([1], a, v)`` (SciPy's kernel), whose
VJP is the same recursion run backwards in time: ``w = flip(lfilter([1], conj(a),
flip(ḡ)))`` for ``v``, and ``-Σₙ w[n] conj(y[n-k])`` for ``a[k]`` (from ``A y = v``,
``A`` the lower-triangular Toeplitz matrix of ``a``). An IIR filter composes it: with
``b`` and ``a`` divided by ``a[0]``, ``lfilter(b, a, x, zi=zi)`` is the all-pole filter
of ``convolve(b, x)[:N] + zi`` (the initial state enters the first samples), and the
final state ``zf[i]`` is ``(b∗x)[N+i] - (a∗y)[N+i] + zi[N+i]``. So every order of
derivative, in ``b``, ``a``, ``x`` and ``zi``, is available; sosfilt is a cascade of
sections, filtfilt and sosfiltfilt SciPy's padding with lfilter_zi's initial states.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy
from tapegrad.scipy.signal.convolution import convolve

__all__ = ["filtfilt", "lfilter", "lfilter_zi", "sosfilt", "sosfilt_zi", "sosfiltfilt"]

ArrayLike = Any


def _allpole_forward(xp: Any, a: Any, v: Any, axis: int) -> Any:
    return kernel(xp, "signal", "lfilter")(xp.ones(1, dtype=a.dtype), a, v, axis=axis)


def _along(ndim: int, axis: int, part: slice) -> tuple[slice, ...]:
    index = [slice(None)] * ndim
    index[axis] = part
    return tuple(index)


def _allpole_v(g: Any, ans: Any, a: Any, v: Any, axis: int) -> Any:
    return ops.flip(_allpole(ops.conj(a), ops.flip(g, axis), axis), axis)


def _allpole_a(g: Any, ans: Any, a: Any, v: Any, axis: int) -> Any:
    w = _allpole_v(g, ans, a, v, axis)
    ndim, n = len(shape_of(v)), shape_of(v)[axis]
    y = ops.conj(ans)
    terms = [
        -ops.sum(w[_along(ndim, axis, slice(k, None))] * y[_along(ndim, axis, slice(0, n - k))])
        if k < n else ops.zeros((), dtype=w.dtype)
        for k in range(shape_of(a)[0])
    ]  # fmt: skip
    return ops.stack(terms)


_allpole_primitive = Primitive("lfilter", _allpole_forward, complex_rules=True).defvjp(
    _allpole_a, _allpole_v
)


def _allpole(a: Any, v: Any, axis: int) -> Any:
    return _allpole_primitive(a, v, axis=axis)


def _coefficients(op: str, b: Any, a: Any) -> tuple[Any, Any]:
    b, a = ops.asarray(b) if not isinstance(b, Tensor) else b, a
    a = ops.asarray(a) if not isinstance(a, Tensor) else a
    if len(shape_of(b)) != 1 or len(shape_of(a)) != 1 or not shape_of(a)[0] or not shape_of(b)[0]:
        raise ValueError(
            f"{op}: b and a must be non-empty 1-d sequences, got shapes {shape_of(b)} and "
            f"{shape_of(a)}"
        )
    if not _known_nonzero(a[0]):
        raise ValueError(f"{op}: a[0] == 0 is not supported (leading denominator coefficient)")
    return b / a[0], a / a[0]


def _known_nonzero(value: Any) -> bool:
    try:
        return bool(np.asarray(raw(value)) != 0)
    except Exception:  # a traced value, another library's array: no check
        return True


def _fir(h: Any, x: Any, axis: int) -> Any:
    """The full convolution of the 1-d ``h`` with ``x`` along ``axis``."""
    shape = [1] * len(shape_of(x))
    shape[axis] = shape_of(h)[0]
    return convolve(x, ops.reshape(h, tuple(shape)), "full", method="direct")


@plain_calls_scipy("signal")
def lfilter(b: ArrayLike, a: ArrayLike, x: ArrayLike, axis: int = -1, zi: ArrayLike = None) -> Any:
    """Filter ``x`` along ``axis`` by the rational transfer function ``b(z⁻¹) / a(z⁻¹)``
    (direct form II transposed, as SciPy's); with ``zi`` (the initial state, ``x``'s
    shape with ``max(len(a), len(b)) - 1`` along ``axis``) returns ``(y, zf)``.
    Differentiable in ``b``, ``a``, ``x`` and ``zi``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import lfilter
    >>> y, zf = lfilter(tg.tensor([1.0, 1.0]), [1.0], tg.tensor([1.0, 2.0, 3.0]), zi=[0.5])
    >>> y.numpy(), zf.numpy()
    (array([1.5, 3. , 5. ]), array([3.]))
    """
    b, a = _coefficients("lfilter", b, a)
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    shape = tuple(shape_of(x))
    if not shape:
        raise ValueError("lfilter: x must be at least 1-d")
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"lfilter: axis {axis} is out of range for x of shape {shape}")
    axis %= len(shape)
    n, order = shape[axis], max(shape_of(a)[0], shape_of(b)[0]) - 1
    v = _fir(b, x, axis)[_along(len(shape), axis, slice(0, n))]
    if zi is not None:
        state = list(shape)
        state[axis] = order
        if len(shape_of(zi)) != len(shape) or any(
            z not in (s, 1) or (k == axis and z != s)
            for k, (z, s) in enumerate(zip(shape_of(zi), state))
        ):
            raise ValueError(
                f"lfilter: zi must have shape {tuple(state)} (x's shape {shape} with "
                f"max(len(a), len(b)) - 1 along axis {axis}), got {tuple(shape_of(zi))}"
            )
        zi = ops.broadcast_to(zi, tuple(state))
        first = zi[_along(len(shape), axis, slice(0, min(order, n)))]
        widths = [(0, 0)] * len(shape)
        widths[axis] = (0, n - min(order, n))
        v = v + ops.pad(first, widths)
    y = _allpole(a, v, axis) if shape_of(a)[0] > 1 else v
    if zi is None:
        return y
    if order == 0:
        return y, zi
    pad_b, pad_a = (ops.pad(c, (0, order + 1 - shape_of(c)[0])) for c in (b, a))
    tail = _along(len(shape), axis, slice(n, n + order))
    zf = _fir(pad_b, x, axis)[tail] - _fir(pad_a, y, axis)[tail]
    if n < order:
        widths = [(0, 0)] * len(shape)
        widths[axis] = (0, n)
        zf = zf + ops.pad(zi[_along(len(shape), axis, slice(n, None))], widths)
    return y, zf


@plain_calls_scipy("signal")
def lfilter_zi(b: ArrayLike, a: ArrayLike) -> Tensor:
    """The initial state of :func:`lfilter` for the steady state of the step response:
    the solution of ``zi = A zi + B`` (``A = companion(a).T``, ``B = b[1:] - a[1:] b[0]``,
    ``a`` and ``b`` divided by ``a[0]``), differentiable in ``b`` and ``a``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import lfilter_zi
    >>> lfilter_zi(tg.tensor([0.5, 0.5]), [1.0, -0.2]).numpy().round(12)  # y = 1 for x = 1
    array([0.75])
    """
    b, a = _coefficients("lfilter_zi", b, a)
    n = max(shape_of(a)[0], shape_of(b)[0])
    b, a = (ops.pad(c, (0, n - shape_of(c)[0])) for c in (b, a))
    if n == 1:
        return ops.zeros((0,), dtype=b.dtype)
    # I - companion(a).T: a[1:] in the first column, -1 above the diagonal
    constant = np.eye(n - 1) - np.eye(n - 1, k=1)
    first = np.zeros(n - 1)
    first[0] = 1.0
    matrix = constant + ops.reshape(a[1:], (n - 1, 1)) * first
    return linalg.solve(matrix, b[1:] - a[1:] * b[0])


def _sos(op: str, sos: Any) -> Any:
    sos = sos if isinstance(sos, Tensor) else ops.asarray(sos)
    shape = tuple(shape_of(sos))
    if len(shape) != 2 or shape[1] != 6:
        raise ValueError(f"{op}: sos array must be shape (n_sections, 6), got {shape}")
    leading = np.asarray(raw(sos))[:, 3]
    if not (leading == 1).all():
        raise ValueError(f"{op}: sos[:, 3] should be all ones")
    return sos


@plain_calls_scipy("signal")
def sosfilt(sos: ArrayLike, x: ArrayLike, axis: int = -1, zi: ArrayLike = None) -> Any:
    """Filter ``x`` along ``axis`` by cascaded second-order sections (``sos`` of shape
    ``(n_sections, 6)``: each row ``b0 b1 b2 1 a1 a2``), each an :func:`lfilter`; with
    ``zi`` (shape ``(n_sections, ..., 2, ...)``) returns ``(y, zf)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import sosfilt
    >>> sosfilt(tg.tensor([[1.0, 0.0, 0.0, 1.0, -0.5, 0.0]]), tg.tensor([1.0, 0.0, 0.0])).numpy()
    array([1.  , 0.5 , 0.25])
    """
    sos = _sos("sosfilt", sos)
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    shape = tuple(shape_of(x))
    if not shape:
        raise ValueError("sosfilt: x must be at least 1-d")
    sections = shape_of(sos)[0]
    if zi is not None:
        expected = list(shape)
        expected[axis] = 2
        if tuple(shape_of(zi)) != (sections, *expected):
            raise ValueError(
                f"sosfilt: zi must have shape {(sections, *expected)} (n_sections, then x's "
                f"shape {shape} with 2 along axis {axis}), got {tuple(shape_of(zi))}"
            )
    y, finals = x, []
    for k in range(sections):
        if zi is None:
            y = lfilter(sos[k, :3], sos[k, 3:], y, axis=axis)
        else:
            y, zf = lfilter(sos[k, :3], sos[k, 3:], y, axis=axis, zi=zi[k])
            finals.append(zf)
    return y if zi is None else (y, ops.stack(finals))


@plain_calls_scipy("signal")
def sosfilt_zi(sos: ArrayLike) -> Tensor:
    """The initial states of :func:`sosfilt` for the steady state of the step response:
    each section's :func:`lfilter_zi` scaled by the DC gain of the sections before it.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import sosfilt_zi
    >>> sosfilt_zi(tg.tensor([[0.5, 0.5, 0.0, 1.0, -0.2, 0.0]])).numpy().round(12)
    array([[0.75, 0.  ]])
    """
    sos = _sos("sosfilt_zi", sos)
    rows, scale = [], 1.0
    for k in range(shape_of(sos)[0]):
        b, a = sos[k, :3], sos[k, 3:]
        rows.append(scale * lfilter_zi(b, a))
        scale = scale * (ops.sum(b) / ops.sum(a))
    return ops.stack(rows)


def _extend(op: str, x: Any, padtype: Any, padlen: Any, axis: int, ntaps: int) -> tuple:
    """SciPy's _validate_pad: ``(edge, x extended by edge samples at each end)``."""
    if padtype not in ("even", "odd", "constant", None):
        raise ValueError(
            f"{op}: unknown padtype {padtype!r}; padtype must be 'even', 'odd', 'constant', or None"
        )
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None else int(padlen))
    n = shape_of(x)[axis]
    if n <= edge:
        raise ValueError(
            f"{op}: the length of the input vector x ({n}) must be greater than padlen, "
            f"which is {edge}"
        )
    if padtype is None or edge == 0:
        return edge, x
    left = ops.take(x, np.arange(edge, 0, -1), axis=axis)
    right = ops.take(x, np.arange(n - 2, n - 2 - edge, -1), axis=axis)
    first, last = ops.take(x, [0], axis=axis), ops.take(x, [n - 1], axis=axis)
    if padtype == "odd":
        left, right = 2 * first - left, 2 * last - right
    elif padtype == "constant":
        left, right = first + 0 * left, last + 0 * right
    return edge, ops.concatenate([left, x, right], axis=axis)


def _forward_backward(run: Any, x: Any, zi: Any, axis: int, edge: int, stack: int) -> Any:
    n = shape_of(x)[axis]
    shape = [1] * len(shape_of(x))
    shape[axis] = -1
    zi = ops.reshape(zi, (*shape_of(zi)[:stack], *shape))
    y = run(x, zi * ops.take(x, [0], axis=axis))
    y = ops.flip(run(ops.flip(y, axis), zi * ops.take(y, [n - 1], axis=axis)), axis)
    if edge > 0:
        y = ops.take(y, np.arange(edge, n - edge), axis=axis)
    return y


@plain_calls_scipy("signal")
def filtfilt(
    b: ArrayLike,
    a: ArrayLike,
    x: ArrayLike,
    axis: int = -1,
    padtype: str | None = "odd",
    padlen: int | None = None,
    method: str = "pad",
    irlen: int | None = None,
) -> Tensor:
    """:func:`lfilter` forward and backward (zero phase), as SciPy's ``method='pad'``:
    ``x`` extended by ``padlen`` samples (``3 * max(len(a), len(b))``) of ``padtype``,
    each pass started from :func:`lfilter_zi` times its first sample. Differentiable in
    ``b``, ``a`` and ``x``; ``method='gust'`` raises NotImplementedError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import filtfilt
    >>> filtfilt([0.5, 0.5], [1.0], tg.arange(1.0, 8.0), padlen=2).numpy()  # a line stays
    array([1., 2., 3., 4., 5., 6., 7.])
    """
    if method not in ("pad", "gust"):
        raise ValueError(f"filtfilt: method must be 'pad' or 'gust', got {method!r}")
    if method == "gust":
        raise NotImplementedError(
            "filtfilt: method='gust' (Gustafsson's initial states, and its irlen) is not "
            "supported on Tensors; use method='pad'"
        )
    b, a = _coefficients("filtfilt", b, a)
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    if not shape_of(x):
        raise ValueError("filtfilt: x must be at least 1-d")
    axis %= len(shape_of(x))
    ntaps = max(shape_of(a)[0], shape_of(b)[0])
    edge, ext = _extend("filtfilt", x, padtype, padlen, axis, ntaps)
    zi = lfilter_zi(b, a)

    def run(signal: Any, state: Any) -> Any:
        return lfilter(b, a, signal, axis=axis, zi=state)[0]

    return _forward_backward(run, ext, zi, axis, edge, 0)


@plain_calls_scipy("signal")
def sosfiltfilt(
    sos: ArrayLike,
    x: ArrayLike,
    axis: int = -1,
    padtype: str | None = "odd",
    padlen: int | None = None,
) -> Tensor:
    """:func:`sosfilt` forward and backward (zero phase), padded as :func:`filtfilt`
    (``padlen`` from the number of sections, as SciPy's), each pass started from
    :func:`sosfilt_zi`. Differentiable in ``sos`` and ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import sosfiltfilt
    >>> sos = [[0.5, 0.5, 0.0, 1.0, 0.0, 0.0]]
    >>> sosfiltfilt(sos, tg.arange(1.0, 8.0), padlen=2).numpy()
    array([1., 2., 3., 4., 5., 6., 7.])
    """
    sos = _sos("sosfiltfilt", sos)
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    if not shape_of(x):
        raise ValueError("sosfiltfilt: x must be at least 1-d")
    axis %= len(shape_of(x))
    values = np.asarray(raw(sos))
    ntaps = (
        2 * len(values) + 1 - min(int((values[:, 2] == 0).sum()), int((values[:, 5] == 0).sum()))
    )
    edge, ext = _extend("sosfiltfilt", x, padtype, padlen, axis, ntaps)
    zi = sosfilt_zi(sos)

    def run(signal: Any, state: Any) -> Any:
        return sosfilt(sos, signal, axis=axis, zi=state)[0]

    return _forward_backward(run, ext, zi, axis, edge, 1)
