"""TensorFlow's names (docs/coming-from.md#tensorflow)."""

from tapegrad.peers.rows import Name, Table

TABLE = Table(
    "TensorFlow",
    "tensorflow",
    (
        Name(
            "tg",
            "GradientTape",
            "tg.GradientTape",
            "persistent=, watch_accessed_variables=",
            same=True,
        ),
        Name("tg", "Variable", "tg.Variable", same=True),
        Name("tg", "stop_gradient", "tg.stop_gradient", same=True),
        Name("tg", "custom_gradient", "tg.custom_gradient", same=True),
        Name(
            "tg",
            "constant",
            "tg.tensor",
            "tg.tensor(value, dtype=None, device=None): "
            "there is no shape= (broadcast with tg.broadcast_to) or name=",
        ),
        Name(
            "tg",
            "convert_to_tensor",
            "tg.asarray",
            "tg.asarray(value, dtype=None) (no dtype_hint= or name=)",
        ),
        Name("tg", "reduce_sum", "tg.sum", "NumPy's names: tg.sum(x, axis=None, keepdims=False)"),
        Name(
            "tg", "reduce_mean", "tg.mean", "NumPy's names: tg.mean(x, axis=None, keepdims=False)"
        ),
        Name("tg", "reduce_max", "tg.max", "NumPy's names: tg.max(x, axis=None)"),
        Name("tg", "reduce_min", "tg.min", "NumPy's names: tg.min(x, axis=None)"),
        Name("tg", "reduce_prod", "tg.prod", "NumPy's names: tg.prod(x, axis=None)"),
        Name("tg", "reduce_logsumexp", "tg.logsumexp", "tg.logsumexp(x, axis=None)"),
        Name(
            "tg",
            "function",
            "tg.compile",
            "tg.compile records the tape once per input "
            "signature and replays it (no graph, no AutoGraph)",
        ),
        Name(
            "tg",
            "math",
            "tg",
            "the ops are at the top level under NumPy's names (tg.log for tf.math.log)",
        ),
        Name(
            "tg",
            "keras",
            "tg.nn",
            "layers and losses are in tg.nn (PyTorch's names: "
            "tg.nn.Linear for Dense), optimizers in tg.optim (learning_rate= is accepted)",
        ),
        Name("tg", "Module", "tg.nn.Module", "trainable_variables, as tf.Module's"),
    ),
)
