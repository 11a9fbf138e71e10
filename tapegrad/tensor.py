"""Tensor and Variable: plain array wrappers with a serial number and no graph pointers."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from tapegrad import backend
from tapegrad.tensor_methods import ArrayMethods
from tapegrad.wording import a

_serials = itertools.count()


class Tensor(ArrayMethods):
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
    indexing) are ``tg.add``, ``tg.matmul``, ``tg.getitem`` and so on, recorded like them.

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

    @property
    def T(self) -> Tensor:
        """The transpose (axes reversed), as :func:`tapegrad.transpose`."""
        return _ops.transpose(self)

    @property
    def real(self) -> Tensor:
        """The real part, as :func:`tapegrad.real`."""
        return _ops.real(self)

    @property
    def imag(self) -> Tensor:
        """The imaginary part, as :func:`tapegrad.imag`."""
        return _ops.imag(self)

    def __len__(self) -> int:
        if not self._data.shape:
            raise TypeError("len() of a 0-d Tensor")
        return self._data.shape[0]

    def __repr__(self) -> str:
        body = np.array2string(backend.to_host(self._data), separator=", ", prefix="tensor(")
        return f"tensor({body}, dtype={self.dtype})"

    __hash__ = object.__hash__

    # --- leaving the tape -----------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The value as a host NumPy array (a copy for device arrays)."""
        _tape.note_escape(self, "numpy()")
        return _read_only(backend.to_host(self._data))

    def item(self) -> Any:
        """The value of a one-element Tensor as a Python scalar (it leaves the tape)."""
        _tape.note_escape(self, "item()")
        return backend.to_host(self._data).item()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        _tape.note_escape(self, "np.asarray()")
        out = _read_only(backend.to_host(self._data))
        if dtype is not None:
            out = out.astype(dtype, copy=False)
        return np.array(out, copy=True) if copy else out

    def __bool__(self) -> bool:
        _tape.note_escape(self, "bool()")
        return bool(self._data)

    def __float__(self) -> float:
        _tape.note_escape(self, "float()")
        return float(self._data)

    def __int__(self) -> int:
        _tape.note_escape(self, "int()")
        return int(self._data)

    def __index__(self) -> int:
        if backend.is_floating(self.dtype):
            raise TypeError(f"{a(self.dtype)} Tensor cannot be used as an index")
        _tape.note_escape(self, "index()")
        return int(self._data)

    def to(self, device: str) -> Tensor:
        """A copy of this Tensor on ``device`` (``"cpu"``, ``"gpu"``, ``"gpu:N"``)."""
        return _ops.to_device(self, device)

    def astype(self, dtype: Any) -> Tensor:
        """``tg.astype(self, dtype)``."""
        return _ops.astype(self, dtype)

    # --- NumPy protocols -------------------------------------------------------
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        return _numpy_protocol.array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        return _numpy_protocol.array_function(func, args, kwargs)

    # --- operators -----------------------------------------------------------
    # ``x + y``, ``x - y``, ``x * y``, ``x / y``, ``x ** y``, ``x @ y`` and ``-x`` are their
    # primitives' calls themselves, set where each primitive is defined
    # (tapegrad/ops/arithmetic.py, tapegrad/ops/linalg.py): a method that called the
    # primitive would cost a Python frame per op. The reflected forms call the primitive,
    # as the op functions do.
    __add__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __sub__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __mul__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __truediv__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __pow__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __matmul__: ClassVar[Callable[[Tensor, Any], Tensor]]
    __neg__: ClassVar[Callable[[Tensor], Tensor]]

    def __radd__(self, other: Any) -> Tensor:
        return _ops.arithmetic._add._binary(other, self)

    def __rsub__(self, other: Any) -> Tensor:
        return _ops.arithmetic._subtract._binary(other, self)

    def __rmul__(self, other: Any) -> Tensor:
        return _ops.arithmetic._multiply._binary(other, self)

    def __rtruediv__(self, other: Any) -> Tensor:
        return _ops.arithmetic._divide._binary(other, self)

    def __rpow__(self, other: Any) -> Tensor:
        return _ops.arithmetic._power._binary(other, self)

    def __rmatmul__(self, other: Any) -> Tensor:
        return _ops.linalg._matmul._binary(other, self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return _ops.abs(self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ops.equal(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ops.not_equal(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return _ops.less(self, other)

    def __le__(self, other: Any) -> Tensor:
        return _ops.less_equal(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return _ops.greater(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return _ops.greater_equal(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return _ops.getitem(self, index)

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    # --- method forms of the ops -------------------------------------------------
    def sum(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.sum(self, axis, keepdims)``."""
        return _ops.sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.mean(self, axis, keepdims)``."""
        return _ops.mean(self, axis=axis, keepdims=keepdims)

    def prod(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.prod(self, axis, keepdims)``."""
        return _ops.prod(self, axis=axis, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.max(self, axis, keepdims)``."""
        return _ops.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.min(self, axis, keepdims)``."""
        return _ops.min(self, axis=axis, keepdims=keepdims)

    def var(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        """``tg.var(self, axis, ddof, keepdims)``."""
        return _ops.var(self, axis=axis, ddof=ddof, keepdims=keepdims)

    def std(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        """``tg.std(self, axis, ddof, keepdims)``."""
        return _ops.std(self, axis=axis, ddof=ddof, keepdims=keepdims)

    def cumsum(self, axis: int | None = None) -> Tensor:
        """``tg.cumsum(self, axis)``."""
        return _ops.cumsum(self, axis=axis)

    def argmax(self, axis: int | None = None) -> Tensor:
        """``tg.argmax(self, axis)``."""
        return _ops.argmax(self, axis=axis)

    def argmin(self, axis: int | None = None) -> Tensor:
        """``tg.argmin(self, axis)``."""
        return _ops.argmin(self, axis=axis)

    def reshape(self, *shape: Any) -> Tensor:
        """``tg.reshape(self, shape)``; the shape may be given as separate ints."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return _ops.reshape(self, shape)

    def transpose(self, *axes: Any) -> Tensor:
        """``tg.transpose(self, axes)``; the axes may be given as separate ints."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return _ops.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> Tensor:
        """``tg.swapaxes(self, axis1, axis2)``."""
        return _ops.swapaxes(self, axis1, axis2)

    def squeeze(self, axis: Any = None) -> Tensor:
        """``tg.squeeze(self, axis)``."""
        return _ops.squeeze(self, axis)

    def flatten(self) -> Tensor:
        """A 1-d copy, ``tg.reshape(self, (-1,))``."""
        return _ops.reshape(self, (-1,))

    def clip(self, a_min: Any = None, a_max: Any = None) -> Tensor:
        """``tg.clip(self, a_min, a_max)``."""
        return _ops.clip(self, a_min, a_max)

    def dot(self, other: Any) -> Tensor:
        """``tg.dot(self, other)``."""
        return _ops.dot(self, other)

    def take(self, indices: Any, axis: int | None = None) -> Tensor:
        """``tg.take(self, indices, axis)``."""
        return _ops.take(self, indices, axis=axis)

    def repeat(self, repeats: Any, axis: int | None = None) -> Tensor:
        """``tg.repeat(self, repeats, axis)``."""
        return _ops.repeat(self, repeats, axis=axis)

    def exp(self) -> Tensor:
        """``tg.exp(self)``."""
        return _ops.exp(self)

    def log(self) -> Tensor:
        """``tg.log(self)``."""
        return _ops.log(self)

    def sqrt(self) -> Tensor:
        """``tg.sqrt(self)``."""
        return _ops.sqrt(self)

    def tanh(self) -> Tensor:
        """``tg.tanh(self)``."""
        return _ops.tanh(self)

    def sin(self) -> Tensor:
        """``tg.sin(self)``."""
        return _ops.sin(self)

    def cos(self) -> Tensor:
        """``tg.cos(self)``."""
        return _ops.cos(self)

    def sigmoid(self) -> Tensor:
        """``tg.sigmoid(self)``."""
        return _ops.sigmoid(self)

    def relu(self) -> Tensor:
        """``tg.relu(self)``."""
        return _ops.relu(self)

    def square(self) -> Tensor:
        """``tg.square(self)``."""
        return _ops.square(self)

    def conj(self) -> Tensor:
        """The complex conjugate; the Tensor itself when it is real."""
        return _ops.conj(self)

    conjugate = conj


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
            _tape.note_escape(data, "tg.Variable()")
        super().__init__(tensor(data, dtype=dtype, device=device)._data)
        self.version = 0
        self.trainable = trainable
        self.name = name

    def _replace(self, new: Any, op: str) -> Variable:
        label = f"Variable {self.name!r}" if self.name else "the Variable"
        if any(t._mode is _tape.TRACING for t in _tape._active.get()):
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
        _tape.note_escape(data, "tg.tensor()")
        data = data._data
    return Tensor(_devices.make_array(data, dtype, device))


from tapegrad import devices as _devices  # noqa: E402
from tapegrad import numpy_protocol as _numpy_protocol  # noqa: E402
from tapegrad import ops as _ops  # noqa: E402
from tapegrad import tape as _tape  # noqa: E402
