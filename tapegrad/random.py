"""Random numbers made on the device that uses them (no gradient).

Each device has its own generator: NumPy's ``default_rng`` for ``"cpu"`` (and
for other host libraries, whose numbers are drawn on the host and converted),
CuPy's ``RandomState`` for each GPU. :func:`seed` reseeds all of them. The same
seed gives the same numbers on NumPy and array_api_strict, but a different
stream on a GPU.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import backend, devices
from tapegrad.ops.primitive import raw
from tapegrad.tensor import Tensor

Shape = int | tuple[int, ...]

_generators: dict[str, Any] = {}
_seed: int | None = None


def seed(value: int | None) -> None:
    """Reseed the generator of every device (None: fresh entropy).

    >>> import tapegrad as tg
    >>> tg.random.seed(0); a = tg.random.normal(3).numpy()
    >>> tg.random.seed(0); b = tg.random.normal(3).numpy()
    >>> bool((a == b).all())
    True
    """
    global _seed
    _seed = value
    _generators.clear()


def _generator(device: str) -> Any:
    gen = _generators.get(device)
    if gen is None:
        if device == "cpu":
            gen = np.random.default_rng(_seed)
        else:
            cp = devices.cupy()
            with cp.cuda.Device(devices.gpu_index(device)):
                gen = cp.random.RandomState(_seed)
        _generators[device] = gen
    return gen


def _draw(kind: str, shape: Shape, dtype: Any, device: str | None, like: Any) -> Tensor:
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    if device is None and like is not None:
        to = backend.placement_of(raw(like))
        if dtype is None:
            dtype = raw(like).dtype
    else:
        to = devices.placement(device)
    name = backend.dtype_name(dtype) if dtype is not None else "float64"
    if name not in ("float32", "float64"):
        raise TypeError(f"tapegrad.random.{kind}: dtype must be float32 or float64, got {name}")
    if not to.name.startswith("gpu:"):
        # The host generator: NumPy's own numbers, or those for another host library.
        gen = _generator("cpu")
        draw = gen.random if kind == "uniform" else gen.standard_normal
        return Tensor(backend.move(np.asarray(draw(shape, dtype=name)), to))
    gen = _generator(to.name)
    draw = gen.random_sample if kind == "uniform" else gen.standard_normal
    with to.device:
        return Tensor(draw(shape, dtype=name))


def normal(
    shape: Shape,
    mean: float = 0.0,
    std: float = 1.0,
    dtype: Any = None,
    device: str | None = None,
    like: Any = None,
) -> Tensor:
    """Normal samples of ``shape`` on ``device`` (else next to ``like``, else the default
    device); float64 unless ``dtype`` or ``like`` says float32.

    >>> import tapegrad as tg
    >>> tg.random.normal((2, 3), dtype="float32").dtype
    dtype('float32')
    """
    z = _draw("normal", shape, dtype, device, like)
    return z if (mean, std) == (0.0, 1.0) else Tensor(z.data * std + mean)


def uniform(
    shape: Shape,
    low: float = 0.0,
    high: float = 1.0,
    dtype: Any = None,
    device: str | None = None,
    like: Any = None,
) -> Tensor:
    """Uniform samples in ``[low, high)``, placed as in :func:`normal`.

    >>> import tapegrad as tg
    >>> u = tg.random.uniform(1000, -1.0, 1.0).numpy()
    >>> bool((u >= -1).all() and (u < 1).all())
    True
    """
    u = _draw("uniform", shape, dtype, device, like)
    return u if (low, high) == (0.0, 1.0) else Tensor(u.data * (high - low) + low)
