"""PyTorch's names (docs/coming-from.md#pytorch)."""

from tapegrad.peers.rows import Name, Table

_TAPE = "tapegrad differentiates with a tape"

TABLE = Table(
    "PyTorch",
    "pytorch",
    (
        Name("tg", "tensor", "tg.tensor", same=True),
        Name("tg", "no_grad", "tg.no_grad", "with or without parentheses", same=True),
        Name("tg", "zeros_like", "tg.zeros_like", same=True),
        Name("tg", "compile", "tg.compile", same=True),
        Name(
            "tg",
            "manual_seed",
            "tg.random.seed",
            "one default stream feeds tg.random, "
            "nn.init and Dropout; it returns None, not a Generator",
            alias=True,
        ),
        Name(
            "tg", "from_numpy", "tg.asarray", "the Tensor shares the ndarray's memory", alias=True
        ),
        Name(
            "tg",
            "cat",
            "tg.concatenate",
            "tg.concatenate(tensors, axis=0): NumPy's name, and NumPy's axis= for PyTorch's dim=",
        ),
        Name("tg", "unsqueeze", "tg.expand_dims", "tg.expand_dims(x, axis)"),
        Name("tg", "permute", "tg.transpose", "tg.transpose(x, axes)"),
        Name("tg", "randn", "tg.random.normal", "tg.random.normal(shape)"),
        Name("tg", "rand", "tg.random.uniform", "tg.random.uniform(shape)"),
        Name("tg", "numel", "Tensor.size", "x.size is NumPy's element count"),
        Name(
            "tg",
            "autograd",
            "tg.GradientTape",
            f"{_TAPE}: record under "
            "`with tg.GradientTape() as tape:` and call tape.gradient(y, x), or use tg.grad(f)",
        ),
        Name(
            "tg",
            "func",
            "tg.grad",
            "torch.func's transforms are at the top level: tg.grad, tg.vjp, tg.jvp, tg.jacrev, "
            "tg.jacfwd, tg.hessian, tg.vmap, tg.linearize",
        ),
        Name(
            "Tensor",
            "backward",
            "tape.gradient",
            f"{_TAPE}: record under "
            "`with tg.GradientTape() as tape:`, then tape.gradient(loss, sources) returns the "
            "gradients (nothing is stored on Tensors)",
        ),
        Name(
            "Tensor",
            "grad",
            "tape.gradient",
            f"{_TAPE}: a Tensor stores no gradient; tape.gradient(loss, sources) returns them",
        ),
        Name(
            "Tensor",
            "requires_grad",
            "tg.Variable",
            "trainable tg.Variables are watched "
            "when read; watch any other Tensor with tape.watch(x)",
        ),
        Name(
            "Tensor",
            "requires_grad_",
            "tape.watch",
            "tape.watch(x) inside the tape, or make x a tg.Variable",
        ),
        Name("Tensor", "detach", "tg.stop_gradient", "tg.stop_gradient(x)"),
        Name(
            "Tensor",
            "grad_fn",
            "print(tape)",
            "a Tensor does not point at the op that made "
            "it; the tape lists every op (print(tape), tape.to_dot())",
        ),
        Name("Tensor", "cuda", "Tensor.to", 'x.to("gpu")'),
        Name("Tensor", "cpu", "Tensor.to", 'x.to("cpu"), or x.numpy() for a host ndarray'),
        Name(
            "Tensor",
            "view",
            "Tensor.reshape",
            "x.reshape(shape) (Tensors are immutable: no view can be written through)",
        ),
        Name("Tensor", "permute", "Tensor.transpose", "x.transpose(axes)"),
        Name("Tensor", "unsqueeze", "tg.expand_dims", "tg.expand_dims(x, axis)"),
        Name("Tensor", "dim", "Tensor.ndim", "x.ndim, NumPy's attribute"),
        Name(
            "Tensor",
            "zero_",
            "tg.zeros_like",
            "Tensors are immutable; tg.Variable.assign changes a Variable",
        ),
        Name(
            "Module",
            "parameters",
            "Module.trainable_variables",
            "a list, in a stable order; "
            "PyTorch's also yields frozen parameters, tapegrad's leaves out Variables made "
            "with trainable=False (frozen ones and buffers such as BatchNorm's running "
            "statistics: Module.variables has those too)",
        ),
        Name(
            "Module",
            "named_parameters",
            "Module.named_variables",
            "(name, Variable) pairs of "
            "every Variable, trainable or not: filter on v.trainable for PyTorch's meaning",
        ),
        Name(
            "Module",
            "zero_grad",
            "tape.gradient",
            f"{_TAPE}: each tape.gradient returns new Tensors, so there is nothing to zero",
        ),
        Name("Module", "cuda", "Module.to", 'model.to("gpu")'),
        Name("Module", "buffers", "Module.variables", "the Variables with trainable=False"),
        Name(
            "Optimizer",
            "zero_grad",
            "tape.gradient",
            f"{_TAPE}: gradients are not accumulated anywhere, so there is nothing to zero",
        ),
        Name(
            "Optimizer",
            "step",
            "Optimizer.apply_gradients",
            "optimizer.apply_gradients("
            "tape.gradient(loss, variables)): the gradients are passed, not read from .grad",
        ),
        Name(
            "tg.nn",
            "MSELoss",
            "tg.nn.mse_loss",
            "losses are functions: tg.nn.mse_loss(pred, target, reduction=...)",
        ),
        Name(
            "tg.nn",
            "CrossEntropyLoss",
            "tg.nn.cross_entropy",
            "losses are functions: "
            "tg.nn.cross_entropy(logits, labels, weight=..., ignore_index=..., "
            "label_smoothing=..., reduction=...)",
        ),
        Name("tg.nn", "NLLLoss", "tg.nn.nll_loss", "losses are functions"),
        Name("tg.nn", "L1Loss", "tg.nn.l1_loss", "losses are functions"),
        Name(
            "tg.nn",
            "BCEWithLogitsLoss",
            "tg.nn.binary_cross_entropy_with_logits",
            "losses are functions",
        ),
        Name(
            "tg.nn",
            "functional",
            "tg.nn",
            "the functions (tg.nn.relu is tg.relu, "
            "tg.nn.mse_loss, tg.nn.conv2d ...) are in tg.nn and tg itself",
        ),
        Name(
            "tg.nn",
            "Parameter",
            "tg.Variable",
            "a trainable tg.Variable set as a Module attribute is a parameter",
        ),
        Name(
            "tg.optim",
            "lr_scheduler",
            "tg.optim.StepDecay",
            "schedules (StepDecay, "
            "CosineDecay, OneCycle, ReduceLROnPlateau ...) are in tg.optim and are passed "
            "as lr=",
        ),
    ),
)
