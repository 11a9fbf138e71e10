"""tapegrad/optim/state.py: state dicts that resume a run bit for bit, TensorFlow's
(gradient, variable) pairs, messages for common slips, and readable reprs."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn, optim

OPTIMIZERS = [
    (optim.SGD, {"lr": 0.05, "momentum": 0.9, "nesterov": True}),
    (optim.Adam, {"lr": 0.01}),
    (optim.Adam, {"lr": 0.01, "amsgrad": True, "weight_decay": 0.01}),
    (optim.AdamW, {"lr": optim.CosineDecay(0.01, decay_steps=8)}),
    (optim.RMSprop, {"lr": 0.01, "momentum": 0.5, "centered": True}),
    (optim.Adagrad, {"lr": 0.1, "lr_decay": 0.01}),
    (optim.SGD, {"lr": optim.ReduceLROnPlateau(0.1, patience=0, factor=0.5)}),
]
IDS = [f"{cls.__name__}-{sorted(options)}" for cls, options in OPTIMIZERS]


def make(optimizer_class, options, seed):
    """A small model (with BatchNorm's running statistics) and its optimizer, float32."""
    tg.random.seed(seed)
    model = nn.Sequential(nn.Linear(3, 8), nn.BatchNorm1d(8), nn.Tanh(), nn.Linear(8, 1))
    lr = options["lr"]
    if isinstance(lr, optim.ReduceLROnPlateau):
        lr = optim.ReduceLROnPlateau(0.1, patience=0, factor=0.5)  # a fresh one per run
    optimizer = optimizer_class(model.trainable_variables, **dict(options, lr=lr))
    return model, optimizer


def train(model, optimizer, start, stop):
    """Steps ``start`` to ``stop`` of a fixed sequence of eight batches."""
    rng = np.random.default_rng(0)
    batches = [(rng.standard_normal((16, 3)), rng.standard_normal((16, 1))) for _ in range(8)]
    for x, y in batches[start:stop]:
        with tg.GradientTape() as tape:
            loss = nn.mse_loss(model(x.astype(np.float32)), y.astype(np.float32))
        optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
        if isinstance(optimizer.lr, optim.ReduceLROnPlateau):
            optimizer.lr.step(loss.item())


@pytest.mark.parametrize(("optimizer_class", "options"), OPTIMIZERS, ids=IDS)
def test_a_run_stopped_and_resumed_from_files_continues_bit_for_bit(
    optimizer_class, options, tmp_path
):
    model, optimizer = make(optimizer_class, options, seed=0)
    train(model, optimizer, 0, 8)  # the uninterrupted run

    first, first_optimizer = make(optimizer_class, options, seed=0)
    train(first, first_optimizer, 0, 4)
    first.save(tmp_path / "model.npz")
    first_optimizer.save(tmp_path / "optimizer.npz")
    resumed, resumed_optimizer = make(optimizer_class, options, seed=1)  # other weights
    resumed.load(tmp_path / "model.npz")
    resumed_optimizer.load(tmp_path / "optimizer.npz")
    train(resumed, resumed_optimizer, 4, 8)

    for (name, a), b in zip(model.state_dict().items(), resumed.state_dict().values()):
        np.testing.assert_array_equal(a, b, err_msg=name)
    expected, got = optimizer.state_dict(), resumed_optimizer.state_dict()
    assert expected.keys() == got.keys()
    for key in expected:
        np.testing.assert_array_equal(expected[key], got[key], err_msg=key)
    assert resumed_optimizer.iterations == 8


def test_state_dict_contents_and_copies():
    w = tg.Variable(np.ones(2, dtype=np.float32))
    optimizer = optim.Adam([w], lr=0.1, betas=(0.8, 0.9))
    optimizer.apply_gradients([np.array([1.0, -2.0])])
    state = optimizer.state_dict()
    assert str(state["optimizer"]) == "Adam" and int(state["iterations"]) == 1
    assert state["hyperparameters.betas"].tolist() == [0.8, 0.9]
    np.testing.assert_allclose(state["state.0.exp_avg"], [0.2, -0.4], rtol=1e-6)
    assert state["state.0.exp_avg"].dtype == np.float32
    state["state.0.exp_avg"][:] = 99.0  # a copy: the optimizer is unchanged
    assert optimizer.state[0]["exp_avg"][0] != 99.0
    loaded = optim.Adam([tg.Variable(np.zeros(2, dtype=np.float32))], lr=1.0)
    loaded.load_state_dict(optimizer.state_dict())
    assert loaded.lr == 0.1 and loaded.betas == (0.8, 0.9) and loaded.iterations == 1


@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        (lambda s: s.update({"optimizer": np.asarray("SGD")}), "the state was saved by 'SGD'"),
        (
            lambda s: s.update({"state.0.exp_avg": np.zeros(3)}),
            r"has shape \(3,\), Variable 'w' \(2,\)",
        ),
        (
            lambda s: s.update({"state.5.exp_avg": np.zeros(2)}),
            "is for Variable 5, but there are 1",
        ),
        (lambda s: s.pop("hyperparameters.eps"), r"missing hyperparameters \['eps'\]"),
        (lambda s: s.update({"extra": np.zeros(1)}), "unexpected key 'extra'"),
    ],
)
def test_a_bad_state_dict_changes_nothing(tamper, message):
    w = tg.Variable([1.0, 2.0], name="w")
    optimizer = optim.Adam([w], lr=0.1)
    optimizer.apply_gradients([[1.0, 1.0]])
    state = optimizer.state_dict()
    tamper(state)
    before = optimizer.state_dict()
    with pytest.raises(ValueError, match=message):
        optimizer.load_state_dict(state)
    for key, value in before.items():
        np.testing.assert_array_equal(optimizer.state_dict()[key], value)


