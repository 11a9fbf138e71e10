"""tapegrad/nn/normalization.py: batch normalisation against its formula, the running
statistics against PyTorch's update rule worked by hand, modes, state_dict, gradients."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def normalised(x, eps=1e-5):
    """Each channel (axis 1) to zero mean, unit biased variance, in NumPy."""
    axes = (0, *range(2, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    return (x - mean) / np.sqrt(x.var(axis=axes, keepdims=True) + eps)


@given(
    shape=st.sampled_from([(3, 2), (2, 3, 4), (2, 2, 3, 2)]),
    data=st.data(),
)
def test_batch_norm_training_value_and_gradient(backend, shape, data):
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    w = backend.tensor(data.draw(tst.arrays((shape[1],)), label="w"))
    b = backend.tensor(data.draw(tst.arrays((shape[1],)), label="b"))
    expand = (1, shape[1]) + (1,) * (len(shape) - 2)
    out = nn.batch_norm(x, None, None, w, b, training=True)
    expected = normalised(x.numpy()) * w.numpy().reshape(expand) + b.numpy().reshape(expand)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-10)
    gradcheck(lambda x, w, b: nn.batch_norm(x, None, None, w, b, True), [x, w, b], atol=1e-4)


@settings(max_examples=5)
@given(data=st.data())
def test_batch_norm_second_derivative(data):
    x = tg.tensor(data.draw(tst.arrays((4, 2)), label="x"))
    gradgradcheck(lambda x: tg.tanh(nn.batch_norm(x, None, None, training=True)), [x], atol=1e-4)


def test_running_statistics_follow_pytorchs_rule():
    bn = nn.BatchNorm1d(2, momentum=0.25, dtype=np.float64)
    batches = [np.array([[1.0, 0.0], [3.0, 4.0]]), np.array([[2.0, 2.0], [2.0, 8.0], [5.0, 5.0]])]
    bn(batches[0])
    # By hand: batch means (2, 2), unbiased variances (2, 8); running stats start at 0 and 1.
    np.testing.assert_allclose(bn.running_mean.numpy(), [0.5, 0.5])
    np.testing.assert_allclose(bn.running_var.numpy(), [0.75 + 0.5, 0.75 + 2.0])
    mean, var = np.zeros(2), np.ones(2)
    for k, x in enumerate(batches):
        if k:
            bn(x)
        # running = (1 - momentum) running + momentum * batch; the variance unbiased (n - 1).
        mean = 0.75 * mean + 0.25 * x.mean(axis=0)
        var = 0.75 * var + 0.25 * x.var(axis=0, ddof=1)
    np.testing.assert_allclose(bn.running_mean.numpy(), mean, rtol=1e-14)
    np.testing.assert_allclose(bn.running_var.numpy(), var, rtol=1e-14)
    assert bn.num_batches_tracked.item() == 2
    bn.eval()
    x = np.array([[0.0, 1.0]])
    np.testing.assert_allclose(bn(x).numpy(), (x - mean) / np.sqrt(var + 1e-5), rtol=1e-14)
    assert bn.num_batches_tracked.item() == 2  # evaluation leaves the statistics alone


def test_cumulative_average_with_momentum_none():
    bn = nn.BatchNorm1d(1, momentum=None, dtype=np.float64)
    batches = [np.array([[0.0], [2.0]]), np.array([[4.0], [8.0]]), np.array([[1.0], [1.0]])]
    for x in batches:
        bn(x)
    np.testing.assert_allclose(bn.running_mean.numpy(), [np.mean([1.0, 6.0, 1.0])])
    # The first batch replaces the initial values (factor 1/1); unbiased variances 2, 8, 0.
    np.testing.assert_allclose(bn.running_var.numpy(), [np.mean([2.0, 8.0, 0.0])])


def test_batch_norm_2d_layer_parameters_state_and_gradients():
    bn = nn.BatchNorm2d(3, dtype=np.float64)
    assert bn.weight.dtype == np.float64 and bn.num_batches_tracked.dtype == np.int64
    assert [v.name for v in bn.trainable_variables] == ["weight", "bias"]
    assert list(bn.state_dict()) == [
        "weight",
        "bias",
        "running_mean",
        "running_var",
        "num_batches_tracked",
    ]
    bn.weight.assign([1.0, 2.0, -1.0])
    x = tg.random.normal((2, 3, 2, 2))
    check_variable_gradients(lambda: bn(x), bn.trainable_variables)
    bn.eval()
    check_variable_gradients(lambda: bn(x), bn.trainable_variables)
    gradcheck(bn, [x])
    # The running statistics round-trip through state_dict into a fresh layer.
    fresh = nn.BatchNorm2d(3, dtype=np.float64).load_state_dict(bn.state_dict()).eval()
    np.testing.assert_array_equal(fresh(x).numpy(), bn(x).numpy())


def test_without_running_statistics_or_affine():
    bn = nn.BatchNorm1d(2, affine=False, track_running_stats=False)
    assert bn.variables == [] and bn.running_mean is None
    x = np.array([[1.0, 2.0], [3.0, 6.0]], dtype=np.float32)
    bn.eval()  # no running statistics: the batch's are used in evaluation too
    np.testing.assert_allclose(bn(x).numpy(), normalised(x), rtol=1e-5)


def test_batch_norm_errors_name_the_shapes():
    with pytest.raises(
        ValueError, match=r"BatchNorm2d: expected input of shape \(N, C, H, W\), got \(2, 3\)"
    ):
        nn.BatchNorm2d(3)(tg.ones((2, 3)))
    with pytest.raises(
        ValueError, match=r"input of shape \(2, 4\) has 4 channels \(axis 1\), the layer 3"
    ):
        nn.BatchNorm1d(3)(tg.ones((2, 4)))
    with pytest.raises(ValueError, match="more than 1 value per channel when training"):
        nn.BatchNorm1d(3)(tg.ones((1, 3)))
    with pytest.raises(
        ValueError, match=r"weight of shape \(2,\) does not fit input of shape \(4, 3\)"
    ):
        nn.batch_norm(tg.ones((4, 3)), None, None, weight=tg.ones(2))
    bn = nn.BatchNorm1d(3)
    nn.BatchNorm1d(3).eval()(tg.ones((1, 3)))  # one example is fine in evaluation
    assert bn.num_batches_tracked.item() == 0
