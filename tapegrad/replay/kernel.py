"""The numba kernel of a fused recording: its Python source, written and loaded once.

:class:`Kernel` turns a recording of elementwise float64 steps (each op's scalar
expression and VJPs are in tapegrad/replay/fuse_ops.py) into the source of two numba
functions, ``forward`` and ``gradient``, each one loop over the elements; :func:`load`
writes the source to the cache directory under its hash and imports it, so numba's
``cache=True`` keeps the machine code beside it. A recording it cannot compile raises
:class:`Unfusable`, saying why. tapegrad/replay/fuse.py replays recordings with it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
import os
import sys
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad.replay.fuse_ops import HELPERS, OPS

if TYPE_CHECKING:
    from tapegrad.replay.fuse import FusedRecording
    from tapegrad.replay.recording import Recording

_ndarray = np.ndarray
_FLOAT, _BOOL = np.dtype(np.float64), np.dtype(np.bool_)


class FuseWarning(UserWarning):
    """``tg.compile(f, fuse=True)`` could not compile a recording and replays it unfused.

    Raised once per recording, naming the op (or dtype, or shape) the compiler does not
    handle; the results are the plain replay's. Without numba installed, ``compile`` warns
    once and every recording replays unfused.

    >>> import warnings
    >>> import tapegrad as tg
    >>> issubclass(tg.FuseWarning, UserWarning)
    True
    """


class Unfusable(Exception):
    """Why a recording cannot be fused (the FuseWarning's text)."""


def cache_dir() -> str:
    """Where generated sources and numba's compiled code live: ``$TAPEGRAD_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/tapegrad/fused`` (``~/.cache/tapegrad/fused``)."""
    chosen = os.environ.get("TAPEGRAD_CACHE_DIR")
    if chosen:
        return chosen
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "tapegrad", "fused")


