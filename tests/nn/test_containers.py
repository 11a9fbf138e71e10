"""tapegrad/nn/containers.py: Sequential, ModuleList and ModuleDict hold layers whose
Variables the enclosing Module finds, under PyTorch's names."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn


def test_sequential():
    model = nn.Sequential(nn.Linear(3, 4, dtype=np.float64), nn.Tanh(), nn.Linear(4, 2))
    assert len(model) == 3 and isinstance(model[1], nn.Tanh)
    assert [type(m).__name__ for m in model] == ["Linear", "Tanh", "Linear"]
    x = tg.random.normal((2, 3))
    np.testing.assert_allclose(model(x).numpy(), model[2](model[1](model[0](x))).numpy())
    head = model[:2]
    assert isinstance(head, nn.Sequential) and len(head) == 2 and head[0] is model[0]
    model.append(nn.ReLU())
    assert len(model) == 4 and list(model.state_dict()) == [
        "0.weight",
        "0.bias",
        "2.weight",
        "2.bias",
    ]
    with pytest.raises(TypeError, match="layer 1 is a function"):
        nn.Sequential(nn.ReLU(), tg.relu)


class Stack(nn.Module):
    def __init__(self):
        self.blocks = nn.ModuleList([nn.Linear(2, 2, dtype=np.float64) for _ in range(2)])
        self.heads = nn.ModuleDict({"mean": nn.Linear(2, 1), "scale": nn.Linear(2, 1)})

    def forward(self, x):
        for block in self.blocks:
            x = tg.tanh(block(x))
        return {name: head(x) for name, head in self.heads.items()}


def test_module_list_and_dict_are_found_and_named_like_pytorch():
    model = Stack()
    assert list(model.state_dict()) == [
        "blocks.0.weight", "blocks.0.bias", "blocks.1.weight", "blocks.1.bias",
        "heads.mean.weight", "heads.mean.bias", "heads.scale.weight", "heads.scale.bias",
    ]  # fmt: skip
    x = tg.random.normal((3, 2))
    with tg.GradientTape() as tape:
        out = model(x)
        loss = tg.sum(out["mean"]) + tg.sum(out["scale"])
    grads = tape.gradient(loss, model.trainable_variables)
    assert all(g is not None for g in grads) and len(grads) == 8


def test_module_list_operations():
    layers = nn.ModuleList()
    assert len(layers) == 0
    a, b, c = nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    layers.append(a).extend([b])
    layers.insert(0, c)
    assert list(layers) == [c, a, b] and layers[-1] is b
    layers[1] = nn.Identity()
    del layers[0]
    assert [type(m).__name__ for m in layers] == ["Identity", "Tanh"]
    assert isinstance(layers[0:1], nn.ModuleList) and len(layers[0:1]) == 1
    with pytest.raises(TypeError, match="layer 2 is an int"):
        layers.append(3)
    with pytest.raises(TypeError, match="layer 0 is a str"):
        layers[0] = "relu"
    assert [type(m).__name__ for m in layers] == ["Identity", "Tanh"]  # unchanged
    with pytest.raises(NotImplementedError, match="iterate over it"):
        layers(tg.ones(2))


def test_module_dict_operations():
    heads = nn.ModuleDict([("a", nn.ReLU())])
    heads["b"] = nn.Tanh()
    heads.update({"c": nn.Sigmoid()})
    assert heads.keys() == ["a", "b", "c"] and "b" in heads and len(heads) == 3
    del heads["a"]
    assert list(heads) == ["b", "c"] and isinstance(heads.values()[0], nn.Tanh)
    with pytest.raises(KeyError, match=r"no layer 'z' \(keys: \['b', 'c'\]\)"):
        heads["z"]
    for bad in ("training", "keys", "_hidden", "two words", 3):
        with pytest.raises(KeyError, match="ModuleDict"):
            heads[bad] = nn.ReLU()
    with pytest.raises(TypeError, match="layer 'd' is a str"):
        heads["d"] = "relu"
