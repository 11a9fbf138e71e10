"""Linear algebra: matmul einsum dot outer.

For complex operands each cotangent contracts ``g`` with the conjugates of the other
operands (``g @ conj(y)^T``), the convention of docs/complex.md.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, binary_call, conjugated, shape_of, unbroadcast

ArrayLike = Any


def _explain_matmul(exc: Exception, x: Any, y: Any) -> str | None:
    xs, ys = shape_of(x), shape_of(y)
    if not xs or not ys:
        return f"0-d operands are not allowed: {xs} @ {ys} (use multiply)"
    inner_x, inner_y = xs[-1], ys[-2] if len(ys) > 1 else ys[0]
    if inner_x != inner_y:
        return f"inner dimensions differ: {xs} @ {ys} ({inner_x} != {inner_y})"
    try:
        np.broadcast_shapes(xs[:-2], ys[:-2])
    except ValueError:
        return f"batch shapes {xs[:-2]} and {ys[:-2]} cannot broadcast: {xs} @ {ys}"
    return None  # the shapes fit: the error is about something else, reported as it is


def _matrix_transpose(a: Any) -> Any:
    # The method on arrays and Tensors alike: NumPy's own view on a raw array (the sweep's
    # raw mode), the recorded op on a Tensor.
    if isinstance(a, (np.ndarray, Tensor)):
        return a.swapaxes(-1, -2)
    return ops.swapaxes(a, -1, -2)


def _matmul_vjp(argnum: int, g: Tensor, ans: Tensor, x: Any, y: Any) -> Tensor:
    # dx = g @ y^H and dy = x^H @ g (^H: the conjugate transpose; the transpose for real
    # operands). When both operands are matrices (or stacks with the same batch axes),
    # that is all: with the operators, raw NumPy arrays (the sweep's raw mode) stay in
    # NumPy and Tensors record, with no reshape around them.
    xs, ys = shape_of(x), shape_of(y)
    if len(xs) >= 2 and len(ys) >= 2 and xs[:-2] == ys[:-2]:
        if argnum == 0:
            return g @ conjugated(_matrix_transpose(y))
        return conjugated(_matrix_transpose(x)) @ g
    # A matrix and a vector, or two vectors: the products above with the vector as a row
    # or column, written as an outer product (a broadcast multiply) and a matrix-vector one.
    if len(xs) == 2 and len(ys) == 1:  # (m, n) @ (n,) -> (m,)
        if argnum == 0:
            return g[:, None] * conjugated(y)
        return conjugated(_matrix_transpose(x)) @ g
    if len(xs) == 1 and len(ys) == 2:  # (n,) @ (n, k) -> (k,)
        if argnum == 0:
            return conjugated(y) @ g
        return conjugated(x)[:, None] * g
    if len(xs) == 1 and len(ys) == 1:  # (n,) @ (n,) -> ()
        return g * conjugated(y) if argnum == 0 else conjugated(x) * g
    # Otherwise treat 1-d operands as a row (x) or column (y) matrix, and sum the
    # products over broadcast batch axes.
    x2 = x if len(xs) > 1 else ops.reshape(x, (1, *xs))
    y2 = y if len(ys) > 1 else ops.reshape(y, (*ys, 1))
    x2s, y2s = shape_of(x2), shape_of(y2)
    batch = np.broadcast_shapes(x2s[:-2], y2s[:-2])
    g2 = ops.reshape(g, (*batch, x2s[-2], y2s[-1]))
    if argnum == 0:
        return ops.reshape(unbroadcast(g2 @ conjugated(ops.swapaxes(y2, -1, -2)), x2s), xs)
    return ops.reshape(unbroadcast(conjugated(ops.swapaxes(x2, -1, -2)) @ g2, y2s), ys)


_matmul = Primitive(
    "matmul",
    lambda xp, x, y: xp.matmul(x, y),
    explain=_explain_matmul,
    numpy=np.matmul,
    complex_rules=True,
)
_matmul.defvjp(
    lambda g, ans, x, y: _matmul_vjp(0, g, ans, x, y),
    lambda g, ans, x, y: _matmul_vjp(1, g, ans, x, y),
).saves(0, 1)
_matmul.defvjp_matrices(lambda g, ans, x, y: g @ y.T, lambda g, ans, x, y: x.T @ g)
Tensor.__matmul__ = binary_call(_matmul, depth=2)  # x @ y (see Tensor's operators)


def matmul(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Matrix product with NumPy's rules for 1-d operands and broadcast batch axes.

    >>> import tapegrad as tg
    >>> tg.matmul(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), tg.tensor([1.0, 1.0]))
    tensor([3., 7.], dtype=float64)
    >>> tg.grad(lambda a: tg.sum(a @ a))(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # the gradient
    tensor([[ 7., 11.],
            [ 9., 13.]], dtype=float64)
    """
    return _matmul._binary(x, y)