class Kernel:
    """The analysis of a recording and its generated numba functions.

    ``sources``: the input and Variable slots the steps read, then ``constants`` (arrays
    recorded as constants): the kernels' array arguments. ``outputs``: (slot, shape) of
    each value the forward returns (f's outputs and guarded values). ``seeds``: (slot,
    shape) of each differentiable output, whose cotangents ``gradient`` takes after the
    arrays; it returns the outputs, then the cotangent of each of ``grad_sources``.
    """

    def __init__(self, recording: Recording, env: list[Any]) -> None:
        self.name = recording.name
        steps = recording.steps
        computed = {s.out for s in steps}
        source_slots = [*recording.input_slots, *(slot for slot, _ in recording.variables)]
        read = {a for s in steps for a in s.args}
        self.sources = [s for s in dict.fromkeys(source_slots) if s in read]
        self.shape = _common_shape(steps, env, self.sources)
        self.size = math.prod(self.shape)
        names: dict[int, str] = {}
        kinds: dict[int, str] = {}  # "full" (one value per element) or "scalar"
        constant_slots = []
        for slot in self.sources:
            kinds[slot] = self._array_kind(env[slot], "an argument")
            names[slot] = f"v{slot}"
        for step in steps:
            for a in step.args:
                if a in names or a in computed:
                    continue
                text = _literal(env[a])
                if text is not None:
                    names[a] = text
                else:
                    kinds[a] = self._array_kind(env[a], f"a constant of {step.primitive.name}")
                    names[a] = f"v{a}"
                    constant_slots.append(a)
        self.constant_slots = constant_slots
        self.constants = [env[a] for a in constant_slots]
        late: set[int] = set()  # scalars that need a finished pass over the elements
        self.pre: list[Any] = []
        self.loop: list[Any] = []
        self.post: list[Any] = []
        for step in steps:
            op = self._op(step, env)
            array_args = [a for a in step.args if a in kinds]
            full = any(kinds[a] == "full" for a in array_args)
            where = step.where or "?"
            if full and not op.reduction and any(a in late for a in array_args):
                raise Unfusable(
                    f"{step.primitive.name} at {where} uses a sum over the elements elementwise "
                    "(a second pass over the elements)"
                )
            value = env[step.out]
            if full and not op.reduction:
                if tuple(value.shape) != self.shape:
                    raise Unfusable(f"{step.primitive.name} at {where}: shape {value.shape}")
                kinds[step.out] = "full"
                self.loop.append((step, op))
            else:
                kinds[step.out] = "scalar"
                if op.reduction and full:
                    late.add(step.out)
                    self.loop.append((step, op))
                elif any(a in late for a in array_args):
                    late.add(step.out)
                    self.post.append((step, op))
                else:
                    self.pre.append((step, op))
            names[step.out] = f"v{step.out}"
        self.kinds, self.names = kinds, names
        self.ops = {step.out: op for step, op in self.loop + self.pre + self.post}
        out_slots = [slot for kind, slot in recording.outputs if kind == "slot"]
        out_slots += [guard.slot for guard in recording.guards if guard.slot in computed]
        self.outputs = [(slot, tuple(env[slot].shape)) for slot in dict.fromkeys(out_slots)]
        self._gradient_plan(recording, env, out_slots)
        self.source = self._generate()
        self.functions: dict[str, Any] = {}

    def _array_kind(self, value: Any, what: str) -> str:
        if type(value) is not _ndarray:
            raise Unfusable(f"{what} is a {type(value).__name__}, not a NumPy array")
        if value.dtype not in (_FLOAT, _BOOL):
            raise Unfusable(f"{what} has dtype {value.dtype} (fusing takes float64 and bool)")
        if value.size == 1 and value.ndim <= len(self.shape):
            return "scalar"
        if tuple(value.shape) == self.shape:
            return "full"
        raise Unfusable(f"{what} has shape {value.shape}, not {self.shape} or one element")

    def _op(self, step: Any, env: list[Any]) -> Any:
        name, where = step.primitive.name, step.where or "?"
        op = OPS.get(step.primitive)
        if op is None:
            raise Unfusable(f"{name} at {where} has no fused form")
        if step.refs:
            raise Unfusable(f"{name} at {where} reads an array parameter")
        params = step.params
        if op.reduction:
            if set(params) - {"axis", "keepdims"}:
                raise Unfusable(f"{name} at {where} with {sorted(params)}")
            x = env[step.args[0]]
            if getattr(x, "size", 1) != 1 and tuple(params.get("axis", ())) != tuple(
                range(np.ndim(x))
            ):
                raise Unfusable(f"{name} at {where} over axis {params.get('axis')} of {x.shape}")
        elif params:
            raise Unfusable(f"{name} at {where} with {sorted(params)}")
        value = env[step.out]
        wanted = _BOOL if op.boolean else _FLOAT
        if type(value) is not _ndarray or value.dtype != wanted:
            dtype = getattr(value, "dtype", type(value).__name__)
            raise Unfusable(f"{name} at {where} gives {dtype} (fusing takes float64 and bool)")
        if value.size != 1 and tuple(value.shape) != self.shape:
            raise Unfusable(f"{name} at {where}: shape {value.shape}, not {self.shape}")
        return op

    def _gradient_plan(self, recording: Recording, env: list[Any], out_slots: list[int]) -> None:
        """Which values carry cotangents, and which sources each output's gradient reaches."""
        deps: dict[int, frozenset[int]] = {
            s: frozenset({s}) for s in self.sources if env[s].dtype == _FLOAT
        }
        for step, op in self.loop + self.pre + self.post:
            if not (step.primitive.differentiable and step.floating and op.vjps):
                continue
            reach = frozenset().union(
                *(deps.get(a, frozenset()) for k, a in enumerate(step.args) if op.vjps[k])
            )
            if reach:
                deps[step.out] = reach
        self.path = set(deps)
        seeds = [s for kind, s in recording.outputs if kind == "slot" and s in deps]
        seeds = list(dict.fromkeys(seeds))
        self.seeds = [(s, tuple(env[s].shape)) for s in seeds]
        self.seed_of = {s: j for j, s in enumerate(seeds)}
        self.connected = {s: deps[s] for s in seeds}
        reached = frozenset().union(*self.connected.values()) if seeds else frozenset()
        self.grad_sources = [s for s in self.sources if s in reached]
        scalar_seeds = [s for s in seeds if self.kinds[s] == "scalar"]
        # The gradient's first pass can be its only one when no scalar computed after a sum
        # stands between the outputs and the sums: the sums' cotangents are the seeds.
        self.one_pass = not self.post
        # Compute the gradient with the forward (seed 1) when a tape is active: one output,
        # one element, and the whole gradient is that seed times what is computed.
        self.speculate = len(seeds) == 1 and len(scalar_seeds) == 1 and self.size != 0
        self.one_seed = np.ones(self.seeds[0][1]) if self.speculate else None

    # ---- code generation -------------------------------------------------------------

    def _forward_lines(self, steps: list[Any], accumulate: bool) -> list[str]:
        lines = []
        for step, op in steps:
            args = [self.names[a] for a in step.args]
            target = self.names[step.out]
            if op.reduction and self.kinds[step.args[0]] == "full":
                if accumulate:
                    lines.append(f"{target} += {args[0]}")
            else:
                lines.append(f"{target} = {op.forward(*args)}")
        return lines

    def _reverse_lines(self, steps: list[Any], element: dict[int, str] | None = None) -> list[str]:
        """The steps' VJPs in reverse. A scalar's cotangent ``g{slot}`` is summed in place
        (across elements, too); an element's (``element``: its current name, updated
        here) gets a new name per contribution, so each is assigned once: numba's SSA
        reconstruction takes time quadratic in the length of a block for a name assigned
        twice, minutes for a few hundred steps."""
        element = {} if element is None else element
        lines = []
        for step, op in reversed(steps):
            if step.out not in self.path or not op.vjps:
                continue
            g = element.get(step.out) if self.kinds[step.out] == "full" else f"g{step.out}"
            if g is None:  # no cotangent reaches this element value
                continue
            args = [self.names[a] for a in step.args]
            for k, a in enumerate(step.args):
                rule = op.vjps[k] if k < len(op.vjps) else None
                if rule is None or a not in self.path:
                    continue
                term = rule(g, self.names[step.out], *args)
                if self.kinds[a] != "full":
                    lines.append(f"g{a} += {term}")
                    continue
                previous = element.get(a)
                name = f"g{a}_{step.out}_{k}"
                lines.append(
                    f"{name} = {term}" if previous is None else f"{name} = {previous} + ({term})"
                )
                element[a] = name
        return lines

    def _generate(self) -> str:
        params = [f"a{s}" for s in self.sources] + [f"a{s}" for s in self.constant_slots]
        arrays = self.sources + self.constant_slots
        head = [f"f{s} = a{s}.ravel()" for s in arrays]
        head += [f"v{s} = f{s}[0]" for s in arrays if self.kinds[s] == "scalar"]
        load = [f"v{s} = f{s}[i]" for s in arrays if self.kinds[s] == "full"]
        reductions = [
            f"v{step.out} = 0.0"
            for step, op in self.loop
            if op.reduction and self.kinds[step.args[0]] == "full"
        ]
        allocate, write_full, write_scalar, returned = [], [], [], []
        for slot, _ in self.outputs:
            dtype = "np.bool_" if self.ops[slot].boolean else "np.float64"
            size = self.size if self.kinds[slot] == "full" else 1
            allocate.append(f"o{slot} = np.empty({size}, dtype={dtype})")
            if self.kinds[slot] == "full":
                write_full.append(f"o{slot}[i] = v{slot}")
            else:
                write_scalar.append(f"o{slot}[0] = v{slot}")
            returned.append(f"o{slot}")
        pre = self._forward_lines(self.pre, True)
        loop = self._forward_lines(self.loop, True)
        post = self._forward_lines(self.post, True)
        n = f"for i in range({self.size}):"

        def block(lines: list[str], indent: int) -> list[str]:
            return [" " * indent + line for line in lines] or [" " * indent + "pass"]

        forward = [f"def forward({', '.join(params)}):"]
        forward += block(head + pre + reductions + allocate, 4)
        forward += ["    " + n] + block(load + loop + write_full, 8)
        forward += block(post + write_scalar, 4)
        forward += [f"    return ({''.join(r + ', ' for r in returned)})"]

        seeds = [f"s{j}" for j in range(len(self.seeds))]
        gradient = [f"def gradient({', '.join(params + seeds)}):"]
        body = head + pre + reductions + allocate
        first_loop = load + loop + write_full
        scalar_path = [s for s in self.path if self.kinds[s] == "scalar"]
        cotangents = [f"g{s} = 0.0" for s in sorted(scalar_path)]
        cotangents += [f"e{j} = s{j}.ravel()" for j in range(len(self.seeds))]
        cotangents += [
            f"g{slot} += e{j}[0]"
            for j, (slot, _) in enumerate(self.seeds)
            if self.kinds[slot] == "scalar"
        ]
        results = []
        for s in self.grad_sources:
            size = self.size if self.kinds[s] == "full" else 1
            results.append(f"r{s} = np.empty({size})")
        seeded = {
            slot: f"e{j}[i]" for j, (slot, _) in enumerate(self.seeds) if self.kinds[slot] == "full"
        }
        element = self._reverse_lines(self.loop, seeded)
        element += [
            f"r{s}[i] = {seeded.get(s, '0.0')}"
            for s in self.grad_sources
            if self.kinds[s] == "full"
        ]
        if self.one_pass:
            gradient += block(body + cotangents + results, 4)
            gradient += ["    " + n] + block(first_loop + element, 8)
            gradient += block(post + write_scalar, 4)
        else:
            gradient += block(body, 4)
            gradient += ["    " + n] + block(first_loop, 8)
            gradient += block(post + write_scalar + cotangents + results, 4)
            gradient += block(self._reverse_lines(self.post), 4)
            again = load + self._forward_lines(self.loop, False)
            gradient += ["    " + n] + block(again + element, 8)
        gradient += block(self._reverse_lines(self.pre), 4)
        gradient += block(
            [f"r{s}[0] = g{s}" for s in self.grad_sources if self.kinds[s] == "scalar"], 4
        )
        grads = [f"r{s}" for s in self.grad_sources]
        gradient += [f"    return ({''.join(r + ', ' for r in returned + grads)})"]
        header = "import math\n\nimport numpy as np\nfrom numba import njit\n" + HELPERS
        decorated = [
            "\n\n@njit(cache=True)\n" + "\n".join(forward),
            "\n\n@njit(cache=True)\n" + "\n".join(gradient),
        ]
        return f'"""tg.compile(fuse=True) of {self.name}; generated by tapegrad."""\n' + (
            header + "".join(decorated) + "\n"
        )

    # ---- compiling and calling -------------------------------------------------------

    def call(self, which: str, recording: FusedRecording, args: list[Any]) -> Any:
        """``which``'s results, or None after a FuseWarning when numba cannot compile it."""
        function = self.functions.get(which)
        if function is None:
            try:
                function = getattr(load(self.source), which)
                results = function(*args)
            except Exception as exc:  # numba's typing and lowering errors, an unwritable cache
                recording.fused = False
                warnings.warn(
                    f"compile({self.name}, fuse=True): numba could not compile the recording "
                    f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}); "
                    "it replays without fusing",
                    FuseWarning,
                    stacklevel=5,
                )
                return None
            self.functions[which] = function
            return results
        return function(*args)


