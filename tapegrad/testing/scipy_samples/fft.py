"""scipy.fft's cosine and sine transforms (every ``type``, ``norm``, ``orthogonalize``,
``n``/``s``, ``axis``/``axes``) and its Fourier transforms and helpers (``plan`` refused).
Complex outputs are sampled through their real part."""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

_REAL = ["dct", "idct", "dst", "idst"]
_REAL_N = ["dctn", "idctn", "dstn", "idstn"]
_ONE = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
_MANY = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"]

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [f"fft.{name}" for name in [*_REAL, *_REAL_N, *_ONE, *_MANY]] + [
    "fft.fftshift", "fft.ifftshift", "fft.fftfreq", "fft.rfftfreq",
]  # fmt: skip


def _real(name: str, **kw: Any) -> Any:  # x + 0.0: SciPy's overwrite_x may write on a copy only
    return lambda m, x, y: getattr(m.fft, name)(x + 0.0, **kw)


def _part(name: str, **kw: Any) -> Any:
    return lambda m, x, y: getattr(m.fft, name)(x + 0.0, **kw).real


ROWS: list[Sample] = []
for _name in _REAL:
    ROWS += [Sample(f"fft.{_name}", "default", _real(_name))]
    ROWS += [Sample(f"fft.{_name}", f"type={t}", _real(_name, type=t)) for t in (1, 3, 4)]
    ROWS += [
        Sample(f"fft.{_name}", f"type={t}, norm={norm}", _real(_name, type=t, norm=norm))
        for t in (1, 2, 3, 4) for norm in ("ortho", "forward", "backward")
    ]  # fmt: skip
    ROWS += [
        Sample(f"fft.{_name}", f"type={t}, orthogonalize={o}",
               _real(_name, type=t, norm="ortho" if not o else "forward", orthogonalize=o))
        for t in (1, 2, 3) for o in (True, False)
    ]  # fmt: skip
    ROWS += [
        Sample(f"fft.{_name}", "n=6 (zero-padded), axis=0", _real(_name, n=6, axis=0)),
        Sample(f"fft.{_name}", "n=3 (cropped), type=1", _real(_name, n=3, type=1)),
        Sample(f"fft.{_name}", "overwrite_x, workers", _real(_name, overwrite_x=True, workers=2)),
    ]
for _name in _REAL_N:
    ROWS += [
        Sample(f"fft.{_name}", "default", _real(_name)),
        Sample(f"fft.{_name}", "type=1, norm=ortho", _real(_name, type=1, norm="ortho")),
        Sample(f"fft.{_name}", "type=3, s=(4, 5)", _real(_name, type=3, s=(4, 5))),
        Sample(f"fft.{_name}", "type=4, axes=0", _real(_name, type=4, axes=0)),
        Sample(
            f"fft.{_name}",
            "orthogonalize, norm=forward",
            _real(_name, norm="forward", orthogonalize=True),
        ),  # fmt: skip
        Sample(f"fft.{_name}", "overwrite_x, workers", _real(_name, overwrite_x=True, workers=2)),
    ]
for _name in _ONE:
    ROWS += [
        Sample(f"fft.{_name}", "default", _part(_name)),
        Sample(f"fft.{_name}", "n=6, axis=0", _part(_name, n=6, axis=0)),
        Sample(f"fft.{_name}", "norm=ortho", _part(_name, norm="ortho")),
        Sample(f"fft.{_name}", "norm=forward", _part(_name, norm="forward")),
        Sample(f"fft.{_name}", "overwrite_x, workers", _part(_name, overwrite_x=True, workers=2)),
    ]
for _name in _MANY:
    ROWS += [
        Sample(f"fft.{_name}", "default", _part(_name)),
        Sample(f"fft.{_name}", "s=(4, 6)", _part(_name, s=(4, 6))),
        Sample(f"fft.{_name}", "axes=(1, 0), norm=ortho", _part(_name, axes=(1, 0), norm="ortho")),
        Sample(f"fft.{_name}", "overwrite_x, workers", _part(_name, overwrite_x=True, workers=2)),
    ]
ROWS += [
    Sample("fft.fftshift", "default", lambda m, x, y: m.fft.fftshift(x)),
    Sample("fft.fftshift", "axes=1", lambda m, x, y: m.fft.fftshift(x, axes=1)),
    Sample("fft.ifftshift", "default", lambda m, x, y: m.fft.ifftshift(x)),
    Sample("fft.ifftshift", "axes=0", lambda m, x, y: m.fft.ifftshift(x, axes=0)),
    Sample("fft.fftfreq", "d", lambda m, x, y: m.fft.fftfreq(5, d=x[0, 0])),
    Sample("fft.rfftfreq", "d", lambda m, x, y: m.fft.rfftfreq(5, d=x[0, 0])),
]  # fmt: skip

REFUSALS: list[Refusal] = [
    *(Refusal(f"fft.{name}", "plan", lambda m, x, y, name=name: getattr(m.fft, name)(x, plan=1))
      for name in [*_ONE, *_MANY]),
    Refusal("fft.fftfreq", "xp", lambda m, x, y: m.fft.fftfreq(4, d=x[0, 0], xp=object())),
    Refusal("fft.rfftfreq", "xp", lambda m, x, y: m.fft.rfftfreq(4, d=x[0, 0], xp=object())),
    Refusal("fft.fftfreq", "device", lambda m, x, y: m.fft.fftfreq(4, d=x[0, 0], device="cpu")),
    Refusal("fft.rfftfreq", "device", lambda m, x, y: m.fft.rfftfreq(4, d=x[0, 0], device="cpu")),
    Refusal("fft.dct", "orthogonalize",  # on complex input
            lambda m, x, y: m.fft.dct(x + 1j * y, orthogonalize=True)),
]  # fmt: skip
