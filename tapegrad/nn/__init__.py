"""Layers, losses and the Module container (``tg.nn``).

Layer: built on the engine, the op library, ``tapegrad.random`` and
``tapegrad.transforms`` (checkpointing); ``tapegrad.optim`` is built on it.

>>> import tapegrad as tg
>>> model = tg.nn.Sequential(tg.nn.Linear(2, 4), tg.nn.Tanh(), tg.nn.Linear(4, 1))
>>> x, y = tg.ones((8, 2), dtype="float32"), tg.zeros((8, 1), dtype="float32")
>>> with tg.GradientTape() as tape:
...     loss = tg.nn.mse_loss(model(x), y)
>>> grads = tape.gradient(loss, model.trainable_variables)
>>> [g.shape for g in grads]
[(2, 4), (4,), (4, 1), (1,)]
"""

from typing import Any

from tapegrad import peers
from tapegrad.nn import init
from tapegrad.nn.activations import (
    ELU,
    GELU,
    Identity,
    LeakyReLU,
    LogSoftmax,
    ReLU,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
    elu,
    gelu,
    leaky_relu,
    silu,
    softplus,
)
from tapegrad.nn.attention import MultiheadAttention, scaled_dot_product_attention
from tapegrad.nn.classification import cross_entropy, nll_loss
from tapegrad.nn.containers import ModuleDict, ModuleList, Sequential
from tapegrad.nn.conv import Conv1d, Conv2d, MaxPool2d, conv1d, conv2d, im2col, max_pool2d
from tapegrad.nn.conv_transpose import ConvTranspose2d, conv_transpose2d
from tapegrad.nn.layers import (
    Dropout,
    Embedding,
    Flatten,
    LayerNorm,
    Linear,
    dropout,
    embedding,
    layer_norm,
    linear,
)
from tapegrad.nn.losses import (
    binary_cross_entropy,
    binary_cross_entropy_with_logits,
    huber_loss,
    kl_div,
    l1_loss,
    mse_loss,
    smooth_l1_loss,
)
from tapegrad.nn.module import Module
from tapegrad.nn.normalization import BatchNorm1d, BatchNorm2d, batch_norm
from tapegrad.nn.pooling import AdaptiveAvgPool2d, AvgPool2d, adaptive_avg_pool2d, avg_pool2d
from tapegrad.nn.recurrent import GRU, LSTM, RNN

__all__ = [
    "AdaptiveAvgPool2d", "AvgPool2d", "BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d",
    "ConvTranspose2d", "Dropout", "ELU", "Embedding", "Flatten", "GELU", "GRU", "Identity",
    "LSTM", "LayerNorm", "LeakyReLU", "Linear", "LogSoftmax", "MaxPool2d", "Module",
    "ModuleDict", "ModuleList", "MultiheadAttention", "RNN", "ReLU", "Sequential", "SiLU",
    "Sigmoid", "Softmax", "Softplus", "Tanh", "adaptive_avg_pool2d", "avg_pool2d", "batch_norm",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d", "conv2d",
    "conv_transpose2d", "cross_entropy", "dropout", "elu", "embedding", "gelu", "huber_loss",
    "im2col", "init", "kl_div", "l1_loss", "layer_norm", "leaky_relu", "linear", "max_pool2d",
    "mse_loss", "nll_loss", "scaled_dot_product_attention", "silu", "smooth_l1_loss",
    "softplus",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    # PyTorch's names tapegrad.nn lacks (nn.MSELoss): what tapegrad calls them (tapegrad/peers).
    raise peers.missing("tg.nn", name, f"module 'tapegrad.nn' has no attribute {name!r}")
