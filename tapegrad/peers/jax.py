"""JAX's names (docs/coming-from.md#jax)."""

from tapegrad.peers.rows import Name, Table

TABLE = Table(
    "JAX",
    "jax",
    (
        Name("tg", "grad", "tg.grad", "JAX's argnums and has_aux", same=True),
        Name("tg", "value_and_grad", "tg.value_and_grad", same=True),
        Name("tg", "jvp", "tg.jvp", same=True),
        Name("tg", "vjp", "tg.vjp", same=True),
        Name("tg", "hessian", "tg.hessian", "forward over reverse, as JAX's", same=True),
        Name("tg", "jacfwd", "tg.jacfwd", "one forward pass per input element", same=True),
        Name("tg", "jacrev", "tg.jacrev", "one reverse sweep per output element", same=True),
        Name("tg", "linearize", "tg.linearize", same=True),
        Name("tg", "vmap", "tg.vmap", "in_axes, out_axes, axis_size", same=True),
        Name("tg", "numpy", "tg.numpy", "import tapegrad.numpy as jnp", same=True),
        Name(
            "tg",
            "jit",
            "tg.compile",
            "tg.compile records the function's tape once per input "
            "signature and replays it (no XLA, no static_argnums)",
        ),
        Name(
            "tg",
            "device_put",
            "tg.asarray",
            "tg.asarray(x) with tg.device_scope(device), or x.to(device)",
        ),
        Name("tg", "devices", "tg.default_device", "tg.default_device() and tg.set_default_device"),
        Name(
            "tg",
            "lax",
            "tg",
            "the primitives are tapegrad's ops under NumPy's names at the top "
            "level (tg.stop_gradient for lax.stop_gradient); no control-flow primitives: "
            "Python's if and for are recorded as they run",
        ),
        Name(
            "tg",
            "tree_map",
            "plain Python",
            "no pytree utilities; the transforms accept and "
            "return lists, tuples and dicts of arrays: map over them in Python",
        ),
        Name(
            "tg",
            "tree_util",
            "plain Python",
            "no pytree utilities; the transforms accept and "
            "return lists, tuples and dicts of arrays",
        ),
        Name(
            "tg",
            "tree",
            "plain Python",
            "no pytree utilities; the transforms accept and "
            "return lists, tuples and dicts of arrays",
        ),
        Name(
            "tg",
            "custom_vjp",
            "tg.custom_gradient",
            "@tg.custom_gradient: the function returns (value, grad_fn)",
        ),
        Name(
            "tg",
            "remat",
            "tg.checkpoint",
            "tg.checkpoint(f, *args) calls f now and recomputes it in the reverse sweep",
        ),
        Name(
            "tg.random",
            "PRNGKey",
            "tg.random.Generator",
            "tapegrad's randomness is stateful, "
            "as NumPy's: tg.random.Generator(seed) is a stream, tg.random.seed(n) resets the "
            "default one",
        ),
        Name(
            "tg.random",
            "key",
            "tg.random.Generator",
            "tapegrad's randomness is stateful: tg.random.Generator(seed)",
        ),
        Name(
            "tg.random",
            "split",
            "tg.random.Generator",
            "no keys to split: make one tg.random.Generator(seed) per stream",
        ),
        Name(
            "Tensor",
            "block_until_ready",
            "Tensor.numpy",
            "ops run eagerly; x.numpy() waits for a GPU result",
        ),
    ),
)