def _matmul_add_forward(xp: Any, x: Any, y: Any, b: Any) -> Any:
    out = xp.matmul(x, y)
    if type(out) is np.ndarray and type(b) is np.ndarray and b.dtype == out.dtype:
        if b.ndim == 1 and out.ndim and b.shape[0] == out.shape[-1]:  # nn.Linear's bias
            out += b
            return out
    if type(out) is np.ndarray and np.can_cast(np.result_type(out, b), out.dtype, "no"):
        # In place when the sum keeps the product's dtype and shape, as NumPy itself does
        # for the temporary of ``x @ y + b``: an array and a pass over memory fewer.
        if out.shape == np.broadcast_shapes(out.shape, np.shape(b)):
            out += b
            return out
    return out + b


def _product_shape(xs: tuple[int, ...], ys: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``x @ y``, by NumPy's rules for 1-d operands and batch axes."""
    batch = np.broadcast_shapes(xs[:-2], ys[:-2])
    rows = xs[-2:-1]  # none for a 1-d x
    columns = ys[-1:] if len(ys) > 1 else ()
    return (*batch, *rows, *columns)


def _matmul_add_vjp(argnum: int, g: Any, ans: Any, x: Any, y: Any, b: Any) -> Any:
    if g.ndim != 2 or len(shape_of(x)) != 2 or len(shape_of(y)) != 2:
        # A bias with more axes than the product broadcasts it: its cotangent is summed back.
        g = unbroadcast(g, _product_shape(shape_of(x), shape_of(y)))
    return _matmul_vjp(argnum, g, ans, x, y)


_bias_vjp = lambda g, ans, x, y, b: unbroadcast(g, shape_of(b))  # noqa: E731 (inlined)
_matmul_add = Primitive(
    "matmul_add", _matmul_add_forward, explain=_explain_matmul, complex_rules=True
).defvjp(
    lambda g, ans, x, y, b: _matmul_add_vjp(0, g, ans, x, y, b),
    lambda g, ans, x, y, b: _matmul_add_vjp(1, g, ans, x, y, b),
    _bias_vjp,
)
_matmul_add.saves(0, 1)
_matmul_add.defvjp_matrices(
    lambda g, ans, x, y, b: g @ y.T, lambda g, ans, x, y, b: x.T @ g, _bias_vjp
)


def matmul_add(x: ArrayLike, y: ArrayLike, b: ArrayLike) -> Tensor:
    """``x @ y + b`` as one op (``tg.nn.linear``'s): the sum is made in the product's
    array, and the tape keeps neither the product nor the sum.

    >>> import tapegrad as tg
    >>> from tapegrad.ops.linalg import matmul_add
    >>> matmul_add(tg.ones((2, 3)), tg.ones((3, 2)), tg.tensor([0.5, 1.0]))
    tensor([[3.5, 4. ],
            [3.5, 4. ]], dtype=float64)
    """
    return _matmul_add(x, y, b)


def parse_subscripts(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """Explicit einsum subscripts: one letter string per operand, and the output's.

    Ellipses become unused letters; an implicit output becomes NumPy's
    (broadcast axes, then the letters used once, in alphabetical order).
    """
    subscripts = subscripts.replace(" ", "")
    inputs_part, arrow, output = subscripts.partition("->")
    inputs = inputs_part.split(",")
    if len(inputs) != len(shapes):
        raise ValueError(f"einsum: {len(inputs)} operand subscripts for {len(shapes)} operands")
    spare = [c for c in string.ascii_letters if c not in subscripts]
    widest = 0
    expanded = []
    for term, shape in zip(inputs, shapes):
        if "..." in term:
            width = len(shape) - (len(term) - 3)
            widest = max(widest, width)
            term = term.replace("...", "".join(spare[len(spare) - width :]) if width else "")
        if len(term) != len(shape):
            raise ValueError(f"einsum: subscripts {term!r} do not fit an operand of shape {shape}")
        expanded.append(term)
    ellipsis = "".join(spare[len(spare) - widest :]) if widest else ""
    if arrow:
        output = output.replace("...", ellipsis)
    else:
        letters = "".join(expanded)
        output = ellipsis + "".join(
            sorted(c for c in set(letters) if letters.count(c) == 1 and c not in ellipsis)
        )
    return expanded, output


def _einsum_vjp(k: int, g: Tensor, ans: Tensor, *operands: Any, terms: tuple, output: str) -> Any:
    # The cotangent of operand k contracts g with every other operand (conjugated) onto
    # k's letters; letters of k found nowhere else were summed away, so they come back by
    # broadcasting. A letter repeated in k (``ii``: a diagonal) is contracted once, and the
    # result placed back on that diagonal (:func:`_on_diagonals`).
    target = terms[k]
    unique = "".join(dict.fromkeys(target))
    others = [terms[j] for j in range(len(terms)) if j != k]
    available = set(output).union(*others)
    kept = "".join(c for c in unique if c in available)
    spec = ",".join([output, *others]) + "->" + kept
    grad = einsum(spec, g, *(conjugated(operands[j]) for j in range(len(operands)) if j != k))
    shape = shape_of(operands[k])
    own = dict(zip(target, shape))  # letter -> its axis's size in operand k
    sizes = dict(zip(kept, shape_of(grad)))
    grad = ops.reshape(grad, tuple(sizes.get(c, 1) for c in unique))
    # Size-1 axes broadcast against larger ones in the forward: sum them back.
    layout = tuple(own[c] for c in unique)
    grad = unbroadcast(grad, tuple(n if n == 1 else m for n, m in zip(layout, shape_of(grad))))
    grad = ops.broadcast_to(grad, layout)
    return grad if unique == target else _on_diagonals(grad, unique, target, own)


def _on_diagonals(grad: Any, unique: str, target: str, sizes: dict[str, int]) -> Any:
    """``grad`` (axes ``unique``) placed on the diagonals of an operand with subscripts
    ``target``, whose letters repeat: each repeat gets a fresh letter and an identity that
    ties it to the first (``ii``: ``einsum("i,ij->ij", grad, eye)``), zeros off the diagonal."""
    fresh = iter(c for c in string.ascii_letters if c not in target)
    seen: set[str] = set()
    distinct, ties = [], []
    for c in target:
        if c in seen:
            tied = next(fresh)
            distinct.append(tied)
            ties.append(c + tied)
        else:
            seen.add(c)
            distinct.append(c)
    dtype = backend.dtype_name(grad.dtype)
    eyes = [ops.asarray(np.eye(sizes[tie[0]], dtype=dtype), like=grad) for tie in ties]
    return einsum(",".join([unique, *ties]) + "->" + "".join(distinct), grad, *eyes)


def _einsum_forward(xp: Any, *operands: Any, terms: tuple, output: str) -> Any:
    return backend.einsum(xp, terms, output, *operands)


_einsum = Primitive("einsum", _einsum_forward, complex_rules=True).defvjp_argnum(_einsum_vjp)


def einsum(subscripts: str, *operands: ArrayLike) -> Tensor:
    """Einstein summation, as ``np.einsum`` (explicit or implicit output, ellipses, letters
    repeated within an operand: diagonals and traces).

    >>> import tapegrad as tg
    >>> tg.einsum("ij,j->i", tg.tensor([[1.0, 2.0], [3.0, 4.0]]), tg.tensor([1.0, 1.0]))
    tensor([3., 7.], dtype=float64)
    >>> tg.grad(lambda a: tg.einsum("ii->", a))(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # the trace
    tensor([[1., 0.],
            [0., 1.]], dtype=float64)
    """
    terms, output = parse_subscripts(subscripts, [shape_of(a) for a in operands])
    return _einsum(*operands, terms=tuple(terms), output=output)


def dot(x: ArrayLike, y: ArrayLike) -> Tensor:
    """``np.dot``: products of 0-d operands, matmul up to 2-d, and sum over x's last and
    y's second-to-last axis beyond that.

    >>> import tapegrad as tg
    >>> tg.dot(tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0]))
    tensor(11., dtype=float64)
    """
    xs, ys = shape_of(x), shape_of(y)
    if not xs or not ys:
        return ops.multiply(x, y)
    if len(ys) <= 2 and len(xs) <= 2 or len(ys) == 1:
        return matmul(x, y)
    letters = string.ascii_letters
    x_term = letters[: len(xs)]
    y_term = letters[len(xs) : len(xs) + len(ys) - 2] + x_term[-1] + letters[len(xs) + len(ys)]
    output = x_term[:-1] + y_term[:-2] + y_term[-1]
    return einsum(f"{x_term},{y_term}->{output}", x, y)


def outer(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Outer product of the flattened ``x`` and ``y``.

    >>> import tapegrad as tg
    >>> tg.outer(tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0]))
    tensor([[3., 4.],
            [6., 8.]], dtype=float64)
    """
    return ops.multiply(ops.reshape(x, (-1, 1)), ops.reshape(y, (1, -1)))
