"""tapegrad/optim/optimizers.py: the update rules against values worked out by hand from the
published equations (PyTorch's documented algorithms), and the bookkeeping around them."""

import math

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import optim


def run(optimizer_class, grads, p0=1.0, **options):
    """The parameter after each update, for a one-element float64 Variable."""
    w = tg.Variable([p0])
    optimizer = optimizer_class([w], **options)
    values = []
    for g in grads:
        optimizer.apply_gradients([tg.tensor([g])])
        values.append(float(w.numpy()[0]))
    return values


# Two steps from p = 1 with gradients 1.0 then 0.5, worked out by hand:
HAND = [
    # p1 = 1 - 0.1*1; p2 = 0.9 - 0.1*0.5
    (optim.SGD, {"lr": 0.1}, [0.9, 0.85]),
    # b1 = 1, p1 = 0.9; b2 = 0.9*1 + 0.5 = 1.4, p2 = 0.9 - 0.14
    (optim.SGD, {"lr": 0.1, "momentum": 0.9}, [0.9, 0.76]),
    # b1 = 1, d1 = 1 + 0.9*1 = 1.9, p1 = 0.81; b2 = 1.4, d2 = 0.5 + 0.9*1.4 = 1.76, p2 = 0.634
    (optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True}, [0.81, 0.634]),
    # d1 = 1 + 0.1*1 = 1.1, p1 = 0.89; d2 = 0.5 + 0.1*0.89 = 0.589, p2 = 0.8311
    (optim.SGD, {"lr": 0.1, "weight_decay": 0.1}, [0.89, 0.8311]),
    # b1 = d1 = 1.1 (no dampening on the first step), p1 = 0.89;
    # b2 = 0.9*1.1 + (1 - 0.5)*0.589 = 1.2845, p2 = 0.89 - 0.12845
    (
        optim.SGD,
        {"lr": 0.1, "momentum": 0.9, "weight_decay": 0.1, "dampening": 0.5},
        [0.89, 0.76155],
    ),
    # m1 = 0.1, v1 = 0.001, m^ = v^ = 1: p1 = 1 - 0.1 * 1/(1 + 1e-8).
    # m2 = 0.09 + 0.05 = 0.14, v2 = 0.000999 + 0.00025 = 0.001249,
    # m^ = 0.14/0.19, v^ = 0.001249/0.001999: p2 = p1 - 0.1 * m^ / (sqrt(v^) + 1e-8)
    (
        optim.Adam,
        {"lr": 0.1},
        [0.9000000009999999, 0.9000000009999999 - 0.1 * (0.14 / 0.19) / (0.7904508 + 1e-8)],
    ),
    # Decoupled: p1 = 1*(1 - 0.1*0.1) - 0.1/(1 + 1e-8); p2 = p1*0.99 - the same Adam step
    (
        optim.AdamW,
        {"lr": 0.1, "weight_decay": 0.1},
        [0.8900000010, 0.8900000010 * 0.99 - 0.1 * (0.14 / 0.19) / (0.7904508 + 1e-8)],
    ),
]


@pytest.mark.parametrize(("optimizer_class", "options", "expected"), HAND)
def test_two_steps_by_hand(optimizer_class, options, expected):
    np.testing.assert_allclose(run(optimizer_class, [1.0, 0.5], **options), expected, rtol=1e-7)


