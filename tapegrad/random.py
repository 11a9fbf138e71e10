"""Seeded random Tensors (no gradient): a Generator wrapping ``numpy.random.Generator``.

Numbers are drawn on the host and then placed on ``device`` (the default device
when None) or next to ``like``, so one seed gives the same values everywhere.
The module-level :func:`normal` and :func:`uniform` draw from a default
Generator that :func:`seed` resets; a :class:`Generator` of your own keeps a
stream apart from it (for data shuffling, dropout masks, initial weights).

>>> import tapegrad as tg
>>> tg.random.seed(1); a = tg.random.normal((3,))
>>> tg.random.seed(1); b = tg.random.normal((3,))
>>> bool((a == b).numpy().all())
True
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from tapegrad import ops, peers
from tapegrad.backends import devices
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw

Shape = int | tuple[int, ...]


def _shape(shape: Shape) -> tuple[int, ...]:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)


def _shape_or_size(kind: str, shape: Shape | None, size: Shape | None, default: Any) -> Any:
    """``shape``, or NumPy's name for it, ``size`` (``default`` when neither is given)."""
    if shape is not None and size is not None:
        raise TypeError(
            f"tapegrad.random.{kind}: got shape={shape!r} and size={size!r}; they are one "
            "argument (size is NumPy's name for shape): pass one of them"
        )
    chosen = size if shape is None else shape
    if chosen is None:
        if default is None:
            raise TypeError(f"tapegrad.random.{kind}: missing the shape: pass shape= or size=")
        chosen = default
    return _shape(chosen)


def _float_name(dtype: Any, kind: str) -> str:
    name = getattr(dtype, "name", None) or str(dtype).rsplit(".", 1)[-1]
    if isinstance(dtype, type) and issubclass(dtype, np.generic):
        name = np.dtype(dtype).name
    if name not in ("float32", "float64"):
        raise TypeError(f"tapegrad.random.{kind}: dtype must be float32 or float64, got {dtype}")
    return name


class Generator:
    """A stream of random Tensors, reproducible from ``seed`` (fresh entropy when None).

    Methods take a ``shape`` first (or NumPy's ``size=``); floating samples are float64
    unless ``dtype`` (float32 or float64) or ``like`` says otherwise, and land on ``device`` or
    next to ``like``.

    Args:
        seed: A non-negative int, or None for fresh entropy.

    Raises:
        ValueError: ``seed`` is negative.

    >>> import tapegrad as tg
    >>> g = tg.random.Generator(42)
    >>> g.uniform((2, 3), -1.0, 1.0, dtype="float32").dtype
    dtype('float32')
    >>> g.permutation(4).shape
    (4,)
    """

    def __init__(self, seed: int | None = None) -> None:
        self.numpy_generator = np.random.default_rng(seed)

    def _place(
        self, values: np.ndarray, dtype: Any, device: str | None, like: Any, kind: str
    ) -> Tensor:
        if device is None and like is not None:
            name = _float_name(raw(like).dtype if dtype is None else dtype, kind)
            return ops.asarray(values.astype(name), like=like)
        name = _float_name(np.float64 if dtype is None else dtype, kind)
        return Tensor(devices.make_array(values, np.dtype(name), device))

    def normal(
        self,
        shape: Shape | None = None,
        mean: float = 0.0,
        std: float = 1.0,
        dtype: Any = None,
        device: str | None = None,
        like: Any = None,
        *,
        size: Shape | None = None,
    ) -> Tensor:
        """Samples of N(mean, std**2)."""
        shape = _shape_or_size("normal", shape, size, None)
        values = self.numpy_generator.normal(mean, std, shape)
        return self._place(values, dtype, device, like, "normal")

    def uniform(
        self,
        shape: Shape | None = None,
        low: float = 0.0,
        high: float = 1.0,
        dtype: Any = None,
        device: str | None = None,
        like: Any = None,
        *,
        size: Shape | None = None,
    ) -> Tensor:
        """Samples of the uniform distribution on ``[low, high)``."""
        shape = _shape_or_size("uniform", shape, size, None)
        values = self.numpy_generator.uniform(low, high, shape)
        return self._place(values, dtype, device, like, "uniform")

    def integers(
        self,
        low: int,
        high: int | None = None,
        shape: Shape | None = None,
        device: str | None = None,
        *,
        size: Shape | None = None,
    ) -> Tensor:
        """int64 samples in ``[low, high)`` (``[0, low)`` when ``high`` is None); ``size`` is
        NumPy's name for ``shape`` (a scalar when neither is given)."""
        shape = _shape_or_size("integers", shape, size, ())
        values = self.numpy_generator.integers(low, high, shape, dtype=np.int64)
        return Tensor(devices.make_array(values, None, device))

    def permutation(self, n: int, device: str | None = None) -> Tensor:
        """A random ordering of ``0 .. n-1`` (int64)."""
        return Tensor(devices.make_array(self.numpy_generator.permutation(n), None, device))

    def __repr__(self) -> str:
        return f"Generator({type(self.numpy_generator.bit_generator).__name__})"

    def get_state(self) -> dict[str, Any]:
        """The stream's position (NumPy's bit-generator state: a dict of names and ints)."""
        return copy.deepcopy(dict(self.numpy_generator.bit_generator.state))

    def set_state(self, state: dict[str, Any]) -> None:
        """Continue from a position :meth:`get_state` returned."""
        self.numpy_generator.bit_generator.state = state


