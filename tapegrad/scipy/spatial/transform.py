"""Rotations with gradients: SciPy's ``Rotation`` (and ``Slerp``) under SciPy's names and
signatures, every conversion composed from tapegrad ops on the unit quaternion (scalar
last), so first and second derivatives come from the tape.

Built from plain arrays (no Tensor anywhere) a Rotation is SciPy's own object inside, and
every method gives SciPy's exact results; given a Tensor it records. Values follow SciPy's
formulas and conventions: quaternions normalized, ``as_quat(canonical=True)`` with w >= 0,
``from_matrix`` choosing its branch by the same largest-of-diagonal-and-trace rule (and
projecting a non-orthogonal matrix onto the rotations by its SVD, as SciPy does).
Non-smooth points: the sign choices (canonical, as_rotvec's w < 0 flip, from_matrix's
branch), as_euler's gimbal lock and angle wrap, and magnitude at the identity.
Every other name of scipy.spatial.transform (RigidTransform, RotationSpline, ...) is
SciPy's own object.

>>> import tapegrad as tg
>>> from tapegrad.scipy.spatial.transform import Rotation
>>> v = tg.tensor([0.0, 0.0, 0.5])
>>> with tg.GradientTape() as tape:
...     tape.watch(v)
...     angle = Rotation.from_rotvec(v).magnitude()
>>> print(f"{angle.item():.3f} {tape.gradient(angle, v).numpy()[2]:.3f}")
0.500 1.000
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.spatial.transform as _sst

from tapegrad import linalg, ops
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import _plain, scipy_getattr

__all__ = ["Rotation", "Slerp"]

ArrayLike = Any
_SciPyRotation = _sst.Rotation


def _all_plain(*values: Any) -> bool:
    return not tracing() and all(_plain(v) for v in values)


def _values(x: Any) -> np.ndarray:
    return np.asarray(raw(x))


def _norm(v: Any) -> Any:
    """The Euclidean norm over the last axis (keepdims), with gradient 0 at 0."""
    s = ops.sum(v * v, axis=-1, keepdims=True)
    zero = _values(s) == 0
    return ops.where(zero, 0.0, ops.sqrt(ops.where(zero, 1.0, s)))


def _normalize(q: Any) -> Any:
    n = _norm(q)
    if np.any(_values(n) == 0):
        raise ValueError("Found zero norm quaternions in `quat`.")
    return q / n


def _canonical(q: Any) -> Any:
    v = _values(q)
    mask = v[..., 3] < 0
    zero_w = v[..., 3] == 0
    mask |= zero_w & (v[..., 0] < 0)
    zero_wx = zero_w & (v[..., 0] == 0)
    mask |= zero_wx & (v[..., 1] < 0)
    mask |= zero_wx & (v[..., 1] == 0) & (v[..., 2] < 0)
    return ops.where(mask[..., None], -q, q)


def _compose(p: Any, q: Any) -> Any:
    cross = ops.cross(p[..., :3], q[..., :3])
    return ops.stack(
        [
            p[..., 3] * q[..., 0] + q[..., 3] * p[..., 0] + cross[..., 0],
            p[..., 3] * q[..., 1] + q[..., 3] * p[..., 1] + cross[..., 1],
            p[..., 3] * q[..., 2] + q[..., 3] * p[..., 2] + cross[..., 2],
            p[..., 3] * q[..., 3] - p[..., 0] * q[..., 0] - p[..., 1] * q[..., 1]
            - p[..., 2] * q[..., 2],
        ],
        axis=-1,
    )  # fmt: skip


def _matrix(q: Any) -> Any:
    x, y, z, w = q[..., 0], q[..., 1], q[..., 2], q[..., 3]
    x2, y2, z2, w2 = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    elements = [
        x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw),
        2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw),
        2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2,
    ]  # fmt: skip
    return ops.reshape(ops.stack(elements, axis=-1), (*shape_of(q)[:-1], 3, 3))


def _from_rotvec(rotvec: Any) -> Any:
    angle2 = ops.sum(rotvec * rotvec, axis=-1, keepdims=True)
    angle = _norm(rotvec)
    small = _values(angle) <= 1e-3
    small_scale = 0.5 - angle2 / 48 + angle2 * angle2 / 3840
    large_scale = ops.sin(angle / 2) / ops.where(small, 1.0, angle)
    scale = ops.where(small, small_scale, large_scale)
    # the cosine's Taylor series too where small: smooth to second order at the zero vector
    cos = ops.where(small, 1 - angle2 / 8 + angle2 * angle2 / 384, ops.cos(angle / 2))
    return ops.concatenate([rotvec * scale, cos], axis=-1)


def _as_rotvec(q: Any, degrees: bool) -> Any:
    q = _canonical(q)
    angle = 2 * ops.arctan2(_norm(q[..., :3]), q[..., 3:4])
    small = _values(angle) <= 1e-3
    angle2 = angle * angle
    small_scale = 2 + angle2 / 12 + 7 * angle2 * angle2 / 2880
    large_scale = angle / ops.where(small, 1.0, ops.sin(angle / 2.0))
    scale = ops.where(small, small_scale, large_scale)
    if degrees:
        scale = scale * (180.0 / np.pi)
    return scale * q[..., :3]


def _axis_index(axis: str) -> int:
    return "xyz".index(axis)


def _check_seq(seq: str, three: bool) -> bool:
    """Whether ``seq`` is extrinsic; ValueError on a sequence SciPy refuses."""
    if three and len(seq) != 3:
        raise ValueError(f"Expected 3 axes, got {seq}.")
    if not 1 <= len(seq) <= 3:
        raise ValueError(
            f"Expected axis specification to be a non-empty string of up to 3 characters, got {seq}"
        )
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError(
            f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}"
        )
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return extrinsic


def _elementary(axis: int, angle: Any) -> Any:
    half = angle / 2.0
    zero = ops.zeros_like(half)
    parts = [zero, zero, zero, ops.cos(half)]
    parts[axis] = ops.sin(half)
    return ops.stack(parts, axis=-1)


def _get_angles(
    extrinsic: bool, symmetric: bool, sign: float, lamb: Any, a: Any, b: Any, c: Any, d: Any,
    suppress_warnings: bool,
) -> Any:  # fmt: skip
    eps = 1e-7
    half_sum = ops.arctan2(b, a)
    half_diff = ops.arctan2(d, c)
    second = 2 * ops.arctan2(ops.hypot(c, d), ops.hypot(a, b))
    s = _values(second)
    case1 = np.abs(s) <= eps
    case2 = np.abs(s - np.pi) <= eps
    case0 = ~(case1 | case2)
    if not suppress_warnings and np.any(~case0):
        warnings.warn(
            "Gimbal lock detected. Setting third angle to zero since it is not possible to "
            "uniquely determine all angles.",
            stacklevel=4,
        )
    zero = ops.zeros_like(second)
    first = ops.where(case1, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    angles = [first, second, zero]
    i_first, i_third = (0, 2) if extrinsic else (2, 0)
    angles[i_first] = ops.where(case0, half_sum - half_diff, angles[i_first])
    third = ops.where(case0, half_sum + half_diff, angles[i_third])
    if not symmetric:
        third = third * sign
        angles[1] = angles[1] - lamb
    angles[i_third] = third
    out = ops.stack(angles, axis=-1)
    return ops.remainder(out + np.pi, 2 * np.pi) - np.pi


def _as_euler(q: Any, seq: str, degrees: bool, suppress_warnings: bool) -> Any:
    extrinsic = _check_seq(seq, three=True)
    axes = [_axis_index(x) for x in seq.lower()]
    i, j, k = axes if extrinsic else axes[::-1]
    symmetric = i == k
    k = 3 - i - j if symmetric else k
    sign = float((i - j) * (j - k) * (k - i) // 2)
    if symmetric:
        a, b, c, d = q[..., 3], q[..., i], q[..., j], q[..., k] * sign
    else:
        a = q[..., 3] - q[..., j]
        b = q[..., i] + q[..., k] * sign
        c = q[..., j] + q[..., 3]
        d = q[..., k] * sign - q[..., i]
    angles = _get_angles(extrinsic, symmetric, sign, np.pi / 2, a, b, c, d, suppress_warnings)
    return angles * (180.0 / np.pi) if degrees else angles


def _from_matrix(matrix: Any, assume_valid: bool) -> Any:
    m = _values(matrix)
    if not assume_valid:
        bad = np.linalg.det(m) <= 0
        if np.any(bad):
            ind = int(np.nonzero(np.atleast_1d(bad))[0][0])
            raise ValueError(
                "Non-positive determinant (left-handed or null coordinate frame) in rotation "
                f"matrix {ind}: {m if m.ndim == 2 else m[ind]}."
            )
        gram = m @ np.swapaxes(m, -1, -2)
        orthogonal = np.all(np.isclose(gram, np.eye(3), atol=1e-12), axis=(-2, -1))
        if not np.all(orthogonal):
            u, _, vt = linalg.svd(matrix, full_matrices=False)
            matrix = ops.where(orthogonal[..., None, None], matrix, u @ vt)
            m = _values(matrix)
    trace = matrix[..., 0, 0] + matrix[..., 1, 1] + matrix[..., 2, 2]
    decision = np.stack([m[..., 0, 0], m[..., 1, 1], m[..., 2, 2], _values(trace)], axis=-1)
    choice = np.argmax(decision, axis=-1)[..., None]
    r = matrix
    cases = [
        [1 - trace + 2 * r[..., 0, 0], r[..., 1, 0] + r[..., 0, 1], r[..., 2, 0] + r[..., 0, 2],
         r[..., 2, 1] - r[..., 1, 2]],
        [r[..., 1, 0] + r[..., 0, 1], 1 - trace + 2 * r[..., 1, 1], r[..., 2, 1] + r[..., 1, 2],
         r[..., 0, 2] - r[..., 2, 0]],
        [r[..., 2, 0] + r[..., 0, 2], r[..., 2, 1] + r[..., 1, 2], 1 - trace + 2 * r[..., 2, 2],
         r[..., 1, 0] - r[..., 0, 1]],
        [r[..., 2, 1] - r[..., 1, 2], r[..., 0, 2] - r[..., 2, 0], r[..., 1, 0] - r[..., 0, 1],
         1 + trace],
    ]  # fmt: skip
    quat = ops.stack(cases[3], axis=-1)
    for n in (2, 1, 0):
        quat = ops.where(choice == n, ops.stack(cases[n], axis=-1), quat)
    return _normalize(quat)


class Rotation:
    """SciPy's ``scipy.spatial.transform.Rotation`` over a differentiable unit quaternion
    (scalar last, shape ``(..., 4)``; ``(4,)`` for a single rotation).

    >>> import numpy as np
    >>> r = Rotation.from_euler("z", 90, degrees=True)  # plain: SciPy's own inside
    >>> np.round(r.apply([1.0, 0.0, 0.0]), 12) + 0.0
    array([0., 1., 0.])
    """

    _scipy: Any
    _quat: Any

    def __init__(
        self, quat: ArrayLike, normalize: bool = True, copy: bool = True,
        scalar_first: bool = False,
    ) -> None:  # fmt: skip
        if isinstance(quat, _SciPyRotation):
            self._scipy, self._quat = quat, None
            return
        if _all_plain(quat):
            self._scipy = _SciPyRotation(quat, normalize, copy, scalar_first)
            self._quat = None
            return
        q = as_input(quat)
        if shape_of(q)[-1:] != (4,):
            raise ValueError(f"Expected `quat` to have shape (..., 4), got {tuple(shape_of(q))}.")
        if scalar_first:
            q = ops.roll(q, -1, axis=-1)
        self._scipy, self._quat = None, _normalize(q) if normalize else q

    @classmethod
    def _of(cls, quat: Any) -> Rotation:
        """A Rotation holding the quaternion ``quat`` as it is."""
        out = cls.__new__(cls)
        out._scipy, out._quat = None, quat
        return out

    @property
    def _q(self) -> Any:
        """The quaternion, scalar last: a Tensor, or SciPy's array for a plain rotation."""
        return self._scipy.as_quat() if self._scipy is not None else self._quat

    def _plain(self, *values: Any) -> bool:
        return self._scipy is not None and _all_plain(*values)

    # ---- constructors ----
    @classmethod
    def from_quat(cls, quat: ArrayLike, *, scalar_first: bool = False) -> Rotation:
        """SciPy's ``Rotation.from_quat``: normalized (differentiable in ``quat``)."""
        return cls(quat, scalar_first=scalar_first)

    @classmethod
    def from_matrix(cls, matrix: ArrayLike, *, assume_valid: bool = False) -> Rotation:
        """SciPy's ``Rotation.from_matrix`` (its branch by the largest of the diagonal and
        the trace; a non-orthogonal matrix through its SVD's ``U @ Vt``)."""
        if _all_plain(matrix):
            return cls(_SciPyRotation.from_matrix(matrix, assume_valid=assume_valid))
        m = as_input(matrix)
        if shape_of(m)[-2:] != (3, 3):
            raise ValueError(
                f"Expected `matrix` to have shape (..., 3, 3), got {tuple(shape_of(m))}"
            )
        return cls._of(_from_matrix(m, assume_valid))

    @classmethod
    def from_rotvec(cls, rotvec: ArrayLike, degrees: bool = False) -> Rotation:
        """SciPy's ``Rotation.from_rotvec`` (smooth at the zero vector too)."""
        if _all_plain(rotvec):
            return cls(_SciPyRotation.from_rotvec(rotvec, degrees=degrees))
        v = as_input(rotvec)
        if shape_of(v)[-1:] != (3,):
            raise ValueError(f"Expected `rot_vec` to have shape (..., 3), got {shape_of(v)}")
        if degrees:
            v = v * (np.pi / 180.0)
        return cls._of(_from_rotvec(v))

    @classmethod
    def from_mrp(cls, mrp: ArrayLike) -> Rotation:
        """SciPy's ``Rotation.from_mrp`` (modified Rodrigues parameters)."""
        if _all_plain(mrp):
            return cls(_SciPyRotation.from_mrp(mrp))
        p = as_input(mrp)
        if shape_of(p)[-1:] != (3,):
            raise ValueError(f"Expected `mrp` to have shape (..., 3), got {shape_of(p)}")
        plus_1 = ops.sum(p * p, axis=-1, keepdims=True) + 1
        return cls._of(ops.concatenate([2 * p, 2 - plus_1], axis=-1) / plus_1)

    @classmethod
    def from_euler(cls, seq: str, angles: ArrayLike, degrees: bool = False) -> Rotation:
        """SciPy's ``Rotation.from_euler``: elementary rotations composed (``xyz``
        extrinsic, ``XYZ`` intrinsic)."""
        if _all_plain(angles):
            return cls(_SciPyRotation.from_euler(seq, angles, degrees=degrees))
        intrinsic = not _check_seq(seq, three=False)
        # SciPy's reading of the angles' shape (a scalar, (N,) for one axis, (..., 3)...)
        probe = _SciPyRotation.from_euler(seq, _values(as_input(angles)), degrees=degrees)
        a = ops.reshape(as_input(angles), (*probe.shape, len(seq)))
        if degrees:
            a = a * (np.pi / 180.0)
        axes = [_axis_index(x) for x in seq.lower()]
        q = _elementary(axes[0], a[..., 0])
        for n in range(1, len(axes)):
            e = _elementary(axes[n], a[..., n])
            q = _compose(q, e) if intrinsic else _compose(e, q)
        return cls._of(q)

    @classmethod
    def from_davenport(
        cls, axes: ArrayLike, order: str, angles: ArrayLike | float, degrees: bool = False
    ) -> Rotation:
        """SciPy's ``Rotation.from_davenport``: rotations about orthogonal consecutive axes,
        differentiable in ``angles`` and ``axes``."""
        if _all_plain(axes, angles):
            return cls(_SciPyRotation.from_davenport(axes, order, angles, degrees=degrees))
        if order not in ("e", "extrinsic", "i", "intrinsic"):
            raise ValueError(
                "order should be 'e'/'extrinsic' for extrinsic sequences or 'i'/"
                f"'intrinsic' for intrinsic sequences, got {order}"
            )
        extrinsic = order in ("e", "extrinsic")
        ax, a = as_input(axes), as_input(angles)
        probe = _SciPyRotation.from_davenport(_values(ax), order, _values(a), degrees=degrees)
        n_axes = 1 if len(shape_of(ax)) == 1 else shape_of(ax)[-2]
        ax = ops.reshape(ax, (-1, 3)) if len(shape_of(ax)) == 1 else ax
        a = ops.reshape(a, (*probe.shape, n_axes))
        if degrees:
            a = a * (np.pi / 180.0)
        ax = ax / _norm(ax)
        q = None
        for n in range(shape_of(ax)[-2]):
            qn = _from_rotvec(a[..., n, None] * ax[..., n, :])
            q = qn if q is None else (_compose(qn, q) if extrinsic else _compose(q, qn))
        assert q is not None
        return cls._of(q)

    @classmethod
    def identity(
        cls, num: int | None = None, *, shape: int | tuple[int, ...] | None = None
    ) -> Rotation:
        """SciPy's ``Rotation.identity`` (SciPy's own object)."""
        return cls(_SciPyRotation.identity(num, shape=shape))

    @classmethod
    def random(
        cls, num: int | None = None, rng: np.random.Generator | None = None, *,
        shape: tuple[int, ...] | None = None, random_state: Any = None,
    ) -> Rotation:  # fmt: skip
        """SciPy's ``Rotation.random`` (SciPy's own object)."""
        if random_state is not None:
            return cls(_SciPyRotation.random(num, shape=shape, random_state=random_state))
        return cls(_SciPyRotation.random(num, rng, shape=shape))

    @classmethod
    def concatenate(cls, rotations: Any) -> Rotation:
        """SciPy's ``Rotation.concatenate``: the rotations' quaternions stacked."""
        rotations = [rotations] if isinstance(rotations, Rotation) else list(rotations)
        if all(r._scipy is not None for r in rotations):
            return cls(_SciPyRotation.concatenate([r._scipy for r in rotations]))
        return cls._of(
            ops.concatenate([r._q[None] if r.single else r._q for r in rotations], axis=0)
        )

    # ---- conversions ----
    def as_quat(self, canonical: bool = False, *, scalar_first: bool = False) -> Any:
        """SciPy's ``as_quat`` (``canonical``: w >= 0, ties broken by x, y, z)."""
        if self._plain():
            return self._scipy.as_quat(canonical, scalar_first=scalar_first)
        q = _canonical(self._q) if canonical else self._q
        return ops.roll(q, 1, axis=-1) if scalar_first else q

    def as_matrix(self) -> Any:
        """SciPy's ``as_matrix``."""
        return self._scipy.as_matrix() if self._plain() else _matrix(self._q)

    def as_rotvec(self, degrees: bool = False) -> Any:
        """SciPy's ``as_rotvec`` (angle in [0, pi])."""
        if self._plain():
            return self._scipy.as_rotvec(degrees=degrees)
        return _as_rotvec(self._q, degrees)

    def as_mrp(self) -> Any:
        """SciPy's ``as_mrp`` (the parameters of the quaternion with w >= 0)."""
        if self._plain():
            return self._scipy.as_mrp()
        q = self._q
        sign = ops.where(_values(q)[..., 3:4] < 0, -1.0, 1.0)
        return sign * q[..., :3] / (1.0 + sign * q[..., 3:4])

    def as_euler(self, seq: str, degrees: bool = False, *, suppress_warnings: bool = False) -> Any:
        """SciPy's ``as_euler`` (its gimbal-lock rule: third angle zero, a warning)."""
        if self._plain():
            return self._scipy.as_euler(seq, degrees, suppress_warnings=suppress_warnings)
        return _as_euler(self._q, seq, degrees, suppress_warnings)

    def as_davenport(
        self, axes: ArrayLike, order: str, degrees: bool = False, *,
        suppress_warnings: bool = False,
    ) -> Any:  # fmt: skip
        """SciPy's ``as_davenport``: differentiable in the rotation (the axes constant)."""
        if self._plain(axes):
            return self._scipy.as_davenport(
                axes, order, degrees, suppress_warnings=suppress_warnings
            )
        if order not in ("e", "extrinsic", "i", "intrinsic"):
            raise ValueError(
                "order should be 'e'/'extrinsic' for extrinsic sequences or 'i'/'intrinsic'"
                f" for intrinsic sequences, got {order}"
            )
        if not _plain(axes):
            raise NotImplementedError("Rotation.as_davenport: no gradient in `axes` yet")
        extrinsic = order in ("e", "extrinsic")
        ax = np.asarray(axes, dtype=float)
        if ax.shape != (3, 3):
            raise ValueError(
                f"Rotation.as_davenport: expected axes of shape (3, 3), got {ax.shape}"
            )
        ax = ax / np.linalg.norm(ax, axis=-1, keepdims=True)
        if abs(ax[0] @ ax[1]) >= 1e-7 or abs(ax[1] @ ax[2]) >= 1e-7:
            raise ValueError("Consecutive axes must be orthogonal.")
        n1, n2, n3 = (ax[0], ax[1], ax[2]) if extrinsic else (ax[2], ax[1], ax[0])
        n_cross = np.cross(n1, n2)
        lamb = np.arctan2(n3 @ n_cross, n3 @ n1)
        flip = lamb < 0
        if flip:
            n2, lamb, n_cross = -n2, -lamb, -n_cross
        quat_lamb = np.concatenate([np.sin(lamb / 2) * n2, [np.cos(lamb / 2)]])
        qt = _compose(quat_lamb, self._q)
        a, v = qt[..., 3], qt[..., :3]
        b, c, d = v @ n1, v @ n2, v @ n_cross
        angles = _get_angles(extrinsic, False, 1.0, lamb, a, b, c, d, suppress_warnings)
        if flip:
            angles = angles * np.array([1.0, -1.0, 1.0])
        return angles * (180.0 / np.pi) if degrees else angles

    # ---- operations ----
    def apply(self, vectors: ArrayLike, inverse: bool = False) -> Any:
        """SciPy's ``apply``: the rotation matrix times each vector (``inverse``: its
        transpose); differentiable in the rotation and the vectors."""
        if self._plain(vectors):
            return self._scipy.apply(vectors, inverse)
        v = as_input(vectors)
        if shape_of(v)[-1:] != (3,):
            raise ValueError(f"Expected input of shape (3,) or (P, 3), got {tuple(shape_of(v))}.")
        mat = _matrix(self._q)
        if inverse:
            mat = ops.matrix_transpose(mat)
        out = (mat @ v[..., None])[..., 0]
        if self.single and len(shape_of(v)) == 1:
            return out
        return out

    def inv(self) -> Rotation:
        """SciPy's ``inv``: the conjugate quaternion."""
        if self._plain():
            return Rotation(self._scipy.inv())
        q = self._q
        return Rotation._of(ops.concatenate([-q[..., :3], q[..., 3:]], axis=-1))

    def magnitude(self) -> Any:
        """SciPy's ``magnitude``: the angle in [0, pi] (not smooth at the identity)."""
        if self._plain():
            return self._scipy.magnitude()
        q = self._q
        return 2 * ops.arctan2(_norm(q[..., :3])[..., 0], ops.abs(q[..., 3]))

    def mean(self, weights: ArrayLike | None = None, axis: Any = None) -> Rotation:
        """SciPy's ``mean``: the top eigenvector of the (weighted) quaternion outer-product
        mean, its sign SciPy's; differentiable in the rotations and ``weights``."""
        if self._plain(weights):
            return Rotation(self._scipy.mean(weights, axis=axis))
        if axis is not None:
            raise NotImplementedError("Rotation.mean: axis on a Tensor rotation (no rule yet)")
        q = self._q
        if self.single:
            q = q[None]
        q = ops.reshape(q, (-1, 4))
        if weights is None:
            k = ops.matrix_transpose(q) @ q / shape_of(q)[0]
        else:
            w = ops.reshape(as_input(weights), (-1,))
            if np.any(_values(w) < 0):
                raise ValueError("`weights` must be non-negative.")
            k = ops.matrix_transpose(q * w[:, None]) @ q / shape_of(q)[0]
        v = linalg.eigh(k).eigenvectors[..., -1]
        reference = np.linalg.eigh(_values(k))[1][..., -1]
        sign = 1.0 if float(reference @ _values(v)) >= 0 else -1.0
        return Rotation._of(v * sign)

    def __mul__(self, other: Any) -> Rotation:
        """Composition ``self * other`` (``other`` applied first), normalized as SciPy."""
        if isinstance(other, _SciPyRotation):
            other = Rotation(other)
        if not isinstance(other, Rotation):
            return NotImplemented
        if self._scipy is not None and other._scipy is not None:
            return Rotation(self._scipy * other._scipy)
        q = _compose(self._q, other._q)
        return Rotation._of(_normalize(q))

    def __rmul__(self, other: Any) -> Rotation:
        if isinstance(other, _SciPyRotation):
            return Rotation(other) * self
        return NotImplemented

    def __pow__(self, n: float, modulus: None = None) -> Rotation:
        """SciPy's ``**``: the angle scaled by ``n`` about the same axis."""
        if self._plain(n):
            return Rotation(self._scipy**n)
        if isinstance(n, (int, float)) and n == 0:
            return Rotation._of(ops.zeros_like(self._q) + np.array([0.0, 0.0, 0.0, 1.0]))
        if isinstance(n, (int, float)) and n == -1:
            return self.inv()
        if isinstance(n, (int, float)) and n == 1:
            return Rotation._of(self._q)
        return Rotation._of(_from_rotvec(n * _as_rotvec(self._q, False)))

    # ---- container ----
    @property
    def single(self) -> bool:
        """Whether this is a single rotation (quaternion of shape ``(4,)``)."""
        if self._scipy is not None:
            return bool(self._scipy.single)
        return len(shape_of(self._quat)) == 1

    @property
    def shape(self) -> tuple[int, ...]:
        """The rotations' shape (``()`` for a single one)."""
        return tuple(shape_of(self._q))[:-1]

    def __len__(self) -> int:
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self.shape[0]

    def __getitem__(self, indexer: Any) -> Rotation:
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        if self._plain(indexer):
            return Rotation(self._scipy[indexer])
        if isinstance(indexer, Tensor):
            indexer = _values(indexer)
        return Rotation._of(self._q[indexer])

    def __iter__(self) -> Iterator[Rotation]:
        if self.single:
            raise TypeError("Single rotation is not iterable.")
        for n in range(len(self)):
            yield self[n]

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        q = self._q
        return f"Rotation.from_quat({q!r})"

    def to_scipy(self) -> Any:
        """SciPy's Rotation with these quaternions' current values (no gradient)."""
        return self._scipy if self._scipy is not None else _SciPyRotation(_values(self._q))