def sgd_reference(p, grads, lr, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
    """PyTorch's documented SGD algorithm, one scalar at a time."""
    out, b = [], None
    for t, g in enumerate(grads, start=1):
        if weight_decay:
            g = g + weight_decay * p
        if momentum:
            b = g if t == 1 else momentum * b + (1 - dampening) * g
            g = g + momentum * b if nesterov else b
        p = p - lr * g
        out.append(p)
    return out


def adam_reference(p, grads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, decoupled=False):
    """Adam as Kingma & Ba write it (bias-corrected m^ and v^), with PyTorch's weight decay:
    L2 added to the gradient for Adam, the parameter shrunk first for AdamW."""
    out, m, v = [], 0.0, 0.0
    for t, g in enumerate(grads, start=1):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        elif weight_decay:
            g = g + weight_decay * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        m_hat, v_hat = m / (1 - betas[0] ** t), v / (1 - betas[1] ** t)
        p = p - lr * m_hat / (math.sqrt(v_hat) + eps)
        out.append(p)
    return out


SETTINGS = [
    (optim.SGD, sgd_reference, {"lr": 0.05}),
    (optim.SGD, sgd_reference, {"lr": 0.05, "momentum": 0.8, "dampening": 0.1}),
    (optim.SGD, sgd_reference, {"lr": 0.05, "momentum": 0.8, "nesterov": True}),
    (optim.SGD, sgd_reference, {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.2}),
    (optim.Adam, adam_reference, {"lr": 0.01}),
    (optim.Adam, adam_reference, {"lr": 0.01, "betas": (0.8, 0.99), "eps": 1e-3}),
    (optim.Adam, adam_reference, {"lr": 0.01, "weight_decay": 0.3}),
    (optim.AdamW, adam_reference, {"lr": 0.01, "weight_decay": 0.3}),
]


@pytest.mark.parametrize(("optimizer_class", "reference", "options"), SETTINGS)
def test_twenty_steps_match_the_published_algorithm(optimizer_class, reference, options):
    rng = np.random.default_rng(0)
    p0 = rng.standard_normal(5)
    grads = rng.standard_normal((20, 5)) * 3
    w = tg.Variable(p0)
    optimizer = optimizer_class([w], **options)
    history = []
    for g in grads:
        optimizer.apply_gradients([g])
        history.append(w.numpy().copy())
    if optimizer_class is optim.AdamW:
        options = dict(options, decoupled=True)
    for i in range(5):
        expected = reference(p0[i], list(grads[:, i]), **options)
        np.testing.assert_allclose(np.array(history)[:, i], expected, rtol=1e-12, atol=1e-14)


def test_none_gradients_skip_the_variable_and_its_state():
    a, b = tg.Variable([1.0]), tg.Variable([1.0])
    optimizer = optim.Adam([a, b], lr=0.1)
    optimizer.apply_gradients([tg.tensor([1.0]), None])
    optimizer.apply_gradients([tg.tensor([1.0]), None])
    assert b.numpy()[0] == 1.0 and b.version == 0 and optimizer.state[1] == {}
    optimizer.apply_gradients([None, tg.tensor([1.0])])
    # b's first update is a first Adam step (bias correction with t = 1): exactly lr.
    np.testing.assert_allclose(b.numpy(), [0.9], rtol=1e-7)
    assert optimizer.state[0]["step"] == 2 and optimizer.iterations == 3


@pytest.mark.parametrize("optimizer_class", [optim.SGD, optim.Adam, optim.AdamW])
def test_float32_variables_stay_float32(optimizer_class):
    w = tg.Variable(np.ones(3, dtype=np.float32))
    options = {"momentum": 0.9} if optimizer_class is optim.SGD else {}
    # A schedule may return NumPy float64 scalars; the update must not promote.
    optimizer = optimizer_class([w], lr=lambda step: np.float64(0.1), **options)
    for _ in range(3):
        optimizer.apply_gradients([np.full(3, 0.5)])  # a float64 gradient is cast
    assert w.dtype == np.float32 and w.numpy()[0] < 1.0


def test_a_schedule_sets_the_learning_rate_of_each_update():
    w = tg.Variable([0.0])
    optimizer = optim.SGD([w], lr=optim.StepDecay(1.0, step_size=2, gamma=0.5))
    rates = []
    for _ in range(5):
        rates.append(optimizer.learning_rate)
        optimizer.apply_gradients([tg.tensor([-1.0])])
    assert rates == [1.0, 1.0, 0.5, 0.5, 0.25]
    np.testing.assert_allclose(w.numpy(), [3.25])


def test_training_a_linear_model_reduces_the_loss():
    rng = np.random.default_rng(0)
    x = tg.tensor(rng.standard_normal((64, 3)))
    y = x @ tg.tensor([[1.0], [-2.0], [0.5]]) + 0.3
    model = tg.nn.Linear(3, 1, dtype=np.float64)
    optimizer = optim.Adam(model.trainable_variables, lr=0.1)
    for _ in range(200):
        with tg.GradientTape() as tape:
            loss = tg.nn.mse_loss(model(x), y)
        optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
    assert loss.item() < 1e-6
    np.testing.assert_allclose(model.weight.numpy().ravel(), [1.0, -2.0, 0.5], atol=1e-3)


def test_bad_gradients_raise_before_any_variable_changes():
    a, b = tg.Variable([1.0, 2.0], name="a"), tg.Variable([3.0], name="b")
    optimizer = optim.SGD([a, b], lr=0.1)
    with pytest.raises(ValueError, match="1 gradients for 2 variables"):
        optimizer.apply_gradients([tg.tensor([1.0, 1.0])])
    with pytest.raises(ValueError, match=r"gradient 1 has shape \(2,\), its Variable 'b' \(1,\)"):
        optimizer.apply_gradients([tg.tensor([1.0, 1.0]), tg.tensor([1.0, 1.0])])
    assert a.version == 0 and b.version == 0 and optimizer.iterations == 0
    optimizer.apply_gradients([[1.0, 1.0], [2]])  # lists are gradients too
    np.testing.assert_allclose(a.numpy(), [0.9, 1.9])
    np.testing.assert_allclose(b.numpy(), [2.8])


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (
            lambda w: optim.SGD([w.numpy()], lr=0.1),
            TypeError,
            "item 0 of variables is an ndarray, not a Variable",
        ),
        (lambda w: optim.SGD([w, w], lr=0.1), ValueError, "listed twice"),
        (lambda w: optim.SGD([w], lr=-1.0), ValueError, "lr must be in"),
        (lambda w: optim.SGD([w], lr=0.1, nesterov=True), ValueError, "Nesterov"),
        (lambda w: optim.Adam([w], betas=(1.0, 0.9)), ValueError, r"betas\[0\]"),
        (lambda w: optim.AdamW([w], eps=-1.0), ValueError, "eps"),
        (lambda w: optim.SGD([tg.Variable([1, 2])], lr=0.1), TypeError, "int64"),
    ],
)
def test_bad_settings_raise(make, error, message):
    with pytest.raises(error, match=message):
        make(tg.Variable([1.0]))


