"""``tnp.vectorize``: NumPy's ``np.vectorize``, differentiable when it meets Tensors.

``np.vectorize`` makes an array of its arguments' values and calls the Python function on
each element: a watched Tensor's gradient is lost. Given Tensors, ``tnp.vectorize`` calls
the function on each element as a 0-d Tensor (``t[i, j]``, recorded) and stacks the results
(recorded), so the loop differentiates like any Python code on Tensors. Without Tensors it
is NumPy's own ``np.vectorize``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of


class vectorize:  # noqa: N801 - NumPy's name
    """``np.vectorize(pyfunc, otypes, doc, excluded, cache, signature)``, whose calls with
    Tensors record.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> square_plus_one = tnp.vectorize(lambda v: v * v + 1.0)
    >>> tg.grad(lambda x: tnp.sum(square_plus_one(x)))(tg.tensor([1.0, 2.0]))
    tensor([2., 4.], dtype=float64)
    >>> square_plus_one([1.0, 2.0])  # plain values: NumPy's own np.vectorize
    array([2., 5.])
    """

    def __init__(
        self,
        pyfunc: Callable[..., Any],
        otypes: Any = None,
        doc: str | None = None,
        excluded: Any = None,
        cache: bool = False,
        signature: str | None = None,
    ) -> None:
        self.pyfunc = pyfunc
        self.excluded = set(excluded or ())
        self.signature = signature
        self.otypes = otypes
        self._numpy = np.vectorize(pyfunc, otypes, doc, excluded, cache, signature)
        self.__doc__ = doc if doc is not None else pyfunc.__doc__

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        vectorized = [
            (key, value)
            for key, value in [*enumerate(args), *kwargs.items()]
            if key not in self.excluded
        ]
        if not any(isinstance(v, Tensor) or holds_tensor(v) for _, v in vectorized):
            return self._numpy(*args, **kwargs)
        if self.signature is not None:
            raise NotImplementedError(
                f"tnp.vectorize(signature={self.signature!r}) on Tensors is not supported; "
                "loop over the core dimensions with Tensor indexing, or drop signature"
            )
        shape = np.broadcast_shapes(*(shape_of(v) for _, v in vectorized))
        spread = {key: ops.broadcast_to(ops.asarray(v), shape) for key, v in vectorized}
        results = []
        for index in np.ndindex(*shape):
            positional = [spread[k][index] if k in spread else a for k, a in enumerate(args)]
            keywords = {k: spread[k][index] if k in spread else v for k, v in kwargs.items()}
            results.append(self.pyfunc(*positional, **keywords))
        if results and isinstance(results[0], tuple):  # several outputs: one array each
            return tuple(self._assemble(list(out), shape) for out in zip(*results))
        return self._assemble(results, shape)

    def _assemble(self, values: list[Any], shape: tuple[int, ...]) -> Any:
        if not values:
            dtype = np.dtype(self.otypes[0]) if self.otypes else np.float64
            return ops.zeros(shape, dtype=dtype)
        out = ops.reshape(ops.stack([ops.asarray(v) for v in values]), shape)
        if self.otypes:
            out = ops.astype(out, np.dtype(self.otypes[0]))
        return out
