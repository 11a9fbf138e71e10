"""Properties the transforms must share, over random compositions of ops.

<u, J v> from jvp equals <J^T u, v> from vjp; Hessians are symmetric; hvp equals
the Hessian times v; jacobian rows are vjps of unit cotangents.
"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import strategies as tst

UNARY = {
    "sin": tg.sin,
    "cos": tg.cos,
    "tanh": tg.tanh,
    "sigmoid": tg.sigmoid,
    "softplus": tg.softplus,
    "arctan": tg.arctan,
    "half_square": lambda x: 0.5 * tg.square(x),
    "exp_tanh": lambda x: tg.exp(tg.tanh(x)),
    "log1p_square": lambda x: tg.log1p(x * x),
    "sqrt_1p_square": lambda x: tg.sqrt(1.0 + x**2),
    # ops that mix elements
    "cumsum": tg.cumsum,
    "flip": tg.flip,
    "softmax": tg.softmax,
    "log_softmax": tg.log_softmax,
    "times_logsumexp": lambda x: x * tg.logsumexp(x),
    "centered": lambda x: x - tg.mean(x),
    "times_var": lambda x: x * tg.var(x),
    "times_prod": lambda x: x * tg.prod(tg.tanh(x) + 2.0),
    "rotate": lambda x: tg.concatenate([x[1:], x[:1]]),
    "gather": lambda x: x[np.arange(x.shape[0])[::-1] % x.shape[0]] * x,
    "outer_mean": lambda x: tg.mean(tg.outer(x, tg.sin(x)), axis=0),
}
BINARY = {
    "add": tg.add,
    "subtract": tg.subtract,
    "multiply": tg.multiply,
    "divide": lambda a, b: a / (1.0 + b * b),
    "power": lambda a, b: (1.0 + a * a) ** tg.tanh(b),
    "einsum": lambda a, b: tg.einsum("i,j->j", a, b) * 0.5,
    "stack_sum": lambda a, b: tg.sum(tg.stack([a, b]) ** 2, axis=0),
}


@st.composite
def programs(draw):
    """A random straight-line program of 1 to 5 steps over two vectors of one length."""
    steps = []
    for k in range(draw(st.integers(1, 5))):
        available = k + 2
        if draw(st.booleans()):
            name = draw(st.sampled_from(sorted(UNARY)))
            steps.append((name, (draw(st.integers(0, available - 1)),)))
        else:
            name = draw(st.sampled_from(sorted(BINARY)))
            operands = (draw(st.integers(0, available - 1)), draw(st.integers(0, available - 1)))
            steps.append((name, operands))
    n = draw(st.integers(1, 4))
    return steps, n


def run(steps, x, y):
    values = [x, y]
    for name, operands in steps:
        op = UNARY.get(name) or BINARY[name]
        values.append(op(*(values[i] for i in operands)))
    # The last value, plus the inputs so that every output depends on something.
    return values[-1] + 0.1 * tg.sin(x) * y


def vectors(n, count):
    return st.tuples(*[tst.arrays((n,), domain="small") for _ in range(count)])


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-9, atol=1e-10)


@given(data=st.data())
def test_jvp_and_vjp_are_transposes(data):
    steps, n = data.draw(programs(), label="program")
    x, y, u, vx, vy = data.draw(vectors(n, 5))

    def f(x, y):
        return run(steps, x, y)

    _, jv = tg.jvp(f, (x, y), (vx, vy))
    _, vjp_fn = tg.vjp(f, x, y)
    ux, uy = vjp_fn(u)
    close(np.dot(u, np.asarray(jv)), np.dot(np.asarray(ux), vx) + np.dot(np.asarray(uy), vy))


@given(data=st.data())
def test_hessian_is_symmetric_and_hvp_is_hessian_times_v(data):
    steps, n = data.draw(programs(), label="program")
    x, y, c, vx, vy = data.draw(vectors(n, 5))

    def scalar(x, y):
        return tg.sum(run(steps, x, y) * c)

    (hxx, hxy), (hyx, hyy) = tg.hessian(scalar, argnums=(0, 1))(x, y)
    close(np.asarray(hxx), np.asarray(hxx).T)
    close(np.asarray(hyy), np.asarray(hyy).T)
    close(np.asarray(hxy), np.asarray(hyx).T)
    g, hv = tg.hvp(scalar, (x, y), (vx, vy))
    close(np.asarray(g), np.asarray(tg.grad(scalar)(x, y)))
    close(np.asarray(hv), np.asarray(hxx) @ vx + np.asarray(hxy) @ vy)


@given(data=st.data())
def test_jacobian_rows_are_vjps_of_unit_cotangents(data):
    steps, n = data.draw(programs(), label="program")
    x, y = data.draw(vectors(n, 2))

    def f(x, y):
        return run(steps, x, y)

    jx, jy = tg.jacobian(f, argnums=(0, 1))(x, y)
    _, vjp_fn = tg.vjp(f, x, y)
    for i, unit in enumerate(np.eye(n)):
        rx, ry = vjp_fn(unit)
        close(np.asarray(jx)[i], np.asarray(rx))
        close(np.asarray(jy)[i], np.asarray(ry))
    # and columns are jvps of unit tangents
    for j, unit in enumerate(np.eye(n)):
        close(np.asarray(jx)[:, j], np.asarray(tg.jvp(f, (x, y), (unit, np.zeros(n)))[1]))