def test_amsgrad_by_hand():
    # betas (0.5, 0.5), gradients 1 then 0.1: v1 = 0.5, v2 = 0.255 < v1, so AMSGrad keeps 0.5.
    # m2 = 0.3, m^ = 0.3/0.75 = 0.4; p2 = 0.9 - 0.1 * 0.4 / (sqrt(0.5)/sqrt(0.75)).
    options = {"lr": 0.1, "betas": (0.5, 0.5), "eps": 0.0}
    amsgrad = run(optim.Adam, [1.0, 0.1], amsgrad=True, **options)
    np.testing.assert_allclose(amsgrad, [0.9, 0.9 - 0.1 * 0.4 / math.sqrt(0.5 / 0.75)], rtol=1e-12)
    plain = run(optim.Adam, [1.0, 0.1], **options)
    np.testing.assert_allclose(plain, [0.9, 0.9 - 0.1 * 0.4 / math.sqrt(0.255 / 0.75)], rtol=1e-12)


def amsgrad_reference(p, grads, lr, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0):
    """Adam with AMSGrad as PyTorch documents it: the running maximum of v in the denominator."""
    out, m, v, v_max = [], 0.0, 0.0, 0.0
    for t, g in enumerate(grads, start=1):
        g = g + weight_decay * p
        m = betas[0] * m + (1 - betas[0]) * g
        v = betas[1] * v + (1 - betas[1]) * g * g
        v_max = max(v_max, v)
        p = p - lr * (m / (1 - betas[0] ** t)) / (math.sqrt(v_max / (1 - betas[1] ** t)) + eps)
        out.append(p)
    return out


def test_amsgrad_matches_the_published_algorithm():
    rng = np.random.default_rng(1)
    p0, grads = (
        rng.standard_normal(4),
        rng.standard_normal((20, 4)) * np.linspace(3, 0.1, 20)[:, None],
    )
    w = tg.Variable(p0)
    optimizer = optim.Adam([w], lr=0.01, amsgrad=True, weight_decay=0.1)
    history = []
    for g in grads:
        optimizer.apply_gradients([g])
        history.append(w.numpy().copy())
    for i in range(4):
        expected = amsgrad_reference(p0[i], list(grads[:, i]), lr=0.01, weight_decay=0.1)
        np.testing.assert_allclose(np.array(history)[:, i], expected, rtol=1e-12)
    assert "max_exp_avg_sq" in optimizer.state[0]


