"""The tables behind NumPy interop: the tapegrad function that runs when a NumPy function
meets a Tensor (``np.sum(t, axis=0)``, ``np.linalg.svd(t)``, ``tnp.sort(t)``); the ufuncs'
tables are in tapegrad/numpy/ufunc_tables.py.

Each NumPy function is in exactly one table, which is also its entry in the coverage
table of docs/numpy.md (tapegrad/numpy/coverage.py reads them):

- ``differentiable_functions``: record on the tape;
- ``no_gradient_functions``: accept Tensors, return what NumPy
  returns (boolean or integer Tensors, Python values); ``WITHOUT_GRADIENT`` means NumPy's
  own implementation on the Tensors' values (tapegrad/numpy/_fallback.py);
- ``in_place_functions``: NumPy writes into an argument; Tensors are immutable, so these
  refuse with advice (tapegrad.numpy has functional forms of some).

Functions NumPy does not hand over (``np.array``, ``np.full``, ...) are tapegrad.numpy's
own (tapegrad/numpy/_arrays.py); the rest are listed as not supported, with the
reason, in tapegrad/numpy/coverage.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.ops.primitive import shape_of

WITHOUT_GRADIENT = "numpy's own, no gradient"


def differentiable_functions(ops: Any, signatures: Any, reductions: Any) -> dict[Any, Any]:
    from tapegrad.numpy import _polynomials as polynomials

    s, r = signatures, reductions
    return {
        # reductions (tapegrad/numpy/_reductions.py holds NumPy's signatures)
        np.sum: r.sum,
        np.prod: r.prod,
        np.mean: r.mean,
        np.max: r.max,
        np.amax: r.max,
        np.min: r.min,
        np.amin: r.min,
        np.var: r.var,
        np.std: r.std,
        np.ptp: r.ptp,
        np.cumsum: r.cumsum,
        np.cumprod: ops.cumprod,
        np.cumulative_sum: ops.cumulative_sum,
        np.cumulative_prod: ops.cumulative_prod,
        np.nansum: r.nansum,
        np.nanprod: r.nanprod,
        np.nanmean: r.nanmean,
        np.nanvar: r.nanvar,
        np.nanstd: r.nanstd,
        np.nanmax: r.nanmax,
        np.nanmin: r.nanmin,
        np.nancumsum: r.nancumsum,
        np.nancumprod: ops.nancumprod,
        np.median: r.median,
        np.nanmedian: r.nanmedian,
        np.quantile: r.quantile,
        np.nanquantile: r.nanquantile,
        np.percentile: r.percentile,
        np.nanpercentile: r.nanpercentile,
        np.average: ops.average,
        np.cov: ops.cov,
        np.corrcoef: ops.corrcoef,
        np.trace: r.trace,
        # differences and integrals
        np.diff: ops.diff,
        np.ediff1d: ops.ediff1d,
        np.gradient: ops.gradient,
        np.trapezoid: ops.trapezoid,
        np.interp: ops.interp,
        np.unwrap: ops.unwrap,
        # elementwise functions that are not ufuncs
        np.sinc: ops.sinc,
        np.i0: ops.i0,
        np.nan_to_num: ops.nan_to_num,
        np.real: ops.real,
        np.imag: ops.imag,
        np.real_if_close: s.real_if_close,
        np.clip: s.clip,
        np.where: s.where,
        np.select: ops.select,
        np.piecewise: ops.piecewise,
        np.choose: ops.choose,
        # shape
        np.reshape: s.reshape,
        np.ravel: ops.ravel,
        np.transpose: ops.transpose,
        np.permute_dims: ops.transpose,
        np.matrix_transpose: ops.matrix_transpose,
        np.swapaxes: ops.swapaxes,
        np.moveaxis: ops.moveaxis,
        np.rollaxis: ops.rollaxis,
        np.expand_dims: ops.expand_dims,
        np.squeeze: ops.squeeze,
        np.broadcast_to: ops.broadcast_to,
        np.broadcast_arrays: ops.broadcast_arrays,
        np.atleast_1d: ops.atleast_1d,
        np.atleast_2d: ops.atleast_2d,
        np.atleast_3d: ops.atleast_3d,
        np.copy: ops.copy,
        np.astype: ops.astype,
        np.resize: ops.resize,
        np.flip: ops.flip,
        np.fliplr: ops.fliplr,
        np.flipud: ops.flipud,
        np.rot90: ops.rot90,
        np.roll: ops.roll,
        np.tile: ops.tile,
        np.repeat: ops.repeat,
        np.pad: ops.pad,
        np.trim_zeros: ops.trim_zeros,
        # joining and splitting
        np.concatenate: s.concatenate,
        np.concat: s.concatenate,
        np.stack: s.stack,
        np.hstack: ops.hstack,
        np.vstack: ops.vstack,
        np.dstack: ops.dstack,
        np.column_stack: ops.column_stack,
        np.block: ops.block,
        np.append: ops.append,
        np.insert: ops.insert,
        np.delete: ops.delete,
        np.split: ops.split,
        np.array_split: ops.array_split,
        np.hsplit: ops.hsplit,
        np.vsplit: ops.vsplit,
        np.dsplit: ops.dsplit,
        np.unstack: ops.unstack,
        # indexing
        np.take: s.take,
        np.take_along_axis: ops.take_along_axis,
        np.compress: ops.compress,
        np.extract: ops.extract,
        np.diag: ops.diag,
        np.diagflat: ops.diagflat,
        np.diagonal: ops.diagonal,
        np.tril: ops.tril,
        np.triu: ops.triu,
        # sorting and sets
        np.sort: ops.sort,
        np.partition: ops.partition,
        np.unique: ops.unique,
        np.unique_values: ops.unique_values,
        np.unique_counts: ops.unique_counts,
        np.unique_inverse: ops.unique_inverse,
        np.unique_all: ops.unique_all,
        np.union1d: ops.union1d,
        np.intersect1d: ops.intersect1d,
        np.setdiff1d: ops.setdiff1d,
        np.setxor1d: ops.setxor1d,
        # products
        np.dot: ops.dot,
        np.vdot: ops.vdot,
        np.inner: ops.inner,
        np.outer: ops.outer,
        np.tensordot: ops.tensordot,
        np.einsum: s.einsum,
        np.kron: ops.kron,
        np.cross: ops.cross,
        np.convolve: ops.convolve,
        np.correlate: ops.correlate,
        # polynomials
        np.polyval: polynomials.polyval,
        np.polyadd: polynomials.polyadd,
        np.polysub: polynomials.polysub,
        np.polymul: polynomials.polymul,
        np.polyder: polynomials.polyder,
        np.polyint: polynomials.polyint,
        np.polydiv: polynomials.polydiv,
        np.poly: polynomials.poly,
        np.polyfit: polynomials.polyfit,
        np.roots: polynomials.roots,
        # creation from traced values
        np.linspace: ops.linspace,
        np.logspace: ops.logspace,
        np.geomspace: ops.geomspace,
        np.meshgrid: ops.meshgrid,
        np.vander: ops.vander,
        np.full_like: _full_like,
        np.bincount: s.bincount,
        np.apply_along_axis: s.apply_along_axis,
        np.apply_over_axes: s.apply_over_axes,
        np.angle: ops.angle,
        # numpy.linalg and numpy.fft: the functions that are already differentiable
        np.linalg.matmul: ops.matmul,
        np.linalg.outer: ops.outer,
        np.linalg.vecdot: ops.vecdot,
        np.linalg.tensordot: ops.tensordot,
        np.linalg.matrix_transpose: ops.matrix_transpose,
        np.linalg.trace: s.linalg_trace,
        np.linalg.diagonal: s.linalg_diagonal,
        np.linalg.cross: s.linalg_cross,
        **_linalg_functions(),
        **_fft_functions(),
    }


def _linalg_functions() -> dict[Any, Any]:
    from tapegrad import linalg

    return {
        np.linalg.cholesky: linalg.cholesky,
        np.linalg.cond: linalg.cond,
        np.linalg.det: linalg.det,
        np.linalg.eig: linalg.eig,
        np.linalg.eigh: linalg.eigh,
        np.linalg.eigvals: linalg.eigvals,
        np.linalg.eigvalsh: linalg.eigvalsh,
        np.linalg.inv: linalg.inv,
        np.linalg.lstsq: linalg.lstsq,
        np.linalg.matrix_norm: linalg.matrix_norm,
        np.linalg.matrix_power: linalg.matrix_power,
        np.linalg.multi_dot: linalg.multi_dot,
        np.linalg.norm: linalg.norm,
        np.linalg.pinv: linalg.pinv,
        np.linalg.qr: linalg.qr,
        np.linalg.slogdet: linalg.slogdet,
        np.linalg.solve: linalg.solve,
        np.linalg.svd: linalg.svd,
        np.linalg.svdvals: linalg.svdvals,
        np.linalg.tensorinv: linalg.tensorinv,
        np.linalg.tensorsolve: linalg.tensorsolve,
        np.linalg.vector_norm: linalg.vector_norm,
    }


def _fft_functions() -> dict[Any, Any]:
    from tapegrad import fft

    return {
        np.fft.fft: fft.fft,
        np.fft.fft2: fft.fft2,
        np.fft.fftn: fft.fftn,
        np.fft.fftshift: fft.fftshift,
        np.fft.hfft: fft.hfft,
        np.fft.ifft: fft.ifft,
        np.fft.ifft2: fft.ifft2,
        np.fft.ifftn: fft.ifftn,
        np.fft.ifftshift: fft.ifftshift,
        np.fft.ihfft: fft.ihfft,
        np.fft.irfft: fft.irfft,
        np.fft.irfft2: fft.irfft2,
        np.fft.irfftn: fft.irfftn,
        np.fft.rfft: fft.rfft,
        np.fft.rfft2: fft.rfft2,
        np.fft.rfftn: fft.rfftn,
    }


def _full_like(*args: Any, **kwargs: Any) -> Any:
    from tapegrad.numpy._arrays import full_like

    return full_like(*args, **kwargs)


def no_gradient_functions(ops: Any, signatures: Any, reductions: Any) -> dict[Any, Any]:
    s, r = signatures, reductions
    return {
        np.all: r.all,
        np.any: r.any,
        np.argmax: r.argmax,
        np.argmin: r.argmin,
        np.nanargmax: r.nanargmax,
        np.nanargmin: r.nanargmin,
        np.argsort: ops.argsort,
        np.argpartition: ops.argpartition,
        np.lexsort: ops.lexsort,
        np.searchsorted: ops.searchsorted,
        np.nonzero: ops.nonzero,
        np.argwhere: ops.argwhere,
        np.flatnonzero: ops.flatnonzero,
        np.count_nonzero: ops.count_nonzero,
        np.isclose: ops.isclose,
        np.allclose: ops.allclose,
        np.array_equal: ops.array_equal,
        np.array_equiv: ops.array_equiv,
        np.isposinf: ops.isposinf,
        np.isneginf: ops.isneginf,
        np.iscomplex: s.iscomplex,
        np.isreal: s.isreal,
        np.iscomplexobj: s.iscomplexobj,
        np.isrealobj: s.isrealobj,
        np.round: s.round,
        np.around: s.round,
        np.fix: ops.fix,
        np.zeros_like: s.zeros_like,
        np.ones_like: s.ones_like,
        np.empty_like: s.empty_like,
        np.shape: shape_of,
        np.ndim: lambda a: len(shape_of(a)),
        np.size: s.size,
        # NumPy's own implementation on the values
        np.isin: WITHOUT_GRADIENT,
        np.digitize: WITHOUT_GRADIENT,
        np.histogram: WITHOUT_GRADIENT,
        np.histogram2d: WITHOUT_GRADIENT,
        np.histogramdd: WITHOUT_GRADIENT,
        np.histogram_bin_edges: WITHOUT_GRADIENT,
        np.sort_complex: WITHOUT_GRADIENT,
        np.packbits: WITHOUT_GRADIENT,
        np.unpackbits: WITHOUT_GRADIENT,
        np.ravel_multi_index: WITHOUT_GRADIENT,
        np.unravel_index: WITHOUT_GRADIENT,
        np.ix_: WITHOUT_GRADIENT,
        np.diag_indices_from: WITHOUT_GRADIENT,
        np.tril_indices_from: WITHOUT_GRADIENT,
        np.triu_indices_from: WITHOUT_GRADIENT,
        np.einsum_path: WITHOUT_GRADIENT,
        np.can_cast: WITHOUT_GRADIENT,
        np.result_type: WITHOUT_GRADIENT,
        np.min_scalar_type: WITHOUT_GRADIENT,
        np.common_type: WITHOUT_GRADIENT,
        np.may_share_memory: WITHOUT_GRADIENT,
        np.shares_memory: WITHOUT_GRADIENT,
        np.array2string: WITHOUT_GRADIENT,
        np.array_repr: WITHOUT_GRADIENT,
        np.array_str: WITHOUT_GRADIENT,
        np.save: WITHOUT_GRADIENT,
        np.savez: WITHOUT_GRADIENT,
        np.savez_compressed: WITHOUT_GRADIENT,
        np.savetxt: WITHOUT_GRADIENT,
        np.busday_count: WITHOUT_GRADIENT,
        np.busday_offset: WITHOUT_GRADIENT,
        np.is_busday: WITHOUT_GRADIENT,
        np.datetime_as_string: WITHOUT_GRADIENT,
        np.linalg.matrix_rank: WITHOUT_GRADIENT,
    }


def in_place_functions(signatures: Any) -> dict[Any, Any]:
    refuse = signatures.in_place_only
    functional = "use tapegrad.numpy.{}(..., inplace=False), which returns the result"
    return {
        np.put: refuse("put", functional.format("put")),
        np.put_along_axis: refuse("put_along_axis", functional.format("put_along_axis")),
        np.place: refuse("place", functional.format("place")),
        np.fill_diagonal: refuse("fill_diagonal", functional.format("fill_diagonal")),
        np.putmask: refuse("putmask", "use tapegrad.numpy.where(mask, values, a)"),
        np.copyto: refuse("copyto", "use tapegrad.numpy.where(where, src, dst)"),
    }
