"""A distribution of tapegrad.scipy.stats: SciPy's, with its differentiable methods tapegrad's.

``tapegrad.scipy.stats.norm`` is a :class:`Distribution`: the methods its declaration in
_continuous.py gets from the family machinery (_family.py: ``logpdf``, ``cdf``, ``ppf``,
``mean``, ``entropy`` ...) record on the tape, and every other name of ``scipy.stats.norm``
(``rvs``, ``moment``, ``interval``, ``fit``, ``support`` ...) is SciPy's own, so SciPy code
that samples and scores with one module runs unchanged. Calling it freezes its parameters,
as SciPy's distributions do.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from tapegrad.scipy.stats._family import STATISTICS


class Distribution:
    """SciPy's distribution ``name``, whose methods in ``methods`` (a module) are tapegrad's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> norm.logpdf(tg.tensor(0.0)).item() == float(norm.logpdf(0.0))  # recorded; SciPy's
    True
    >>> norm.rvs(size=3, random_state=0).shape, round(float(norm.entropy()), 6)  # SciPy's
    ((3,), 1.418939)
    >>> frozen = norm(loc=1.0, scale=2.0)
    >>> frozen.cdf(tg.tensor(1.0)).item(), float(frozen.mean())
    (0.5, 1.0)
    """

    def __init__(
        self, name: str, methods: ModuleType | dict[str, Any], doc: str | None = None
    ) -> None:
        self._name = name
        if isinstance(methods, dict):  # declared (tapegrad/scipy/stats/_family.py)
            self._table = dict(methods)
        else:  # a module of hand-written methods
            self._table = {
                attribute: value
                for attribute, value in vars(methods).items()
                if not attribute.startswith("_")
                and callable(value)
                and getattr(value, "__module__", None) == methods.__name__
            }
            doc = methods.__doc__
        # The names of the methods that record (tapegrad's), in the order they are defined.
        self.differentiable: tuple[str, ...] = tuple(self._table)
        self.__doc__ = (
            f"{(doc or '').rstrip()}\n\n"
            f"The rest of ``scipy.stats.{name}``'s interface is SciPy's own, and calling it "
            "freezes its parameters:\n\n"
            f">>> from tapegrad.scipy.stats import {name}\n"
            f">>> callable({name}.rvs) and callable({name}.entropy)\nTrue\n"
        )

    def scipy(self) -> Any:
        """SciPy's own distribution object (``scipy.stats.<name>``)."""
        return getattr(importlib.import_module("scipy.stats"), self._name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self._table:
            return self._table[name]
        return getattr(self.scipy(), name)

    def __call__(self, *args: Any, **kwargs: Any) -> Frozen:
        return Frozen(self, args, kwargs)

    def __dir__(self) -> list[str]:
        return sorted({*self.differentiable, *dir(self.scipy())})

    def __repr__(self) -> str:
        methods = ", ".join(self.differentiable)
        return f"<tapegrad.scipy.stats.{self._name}: {methods} record; the rest is SciPy's>"


class Frozen:
    """A distribution with its parameters fixed: ``norm(loc, scale)``.

    Its differentiable methods take the point first and the frozen parameters after it
    (``frozen.logpdf(x)`` is ``norm.logpdf(x, loc, scale)``, recorded, so the parameters
    may be watched Tensors); the rest is SciPy's frozen distribution's (``rvs``,
    ``entropy``, ``mean`` ...), on the parameters' values.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> a = tg.tensor(2.0)
    >>> frozen = gamma(a, scale=0.5)
    >>> tg.grad(lambda a: gamma(a, scale=0.5).logpdf(1.0))(a).item() == (
    ...     tg.grad(lambda a: gamma.logpdf(1.0, a, scale=0.5))(a).item()
    ... )
    True
    >>> float(frozen.mean()), float(frozen.var())
    (1.0, 0.5)
    """

    def __init__(self, distribution: Distribution, args: tuple[Any, ...], kwargs: dict) -> None:
        self.distribution = distribution
        self.args = args
        self.kwargs = kwargs

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if name in self.distribution.differentiable:
            method = getattr(self.distribution, name)

            point = 0 if name in STATISTICS else 1  # statistics: the parameters alone

            def frozen(*args: Any, **kwargs: Any) -> Any:
                given = (*args[:point], *self.args, *args[point:])
                return method(*given, **{**self.kwargs, **kwargs})

            frozen.__name__ = frozen.__qualname__ = name
            frozen.__doc__ = method.__doc__
            return frozen
        return getattr(self.distribution.scipy()(*self.args, **self.kwargs), name)

    def __repr__(self) -> str:
        given = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs.items()]
        return f"<frozen tapegrad.scipy.stats.{self.distribution._name}({', '.join(given)})>"