@pytest.mark.parametrize(
    "settings", [{}, {"momentum": 0.9}, {"momentum": 0.9, "nesterov": True, "weight_decay": 0.1}]
)
def test_sgd_updates_in_place_only_an_array_nothing_else_holds(settings):
    rng = np.random.default_rng(0)
    start = rng.normal(size=(4, 3)).astype(np.float32)
    alone, held = tg.Variable(start), tg.Variable(start)
    handed_out = held.numpy()  # read-only from now on: its updates make new arrays
    sgd_alone = tg.optim.SGD([alone], lr=0.1, **settings)
    sgd_held = tg.optim.SGD([held], lr=0.1, **settings)
    array = alone._data
    array_id = id(array)
    del array
    for _ in range(3):
        g = rng.normal(size=(4, 3)).astype(np.float32)
        sgd_alone.apply_gradients([g])
        sgd_held.apply_gradients([g])
    assert id(alone._data) == array_id  # written in place, as p -= lr * g
    np.testing.assert_array_equal(alone.numpy(), held.numpy())  # rounded alike
    np.testing.assert_array_equal(handed_out, start)
    assert alone.version == held.version == 3


def test_sgd_leaves_a_value_a_tape_saved_alone():
    v = tg.Variable([1.0, 2.0])
    with tg.GradientTape(persistent=True) as tape:
        y = tg.sum(v * v)
    saved = next(iter(tape)).inputs[0]._data
    tg.optim.SGD([v], lr=0.5).apply_gradients([[1.0, 1.0]])
    np.testing.assert_array_equal(saved, [1.0, 2.0])
    np.testing.assert_array_equal(v.numpy(), [0.5, 1.5])
    with pytest.raises(RuntimeError, match="modified after the tape recorded it"):
        tape.gradient(y, v)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_large_sgd_update_is_one_blas_axpy_within_an_ulp_of_numpys(dtype):
    from tapegrad.backends import blas

    rng = np.random.default_rng(0)
    start = rng.normal(size=(200, 130)).astype(dtype)  # above blas.AXPY_MIN_SIZE
    grads = [rng.normal(size=start.shape).astype(dtype) for _ in range(3)]
    alone, held = tg.Variable(start), tg.Variable(start)
    handed_out = held.numpy()  # the held Variable's update makes new arrays
    sgd_alone = tg.optim.SGD([alone], lr=0.1, momentum=0.5)
    sgd_held = tg.optim.SGD([held], lr=0.1, momentum=0.5)
    array_id = id(alone._data)
    expected, buffer = start.copy(), None
    for g in grads:
        sgd_alone.apply_gradients([g])
        sgd_held.apply_gradients([g])
        buffer = g if buffer is None else 0.5 * buffer + g
        expected = expected - dtype(0.1) * buffer
    assert id(alone._data) == array_id
    np.testing.assert_array_equal(alone.numpy(), held.numpy())  # both paths round alike
    spacing = np.spacing(np.abs(expected)).max()
    np.testing.assert_allclose(alone.numpy(), expected, rtol=0, atol=8 * spacing)
    np.testing.assert_array_equal(handed_out, start)
    # Without SciPy's BLAS, or for an array too small, NumPy's p -= a * x: the same values
    # to an ulp.
    y, x = start.copy(), grads[0]
    blas.subtract_scaled(y, 0.1, x)
    routines = dict(blas._routines)
    try:
        blas._routines.update(saxpy=None, daxpy=None)
        z = start.copy()
        blas.subtract_scaled(z, 0.1, x)
    finally:
        blas._routines.clear()
        blas._routines.update(routines)
    np.testing.assert_array_equal(z, start - x * dtype(0.1))
    np.testing.assert_allclose(y, z, rtol=0, atol=2 * np.spacing(np.abs(z)).max())
    # A view that is not contiguous takes NumPy's path, in place all the same.
    w = np.array(start.T, order="C").T
    blas.subtract_scaled(w, 0.1, x)
    np.testing.assert_array_equal(w, start - x * dtype(0.1))
