"""Attention: scaled_dot_product_attention and MultiheadAttention (PyTorch's maths, masks,
parameter names and return values; weights stored ``(in, out)``).

``softmax(q k^T * scale + mask) v``, where a boolean mask of scaled_dot_product_attention
says which keys each query may attend to (True: attend), and a float mask is added.
MultiheadAttention's masks follow ``torch.nn.MultiheadAttention`` instead: a boolean
``attn_mask`` or ``key_padding_mask`` marks what may *not* be attended to (True: ignore).
A query that may attend to nothing gets NaN, as in PyTorch.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops, random
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.nn import init
from tapegrad.nn.layers import Linear, dropout
from tapegrad.nn.module import Module
from tapegrad.ops.primitive import raw, shape_of

ArrayLike = Any


def _is_boolean(mask: Any) -> bool:
    data = raw(mask)
    dtype = data.dtype if hasattr(data, "dtype") else np.asarray(data).dtype
    return backend.dtype_name(dtype) == "bool"


def _causal(length: int, source: int) -> np.ndarray:
    """``(L, S)``: True where query i may attend to key j (j <= i)."""
    return np.tril(np.ones((length, source), dtype=bool))


def _attend(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    allowed: Any,
    additive: Any,
    scale: float,
    dropout_p: float,
    generator: random.Generator | None,
) -> tuple[Tensor, Tensor]:
    """The output and the attention weights: ``softmax(q k^T scale [masked]) v``."""
    scores = ops.matmul(query, ops.swapaxes(key, -1, -2)) * scale
    if additive is not None:
        scores = scores + additive
    if allowed is not None:
        if not isinstance(allowed, Tensor):
            allowed = ops.asarray(allowed, like=scores)
        scores = ops.where(allowed, scores, -math.inf)
    weights = ops.softmax(scores, axis=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True, generator)
    return ops.matmul(weights, value), weights


def scaled_dot_product_attention(
    query: ArrayLike,
    key: ArrayLike,
    value: ArrayLike,
    attn_mask: ArrayLike | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
) -> Tensor:
    """``softmax(query @ key^T * scale + mask) @ value`` over ``(..., L, E)``, ``(..., S, E)``,
    ``(..., S, Ev)``, giving ``(..., L, Ev)``; ``scale`` defaults to ``1/sqrt(E)``.

    ``attn_mask`` broadcasts to ``(..., L, S)``: boolean (True: may attend) or float
    (added to the scores). ``is_causal`` lets query i attend to keys ``j <= i`` only.
    ``dropout_p`` drops attention weights (always: pass 0 in evaluation).

    Args:
        query: ``(..., L, E)``.
        key: ``(..., S, E)``.
        value: ``(..., S, Ev)``.
        attn_mask: A boolean or float mask broadcasting to ``(..., L, S)``, or None.
        dropout_p: The probability of dropping an attention weight, in ``[0, 1)``.
        is_causal: Whether query ``i`` may attend to keys ``j <= i`` only.
        scale: The scores' factor; ``1/sqrt(E)`` when None.

    Returns:
        ``(..., L, Ev)``.

    Raises:
        ValueError: The shapes do not fit, or ``dropout_p`` is outside ``[0, 1)``.

    >>> import tapegrad as tg
    >>> q = k = v = tg.tensor([[[1.0, 0.0], [0.0, 1.0]]])
    >>> tg.nn.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()[0, 0]
    array([1., 0.])
    """
    q_shape, k_shape, v_shape = shape_of(query), shape_of(key), shape_of(value)
    if (
        len(q_shape) < 2 or len(k_shape) < 2 or len(v_shape) < 2
        or q_shape[-1] != k_shape[-1] or k_shape[-2] != v_shape[-2]
    ):  # fmt: skip
        raise ValueError(
            f"scaled_dot_product_attention: query {q_shape}, key {k_shape} and value "
            f"{v_shape} do not fit (..., L, E), (..., S, E), (..., S, Ev)"
        )
    if not 0.0 <= dropout_p < 1.0:
        raise ValueError(
            f"scaled_dot_product_attention: dropout_p must be in [0, 1), got {dropout_p}"
        )
    length, source = q_shape[-2], k_shape[-2]
    allowed: Any = None  # True where a query may attend to a key
    additive = None
    if is_causal:
        if attn_mask is not None:
            raise ValueError("scaled_dot_product_attention: pass attn_mask or is_causal, not both")
        allowed = _causal(length, source)
    elif attn_mask is not None:
        _check_broadcast(attn_mask, (length, source), "scaled_dot_product_attention", "attn_mask")
        if _is_boolean(attn_mask):  # a Tensor stays one: a tg.compile replay reads it
            allowed = attn_mask if isinstance(attn_mask, Tensor) else raw(attn_mask)
        else:
            additive = attn_mask
    query = query if isinstance(query, Tensor) else ops.asarray(query)
    if additive is not None and not isinstance(additive, Tensor):
        additive = ops.asarray(additive, dtype=query.dtype, like=query)
    scale = 1.0 / math.sqrt(q_shape[-1]) if scale is None else float(scale)
    out, _ = _attend(query, key, value, allowed, additive, scale, dropout_p, None)
    return out


def _check_broadcast(mask: Any, tail: tuple[int, int], op: str, name: str) -> None:
    shape = shape_of(mask)
    if len(shape) < 2 or any(m not in (1, t) for m, t in zip(shape[-2:], tail)):
        raise ValueError(
            f"{op}: {name} of shape {shape} does not broadcast to (..., {tail[0]}, {tail[1]})"
        )


class MultiheadAttention(Module):
    """Multi-head attention (``torch.nn.MultiheadAttention``): ``num_heads`` heads of
    ``embed_dim // num_heads`` each, then an output projection.

    Parameters: ``in_proj_weight`` ``(embed_dim, 3 * embed_dim)`` (query, key, value
    columns; Xavier-uniform), or ``q_proj_weight``/``k_proj_weight``/``v_proj_weight`` when
    ``kdim``/``vdim`` differ from ``embed_dim``; ``in_proj_bias`` (zeros); ``out_proj``, a
    Linear whose bias starts at zero. ``mha(query, key, value, key_padding_mask=None,
    need_weights=True, attn_mask=None, average_attn_weights=True, is_causal=False)``
    returns ``(output, weights)``: output ``(L, N, E)`` (``(N, L, E)`` with ``batch_first``),
    weights ``(N, L, S)`` averaged over heads (``(N, heads, L, S)`` if not), or None
    without ``need_weights``. ``is_causal`` without ``attn_mask`` applies the causal mask.

    Args:
        embed_dim: The size of the query's last axis and of the output's.
        num_heads: The number of heads; it must divide ``embed_dim``.
        dropout: Dropout on the attention weights (in training mode).
        bias: Whether the projections have biases.
        add_bias_kv: Whether to append a learnable bias to the keys and values.
        add_zero_attn: Whether to append a zero key and value.
        kdim: The keys' size; ``embed_dim`` when None.
        vdim: The values' size; ``embed_dim`` when None.
        batch_first: Whether inputs and outputs are ``(N, L, E)`` instead of ``(L, N, E)``.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: ``num_heads`` does not divide ``embed_dim``; when called, the inputs'
            shapes or masks do not fit.

    >>> import tapegrad as tg
    >>> mha = tg.nn.MultiheadAttention(8, 2, batch_first=True)
    >>> x = tg.ones((3, 5, 8), dtype="float32")
    >>> out, weights = mha(x, x, x)
    >>> out.shape, weights.shape
    ((3, 5, 8), (3, 5, 5))
    """

    # Either the packed projection or the three separate ones (kdim or vdim given).
    in_proj_weight: Variable
    q_proj_weight: Variable
    k_proj_weight: Variable
    v_proj_weight: Variable

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        if num_heads < 1 or embed_dim % num_heads:
            raise ValueError(
                f"MultiheadAttention: embed_dim {embed_dim} must be divisible by num_heads "
                f"{num_heads}"
            )
        if add_bias_kv or add_zero_attn:
            raise NotImplementedError("MultiheadAttention: add_bias_kv and add_zero_attn")
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.kdim = embed_dim if kdim is None else kdim
        self.vdim = embed_dim if vdim is None else vdim
        self.dropout, self.batch_first, self.generator = float(dropout), batch_first, generator
        options = {"dtype": dtype, "device": device, "generator": generator}
        if self.kdim == embed_dim and self.vdim == embed_dim:
            self.in_proj_weight = Variable(
                init.xavier_uniform((embed_dim, 3 * embed_dim), embed_dim, 3 * embed_dim, **options)
            )
        else:
            for name, fan_in in (("q", embed_dim), ("k", self.kdim), ("v", self.vdim)):
                weight = init.xavier_uniform((fan_in, embed_dim), fan_in, embed_dim, **options)
                setattr(self, f"{name}_proj_weight", Variable(weight))
        self.in_proj_bias = None
        if bias:
            self.in_proj_bias = Variable(ops.zeros((3 * embed_dim,), dtype=dtype, device=device))
        self.out_proj = Linear(embed_dim, embed_dim, bias=bias, **options)
        if bias:
            assert self.out_proj.bias is not None
            self.out_proj.bias.assign(np.zeros(embed_dim))

    def _projections(self) -> list[tuple[Any, Any]]:
        e = self.embed_dim
        if "in_proj_weight" in vars(self):
            w = self.in_proj_weight
            weights = [w[:, :e], w[:, e : 2 * e], w[:, 2 * e :]]
        else:
            weights = [self.q_proj_weight, self.k_proj_weight, self.v_proj_weight]
        b = self.in_proj_bias
        biases = [None] * 3 if b is None else [b[:e], b[e : 2 * e], b[2 * e :]]
        return list(zip(weights, biases))

    def forward(
        self,
        query: ArrayLike,
        key: ArrayLike,
        value: ArrayLike,
        key_padding_mask: ArrayLike | None = None,
        need_weights: bool = True,
        attn_mask: ArrayLike | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]:
        """``(output, weights)`` for ``query``, ``key`` and ``value`` (see the class text)."""
        inputs = [x if isinstance(x, Tensor) else ops.asarray(x) for x in (query, key, value)]
        batched = inputs[0].ndim == 3
        expected = [self.embed_dim, self.kdim, self.vdim]
        for label, x, dim in zip(("query", "key", "value"), inputs, expected):
            if x.ndim != (3 if batched else 2) or x.shape[-1] != dim:
                layout = "(N, L, E)" if self.batch_first else "(L, N, E)"
                raise ValueError(
                    f"MultiheadAttention: {label} of shape {x.shape}, expected {layout} or "
                    f"unbatched (L, E) with E = {dim}"
                )
        if not batched:
            inputs = [ops.expand_dims(x, 0) for x in inputs]
        elif not self.batch_first:
            inputs = [ops.swapaxes(x, 0, 1) for x in inputs]
        n, length, _ = inputs[0].shape
        source = inputs[1].shape[1]
        if inputs[2].shape[:2] != (n, source):
            raise ValueError(
                f"MultiheadAttention: key {shape_of(key)} and value {shape_of(value)} differ in "
                "batch or length"
            )
        heads, head_dim = self.num_heads, self.embed_dim // self.num_heads
        q, k, v = (
            ops.swapaxes(ops.reshape(self._project(x, w, b), (n, -1, heads, head_dim)), 1, 2)
            for x, (w, b) in zip(inputs, self._projections())
        )
        additive = self._mask(attn_mask, key_padding_mask, is_causal, n, length, source, q)
        p = self.dropout if self.training else 0.0
        out, weights = _attend(
            q, k, v, None, additive, 1.0 / math.sqrt(head_dim), p, self.generator
        )
        out = ops.reshape(ops.swapaxes(out, 1, 2), (n, length, self.embed_dim))
        out = self.out_proj(out)
        if not batched:
            out = ops.squeeze(out, 0)
        elif not self.batch_first:
            out = ops.swapaxes(out, 0, 1)
        if not need_weights:
            return out, None
        if average_attn_weights:
            weights = ops.mean(weights, axis=1)
        return out, weights if batched else ops.squeeze(weights, 0)

    @staticmethod
    def _project(x: Tensor, weight: Any, bias: Any) -> Tensor:
        out = ops.matmul(x, weight)
        return out if bias is None else out + bias

    def _mask(
        self, attn_mask: Any, padding: Any, is_causal: bool, n: int, length: int, source: int,
        like: Tensor,
    ) -> Tensor | None:  # fmt: skip
        """One additive mask ``(N, heads, L, S)`` (or broadcastable), -inf where masked."""
        total = None
        if attn_mask is None and is_causal:
            attn_mask = ~_causal(length, source)
        if attn_mask is not None:
            shape = shape_of(attn_mask)
            if shape not in ((length, source), (n * self.num_heads, length, source)):
                raise ValueError(
                    f"MultiheadAttention: attn_mask of shape {shape}, expected ({length}, "
                    f"{source}) or ({n * self.num_heads}, {length}, {source})"
                )
            total = _additive(attn_mask, like)
            if len(shape) == 3:
                total = ops.reshape(total, (n, self.num_heads, length, source))
        if padding is not None:
            if shape_of(padding) != (n, source):
                raise ValueError(
                    f"MultiheadAttention: key_padding_mask of shape {shape_of(padding)}, "
                    f"expected ({n}, {source})"
                )
            pad = ops.reshape(_additive(padding, like), (n, 1, 1, source))
            total = pad if total is None else total + pad
        return total

    def extra_repr(self) -> str:
        return (
            f"embed_dim={self.embed_dim}, num_heads={self.num_heads}"
            + (f", dropout={self.dropout}" if self.dropout else "")
            + (", batch_first=True" if self.batch_first else "")
        )


def _additive(mask: Any, like: Tensor) -> Tensor:
    """A PyTorch MultiheadAttention mask as scores to add: -inf where a boolean is True."""
    if _is_boolean(mask):
        if isinstance(mask, Tensor):  # recorded: a tg.compile replay reads the new mask
            return ops.astype(ops.where(mask, -np.inf, 0.0), like.dtype)
        data = raw(mask)
        host = backend.to_host(data) if hasattr(data, "shape") else np.asarray(data)
        return ops.asarray(np.where(host, -np.inf, 0.0), dtype=like.dtype, like=like)
    return mask if isinstance(mask, Tensor) else ops.asarray(mask, dtype=like.dtype, like=like)