_default = Generator()


def seed(value: int | None) -> None:
    """Reset the default Generator to ``value`` (fresh entropy when None).

    Args:
        value: A non-negative int, or None.

    Raises:
        ValueError: ``value`` is negative.

    >>> import tapegrad as tg
    >>> tg.random.seed(0)
    >>> a = tg.random.normal((2,))
    >>> tg.random.seed(0)
    >>> bool(tg.all(tg.random.normal((2,)) == a))
    True
    """
    global _default
    _default = Generator(value)


def get_state() -> dict[str, Any]:
    """The default stream's position, to save with a model that draws from it (Dropout).

    Returns:
        A dict to pass to :func:`set_state`.

    >>> import tapegrad as tg
    >>> tg.random.seed(0)
    >>> state = tg.random.get_state()
    >>> first = tg.random.normal(3).numpy()
    >>> tg.random.set_state(state)
    >>> bool((tg.random.normal(3).numpy() == first).all())
    True
    """
    return _default.get_state()


def set_state(state: dict[str, Any]) -> None:
    """Move the default stream to a position :func:`get_state` returned.

    Args:
        state: A dict :func:`get_state` returned.

    Raises:
        ValueError: ``state`` is not a state of the default generator's kind.

    >>> import tapegrad as tg
    >>> state = tg.random.get_state()
    >>> a = tg.random.uniform((2,))
    >>> tg.random.set_state(state)
    >>> bool(tg.all(tg.random.uniform((2,)) == a))
    True
    """
    _default.set_state(state)


def normal(
    shape: Shape | None = None,
    mean: float = 0.0,
    std: float = 1.0,
    dtype: Any = None,
    device: str | None = None,
    like: Any = None,
    *,
    size: Shape | None = None,
) -> Tensor:
    """N(mean, std**2) samples from the default Generator (see :meth:`Generator.normal`).

    Args:
        shape: The result's shape (an int or a tuple).
        mean: The mean.
        std: The standard deviation, non-negative.
        dtype: ``float32`` or ``float64``; the dtype of ``like``, or float64, when None.
        device: The result's device; that of ``like``, or the default device, when None.
        like: A Tensor or array whose dtype and device the result takes.
        size: NumPy's name for ``shape`` (give one of the two).

    Returns:
        A Tensor of samples (no tape records it).

    Raises:
        TypeError: ``dtype`` is not a floating-point dtype, or both or neither of ``shape``
            and ``size`` are given.
        ValueError: ``std`` is negative.

    >>> import tapegrad as tg
    >>> tg.random.normal((2, 3), dtype="float32").dtype
    dtype('float32')
    """
    return _default.normal(shape, mean, std, dtype, device, like, size=size)


def uniform(
    shape: Shape | None = None,
    low: float = 0.0,
    high: float = 1.0,
    dtype: Any = None,
    device: str | None = None,
    like: Any = None,
    *,
    size: Shape | None = None,
) -> Tensor:
    """Uniform samples on ``[low, high)`` from the default Generator.

    Args:
        shape: The result's shape (an int or a tuple).
        low: The lower bound (included).
        high: The upper bound (excluded), at least ``low``.
        dtype: ``float32`` or ``float64``; the dtype of ``like``, or float64, when None.
        device: The result's device; that of ``like``, or the default device, when None.
        like: A Tensor or array whose dtype and device the result takes.
        size: NumPy's name for ``shape`` (give one of the two).

    Returns:
        A Tensor of samples (no tape records it).

    Raises:
        TypeError: ``dtype`` is not a floating-point dtype, or both or neither of ``shape``
            and ``size`` are given.
        ValueError: ``high`` is below ``low``.

    >>> import tapegrad as tg
    >>> u = tg.random.uniform(1000, -1.0, 1.0).numpy()
    >>> bool((u >= -1).all() and (u < 1).all())
    True
    """
    return _default.uniform(shape, low, high, dtype, device, like, size=size)


def __getattr__(name: str) -> Any:
    # JAX's names (random.PRNGKey): what tapegrad calls them (tapegrad/peers).
    raise peers.missing("tg.random", name, f"module 'tapegrad.random' has no attribute {name!r}")
