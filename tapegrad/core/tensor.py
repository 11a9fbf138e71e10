"""Tensor and Variable: plain array wrappers with a serial number and no graph pointers."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.backends import devices
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import RECORDING, TRACING, _active
from tapegrad.core.anomaly import anomaly_mode
from tapegrad.core.batched import Batched
from tapegrad.core.sites import format_site, scipy_caller, user_site, warn_once
from tapegrad.core.tensor_methods import TensorMethods
from tapegrad.wording import a

_serials = itertools.count()
_PYTHON_DATA = frozenset({bool, int, float, complex, list, tuple})


class Tensor(TensorMethods):
    """An immutable array plus a unique serial number.

    A Tensor holds no pointer to the op that made it and no gradient: the
    active :class:`~tapegrad.GradientTape` remembers how it was computed.
    Its NumPy array is read-only once it is handed out (``.data``, ``.numpy()``,
    ``np.asarray``): a tape may have saved it, and a write would change a gradient.

    Attributes and methods are NumPy's ndarray's: ``shape``, ``dtype``, ``ndim``, ``size``,
    ``T``, ``real`` and ``imag``, ``device`` (``"cpu"``, ``"gpu:N"``); ``numpy()`` and
    ``item()`` leave the tape (a host copy, a Python scalar); ``t.sum(axis)``, ``t.mean``,
    ``t.reshape(shape)``, ``t.exp()`` and the other methods are the functions of the same
    name (``tg.sum(t, axis)``, ...), and the operators (``+ - * / ** @``, comparisons,
    indexing) are ``tg.add``, ``tg.matmul``, ``tg.getitem`` and so on, recorded like them
    (the op library sets them on the class: tapegrad/ops/methods.py).

    Args:
        data: A backend array (NumPy, CuPy, or an array-API array), kept without a copy.
            Users make Tensors with :func:`tapegrad.tensor`, which copies and converts.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> (x * 2).sum().item()
    6.0
    """

    __slots__ = ("_data", "_id", "__weakref__")
    __array_priority__ = 1000

    def __init__(self, data: Any) -> None:
        # Primitives set these two slots themselves (no __init__ frame on the hot path):
        # see Primitive.__call__ in ops/primitive.py.
        if type(data) in _PYTHON_DATA:  # tg.Tensor(1.3), tg.Tensor([1, 2]): as tg.tensor
            data = devices.make_array(data, None, None)
        self._data = data
        self._id = next(_serials)

    @property
    def data(self) -> Any:
        """The backend array, read-only for NumPy arrays (copy it to change it)."""
        return _read_only(self._data)

    @data.setter
    def data(self, value: Any) -> None:
        raise AttributeError(
            f"cannot set .data of a {type(self).__name__}: Tensors are immutable; "
            "make a new Tensor, or use Variable.assign to change a Variable"
        )

    # --- metadata -----------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints."""
        return tuple(self._data.shape)

    @property
    def dtype(self) -> Any:
        """The NumPy dtype."""
        return self._data.dtype

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return self._data.ndim

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(np.prod(self._data.shape))

    @property
    def device(self) -> str:
        """``"cpu"``, or ``"gpu:N"`` for a CuPy array on GPU N."""
        return backend.device_of(self._data)

    def __len__(self) -> int:
        if not self._data.shape:
            raise TypeError("len() of a 0-d Tensor")
        return self._data.shape[0]

    def __repr__(self) -> str:
        if type(self._data) is Batched:  # inside tg.vmap: one value per example
            return f"tensor({self._data!r})"
        body = np.array2string(backend.to_host(self._data), separator=", ", prefix="tensor(")
        return f"tensor({body}, dtype={self.dtype})"

    __hash__ = object.__hash__

    # --- leaving the tape -----------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The value as a host NumPy array (a copy for device arrays)."""
        note_escape(self, "numpy()")
        return _read_only(backend.to_host(self._data))

    def item(self) -> Any:
        """The value of a one-element Tensor as a Python scalar (it leaves the tape)."""
        note_escape(self, "item()")
        return backend.to_host(self._data).item()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        note_escape(self, "np.asarray()")
        out = _read_only(backend.to_host(self._data))
        if dtype is not None:
            out = out.astype(dtype, copy=False)
        return np.array(out, copy=True) if copy else out

    def __bool__(self) -> bool:
        note_escape(self, "bool()")
        return bool(self._data)

    def __float__(self) -> float:
        note_escape(self, "float()")
        return float(self._data)

    def __int__(self) -> int:
        note_escape(self, "int()")
        return int(self._data)

    def __index__(self) -> int:
        if backend.is_floating(self.dtype):
            raise TypeError(f"{a(self.dtype)} Tensor cannot be used as an index")
        note_escape(self, "index()")
        return int(self._data)

    def __pos__(self) -> Tensor:
        return self

    def __iter__(self) -> Any:
        # As an ndarray: iterating a 0-d Tensor fails at once (so np.iterable(t) is False and
        # matplotlib sees one value), an n-d one yields its rows, each recorded as t[i].
        if not self._data.shape:
            raise TypeError("iteration over a 0-d Tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __format__(self, spec: str) -> str:
        """``f"{loss:.4f}"``: a 0-d Tensor formats as its number (NumPy's 0-d arrays do);
        without a spec any Tensor formats as ``str`` does. Like ``repr``, formatting only
        shows the value: it does not leave the tape and does not warn."""
        if not spec:
            return str(self)
        if self._data.shape:
            raise TypeError(
                f"unsupported format string {spec!r} passed to Tensor.__format__: a Tensor of "
                f"shape {self.shape} formats only without one (as NumPy's arrays); format "
                "its elements, or a 0-d Tensor"
            )
        return format(backend.to_host(self._data)[()], spec)

    @property
    def itemsize(self) -> int:
        """The bytes of one element."""
        return int(np.dtype(backend.dtype_name(self.dtype)).itemsize)

    @property
    def nbytes(self) -> int:
        """The bytes of all elements."""
        return self.itemsize * self.size

    def tolist(self) -> Any:
        """The value as nested Python lists (it leaves the tape, as ``numpy()`` does)."""
        return self.numpy().tolist()


class Variable(Tensor):
    """A Tensor whose value can change: ``assign``, ``assign_add``, ``assign_sub``.

    Each assignment bumps ``version``. A trainable Variable read inside a
    ``GradientTape(watch_accessed_variables=True)`` is watched automatically.

    Args:
        data: The initial value: a Tensor, array, nested list or scalar (copied).
        dtype: Its dtype (NumPy's rules when None).
        device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``; the default device when None.
        trainable: Whether tapes watch it automatically when it is read, and optimizers
            accept it.
        name: A label for errors, listings and ``state_dict`` keys.

    Raises:
        TypeError: ``data`` cannot be a Tensor (strings, objects).
        ValueError: ``device`` is unknown.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0, 2.0], name="w")
    >>> w.assign_sub([0.5, 0.5]).numpy()
    array([0.5, 1.5])
    """

    __slots__ = ("version", "trainable", "name")

    def __init__(
        self,
        data: Any,
        dtype: Any = None,
        device: str | None = None,
        trainable: bool = True,
        name: str | None = None,
    ) -> None:
        if isinstance(data, Tensor):
            note_escape(data, "tg.Variable()")
        super().__init__(tensor(data, dtype=dtype, device=device)._data)
        self.version = 0
        self.trainable = trainable
        self.name = name

    def _replace(self, new: Any, op: str) -> Variable:
        label = f"Variable {self.name!r}" if self.name else "the Variable"
        if any(t._mode is TRACING for t in _active.get()):
            raise NotImplementedError(
                f"{op}: {label} cannot be assigned inside a function "
                "compiled with tg.compile: the replay would not repeat the assignment; "
                "assign outside the compiled function"
            )
        if tuple(new.shape) != self.shape or new.dtype != self.dtype:
            raise ValueError(
                f"{op}: {label} is {self.shape} {self.dtype}, got {tuple(new.shape)} {new.dtype}"
            )
        self._data = new
        self.version += 1
        return self

    def assign(self, value: Any) -> Variable:
        """Replace the value (same shape and dtype); returns the Variable."""
        return self._store(self._here(value), "assign")

    def assign_add(self, delta: Any) -> Variable:
        """``self = self + delta``, outside of any tape (cast to the Variable's dtype)."""
        return self._combine(delta, operator.add, "assign_add")

    def assign_sub(self, delta: Any) -> Variable:
        """``self = self - delta``, outside of any tape (cast to the Variable's dtype)."""
        return self._combine(delta, operator.sub, "assign_sub")

    # ``v += x``, ``v -= x``, ``v *= x``, ``v /= x`` update the Variable in place, as its
    # assign_* methods do (PyTorch's and TensorFlow's users write these): ``v`` stays the
    # same Variable, its version goes up, and a tape that saved the old value refuses to
    # differentiate through it. (On a Tensor, which is immutable, ``t -= x`` makes a new
    # Tensor, as Python does for any type without these methods.)
    def __iadd__(self, delta: Any) -> Variable:
        return self._combine(delta, operator.add, "+=")

    def __isub__(self, delta: Any) -> Variable:
        return self._combine(delta, operator.sub, "-=")

    def __imul__(self, factor: Any) -> Variable:
        return self._combine(factor, operator.mul, "*=")

    def __itruediv__(self, divisor: Any) -> Variable:
        return self._combine(divisor, operator.truediv, "/=")

    def _combine(self, delta: Any, combine: Callable[[Any, Any], Any], op: str) -> Variable:
        delta = self._here(delta)
        try:
            new = combine(self._data, delta)
        except ValueError:  # no broadcast: report the mismatch as _replace words it
            new = delta
        return self._store(new, op)

    def _store(self, value: Any, op: str) -> Variable:
        """Cast ``value`` to this Variable's dtype within its kind and store a copy of it."""
        xp = backend.namespace(self._data)
        given = xp.asarray(value)
        if _kind(given.dtype) > _kind(self.dtype):  # the cast would drop fractions or imaginaries
            return self._replace(given, op)  # raises, naming both dtypes
        return self._replace(xp.asarray(given, dtype=self.dtype, copy=True), op)

    def _here(self, value: Any) -> Any:
        """``value`` on this Variable's device; Python scalars stay scalars (NumPy's weak
        scalar rule keeps a float32 Variable float32)."""
        value = _raw(value)
        if isinstance(value, (int, float, bool, complex)):
            return value
        return backend.move(value, backend.placement_of(self._data))

    def __repr__(self) -> str:
        label = f"{self.name!r}, " if self.name else ""
        return f"Variable({label}{Tensor.__repr__(self)})"


def _kind(dtype: Any) -> int:
    """0 bool, 1 integer, 2 real floating, 3 complex: a cast down this order loses values."""
    name = str(dtype)
    return 3 if "complex" in name else 2 if "float" in name else 1 if "int" in name else 0


def _read_only(array: Any) -> Any:
    """``array``, made read-only if it is a NumPy array: a tape may have saved it, and a
    write into it would silently change a gradient. (CuPy arrays have no such flag.)"""
    if type(array) is np.ndarray:
        array.setflags(write=False)
    return array


def _raw(value: Any) -> Any:
    return value._data if isinstance(value, Tensor) else value


def tensor(data: Any, dtype: Any = None, device: str | None = None) -> Tensor:
    """A new Tensor holding a copy of ``data`` (NumPy's dtype rules apply).

    ``device`` is ``"cpu"`` (the default device when None), ``"gpu"`` or ``"gpu:N"``.

    Args:
        data: A Tensor, array, nested list or Python scalar.
        dtype: The result's dtype; NumPy's choice when None.
        device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``; the default device when None.

    Returns:
        A new Tensor (not watched by any tape).

    Raises:
        TypeError: ``data`` holds strings or other objects NumPy would keep as objects.
        ValueError: ``data`` is ragged, or ``device`` is unknown.
        RuntimeError: A GPU device was asked for and CuPy is not installed.

    >>> import tapegrad as tg
    >>> tg.tensor([1, 2]).dtype, tg.tensor(1.5).dtype
    (dtype('int64'), dtype('float64'))
    """
    if isinstance(data, Tensor):
        note_escape(data, "tg.tensor()")
        data = data._data
    return Tensor(devices.make_array(data, dtype, device))


# --- reads and escapes: how the active tapes see a Tensor ---------------------------------


def _reads(tape: Any, x: Tensor) -> bool:
    """Whether an op reading ``x`` is recorded on ``tape``: watched, or an accessed Variable."""
    if x._id in tape._watched:
        return True
    if not tape.watch_accessed_variables or type(x) is not Variable or not x.trainable:
        return False
    dtype = x._data.dtype
    return dtype.kind in "fc" if isinstance(dtype, np.dtype) else backend.is_floating(dtype)


def note_escape(t: Tensor, how: str) -> None:
    """Remember (and warn once per call site) that a watched value left a recording tape.

    ``tape.gradient(..., unconnected_gradients="raise")`` later gives this as the
    reason a source has no gradient. SciPy's functions written in Python convert their
    inputs this way: there it is a TypeError (see :func:`_refuse_scipy`).
    """
    site, recorded, through = None, False, None
    for tape in _active.get():
        if tape._mode is TRACING:
            tape._guard(t, how)  # a tg.compile Trace
        elif tape._mode is RECORDING and _reads(tape, t):
            if not recorded:
                _refuse_scipy(t)
                site, through = user_site()
                recorded = True
            tape._escapes.setdefault(t._id, f"{how} at {format_site(site)}")
    if site is None:
        return
    message = (
        f"a watched Tensor of shape {t.shape} left the tape through {how} at "
        f"{format_site(site)} inside a recording GradientTape: values computed from the "
        "result carry no gradient"
    )
    if through not in (None, "numpy"):
        message += (
            f" ({through} converted it to a NumPy array: give {through} the values with "
            "t.numpy(), or keep the computation in tapegrad)"
        )
    elif through == "numpy":
        message += (
            " (a NumPy function made an array of a list holding it: pass a Tensor, e.g. "
            "tnp.array([...]) of the list, or call the function through tapegrad.numpy with "
            "a Tensor argument)"
        )
    elif how.startswith("np."):
        message += " (tapegrad.numpy's array and asarray keep it, for Tensors inside lists too)"
    if anomaly_mode():
        raise RuntimeError(message + "; tg.detect_anomaly() makes this an error")
    warn_once(site, message)


def host_value(x: Any, how: str) -> Any:
    """``x``'s value as a host NumPy array, read to decide a layout that carries no gradient
    (sort orders, masks, unique's indices). Unlike :func:`note_escape` it does not warn: the
    gradient still flows through the ops built from the decision. tg.compile's traces
    guard the value, so a replay with other values traces again."""
    if not isinstance(x, Tensor):
        return np.asarray(backend.to_host(x)) if hasattr(x, "shape") else np.asarray(x)
    for tape in _active.get():
        if tape._mode is TRACING:
            tape._guard(x, how)  # a tg.compile Trace
    return backend.to_host(x.data)


def _refuse_scipy(t: Tensor) -> None:
    """TypeError when SciPy converts a watched Tensor: the result would silently carry
    no gradient, and the conversion happens inside SciPy, where the once-per-site
    warning would name SciPy's line (shared by many of its functions), not the user's."""
    function = scipy_caller()
    if function is None:
        return
    replacement = differentiable_scipy(function)
    hint = (
        f"use {replacement}, which records"
        if replacement is not None
        else "tapegrad.scipy has no differentiable version of it"
    )
    raise TypeError(
        f"{function} converts the watched Tensor of shape {t.shape} to a NumPy array, "
        f"so its result would carry no gradient: {hint} (or pass t.numpy() to compute "
        "without a gradient)"
    )


def _no_scipy_layer(function: str) -> str | None:
    return None


# ``differentiable_scipy("scipy.special.gammaln")``: tapegrad.scipy's function of that name,
# or None. Set by the package root (tapegrad/__init__.py) to look in tapegrad.scipy, which
# the engine cannot import.
differentiable_scipy: Callable[[str], str | None] = _no_scipy_layer