_modules: dict[str, Any] = {}


def load(source: str) -> Any:
    """The generated module of ``source``, written once to the cache directory and imported
    from there, so that numba's ``cache=True`` keeps the compiled code beside it."""
    digest = hashlib.sha256(source.encode()).hexdigest()[:24]
    name = f"tapegrad_fused_{digest}"
    module = _modules.get(name)
    if module is not None:
        return module
    directory = cache_dir()
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name + ".py")
    if not os.path.exists(path):  # never rewritten: numba's index checks the file's stamp
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "w") as f:
            f.write(source)
        os.replace(partial, path)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    _modules[name] = module
    return module


def _common_shape(steps: list[Any], env: list[Any], sources: list[int]) -> tuple[int, ...]:
    """The shape every array of more (or fewer) than one element has; () when none has."""
    shapes = {
        tuple(env[s].shape)
        for s in [*sources, *(a for step in steps for a in step.args), *(s.out for s in steps)]
        if hasattr(env[s], "shape") and getattr(env[s], "size", 1) != 1
    }
    if len(shapes) > 1:
        raise Unfusable(
            f"arrays of shapes {sorted(shapes)} broadcast against each other (fusing takes "
            "one shape, and scalars)"
        )
    if shapes:
        return shapes.pop()
    ndims = [np.ndim(env[s]) for s in sources] + [np.ndim(env[s.out]) for s in steps]
    return (1,) * max(ndims, default=0)


def _literal(value: Any) -> str | None:
    """Python source for a one-element constant, or None for an array the kernel reads."""
    if value is None:
        return "None"
    if isinstance(value, (_ndarray, np.generic)):
        if value.size != 1 or value.dtype.kind not in "biuf":
            return None if value.dtype.kind in "bf" else _reject(value)
        value = value.reshape(-1)[0].item()
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, (int, float)):
        number = float(value)
        if math.isnan(number):
            return "math.nan"
        if math.isinf(number):
            return "math.inf" if number > 0 else "(-math.inf)"
        return f"({number!r})"
    return _reject(value)


def _reject(value: Any) -> str:
    kind = getattr(value, "dtype", type(value).__name__)
    raise Unfusable(f"a constant of type {kind} (fusing takes float64 and bool)")
