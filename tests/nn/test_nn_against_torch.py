"""The layers against PyTorch itself, where it is installed (pip install torch==2.13.0):
PyTorch's weights loaded (transposed where tapegrad multiplies on the right) give
PyTorch's outputs, states and running statistics. Skipped without torch."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn

torch = pytest.importorskip("torch")
F = torch.nn.functional
# PyTorch warns that kl_div's "mean" will change; it is the mean we compare against.
pytestmark = pytest.mark.filterwarnings("ignore:reduction. 'mean' divides:UserWarning")


@pytest.fixture(autouse=True)
def float64():
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    yield
    torch.set_default_dtype(previous)


def same(ours, theirs, rtol=1e-10):
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs.detach()), rtol=rtol, atol=1e-12)


def load(ours, theirs):
    """PyTorch's parameters into ours, by name; matrices transposed."""
    assert [n for n, _ in ours.named_variables() if "running" not in n and "batches" not in n] == [
        n for n, _ in theirs.named_parameters()
    ]
    variables = dict(ours.named_variables())
    transposed = isinstance(ours, (nn.RNN, nn.LSTM, nn.GRU, nn.MultiheadAttention))
    for name, p in theirs.named_parameters():
        value = np.asarray(p.detach())
        variables[name].assign(value.T if transposed and value.ndim == 2 else value)


RNG = np.random.default_rng(0)
X = RNG.standard_normal((3, 4, 5, 6)) * 3


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        (nn.GELU(), torch.nn.GELU()), (nn.GELU("tanh"), torch.nn.GELU("tanh")),
        (nn.LeakyReLU(0.2), torch.nn.LeakyReLU(0.2)), (nn.ELU(0.7), torch.nn.ELU(0.7)),
        (nn.SiLU(), torch.nn.SiLU()), (nn.Softplus(2.0, 3.0), torch.nn.Softplus(2.0, 3.0)),
        (nn.Softmax(1), torch.nn.Softmax(1)), (nn.LogSoftmax(-1), torch.nn.LogSoftmax(-1)),
        (nn.AvgPool2d(3, 2, 1, False, False), torch.nn.AvgPool2d(3, 2, 1, False, False)),
        (nn.AdaptiveAvgPool2d((2, 4)), torch.nn.AdaptiveAvgPool2d((2, 4))),
        (nn.AdaptiveAvgPool2d((4, 5)), torch.nn.AdaptiveAvgPool2d((4, 5))),
    ],
    ids=repr,
)  # fmt: skip
def test_parameterless_layers(ours, theirs):
    same(ours(X), theirs(torch.tensor(X)))
    z = np.array([0.0, -1.5, 2.0])[:, None, None, None] * np.ones((3, 4, 5, 6))
    grad = tg.grad(lambda a: tg.sum(ours(a) ** 2))(z)
    tz = torch.tensor(z, requires_grad=True)
    (theirs(tz) ** 2).sum().backward()
    same(grad, tz.grad)


@pytest.mark.parametrize(
    "options",
    [{}, {"stride": 2, "padding": 1, "output_padding": 1},
     {"stride": (2, 3), "padding": (1, 2), "output_padding": (1, 0), "dilation": (1, 2)},
     {"dilation": 3, "output_padding": 2, "padding": 1}],
    ids=str,
)  # fmt: skip
def test_conv_transpose2d(options):
    theirs = torch.nn.ConvTranspose2d(4, 2, (3, 2), **options)
    ours = nn.ConvTranspose2d(4, 2, (3, 2), dtype=np.float64, **options)
    load(ours, theirs)
    same(ours(X), theirs(torch.tensor(X)))


def test_conv1d():
    theirs = torch.nn.Conv1d(3, 4, 3, stride=2, padding=2, dilation=2)
    ours = nn.Conv1d(3, 4, 3, stride=2, padding=2, dilation=2, dtype=np.float64)
    load(ours, theirs)
    x = RNG.standard_normal((2, 3, 11))
    same(ours(x), theirs(torch.tensor(x)))