def test_a_schedule_cannot_take_a_constant_rate():
    constant = optim.SGD([tg.Variable([1.0])], lr=0.1).state_dict()
    scheduled = optim.SGD([tg.Variable([1.0])], lr=optim.StepDecay(0.1, 5))
    with pytest.raises(
        ValueError, match="the saved lr is a constant and this optimizer's a schedule"
    ):
        scheduled.load_state_dict(constant)


def test_gradient_variable_pairs_as_in_tensorflow():
    a, b = tg.Variable([1.0], name="a"), tg.Variable([2.0], name="b")
    optimizer = optim.SGD([a, b], lr=0.5)
    grads = [tg.tensor([1.0]), tg.tensor([2.0])]
    optimizer.apply_gradients(zip(grads, [a, b]))
    assert a.numpy()[0] == 0.5 and b.numpy()[0] == 1.0
    optimizer.apply_gradients([(tg.tensor([1.0]), b)])  # a pair per Variable given; a skipped
    assert a.numpy()[0] == 0.5 and b.numpy()[0] == 0.5
    other = tg.Variable([0.0], name="other")
    with pytest.raises(ValueError, match="Variable 'other' of shape \\(1,\\) is not one of this"):
        optimizer.apply_gradients([(tg.tensor([1.0]), other)])
    with pytest.raises(ValueError, match="Variable 'a' is paired with two gradients"):
        optimizer.apply_gradients([(tg.tensor([1.0]), a), (tg.tensor([1.0]), a)])


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda m: optim.Adam(m),
            TypeError,
            r"Adam: got the Module Sequential itself; pass its Variables: "
            r"Adam\(model.trainable_variables",
        ),
        (
            lambda m: optim.SGD([m], lr=0.1),
            TypeError,
            "item 0 of variables is the Module Sequential",
        ),
        (
            lambda m: optim.Adam(tg.ones(3)),
            TypeError,
            r"got a Tensor of shape \(3,\); an optimizer updates Variables in place",
        ),
        (lambda m: optim.Adam(np.ones(3)), TypeError, r"got an ndarray of shape \(3,\)"),
        (lambda m: optim.Adam(m[0].weight), TypeError, r"got one Variable; pass a list of them"),
        (
            lambda m: optim.Adam([tg.ones(2)]),
            TypeError,
            "item 0 of variables is a Tensor, not a Variable",
        ),
        (
            lambda m: optim.SGD(m.trainable_variables, lr="0.1"),
            TypeError,
            r"lr must be a number or a schedule, got the string '0.1' "
            r"\(write lr=0.1 without quotes\)",
        ),
        (
            lambda m: optim.SGD(m.trainable_variables, lr=0.1, momentum="0.9"),
            TypeError,
            "SGD: momentum must be a number, got str '0.9'",
        ),
        (lambda m: optim.Adam(3), TypeError, "got an int; pass a list of Variables"),
        (lambda m: optim.SGD([], lr=0.1), ValueError, "SGD: got an empty list of variables"),
        (
            lambda m: optim.SGD(m.trainable_variables, lr=0.1).apply_gradients(["a", None]),
            TypeError,
            "SGD.apply_gradients: gradient 0 is a str 'a', not a number or an array",
        ),
        (
            lambda m: optim.SGD([tg.Variable([1, 2], name="steps")], lr=0.1),
            TypeError,
            "Variable 'steps' of shape \\(2,\\) is int64; only floating Variables can be trained",
        ),
    ],
)
def test_common_slips_get_messages_that_name_the_fix(call, error, message):
    with pytest.raises(error, match=message):
        call(nn.Sequential(nn.Linear(2, 2)))


def test_reprs_are_readable():
    model = nn.Sequential(nn.Linear(2, 2))
    adam = optim.Adam(model.trainable_variables, lr=1e-3)
    assert repr(adam) == (
        "Adam(lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.0, amsgrad=False)"
        "  # 2 variables, 0 updates"
    )
    sgd = optim.SGD(model.trainable_variables[:1], lr=optim.StepDecay(0.1, 10))
    sgd.apply_gradients([np.zeros((2, 2))])
    assert repr(sgd) == (
        "SGD(lr=StepDecay(lr=0.1, step_size=10, gamma=0.1), momentum=0.0, dampening=0.0, "
        "weight_decay=0.0, nesterov=False)  # 1 variable, 1 update"
    )


def test_unnamed_variables_are_not_called_empty_names():
    v = tg.Variable([1.0, 2.0])
    optimizer = optim.SGD([v], lr=0.1)
    with pytest.raises(ValueError, match=r"gradient 0 has shape \(1,\), its Variable 0 \(2,\)"):
        optimizer.apply_gradients([[1.0]])
    with pytest.raises(ValueError, match=r"a Variable of shape \(1,\) is not one of this"):
        optimizer.apply_gradients([(tg.tensor([1.0]), tg.Variable([0.0]))])
    with pytest.raises(ValueError, match=r"assign: the Variable is \(2,\) float64, got \(1,\)"):
        v.assign([1.0])
