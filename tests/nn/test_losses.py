"""tapegrad/nn/losses.py and classification.py: values against NumPy formulas, gradients,
stability, bad labels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@st.composite
def logits_and_labels(draw):
    n, classes = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    logits = draw(tst.arrays((n, classes)), label="logits")
    labels = draw(tst.hnp.arrays(np.int64, (n,), elements=st.integers(0, classes - 1)))
    return logits, labels


def cross_entropy_numpy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels]


@given(
    shape=tst.shapes(max_dims=3, max_side=3),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    data=st.data(),
)
def test_mse_loss(backend, shape, reduction, data):
    pred, target = (backend.tensor(data.draw(tst.arrays(shape))) for _ in range(2))
    squares = (pred.numpy() - target.numpy()) ** 2
    expected = {"mean": squares.mean(), "sum": squares.sum(), "none": squares}[reduction]
    out = nn.mse_loss(pred, target, reduction)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)
    gradcheck(lambda p, t: nn.mse_loss(p, t, reduction), [pred, target])


@given(pair=logits_and_labels(), reduction=st.sampled_from(["mean", "sum", "none"]))
def test_cross_entropy_value_and_gradient(backend, pair, reduction):
    logits, labels = pair
    x = backend.tensor(logits)
    per_example = cross_entropy_numpy(logits, labels)
    expected = {"mean": per_example.mean(), "sum": per_example.sum(), "none": per_example}
    out = nn.cross_entropy(x, labels, reduction=reduction)
    np.testing.assert_allclose(out.numpy(), expected[reduction], rtol=1e-12, atol=1e-12)
    gradcheck(lambda x: nn.cross_entropy(x, labels, reduction=reduction), [x])


@settings(max_examples=5)
@given(pair=logits_and_labels())
def test_cross_entropy_second_derivative(pair):
    logits, labels = pair
    gradgradcheck(lambda x: nn.cross_entropy(x, labels), [tg.tensor(logits)])


def test_cross_entropy_gradient_is_softmax_minus_one_hot_over_n():
    logits = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    labels = tg.tensor([2, 0])
    x = tg.tensor(logits)
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = nn.cross_entropy(x, labels)
    softmax = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), (softmax - np.eye(3)[[2, 0]]) / 2)


def test_cross_entropy_is_stable_for_huge_logits_and_keeps_float32():
    x = tg.tensor([[1000.0, -1000.0, 0.0], [-5e4, 5e4, 0.0]], dtype=np.float32)
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = nn.cross_entropy(x, [1, 1])
    grad = tape.gradient(loss, x)
    assert loss.dtype == np.float32 and grad.dtype == np.float32
    np.testing.assert_allclose(loss.item(), 1000.0, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), [[0.5, -0.5, 0.0], [0.0, 0.0, 0.0]], atol=1e-6)


@pytest.mark.parametrize(
    ("logits", "labels", "message"),
    [
        (np.zeros((2, 3)), [0, 3], r"labels range over \[0, 3\], outside \[0, 3\) .* \(2, 3\)"),
        (np.zeros((2, 3)), [-1, 0], "outside"),
        (np.zeros((2, 3)), [0.0, 1.0], r"integer class indices, got float64 of shape \(2,\)"),
        (np.zeros((2, 3)), [0, 1, 2], r"labels of shape \(3,\) do not match logits .* \(2, 3\)"),
        (np.zeros((2, 3)), [[0], [1]], r"labels of shape \(2, 1\)"),
        (np.zeros(3), [0], r"labels of shape \(1,\) .* \(3,\); expected labels of shape \(\)"),
        (np.zeros(()), 0, r"input must have shape \(N, C, ...\) or \(C,\)"),
    ],
)
def test_cross_entropy_rejects_bad_labels(logits, labels, message):
    x = tg.tensor(logits)
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(ValueError, match="cross_entropy: .*" + message):
            nn.cross_entropy(x, labels)
    assert len(tape) == 0


def test_unknown_reduction_raises_before_any_work():
    x = tg.tensor(np.zeros((1, 2)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        for call in (
            lambda: nn.cross_entropy(x, [0], reduction="avg"),
            lambda: nn.mse_loss(x, x, reduction="avg"),
            lambda: nn.binary_cross_entropy_with_logits(x, np.zeros((1, 2)), reduction="avg"),
        ):
            with pytest.raises(ValueError, match="reduction must be one of"):
                call()
    assert len(tape) == 0


def bce_numpy(x, t):
    p = 1 / (1 + np.exp(-x))
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


@given(
    shape=tst.shapes(max_dims=2, max_side=4),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    data=st.data(),
)
def test_binary_cross_entropy_with_logits(backend, shape, reduction, data):
    x = backend.tensor(data.draw(tst.arrays(shape), label="logits"))
    # Inside [0, 1], so that finite differences of the targets stay valid targets.
    t = backend.tensor(data.draw(tst.arrays(shape, domain="small"), label="targets") * 0.45 + 0.5)
    per_element = bce_numpy(x.numpy(), t.numpy())
    expected = {"mean": per_element.mean(), "sum": per_element.sum(), "none": per_element}
    out = nn.binary_cross_entropy_with_logits(x, t, reduction=reduction)
    np.testing.assert_allclose(out.numpy(), expected[reduction], rtol=1e-10, atol=1e-12)
    gradcheck(lambda x: nn.binary_cross_entropy_with_logits(x, t, reduction=reduction), [x])
    # With Tensor targets of the logits' dtype, the targets get a gradient too.
    gradcheck(lambda x, t: nn.binary_cross_entropy_with_logits(x, t, reduction=reduction), [x, t])


@settings(max_examples=5)
@given(data=st.data())
def test_binary_cross_entropy_second_derivative(data):
    x = tg.tensor(data.draw(tst.arrays((3,)), label="logits"))
    t = data.draw(tst.arrays((3,), domain="small"), label="targets") * 0.5 + 0.5
    gradgradcheck(lambda x: nn.binary_cross_entropy_with_logits(x, t), [x])


def test_binary_cross_entropy_is_stable_for_huge_logits():
    x = tg.tensor([1000.0, -1000.0, 1000.0])
    loss = nn.binary_cross_entropy_with_logits(x, [1.0, 0.0, 0.0], reduction="none")
    np.testing.assert_allclose(loss.numpy(), [0.0, 0.0, 1000.0])
    assert nn.binary_cross_entropy_with_logits(x, [1, 0, 1]).dtype == np.float64


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([0.5, 1.5], r"range over \[0.5, 1.5\], outside \[0, 1\]"),
        ([0.5], r"targets of shape \(1,\) do not match logits of shape \(2,\)"),
        (["a", "b"], "must be real numbers"),
    ],
)
def test_binary_cross_entropy_rejects_bad_targets(targets, message):
    with pytest.raises(ValueError, match="binary_cross_entropy_with_logits: .*" + message):
        nn.binary_cross_entropy_with_logits(tg.zeros(2), targets)


def test_mse_loss_does_not_broadcast():
    with pytest.raises(ValueError, match=r"mse_loss: pred of shape \(3, 1\) and target .* \(3,\)"):
        nn.mse_loss(tg.zeros((3, 1)), tg.zeros(3))


REDUCE = {"mean": np.mean, "sum": np.sum, "none": lambda a: a}


def smooth_l1_numpy(d, beta):
    return np.where(np.abs(d) < beta, 0.5 * d**2 / beta, np.abs(d) - 0.5 * beta)


def huber_numpy(d, delta):
    return np.where(np.abs(d) < delta, 0.5 * d**2, delta * (np.abs(d) - 0.5 * delta))


POINTWISE = [
    (lambda p, t, r: nn.l1_loss(p, t, r), lambda d: np.abs(d)),
    (lambda p, t, r: nn.smooth_l1_loss(p, t, r), lambda d: smooth_l1_numpy(d, 1.0)),
    (lambda p, t, r: nn.smooth_l1_loss(p, t, r, beta=0.3), lambda d: smooth_l1_numpy(d, 0.3)),
    (lambda p, t, r: nn.smooth_l1_loss(p, t, r, beta=0.0), lambda d: np.abs(d)),
    (lambda p, t, r: nn.huber_loss(p, t, r), lambda d: huber_numpy(d, 1.0)),
    (lambda p, t, r: nn.huber_loss(p, t, r, delta=2.5), lambda d: huber_numpy(d, 2.5)),
]


@pytest.mark.parametrize(("loss", "reference"), POINTWISE, ids=range(len(POINTWISE)))
@given(
    shape=tst.shapes(max_dims=2, max_side=3),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    data=st.data(),
)
def test_pointwise_losses(backend, loss, reference, shape, reduction, data):
    pred = backend.tensor(data.draw(tst.arrays(shape, domain="small"), label="pred"))
    # Offsets away from the kinks (0, and the |d| = beta or delta boundaries).
    offsets = data.draw(tst.arrays(shape, domain="nonzero"), label="offsets")
    target = backend.tensor(pred.numpy() + np.where(np.abs(offsets) < 0.05, 0.7, offsets))
    expected = REDUCE[reduction](reference(pred.numpy() - target.numpy()))
    np.testing.assert_allclose(loss(pred, target, reduction).numpy(), expected, rtol=1e-12)
    gradcheck(lambda p, t: loss(p, t, reduction), [pred, target])


def test_pointwise_loss_gradients_at_the_kinks():
    pred, target = tg.tensor([0.0, 1.0, 0.0]), tg.tensor([0.0, 0.0, 2.0])
    # PyTorch's: l1's gradient at 0 is 0; smooth_l1 and huber are continuous at the boundary.
    for loss, expected in [
        (lambda p: nn.l1_loss(p, target, "sum"), [0.0, 1.0, -1.0]),
        (lambda p: nn.smooth_l1_loss(p, target, "sum", beta=1.0), [0.0, 1.0, -1.0]),
        (lambda p: nn.huber_loss(p, target, "sum", delta=2.0), [0.0, 1.0, -2.0]),
    ]:
        np.testing.assert_array_equal(tg.grad(loss)(pred).numpy(), expected)
    gradgradcheck(lambda p: nn.huber_loss(p, tg.tensor([0.5, -3.0]), "sum"), [[0.1, 0.2]])


@given(
    shape=st.sampled_from([(3,), (2, 3)]),
    reduction=st.sampled_from(["mean", "sum", "none", "batchmean"]),
    data=st.data(),
)
def test_kl_div(backend, shape, reduction, data):
    log_q = backend.tensor(data.draw(tst.arrays(shape, domain="small"), label="log_q"))
    p = data.draw(tst.arrays(shape, domain="positive"), label="p")
    p[..., 0] = 0.0  # a zero probability contributes 0 (0 log 0 = 0)
    pointwise = np.where(p > 0, p * (np.log(np.where(p > 0, p, 1)) - log_q.numpy()), 0.0)
    expected = (
        pointwise.sum() / shape[0]  # PyTorch's: the first axis, even of a 1-d input
        if reduction == "batchmean"
        else REDUCE[reduction](pointwise)
    )
    np.testing.assert_allclose(nn.kl_div(log_q, p, reduction).numpy(), expected, rtol=1e-12)
    gradcheck(lambda q: nn.kl_div(q, p, reduction), [log_q])
    log_p = backend.tensor(np.log(p + 0.5))
    with_log_target = nn.kl_div(log_q, log_p, "none", log_target=True).numpy()
    expected = np.exp(log_p.numpy()) * (log_p.numpy() - log_q.numpy())
    np.testing.assert_allclose(with_log_target, expected, rtol=1e-12)
    gradcheck(lambda q, t: nn.kl_div(q, t, reduction, log_target=True), [log_q, log_p])


def test_kl_div_of_a_distribution_from_itself_is_zero():
    p = np.array([[0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    assert nn.kl_div(np.log(np.maximum(p, 1e-300)), p, "sum").item() == 0.0
    with pytest.raises(ValueError, match="kl_div: target of shape \\(2,\\) has negative"):
        nn.kl_div(tg.zeros(2), [0.5, -0.5])
    with pytest.raises(ValueError, match="reduction must be one of .*'batchmean'"):
        nn.kl_div(tg.zeros(2), [0.5, 0.5], reduction="avg")


@given(
    shape=tst.shapes(max_dims=2, max_side=3),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    weighted=st.booleans(),
    data=st.data(),
)
def test_binary_cross_entropy(backend, shape, reduction, weighted, data):
    probabilities = data.draw(tst.arrays(shape, domain="unit"), label="p") * 0.45 + 0.5
    x = backend.tensor(probabilities)
    t = data.draw(tst.arrays(shape, domain="unit"), label="t") * 0.5 + 0.5
    weight = np.linspace(0.5, 1.5, shape[-1]) if weighted and shape else None
    pointwise = -(t * np.log(probabilities) + (1 - t) * np.log(1 - probabilities))
    pointwise = pointwise * (1 if weight is None else weight)
    out = nn.binary_cross_entropy(x, t, weight, reduction)
    np.testing.assert_allclose(out.numpy(), REDUCE[reduction](pointwise), rtol=1e-12)
    gradcheck(lambda x: nn.binary_cross_entropy(x, t, weight, reduction), [x])


def test_binary_cross_entropy_clamps_its_logs_at_minus_100():
    x = tg.tensor([0.0, 1.0, 0.0, 1.0])
    loss = nn.binary_cross_entropy(x, [1.0, 0.0, 0.0, 1.0], reduction="none")
    np.testing.assert_array_equal(loss.numpy(), [100.0, 100.0, 0.0, 0.0])
    assert np.isfinite(
        tg.grad(lambda x: nn.binary_cross_entropy(x, [1.0, 0.0, 0.0, 1.0]))(x).numpy()
    ).all()
    with pytest.raises(
        ValueError, match=r"input probabilities of shape \(2,\) range over \[-0.5, 0.5\]"
    ):
        nn.binary_cross_entropy(tg.tensor([-0.5, 0.5]), [0.0, 1.0])
    with pytest.raises(ValueError, match=r"weight of shape \(3,\) does not broadcast .* \(2,\)"):
        nn.binary_cross_entropy(tg.tensor([0.5, 0.5]), [0.0, 1.0], weight=[1.0, 2.0, 3.0])


def test_binary_cross_entropy_with_logits_weights():
    x = np.array([[0.3, -1.2], [2.0, 0.1]])
    t = np.array([[1.0, 0.0], [0.5, 1.0]])
    weight, pos_weight = np.array([2.0, 0.5]), np.array([3.0, 1.5])
    p = 1 / (1 + np.exp(-x))
    expected = -weight * (pos_weight * t * np.log(p) + (1 - t) * np.log(1 - p))
    out = nn.binary_cross_entropy_with_logits(x, t, weight, "none", pos_weight)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)
    gradcheck(lambda x: nn.binary_cross_entropy_with_logits(x, t, weight, "sum", pos_weight), [x])


def nll_numpy(log_probs, labels, weight, ignore_index):
    """Per label ``-w[y] log p[y]`` and the weight (0 where ignored), classes on axis 1."""
    moved = np.moveaxis(log_probs, 1, -1).reshape(-1, log_probs.shape[1])
    flat = labels.reshape(-1)
    kept = flat != ignore_index
    safe = np.where(kept, flat, 0)
    w = (np.ones(moved.shape[1]) if weight is None else weight)[safe] * kept
    return -moved[np.arange(len(flat)), safe] * w, w


@st.composite
def labelled(draw):
    """(logits (N, C[, d]), labels with some ignored, class weights or None)."""
    n, classes = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    extra = draw(st.sampled_from([(), (2,)]))
    logits = draw(tst.arrays((n, classes, *extra)), label="logits")
    labels = draw(tst.hnp.arrays(np.int64, (n, *extra), elements=st.integers(-1, classes - 1)))
    labels[(0,) * labels.ndim] = max(labels[(0,) * labels.ndim], 0)  # one label kept at least
    weight = draw(st.one_of(st.none(), tst.arrays((classes,), domain="positive")))
    return logits, labels, weight


@given(case=labelled(), reduction=st.sampled_from(["mean", "sum", "none"]), data=st.data())
def test_nll_loss_and_cross_entropy_with_weights_and_ignore_index(backend, case, reduction, data):
    logits, labels, weight = case
    smoothing = data.draw(st.sampled_from([0.0, 0.25]), label="label_smoothing")
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    losses, w = nll_numpy(log_probs, labels, weight, ignore_index=-1)
    # Label smoothing, PyTorch's formula: (1 - eps) nll + eps/C * sum_c(-w_c log p_c).
    moved = np.moveaxis(log_probs, 1, -1).reshape(-1, logits.shape[1])
    smooth = -(moved * (1 if weight is None else weight)).sum(axis=1) * (labels.reshape(-1) != -1)
    smoothed = (1 - smoothing) * losses + smoothing / logits.shape[1] * smooth
    expected = {
        "mean": smoothed.sum() / w.sum(),
        "sum": smoothed.sum(),
        "none": smoothed.reshape(labels.shape),
    }
    x = backend.tensor(logits)
    options = {"weight": weight, "ignore_index": -1, "reduction": reduction}
    out = nn.cross_entropy(x, labels, label_smoothing=smoothing, **options)
    np.testing.assert_allclose(out.numpy(), expected[reduction], rtol=1e-10, atol=1e-12)
    gradcheck(lambda x: nn.cross_entropy(x, labels, label_smoothing=smoothing, **options), [x])
    plain = {
        "mean": losses.sum() / w.sum(),
        "sum": losses.sum(),
        "none": losses.reshape(labels.shape),
    }
    nll = nn.nll_loss(backend.tensor(log_probs), labels, **options)
    np.testing.assert_allclose(nll.numpy(), plain[reduction], rtol=1e-10, atol=1e-12)


def test_cross_entropy_with_probability_targets():
    logits = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0]])
    p = np.array([[0.2, 0.7, 0.1], [1.0, 0.0, 0.0]])
    log_probs = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(
        nn.cross_entropy(logits, p, reduction="none").numpy(), -(p * log_probs).sum(axis=1)
    )
    smoothed = p * 0.9 + 0.1 / 3
    weight = np.array([1.0, 2.0, 0.5])
    np.testing.assert_allclose(
        nn.cross_entropy(logits, p, weight=weight, label_smoothing=0.1).numpy(),
        -(smoothed * log_probs * weight).sum(axis=1).mean(),
    )
    gradcheck(lambda x, t: nn.cross_entropy(x, t), [logits, p])  # the targets get a gradient


def test_a_batch_with_every_label_ignored_is_nan_with_a_zero_gradient():
    x = tg.tensor([[1.0, 2.0], [0.0, 3.0]])
    assert np.isnan(nn.cross_entropy(x, [-100, -100]).item())
    np.testing.assert_array_equal(
        tg.grad(lambda x: nn.cross_entropy(x, [-100, -100]))(x).numpy(), 0
    )
    assert nn.cross_entropy(x, [-100, -100], reduction="sum").item() == 0.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: nn.cross_entropy(np.zeros((2, 3)), [0, 1], weight=[1.0, 2.0]),
         r"cross_entropy: weight of shape \(2,\), expected one per class \(3,\)"),
        (lambda: nn.cross_entropy(np.zeros((2, 3)), [0, 5], ignore_index=5), None),
        (lambda: nn.cross_entropy(np.zeros((2, 3)), [0, -100], ignore_index=5),
         r"labels range over \[-100, 0\], outside \[0, 3\) .* \(ignore_index=5 aside\)"),
        (lambda: nn.cross_entropy(np.zeros((2, 3, 4)), np.zeros((2, 3), int)),
         r"labels of shape \(2, 3\) do not match logits of shape \(2, 3, 4\); expected .*4\)"),
        (lambda: nn.cross_entropy(np.zeros((2, 3)), [0, 1], label_smoothing=1.5),
         r"label_smoothing must be in \[0, 1\], got 1.5"),
        (lambda: nn.nll_loss(np.zeros((2, 3)), [0.0, 1.0]), r"nll_loss: labels must be integer"),
        (lambda: nn.l1_loss(tg.zeros((3, 1)), tg.zeros(3)), r"l1_loss: pred of shape \(3, 1\)"),
        (lambda: nn.huber_loss(tg.zeros(3), tg.zeros(3), delta=0.0), "delta must be > 0"),
        (lambda: nn.smooth_l1_loss(tg.zeros(3), tg.zeros(3), beta=-1.0), "beta must be >= 0"),
        (lambda: nn.l1_loss(tg.zeros(2), ["a", "b"]), "l1_loss: target must be real numbers"),
        (lambda: nn.cross_entropy(np.zeros((2, 3)), [0, 1], "sum"),
         "the argument after the target is the weight, as in PyTorch: pass reduction='sum'"),
    ],
)  # fmt: skip
def test_loss_errors_name_the_loss_and_shapes(call, message):
    if message is None:  # not an error: the label equal to ignore_index is dropped
        assert np.isfinite(call().item())
        return
    with pytest.raises((ValueError, TypeError), match=message):
        call()
