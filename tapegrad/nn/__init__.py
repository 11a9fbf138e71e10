"""Layers, losses and the Module container (``tg.nn``).

>>> import tapegrad as tg
>>> model = tg.nn.Sequential(tg.nn.Linear(2, 4), tg.nn.Tanh(), tg.nn.Linear(4, 1))
>>> x, y = tg.ones((8, 2), dtype="float32"), tg.zeros((8, 1), dtype="float32")
>>> with tg.GradientTape() as tape:
...     loss = tg.nn.mse_loss(model(x), y)
>>> grads = tape.gradient(loss, model.trainable_variables)
>>> [g.shape for g in grads]
[(2, 4), (4,), (4, 1), (1,)]
"""

from tapegrad.nn import init
from tapegrad.nn.conv import Conv2d, MaxPool2d, conv2d, im2col, max_pool2d
from tapegrad.nn.layers import (
    Dropout,
    Embedding,
    Flatten,
    LayerNorm,
    Linear,
    ReLU,
    Sequential,
    Sigmoid,
    Tanh,
    dropout,
    embedding,
    layer_norm,
    linear,
)
from tapegrad.nn.losses import binary_cross_entropy_with_logits, cross_entropy, mse_loss
from tapegrad.nn.module import Module

__all__ = [
    "Conv2d", "Dropout", "Embedding", "Flatten", "LayerNorm", "Linear", "MaxPool2d", "Module",
    "ReLU", "Sequential", "Sigmoid", "Tanh", "binary_cross_entropy_with_logits", "conv2d",
    "cross_entropy", "dropout", "embedding", "im2col", "init", "layer_norm", "linear",
    "max_pool2d", "mse_loss",
]  # fmt: skip
