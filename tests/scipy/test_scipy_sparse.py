"""tapegrad.scipy.sparse: products of SciPy's sparse matrices with Tensors, SparseTensor, and
the solvers of tapegrad.scipy.sparse.linalg: SciPy's values, gradients by finite differences
on the 2-D Poisson matrix of a 5x5 grid."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.sparse", reason="the scipy extra is not installed")

import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as spla  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import sparse  # noqa: E402
from tapegrad.scipy.sparse import linalg  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

_T = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(5, 5))
POISSON = sp.csr_array(sp.kron(sp.eye_array(5), _T) + sp.kron(_T, sp.eye_array(5)))
N = POISSON.shape[0]
RNG = np.random.default_rng(0)
SOURCE = RNG.uniform(0.5, 1.5, N)
VALUES = POISSON.data.copy()
INDICES, INDPTR = POISSON.indices.copy(), POISSON.indptr.copy()
# a non-symmetric, well-conditioned matrix on the Poisson pattern (for gmres, bicgstab...)
SKEW = VALUES * RNG.uniform(0.9, 1.1, VALUES.size)

FORMATS = ["csr", "csc", "coo", "bsr", "dia"]
KINDS = ["array", "matrix"]


def _scipy(format_: str, kind: str, dense: np.ndarray) -> object:
    return getattr(sp, f"{format_}_{kind}")(dense)


def _matrix(values: object) -> sparse.SparseTensor:
    return sparse.csr(values, INDICES, INDPTR, (N, N))


# --- products with constant sparse matrices -------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("format_", FORMATS)
def test_products_with_constant_sparse_matrices_record_in_both_orders(format_, kind):
    dense = RNG.uniform(-1, 1, (4, 3)) * (RNG.uniform(size=(4, 3)) > 0.4)
    a = _scipy(format_, kind, dense)
    v, w, m2 = RNG.uniform(size=3), RNG.uniform(size=4), RNG.uniform(size=(3, 2))
    for f, x, want in [
        (lambda t: a @ t, v, dense @ v),
        (lambda t: a.dot(t), v, dense @ v),
        (lambda t: a @ t, m2, dense @ m2),
        (lambda t: t @ a, w, w @ dense),
        (lambda t: t @ a, m2.T @ dense.T, m2.T @ dense.T @ dense),
        (lambda t: sparse.matmul(a, t), v, dense @ v),
    ]:
        out = f(tg.tensor(x))
        assert isinstance(out, tg.Tensor)
        np.testing.assert_allclose(out.numpy(), want, rtol=1e-12, atol=1e-14)
        assert gradcheck(f, [x])
        assert gradgradcheck(f, [x])


@pytest.mark.parametrize("kind", KINDS)
def test_multiply_keeps_the_pattern(kind):
    dense = np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    a = _scipy("csr", kind, dense)
    t = RNG.uniform(size=(2, 3))
    out = a.multiply(tg.tensor(t))
    assert isinstance(out, sparse.SparseTensor) and out.nnz == 3
    np.testing.assert_allclose(out.toarray().numpy(), a.multiply(t).toarray())
    row = RNG.uniform(size=3)
    np.testing.assert_allclose(a.multiply(tg.tensor(row)).toarray().numpy(),
                               a.multiply(row).toarray())  # fmt: skip
    assert gradcheck(lambda x: a.multiply(x).toarray(), [t])


def test_sparse_tensor_builders_and_products():
    s = _matrix(VALUES)
    np.testing.assert_array_equal(s.toarray().numpy(), POISSON.toarray())
    c = POISSON.tocoo()
    np.testing.assert_array_equal(
        sparse.coo(c.data, c.coords[0], c.coords[1], c.shape).toarray().numpy(), c.toarray()
    )
    cc = POISSON.tocsc()
    np.testing.assert_array_equal(
        sparse.csc(cc.data, cc.indices, cc.indptr, cc.shape).toarray().numpy(), cc.toarray()
    )
    np.testing.assert_allclose((s @ tg.tensor(SOURCE)).numpy(), POISSON @ SOURCE)
    np.testing.assert_allclose((tg.tensor(SOURCE) @ s).numpy(), SOURCE @ POISSON)
    assert gradcheck(lambda d, x: _matrix(d) @ x, [SKEW, SOURCE])
    assert gradgradcheck(lambda d, x: x @ _matrix(d), [SKEW, SOURCE])
    with pytest.raises(ValueError, match="csr: indptr"):
        sparse.csr(VALUES, INDICES, INDPTR[:-1], (N, N))


# --- solvers -------------------------------------------------------------------------------


def test_spsolve_and_splu_values_and_gradients():
    x = linalg.spsolve(POISSON, tg.tensor(SOURCE))
    np.testing.assert_allclose(x.numpy(), spla.spsolve(POISSON, SOURCE), rtol=1e-12)
    assert isinstance(linalg.spsolve(POISSON, SOURCE), np.ndarray)  # plain: SciPy's
    assert gradcheck(lambda b: linalg.spsolve(POISSON, b), [SOURCE])
    assert gradcheck(lambda d, b: linalg.spsolve(_matrix(d), b), [SKEW, SOURCE])
    assert gradgradcheck(lambda d, b: linalg.spsolve(_matrix(d), b), [SKEW, SOURCE])
    two = RNG.uniform(size=(N, 2))
    assert gradcheck(lambda d, b: linalg.spsolve(_matrix(d), b), [SKEW, two])

    lu = linalg.splu(sp.csc_array(POISSON))
    np.testing.assert_allclose(lu.solve(tg.tensor(SOURCE)).numpy(),
                               spla.splu(sp.csc_array(POISSON)).solve(SOURCE))  # fmt: skip
    for trans in ("N", "T", "H"):
        assert gradcheck(lambda d, b, t=trans: linalg.splu(_matrix(d)).solve(b, trans=t),
                         [SKEW, SOURCE])  # fmt: skip


@pytest.mark.parametrize(
    ("name", "matrix", "options"),
    [
        ("cg", VALUES, {}),
        ("minres", VALUES, {}),
        ("gmres", SKEW, {"restart": 30}),
        ("bicgstab", SKEW, {}),
    ],
)
def test_krylov_solvers(name, matrix, options):
    solver, theirs = getattr(linalg, name), getattr(spla, name)
    a = sp.csr_array((matrix, INDICES, INDPTR), shape=(N, N))
    x, info = solver(a, tg.tensor(SOURCE), rtol=1e-12, **options)
    want, their_info = theirs(a, SOURCE, rtol=1e-12, **options)
    assert info == their_info == 0
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-10)
    assert gradcheck(lambda b: solver(a, b, rtol=1e-12, **options)[0], [SOURCE], eps=1e-3)

    def f(d, b):
        values = (d + _mirror(d)) / 2 if name in ("cg", "minres") else d  # keep A symmetric
        return solver(_matrix(values), b, rtol=1e-12, **options)[0]

    assert gradcheck(f, [matrix, SOURCE], eps=1e-4, atol=1e-6)


_MIRROR = sp.csr_array((np.arange(VALUES.size, dtype=float), INDICES, INDPTR), shape=(N, N)).T
_MIRROR_ORDER = sp.csr_array(_MIRROR).data.astype(int)  # value k's mirror image position


def _mirror(d):
    return tg.take(d, _MIRROR_ORDER)


def test_lsqr():
    rect = sp.csr_array(POISSON[:, :20])
    x = linalg.lsqr(rect, tg.tensor(SOURCE), atol=1e-14, btol=1e-14)
    want = spla.lsqr(rect, SOURCE, atol=1e-14, btol=1e-14)
    np.testing.assert_allclose(x[0].numpy(), want[0], rtol=1e-10)
    assert x[1:3] == want[1:3]
    c = rect.tocoo()
    for damp in (0.0, 0.5):

        def f(d, b, damp=damp):
            m = sparse.coo(d, c.coords[0], c.coords[1], c.shape)
            return linalg.lsqr(m, b, damp=damp, atol=1e-14, btol=1e-14, iter_lim=500)[0]

        assert gradcheck(f, [c.data, SOURCE], atol=1e-6)


def test_expm_multiply():
    a = POISSON * -0.1
    b = RNG.uniform(size=(N, 2))
    np.testing.assert_allclose(linalg.expm_multiply(a, tg.tensor(b)).numpy(),
                               spla.expm_multiply(a, b), rtol=1e-12)  # fmt: skip
    assert gradcheck(lambda t: linalg.expm_multiply(a, t), [b])
    assert gradgradcheck(lambda t: linalg.expm_multiply(a, t), [b[:, 0]])
    assert gradcheck(lambda d, t: linalg.expm_multiply(_matrix(d), t), [-0.1 * SKEW, b[:, 0]])
    # a time grid: SciPy's interval algorithm against one call per time, in A's values too
    grid = linalg.expm_multiply(a, tg.tensor(b), start=0, stop=1, num=3)
    np.testing.assert_allclose(grid.numpy(), spla.expm_multiply(a, b, start=0, stop=1, num=3),
                               rtol=1e-12)  # fmt: skip
    assert gradcheck(
        lambda d, t: linalg.expm_multiply(_matrix(d), t, start=0.5, stop=1.0, num=2),
        [-0.1 * SKEW, b[:, 0]],
    )
    with pytest.raises(ValueError, match="expm_multiply: a time grid needs start and stop"):
        linalg.expm_multiply(a, tg.tensor(b), num=3)
    with pytest.raises(LookupError, match="expm_multiply: no gradient with respect to stop"):
        tg.grad(lambda s: tg.sum(linalg.expm_multiply(a, b, start=0.0, stop=s, num=2)))(1.0)


def test_eigsh_eigenvalues_and_vectors():
    v0 = np.ones(N)
    # a perturbed (symmetric) Poisson matrix: its eigenvalues are simple (Poisson's repeat)
    base = VALUES * (1 + 0.2 * (np.arange(VALUES.size) % 3))
    base = (base + base[_MIRROR_ORDER]) / 2
    a = sp.csr_array((base, INDICES, INDPTR), shape=(N, N))
    for which in ("LM", "SA", "LA"):
        w = linalg.eigsh(_matrix(base), k=3, v0=v0, which=which, return_eigenvectors=False)
        want = spla.eigsh(a, k=3, v0=v0, which=which, return_eigenvectors=False)
        np.testing.assert_allclose(w.numpy(), want, rtol=1e-10)
        w, v = linalg.eigsh(_matrix(base), k=3, v0=v0, which=which)
        want_w, want_v = spla.eigsh(a, k=3, v0=v0, which=which)
        np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-10)
        np.testing.assert_allclose(v.numpy(), want_v, atol=1e-8)

    def values(d):
        return linalg.eigsh(_matrix((d + _mirror(d)) / 2), k=2, v0=v0)[0]

    assert gradcheck(values, [base], atol=1e-6)
    # shift-invert: the eigenpairs of A nearest sigma, by the same rules
    for mode in ("normal", "cayley"):
        w, v = linalg.eigsh(_matrix(base), k=2, v0=v0, sigma=1.0, mode=mode)
        want_w, want_v = spla.eigsh(a, k=2, v0=v0, sigma=1.0, mode=mode)
        np.testing.assert_allclose(w.numpy(), want_w, rtol=1e-10)
        np.testing.assert_allclose(np.abs(v.numpy()), np.abs(want_v), atol=1e-8)

    def near_one(d):
        w, v = linalg.eigsh(_matrix((d + _mirror(d)) / 2), k=2, v0=v0, sigma=1.0)
        return w, v[:3] * v[:1]  # sign-free products of the eigenvectors

    assert gradcheck(near_one, [base], atol=1e-6)
    with pytest.raises(LookupError, match="eigsh: no gradient with respect to sigma"):
        tg.grad(lambda s: tg.sum(linalg.eigsh(a, k=2, sigma=s, return_eigenvectors=False)))(1.0)
    with pytest.raises(NotImplementedError, match="eigsh: M, Minv and OPinv"):
        linalg.eigsh(_matrix(base), k=2, M=sp.identity(N, format="csr"))

    def vectors(d):
        w, v = linalg.eigsh(_matrix((d + _mirror(d)) / 2), k=2, v0=v0)
        return v**2  # sign free

    assert gradcheck(vectors, [base], atol=1e-5)


def test_complex_products_solves_and_exponentials():
    # The primitives with complex rules (sparse_matmul, sparse_solve, expm_multiply) on
    # complex values and right-hand sides, against finite differences along the real and
    # imaginary direction of each element.
    rng = np.random.default_rng(5)
    dense = np.diag(rng.uniform(2.0, 3.0, 4)) + 0.3 * np.diag(rng.standard_normal(3), 1)
    dense = dense + 0.2j * np.diag(rng.standard_normal(3), -1)
    a = sp.csr_array(dense)
    pattern = a.tocsr()
    b = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    values = pattern.data.copy()

    def build(v):
        return sparse.csr(v, pattern.indices, pattern.indptr, pattern.shape)

    np.testing.assert_allclose((a @ tg.tensor(b)).numpy(), a @ b, rtol=1e-12)
    gradcheck(lambda v, x: build(v) @ x, [values, b])
    np.testing.assert_allclose(
        linalg.spsolve(build(tg.tensor(values)), tg.tensor(b)).numpy(),
        spla.spsolve(a.tocsc(), b),
        rtol=1e-12,
    )
    gradcheck(lambda v, x: linalg.spsolve(build(v), x), [values, b])
    np.testing.assert_allclose(
        linalg.expm_multiply(a * 0.3, tg.tensor(b)).numpy(),
        spla.expm_multiply(a * 0.3, b),
        rtol=1e-10,
    )
    gradcheck(lambda x: linalg.expm_multiply(a * 0.3, x), [b])