class Slerp:
    """SciPy's ``Slerp``: spherical linear interpolation between consecutive key
    rotations, differentiable in the key rotations and the times.

    >>> import numpy as np
    >>> key = Rotation.from_euler("z", [[0.0], [90.0]], degrees=True)
    >>> np.round(Slerp([0.0, 1.0], key)(0.5).as_euler("zyx", degrees=True), 9) + 0.0
    array([45.,  0.,  0.])
    """

    def __init__(self, times: ArrayLike, rotations: Rotation) -> None:
        if isinstance(rotations, _SciPyRotation):
            rotations = Rotation(rotations)
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) <= 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        if len(rotations.shape) > 1:
            raise ValueError("Rotations with more than 1 leading dimension are not supported.")
        self._plain_scipy = (
            _SciPySlerp(times, rotations._scipy) if rotations._plain(times) else None
        )
        t = as_input(times)
        if len(shape_of(t)) != 1:
            raise ValueError(
                "Expected times to be specified in a 1 dimensional array, got "
                f"{len(shape_of(t))} dimensions."
            )
        if shape_of(t)[0] != len(rotations):
            raise ValueError(
                "Expected number of rotations to be equal to number of timestamps given, got "
                f"{len(rotations)} rotations and {shape_of(t)[0]} timestamps."
            )
        self.times = t
        self.timedelta = t[1:] - t[:-1]
        if np.any(_values(self.timedelta) <= 0):
            raise ValueError("Times must be in strictly increasing order.")
        self.rotations = rotations[:-1]
        self.rotvecs = (self.rotations.inv() * rotations[1:]).as_rotvec()

    def __call__(self, times: ArrayLike) -> Rotation:
        """The interpolated rotations at ``times`` (a scalar or 1-D)."""
        if self._plain_scipy is not None and _all_plain(times):
            return Rotation(self._plain_scipy(times))
        t = as_input(times)
        if len(shape_of(t)) > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        single = len(shape_of(t)) == 0
        if single:
            t = ops.reshape(t, (1,))
        keys, tv = _values(self.times), _values(t)
        ind = np.searchsorted(keys, tv) - 1
        ind[tv == keys[0]] = 0
        if np.any((ind < 0) | (ind > len(self.rotations) - 1)):
            raise ValueError(
                f"Interpolation times must be within the range [{keys[0]}, {keys[-1]}], "
                "both inclusive."
            )
        alpha = (t - ops.take(self.times, ind)) / ops.take(self.timedelta, ind)
        steps = ops.take(self.rotvecs, ind, axis=0) * alpha[:, None]
        result = self.rotations[ind] * Rotation.from_rotvec(steps)
        return result[0] if single else result


_SciPySlerp = _sst.Slerp

__getattr__ = scipy_getattr(__name__, "scipy.spatial.transform")