@pytest.mark.parametrize(
    "options", [{}, {"momentum": None}, {"affine": False, "momentum": 0.3}], ids=str
)
def test_batch_norm(options):
    theirs, ours = (
        torch.nn.BatchNorm2d(4, **options),
        nn.BatchNorm2d(4, dtype=np.float64, **options),
    )
    for _ in range(3):
        x = RNG.standard_normal((3, 4, 2, 5)) * 2 + 1
        same(ours(x), theirs(torch.tensor(x)))
    expected = theirs.state_dict()
    got = ours.state_dict()
    assert list(got) == list(expected)
    for key in expected:
        np.testing.assert_allclose(got[key], np.asarray(expected[key]), rtol=1e-12)
    ours.eval(), theirs.eval()
    same(ours(X[:, :, :2]), theirs(torch.tensor(X[:, :, :2])))


@pytest.mark.parametrize("kind", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize(
    "options", [{}, {"num_layers": 2, "bidirectional": True, "batch_first": True}], ids=str
)
def test_recurrent(kind, options):
    theirs = getattr(torch.nn, kind)(3, 4, **options)
    ours = getattr(nn, kind)(3, 4, dtype=np.float64, **options)
    load(ours, theirs)
    x = RNG.standard_normal((2, 5, 3))
    layers = 2 * options.get("num_layers", 1) if options.get("bidirectional") else 1
    h0 = RNG.standard_normal((layers, 5 if not options.get("batch_first") else 2, 4))
    hx = (h0, h0 + 1) if kind == "LSTM" else h0
    t_hx = tuple(map(torch.tensor, hx)) if kind == "LSTM" else torch.tensor(hx)
    (out, state), (t_out, t_state) = ours(x, hx), theirs(torch.tensor(x), t_hx)
    same(out, t_out)
    for a, b in zip(state if kind == "LSTM" else [state], t_state if kind == "LSTM" else [t_state]):
        same(a, b)


@pytest.mark.parametrize("options", [{}, {"batch_first": True}, {"kdim": 3, "vdim": 7}], ids=str)
def test_multihead_attention(options):
    theirs = torch.nn.MultiheadAttention(8, 2, **options)
    ours = nn.MultiheadAttention(8, 2, dtype=np.float64, **options)
    load(ours, theirs)
    n, length, source = 3, 4, 5
    shape = (
        (lambda n, s, e: (n, s, e)) if options.get("batch_first") else (lambda n, s, e: (s, n, e))
    )
    q = RNG.standard_normal(shape(n, length, 8))
    k = RNG.standard_normal(shape(n, source, options.get("kdim", 8)))
    v = RNG.standard_normal(shape(n, source, options.get("vdim", 8)))
    padding = RNG.random((n, source)) > 0.7
    padding[:, 0] = False
    banned = RNG.random((length, source)) > 0.7
    banned[:, 0] = False
    for masks in ({}, {"key_padding_mask": padding, "attn_mask": banned}):
        out, weights = ours(q, k, v, **masks)
        t_out, t_weights = theirs(
            *map(torch.tensor, (q, k, v)), **{m: torch.tensor(a) for m, a in masks.items()}
        )
        same(out, t_out, 1e-9)
        same(weights, t_weights, 1e-9)


@pytest.mark.parametrize("mask", ["none", "causal", "bool", "float"])
def test_scaled_dot_product_attention(mask):
    q, k, v = (
        RNG.standard_normal((2, 4, 5)),
        RNG.standard_normal((2, 6, 5)),
        RNG.standard_normal((2, 6, 3)),
    )
    options = {
        "none": {},
        "causal": {"is_causal": True},
        "float": {"attn_mask": RNG.standard_normal((4, 6))},
    }
    allowed = RNG.random((4, 6)) > 0.3
    allowed[:, 0] = True
    options["bool"] = {"attn_mask": allowed}
    ours = nn.scaled_dot_product_attention(q, k, v, **options[mask])
    t_options = {
        key: torch.tensor(a) if isinstance(a, np.ndarray) else a for key, a in options[mask].items()
    }
    same(ours, F.scaled_dot_product_attention(*map(torch.tensor, (q, k, v)), **t_options))


def _value_and_grads(ours, theirs, *arrays):
    grads = tg.grad(lambda *a: tg.sum(ours(*a)), argnums=tuple(range(len(arrays))))(*arrays)
    tensors = [torch.tensor(a, requires_grad=True) for a in arrays]
    value = theirs(*tensors)
    value.sum().backward()
    same(ours(*arrays), value, 1e-9)
    for g, t in zip(grads, tensors):
        same(g, t.grad, 1e-9)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize(
    "options",
    [{}, {"label_smoothing": 0.3}, {"weight": [0.5, 2.0, 1.0, 0.3]}, {"ignore_index": 2},
     {"weight": [0.5, 2.0, 1.0, 0.3], "label_smoothing": 0.2}],
    ids=str,
)  # fmt: skip
def test_cross_entropy_and_nll_loss(reduction, options):
    t_options = {k: torch.tensor(v) if isinstance(v, list) else v for k, v in options.items()}
    for shape, label_shape in (((5, 4), (5,)), ((3, 4, 2, 3), (3, 2, 3))):
        logits = RNG.standard_normal(shape)
        labels = RNG.integers(0, 4, label_shape)
        labels.flat[0] = options.get("ignore_index", -100)
        ours = [nn.cross_entropy] + ([nn.nll_loss] if "label_smoothing" not in options else [])
        theirs = [F.cross_entropy, F.nll_loss]
        for mine, torchs in zip(ours, theirs):
            _value_and_grads(
                lambda x, mine=mine, y=labels: mine(x, y, reduction=reduction, **options),
                lambda x, torchs=torchs, y=labels: torchs(
                    x, torch.tensor(y), reduction=reduction, **t_options
                ),
                logits,
            )


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_pointwise_and_binary_losses(reduction):
    a, b = RNG.standard_normal((4, 5)), RNG.standard_normal((4, 5))
    p, q = RNG.uniform(0.05, 0.95, (2, 4, 5))
    w, pos = RNG.random(5), RNG.random(5) * 3
    cases = [
        (lambda x, y: nn.l1_loss(x, y, reduction),
         lambda x, y: F.l1_loss(x, y, reduction=reduction), a, b),
        (lambda x, y: nn.smooth_l1_loss(x, y, reduction, 0.5),
         lambda x, y: F.smooth_l1_loss(x, y, reduction=reduction, beta=0.5), a, b),
        (lambda x, y: nn.huber_loss(x, y, reduction, 2.0),
         lambda x, y: F.huber_loss(x, y, reduction=reduction, delta=2.0), a, b),
        (lambda x, y: nn.kl_div(x, y, reduction), lambda x, y: F.kl_div(x, y, reduction=reduction),
         np.log(q), p),
        (lambda x, y: nn.kl_div(x, y, reduction, log_target=True),
         lambda x, y: F.kl_div(x, y, reduction=reduction, log_target=True), np.log(q), np.log(p)),
        (lambda x, y: nn.binary_cross_entropy(x, y, w, reduction),
         lambda x, y: F.binary_cross_entropy(x, y, torch.tensor(w), reduction=reduction), q, p),
        (lambda x, y: nn.binary_cross_entropy_with_logits(x, y, w, reduction, pos),
         lambda x, y: F.binary_cross_entropy_with_logits(
             x, y, torch.tensor(w), reduction=reduction, pos_weight=torch.tensor(pos)), a, p),
    ]  # fmt: skip
    for ours, theirs, x, y in cases:
        _value_and_grads(ours, theirs, x, y)
