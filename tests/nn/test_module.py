"""tapegrad/nn/module.py: discovery, order, modes, state dicts, saving, repr."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn


class Block(nn.Module):
    def __init__(self):
        self.scale = tg.Variable(np.ones(3))
        self.frozen = tg.Variable(np.zeros(2), trainable=False)
        self.label = "not a variable"
        self.dropout = nn.Dropout(0.5)

    def forward(self, x):
        return self.dropout(x * self.scale)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first = nn.Linear(3, 3, dtype=np.float64)
        self.blocks = [Block(), Block()]
        self.heads = {"a": nn.Linear(3, 1), "b": nn.Linear(3, 2, bias=False)}
        self.temperature = tg.Variable(1.0)
        self.constants = (tg.tensor(1.0),)  # a plain Tensor is not a Variable

    def forward(self, x):
        h = self.first(x)
        for block in self.blocks:
            h = block(h)
        return self.heads["a"](h) * self.temperature


NAMES = [
    "first.weight",
    "first.bias",
    "blocks.0.scale",
    "blocks.0.frozen",
    "blocks.1.scale",
    "blocks.1.frozen",
    "heads.a.weight",
    "heads.a.bias",
    "heads.b.weight",
    "temperature",
]


def test_discovery_finds_variables_in_attributes_lists_and_dicts_in_order():
    net = Net()
    assert [name for name, _ in net.named_variables()] == NAMES
    trainable = [n for n in NAMES if not n.endswith("frozen")]
    named = dict(net.named_variables())
    assert net.trainable_variables == [named[n] for n in trainable]
    assert all(a is b for a, b in zip(net.trainable_variables, Net.trainable_variables.fget(net)))
    assert [name for name, _ in net.named_children()] == [
        "first",
        "blocks.0",
        "blocks.1",
        "heads.a",
        "heads.b",
    ]
    assert net.parameter_count() == 12 + 3 + 3 + 4 + 6 + 1
    assert net.parameter_count(trainable_only=False) == net.parameter_count() + 4


def test_a_shared_variable_is_listed_once():
    net = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 2))
    net[1].weight = net[0].weight
    assert len(net.trainable_variables) == 3
    assert list(net.state_dict()) == ["0.weight", "0.bias", "1.bias"]


def test_the_tape_gives_gradients_for_every_trainable_variable():
    net = Net().eval()
    with tg.GradientTape() as tape:
        y = net(tg.ones((4, 3))).sum()
    grads = tape.gradient(y, net.trainable_variables)
    unused = {id(net.heads["b"].weight)}
    for v, g in zip(net.trainable_variables, grads):
        assert (g is None) == (id(v) in unused)
        assert g is None or (g.shape == v.shape and g.dtype == v.dtype)


def test_train_and_eval_reach_every_submodule():
    net = Net()
    assert net.training and all(m.training for m in net.modules())
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    assert len(list(net.modules())) == 1 + 1 + 2 * 2 + 2


def test_state_dict_round_trip_through_load_state_dict_and_npz(tmp_path):
    source, target = Net(), Net()
    state = source.state_dict()
    assert list(state) == NAMES
    assert all(isinstance(v, np.ndarray) for v in state.values())
    state["first.weight"][...] = 0.0  # a copy: the model is unchanged
    assert np.any(source.first.weight.numpy() != 0.0)
    target.load_state_dict(source.state_dict())
    for (name, a), (_, b) in zip(source.named_variables(), target.named_variables()):
        np.testing.assert_array_equal(a.numpy(), b.numpy(), err_msg=name)
        assert a.dtype == b.dtype
    path = tmp_path / "net.npz"
    source.save(path)
    restored = Net().load(path)
    for a, b in zip(source.variables, restored.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_load_state_dict_errors_name_the_keys_and_leave_the_model_unchanged():
    net = Net()
    before = net.state_dict()
    good = Net().state_dict()

    missing = dict(good)
    del missing["temperature"]
    with pytest.raises(ValueError, match=r"missing keys \['temperature'\]"):
        net.load_state_dict(missing)

    unexpected = dict(good, extra=np.zeros(1))
    with pytest.raises(ValueError, match=r"unexpected keys \['extra'\]"):
        net.load_state_dict(unexpected)

    misshaped = dict(good)
    misshaped["first.weight"] = np.zeros((3, 4))
    with pytest.raises(ValueError, match=r"'first.weight' has shape \(3, 4\), the model has"):
        net.load_state_dict(misshaped)

    for name, value in net.state_dict().items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)


def test_load_state_dict_casts_to_the_variables_dtype_and_accepts_tensors():
    layer = nn.Linear(2, 2)
    layer.load_state_dict({"weight": tg.ones((2, 2)), "bias": np.zeros(2)})
    assert layer.weight.dtype == np.float32
    np.testing.assert_array_equal(layer.weight.numpy(), np.ones((2, 2)))


def test_load_bumps_versions_so_stale_tapes_notice():
    layer = nn.Linear(2, 1, dtype=np.float64)
    with tg.GradientTape() as tape:
        y = layer(tg.ones((1, 2))).sum()
    layer.load_state_dict(nn.Linear(2, 1).state_dict())
    with pytest.raises(RuntimeError, match="modified after the tape recorded it"):
        tape.gradient(y, layer.trainable_variables)


def test_repr_lists_layers_and_parameter_counts():
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(0.1), nn.Linear(128, 10))
    assert repr(model) == (
        "Sequential(\n"
        "  (0): Linear(in_features=64, out_features=128, bias=True)  # 8,320 parameters\n"
        "  (1): ReLU()\n"
        "  (2): Dropout(p=0.1)\n"
        "  (3): Linear(in_features=128, out_features=10, bias=True)  # 1,290 parameters\n"
        ")  # 9,610 parameters"
    )
    nested = repr(Net())
    assert "(blocks.0): Block(\n    (dropout): Dropout(p=0.5)\n  )  # 3 parameters" in nested


def test_forward_must_be_defined():
    with pytest.raises(NotImplementedError, match="Empty does not define forward"):
        type("Empty", (nn.Module,), {})()(1)


def test_to_cpu_keeps_values_and_bumps_versions():
    layer = nn.Linear(2, 2)
    before = layer.weight.numpy().copy()
    version = layer.weight.version
    assert layer.to("cpu") is layer
    np.testing.assert_array_equal(layer.weight.numpy(), before)
    assert layer.weight.version == version + 1 and layer.weight.device == "cpu"


def test_variables_are_named_by_their_attribute_path():
    layer = nn.Linear(2, 3)
    assert [v.name for v in layer.trainable_variables] == ["weight", "bias"]
    model = nn.Sequential(layer, nn.ReLU(), nn.Linear(3, 1))  # the outer model lengthens them
    inner = model[0]
    assert [v.name for v in model.variables] == ["0.weight", "0.bias", "2.weight", "2.bias"]
    bn = nn.BatchNorm1d(2)  # named from the start, walked or not
    assert bn.running_var.name == "running_var"
    outer = Net()
    outer.body = model
    assert inner.weight.name == "body.0.weight"
    assert len(inner.trainable_variables) == 2  # a shorter walk leaves the longer name alone
    assert inner.weight.name == "body.0.weight"
    named = tg.Variable(1.0, name="mine")
    net = Net()
    net.temperature = named
    assert dict(net.named_variables())["temperature"].name == "mine"  # the user's name stays
    assert net.first.weight.name == "first.weight" and "first.weight" in repr(net.first.weight)


def test_errors_about_module_variables_use_their_names():
    model = nn.Sequential(nn.Linear(2, 3))
    optimizer = tg.optim.SGD(model.trainable_variables, lr=0.1)
    with pytest.raises(ValueError, match=r"its Variable '0.bias' \(3,\)"):
        optimizer.apply_gradients([np.zeros((2, 3)), np.zeros(2)])
    with tg.GradientTape() as tape:
        loss = tg.sum(model(tg.ones((1, 2), dtype="float32")))
    model[0].weight.assign_add(np.ones((2, 3)))
    with pytest.raises(RuntimeError, match="Variable 0.weight was modified"):
        tape.gradient(loss, model.trainable_variables)
    v = tg.Variable([1.0, 2.0])  # no name, no Module: described by shape, said once
    with tg.GradientTape() as tape:
        y = tg.sum(v * v)
    v.assign([3.0, 4.0])
    with pytest.raises(RuntimeError, match=r"multiply: a Variable of shape \(2,\) float64 was"):
        tape.gradient(y, v)
