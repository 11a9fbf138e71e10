"""tapegrad/nn/attention.py: attention against NumPy written from the formula
softmax(q k^T / sqrt(E) + mask) v, PyTorch's mask conventions, gradients."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def attention(q, k, v, additive=0.0, scale=None):
    scores = q @ k.swapaxes(-1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    scores = scores + additive
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v, weights


@given(
    batch=tst.shapes(max_dims=2, max_side=2),
    sizes=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 2)),
    mask=st.sampled_from(["none", "causal", "bool", "float"]),
    data=st.data(),
)
def test_scaled_dot_product_attention(backend, batch, sizes, mask, data):
    length, source, e, ev = sizes
    q = backend.tensor(data.draw(tst.arrays((*batch, length, e)), label="q"))
    k = backend.tensor(data.draw(tst.arrays((*batch, source, e)), label="k"))
    v = backend.tensor(data.draw(tst.arrays((*batch, source, ev)), label="v"))
    options, additive = {}, 0.0
    if mask == "causal":
        options["is_causal"] = True
        additive = np.where(np.tril(np.ones((length, source), bool)), 0.0, -np.inf)
    elif mask == "bool":
        allowed = data.draw(tst.hnp.arrays(bool, (length, source)), label="allowed")
        allowed[:, 0] = True  # every query attends to something (else NaN, as in PyTorch)
        options["attn_mask"], additive = allowed, np.where(allowed, 0.0, -np.inf)
    elif mask == "float":
        additive = data.draw(tst.arrays((length, source)), label="additive")
        options["attn_mask"] = additive
    if mask == "causal" and source < length:
        return  # rows with no key to attend to are NaN: nothing to check by differences
    out = nn.scaled_dot_product_attention(q, k, v, **options)
    expected, _ = attention(q.numpy(), k.numpy(), v.numpy(), additive)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10, atol=1e-12)
    gradcheck(lambda q, k, v: nn.scaled_dot_product_attention(q, k, v, **options), [q, k, v])


def test_attention_scale_second_derivative_and_nan_for_fully_masked_rows():
    q, k, v = (tg.random.normal((2, 3, 2)) for _ in range(3))
    out = nn.scaled_dot_product_attention(q, k, v, scale=0.5)
    np.testing.assert_allclose(
        out.numpy(), attention(q.numpy(), k.numpy(), v.numpy(), scale=0.5)[0]
    )
    gradgradcheck(lambda q, k, v: nn.scaled_dot_product_attention(q, k, v), [q, k, v])
    nothing = np.array([[False, False, False], [True, True, True], [True, False, True]])
    assert np.isnan(nn.scaled_dot_product_attention(q, k, v, nothing).numpy()[:, 0]).all()


def mha_reference(layer, query, key, value, additive=0.0):
    """Batch-first NumPy multi-head attention from the layer's weights."""
    e, heads = layer.embed_dim, layer.num_heads
    w, b = layer.in_proj_weight.numpy(), layer.in_proj_bias.numpy()
    q, k, v = (
        x @ w[:, i * e : (i + 1) * e] + b[i * e : (i + 1) * e]
        for i, x in enumerate((query, key, value))
    )
    split = lambda x: x.reshape(x.shape[0], x.shape[1], heads, e // heads).swapaxes(1, 2)  # noqa: E731
    out, weights = attention(split(q), split(k), split(v), additive)
    out = out.swapaxes(1, 2).reshape(query.shape[0], query.shape[1], e)
    return out @ layer.out_proj.weight.numpy() + layer.out_proj.bias.numpy(), weights


def test_multihead_attention_against_the_formula_and_its_masks():
    layer = nn.MultiheadAttention(6, 3, batch_first=True, dtype=np.float64)
    layer.in_proj_bias.assign(tg.random.normal((18,)))
    layer.out_proj.bias.assign(tg.random.normal((6,)))
    rng = np.random.default_rng(0)
    q, k, v = (
        rng.standard_normal((2, 4, 6)),
        rng.standard_normal((2, 5, 6)),
        rng.standard_normal((2, 5, 6)),
    )
    out, weights = layer(q, k, v)
    expected, expected_weights = mha_reference(layer, q, k, v)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    np.testing.assert_allclose(weights.numpy(), expected_weights.mean(axis=1), rtol=1e-10)
    # PyTorch's convention here: True means "do not attend".
    padding = np.array([[False, False, False, True, True], [False] * 5])
    banned = rng.random((4, 5)) > 0.6
    banned[:, 0] = False
    additive = np.where(banned, -np.inf, 0.0) + np.where(padding, -np.inf, 0.0)[:, None, None, :]
    out, weights = layer(
        q, k, v, key_padding_mask=padding, attn_mask=banned, average_attn_weights=False
    )
    expected, expected_weights = mha_reference(layer, q, k, v, additive)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    np.testing.assert_allclose(weights.numpy(), expected_weights, rtol=1e-10)
    float_mask = rng.standard_normal((2 * 3, 4, 5))
    out, _ = layer(q, k, v, attn_mask=float_mask, need_weights=False)
    np.testing.assert_allclose(
        out.numpy(), mha_reference(layer, q, k, v, float_mask.reshape(2, 3, 4, 5))[0], rtol=1e-10
    )
    # Sequence-first layout, and is_causal alone applies the causal mask.
    layer.batch_first = False
    causal = np.where(np.tril(np.ones((4, 4), bool)), 0.0, -np.inf)
    out, _ = layer(q[:, :, :].swapaxes(0, 1), q.swapaxes(0, 1), q.swapaxes(0, 1), is_causal=True)
    np.testing.assert_allclose(
        out.numpy().swapaxes(0, 1), mha_reference(layer, q, q, q, causal)[0], rtol=1e-10
    )


def test_multihead_attention_parameters_and_gradients():
    layer = nn.MultiheadAttention(4, 2, dtype=np.float64)
    names = [name for name, _ in layer.named_variables()]
    assert names == ["in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"]
    assert layer.in_proj_weight.shape == (4, 12)  # PyTorch's (3E, E), transposed
    assert not layer.in_proj_bias.numpy().any() and not layer.out_proj.bias.numpy().any()
    bound = math.sqrt(6 / (4 + 12))  # Xavier-uniform on the (3E, E) matrix
    assert np.abs(layer.in_proj_weight.numpy()).max() <= bound
    x = tg.random.normal((3, 2, 4))
    check_variable_gradients(lambda: layer(x, x, x)[0], layer.trainable_variables)
    gradcheck(lambda q, k: layer(q, k, k)[0], [x, tg.random.normal((2, 2, 4))])
    separate = nn.MultiheadAttention(4, 2, kdim=3, vdim=5)
    assert [n for n, _ in separate.named_variables()][:3] == [
        "q_proj_weight",
        "k_proj_weight",
        "v_proj_weight",
    ]
    assert separate.k_proj_weight.shape == (3, 4) and separate.v_proj_weight.shape == (5, 4)
    out, weights = separate(tg.ones((2, 1, 4)), tg.ones((6, 1, 3)), tg.ones((6, 1, 5)))
    assert out.shape == (2, 1, 4) and weights.shape == (1, 2, 6)
    out, weights = separate(tg.ones((2, 4)), tg.ones((6, 3)), tg.ones((6, 5)))  # unbatched
    assert out.shape == (2, 4) and weights.shape == (2, 6)


def test_attention_errors():
    with pytest.raises(ValueError, match="embed_dim 6 must be divisible by num_heads 4"):
        nn.MultiheadAttention(6, 4)
    layer = nn.MultiheadAttention(4, 2)
    with pytest.raises(ValueError, match=r"key of shape \(3, 2, 5\), expected \(L, N, E\)"):
        layer(tg.ones((3, 2, 4)), tg.ones((3, 2, 5)), tg.ones((3, 2, 4)))
    with pytest.raises(ValueError, match=r"key_padding_mask of shape \(3, 3\), expected \(2, 3\)"):
        x = tg.ones((3, 2, 4))
        layer(x, x, x, key_padding_mask=np.zeros((3, 3), bool))
    with pytest.raises(ValueError, match="attn_mask or is_causal, not both"):
        nn.scaled_dot_product_attention(x, x, x, np.ones((3, 3), bool), is_causal=True)
    with pytest.raises(ValueError, match=r"query \(2, 3\), key \(2, 4\) and value"):
        nn.scaled_dot_product_attention(tg.ones((2, 3)), tg.ones((2, 4)), tg.ones((2, 4)))
