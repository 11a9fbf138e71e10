"""Recurrent layers: RNN, LSTM, GRU, with PyTorch's equations, gate order, parameter names
and return values, in tapegrad's weight layout (``x @ weight``: PyTorch's weights
transposed).

For layer ``k`` (``_reverse`` for the backward direction of a bidirectional layer):
``weight_ih_l{k}`` ``(input, gates * hidden)``, ``weight_hh_l{k}`` ``(hidden, gates * hidden)``,
``bias_ih_l{k}`` and ``bias_hh_l{k}`` ``(gates * hidden,)``, all drawn from
U(-1/sqrt(hidden), 1/sqrt(hidden)). The gates are, in PyTorch's order::

    RNN   h' = tanh(x W_ih + b_ih + h W_hh + b_hh)                    (or relu)
    LSTM  i, f, g, o = x W_ih + b_ih + h W_hh + b_hh  (split in four)
          c' = sigmoid(f) c + sigmoid(i) tanh(g);  h' = sigmoid(o) tanh(c')
    GRU   r, z, n from x W_ih + b_ih and h W_hh + b_hh (split in three)
          r = sigmoid(x_r + h_r);  z = sigmoid(x_z + h_z);  n = tanh(x_n + r h_n)
          h' = (1 - z) n + z h

Each step is a handful of ops on the tape; the input projection ``x W_ih`` is one matrix
product for every time step at once.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops, random
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.nn import init
from tapegrad.nn.layers import dropout
from tapegrad.nn.module import Module

ArrayLike = Any


class _RecurrentBase(Module):
    """Parameters, shapes and the loop over layers, directions and time steps."""

    gates = 1

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        name = type(self).__name__
        for label, value in (("input_size", input_size), ("hidden_size", hidden_size),
                             ("num_layers", num_layers)):  # fmt: skip
            if not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"{name}: {label} must be a positive int, got {value!r}")
        if not 0.0 <= dropout <= 1.0:
            raise ValueError(f"{name}: dropout must be in [0, 1], got {dropout}")
        self.input_size = int(input_size)
        self.hidden_size = int(hidden_size)
        self.num_layers = int(num_layers)
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.generator = generator
        bound = 1.0 / math.sqrt(hidden_size)
        width = self.gates * hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            layer_input = input_size if layer == 0 else hidden_size * directions
            for suffix in self._suffixes(layer):
                shapes: dict[str, tuple[int, ...]] = {
                    "weight_ih": (layer_input, width),
                    "weight_hh": (hidden_size, width),
                }
                if bias:
                    shapes.update(bias_ih=(width,), bias_hh=(width,))
                for kind, shape in shapes.items():
                    weight = init.uniform(shape, bound, dtype, device, generator)
                    setattr(self, kind + suffix, Variable(weight))

    def _suffixes(self, layer: int) -> list[str]:
        return [f"_l{layer}"] + ([f"_l{layer}_reverse"] if self.bidirectional else [])

    def _weights(self, suffix: str) -> tuple[Any, Any, Any, Any]:
        get = vars(self).get
        return (get("weight_ih" + suffix), get("weight_hh" + suffix),
                get("bias_ih" + suffix), get("bias_hh" + suffix))  # fmt: skip

    # --- the step of each kind, on one time step of the projected input -----------
    def _cell(
        self, projected: Tensor, state: tuple[Any, ...], weights: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        raise NotImplementedError

    def _project(self, x: Tensor, weights: tuple[Any, ...]) -> Tensor:
        """``x @ W_ih`` plus the biases that add outside any gate product."""
        w_ih, _, b_ih, b_hh = weights
        out = ops.matmul(x, w_ih)
        if b_ih is not None:
            out = out + b_ih
        if b_hh is not None and self.gates != 3:  # GRU's b_hn sits inside r * (...)
            out = out + b_hh
        return out

    # --- forward ------------------------------------------------------------------
    def _run(self, x: ArrayLike, hx: Any, cells: int) -> tuple[Tensor, list[Tensor]]:
        """The output and the final states ``(h_n[, c_n])``, each ``(D * layers, N, H)``."""
        name = type(self).__name__
        x = x if isinstance(x, Tensor) else ops.asarray(x)
        if x.ndim not in (2, 3) or x.shape[-1] != self.input_size:
            raise ValueError(
                f"{name}: expected input of shape (L, N, {self.input_size})"
                + (f" (N, L, {self.input_size}) with batch_first" if self.batch_first else "")
                + f" or (L, {self.input_size}) unbatched, got {x.shape}"
            )
        batched = x.ndim == 3
        if not batched:
            x = ops.expand_dims(x, 1)
        elif self.batch_first:
            x = ops.swapaxes(x, 0, 1)
        length, n, _ = x.shape
        directions = 2 if self.bidirectional else 1
        initial = self._initial_states(hx, cells, n, directions, batched, x)
        finals: list[list[Tensor]] = [[] for _ in range(cells)]
        layer_input = x
        for layer in range(self.num_layers):
            if layer and self.dropout:
                layer_input = dropout(layer_input, self.dropout, self.training, self.generator)
            outputs = []
            for d, suffix in enumerate(self._suffixes(layer)):
                weights = self._weights(suffix)
                projected = self._project(layer_input, weights)
                state = tuple(s[layer * directions + d] for s in initial)
                steps = range(length - 1, -1, -1) if d else range(length)
                hs: list[Tensor] = [None] * length  # type: ignore[list-item]
                for t in steps:
                    state = self._cell(projected[t], state, weights)
                    hs[t] = state[0]
                outputs.append(ops.stack(hs))
                for k in range(cells):
                    finals[k].append(state[k])
            layer_input = outputs[0] if directions == 1 else ops.concatenate(outputs, axis=2)
        output = layer_input
        states = [ops.stack(f) for f in finals]
        if not batched:
            return ops.squeeze(output, 1), [ops.squeeze(s, 1) for s in states]
        if self.batch_first:
            output = ops.swapaxes(output, 0, 1)
        return output, states

    def _initial_states(
        self, hx: Any, cells: int, n: int, directions: int, batched: bool, x: Tensor
    ) -> list[Any]:
        shape = (self.num_layers * directions, n, self.hidden_size)
        if hx is None:
            zeros = ops.zeros(shape, dtype=x.dtype, like=x)
            return [zeros] * cells
        given = list(hx) if cells == 2 else [hx]
        if cells == 2 and len(given) != 2:
            raise ValueError(f"{type(self).__name__}: hx must be a pair (h_0, c_0)")
        states = []
        for label, h in zip(("h_0", "c_0"), given):
            h = h if isinstance(h, Tensor) else ops.asarray(h)
            expected = shape if batched else (shape[0], shape[2])
            if h.shape != expected:
                raise ValueError(
                    f"{type(self).__name__}: {label} of shape {h.shape}, expected {expected} "
                    "(num_layers * num_directions, batch, hidden_size)"
                )
            states.append(h if batched else ops.expand_dims(h, 1))
        return states

    def extra_repr(self) -> str:
        extras = [f"{self.input_size}, {self.hidden_size}"]
        if self.num_layers != 1:
            extras.append(f"num_layers={self.num_layers}")
        for flag, default in (("bias", True), ("batch_first", False), ("dropout", 0.0),
                              ("bidirectional", False)):  # fmt: skip
            if getattr(self, flag) != default:
                extras.append(f"{flag}={getattr(self, flag)}")
        return ", ".join(extras)


def _hidden_product(h: Tensor, w_hh: Any, b_hh: Any) -> Tensor:
    out = ops.matmul(h, w_hh)
    return out if b_hh is None else out + b_hh


class RNN(_RecurrentBase):
    """Elman RNN: ``h' = tanh(x W_ih + b_ih + h W_hh + b_hh)`` (``nonlinearity="relu"``: relu).

    ``rnn(x, h_0=None)`` returns ``(output, h_n)``: ``output`` ``(L, N, D * hidden)`` (``(N, L,
    ...)`` with ``batch_first``), ``h_n`` ``(D * num_layers, N, hidden)``.

    Args:
        input_size: The size of the input's last axis.
        hidden_size: The size of the hidden state.
        num_layers: Stacked recurrent layers.
        nonlinearity: ``"tanh"`` or ``"relu"``.
        **options: ``bias``, ``batch_first``, ``dropout``, ``bidirectional``, ``dtype``,
            ``device`` and ``generator``, as for :class:`LSTM`.

    Raises:
        ValueError: A size is not a positive int or ``dropout`` is outside ``[0, 1]``; when
            called, the input or the initial state has the wrong shape.

    >>> import tapegrad as tg
    >>> rnn = tg.nn.RNN(4, 8, num_layers=2, batch_first=True)
    >>> output, h_n = rnn(tg.ones((3, 5, 4), dtype="float32"))
    >>> output.shape, h_n.shape
    ((3, 5, 8), (2, 3, 8))
    """

    gates = 1

    def __init__(
        self, input_size: int, hidden_size: int, num_layers: int = 1,
        nonlinearity: str = "tanh", **options: Any,
    ) -> None:  # fmt: skip
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"RNN: nonlinearity must be 'tanh' or 'relu', got {nonlinearity!r}")
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, num_layers, **options)

    def _cell(
        self, projected: Tensor, state: tuple[Any, ...], weights: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        _, w_hh, _, _ = weights
        pre = projected + ops.matmul(state[0], w_hh)
        return (ops.tanh(pre) if self.nonlinearity == "tanh" else ops.relu(pre),)

    def forward(self, x: ArrayLike, hx: ArrayLike | None = None) -> tuple[Tensor, Tensor]:
        """``(output, h_n)`` for the sequence ``x`` from ``hx`` (zeros when None)."""
        output, (h_n,) = self._run(x, hx, 1)
        return output, h_n

    def extra_repr(self) -> str:
        extra = super().extra_repr()
        return extra + (", nonlinearity='relu'" if self.nonlinearity == "relu" else "")


class LSTM(_RecurrentBase):
    """Long short-term memory, gates ``i, f, g, o`` in PyTorch's order (see the module text).

    ``lstm(x, (h_0, c_0)=None)`` returns ``(output, (h_n, c_n))``.

    Args:
        input_size: The size of the input's last axis.
        hidden_size: The size of the hidden state.
        num_layers: Stacked recurrent layers.
        bias: Whether to add the biases ``b_ih`` and ``b_hh``.
        batch_first: Whether input and output are ``(N, L, ...)`` instead of ``(L, N, ...)``.
        dropout: Dropout on the outputs of each layer but the last (in training mode).
        bidirectional: Whether to add a layer running backwards in time.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is not a positive int or ``dropout`` is outside ``[0, 1]``; when
            called, the input or the initial state has the wrong shape.

    >>> import tapegrad as tg
    >>> lstm = tg.nn.LSTM(8, 16, bidirectional=True)
    >>> output, (h_n, c_n) = lstm(tg.ones((7, 2, 8), dtype="float32"))
    >>> output.shape, h_n.shape, lstm.weight_hh_l0_reverse.shape
    ((7, 2, 32), (2, 2, 16), (16, 64))
    """

    gates = 4

    def _cell(
        self, projected: Tensor, state: tuple[Any, ...], weights: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        h, c = state
        hidden = self.hidden_size
        pre = projected + ops.matmul(h, weights[1])
        # One sigmoid over all four gates; g's slice of it is unused.
        squashed = ops.sigmoid(pre)
        i, f = squashed[:, :hidden], squashed[:, hidden : 2 * hidden]
        o = squashed[:, 3 * hidden :]
        g = ops.tanh(pre[:, 2 * hidden : 3 * hidden])
        c = f * c + i * g
        return o * ops.tanh(c), c

    def forward(
        self, x: ArrayLike, hx: tuple[ArrayLike, ArrayLike] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]:
        """``(output, (h_n, c_n))`` for the sequence ``x`` from ``hx = (h_0, c_0)`` (zeros
        when None)."""
        output, (h_n, c_n) = self._run(x, hx, 2)
        return output, (h_n, c_n)


class GRU(_RecurrentBase):
    """Gated recurrent unit, gates ``r, z, n`` in PyTorch's order (see the module text).

    ``gru(x, h_0=None)`` returns ``(output, h_n)``.

    Args:
        input_size: The size of the input's last axis.
        hidden_size: The size of the hidden state.
        num_layers: Stacked recurrent layers.
        bias: Whether to add the biases ``b_ih`` and ``b_hh``.
        batch_first: Whether input and output are ``(N, L, ...)`` instead of ``(L, N, ...)``.
        dropout: Dropout on the outputs of each layer but the last (in training mode).
        bidirectional: Whether to add a layer running backwards in time.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is not a positive int or ``dropout`` is outside ``[0, 1]``; when
            called, the input or the initial state has the wrong shape.

    >>> import tapegrad as tg
    >>> gru = tg.nn.GRU(3, 5)
    >>> [name for name, _ in gru.named_variables()]
    ['weight_ih_l0', 'weight_hh_l0', 'bias_ih_l0', 'bias_hh_l0']
    """

    gates = 3

    def _cell(
        self, projected: Tensor, state: tuple[Any, ...], weights: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        (h,) = state
        hidden = self.hidden_size
        recurrent = _hidden_product(h, weights[1], weights[3])
        rz = ops.sigmoid(projected[:, : 2 * hidden] + recurrent[:, : 2 * hidden])
        r, z = rz[:, :hidden], rz[:, hidden:]
        n = ops.tanh(projected[:, 2 * hidden :] + r * recurrent[:, 2 * hidden :])
        return ((1.0 - z) * n + z * h,)

    def forward(self, x: ArrayLike, hx: ArrayLike | None = None) -> tuple[Tensor, Tensor]:
        """``(output, h_n)`` for the sequence ``x`` from ``hx`` (zeros when None)."""
        output, (h_n,) = self._run(x, hx, 1)
        return output, h_n
