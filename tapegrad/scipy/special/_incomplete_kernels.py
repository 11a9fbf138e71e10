"""Derivatives of the regularized incomplete gamma and beta functions in their parameters.

SciPy has no kernel for d/da gammainc(a, x) or d/da, d/db betainc(a, b, x), so these are
the classic evaluations of the functions (a power series, or a continued fraction where
the series converges slowly) differentiated term by term, in forward mode, alongside
the terms themselves: each recurrence carries the derivatives of its state. Written
with the array API's functions (plus SciPy's ``gammaln``/``digamma``), vectorized: every
element runs both evaluations and keeps the one valid where it lies.

References: Numerical Recipes (3rd ed.) §6.2 and §6.4 for the series and the continued
fractions; Boik & Robison-Cox (1998) for differentiating the beta fraction in a and b.
"""

from __future__ import annotations

from typing import Any

from tapegrad.scipy._dispatch import scipy_module

_EPS = 1e-15  # relative change per term that counts as converged (a few ulps)
_MAX_TERMS = 10_000  # more than any convergent case needs; the rest become NaN
_CHECK_EVERY = 8  # the convergence test reads device memory: not every term


def _float64(xp: Any, *arrays: Any) -> list[Any]:
    arrays = [xp.asarray(a) for a in arrays]
    if any(xp.isdtype(a.dtype, "complex floating") for a in arrays):
        raise TypeError("not supported for complex values")  # casting would drop imag parts
    arrays = [a if a.dtype == xp.float64 else xp.astype(a, xp.float64) for a in arrays]
    return list(xp.broadcast_arrays(*arrays))


def _continued_fraction(
    xp: Any, term: Any, b0: Any, db0: list[Any], near: Any
) -> tuple[Any, list[Any], Any]:
    """``f = 1 / (b0 + a1 / (b1 + a2 / (b2 + ...)))`` and its derivatives along each
    parameter direction. ``term(n)`` gives ``(a_n, b_n, [da_n...], [db_n...])``.

    The convergents A_n / B_n follow A_n = b_n A_{n-1} + a_n A_{n-2} (B_n alike), and
    differentiating the recurrence gives the derivatives' own. The state is rescaled by
    1/A_n each term (the recurrences are linear, so f and its derivatives are unchanged),
    keeping A_n = 1. Returns ``(f, [df...], converged)``; ``near`` marks the elements whose
    convergence matters.
    """
    k = len(db0)
    zero = xp.zeros_like(b0)
    scale = 1.0 / b0
    a_prev, b_prev = scale, zero  # A_{-1}, B_{-1} scaled; A_0 scaled is 1
    da_prev, db_prev = [zero] * k, [zero] * k
    da = [d * scale for d in db0]
    big_b = scale  # B_0 / A_0
    dbig_b = [zero] * k
    f, df = big_b, [dbig_b[i] - big_b * da[i] for i in range(k)]
    converged = xp.zeros_like(b0, dtype=xp.bool)
    for n in range(1, _MAX_TERMS):
        an, bn, dan, dbn = term(n)
        a_new = bn + an * a_prev  # b_n A_{n-1} + a_n A_{n-2}, with A_{n-1} = 1
        b_new = bn * big_b + an * b_prev
        da_new = [dbn[i] + bn * da[i] + dan[i] * a_prev + an * da_prev[i] for i in range(k)]
        db_new = [
            dbn[i] * big_b + bn * dbig_b[i] + dan[i] * b_prev + an * db_prev[i] for i in range(k)
        ]
        scale = 1.0 / a_new
        a_prev, b_prev = scale, big_b * scale
        da_prev, db_prev = [d * scale for d in da], [d * scale for d in dbig_b]
        big_b = b_new * scale
        da, dbig_b = [d * scale for d in da_new], [d * scale for d in db_new]
        f_new = big_b
        df_new = [dbig_b[i] - big_b * da[i] for i in range(k)]
        size = xp.abs(f_new) + sum(xp.abs(d) for d in df_new)
        change = xp.abs(f_new - f) + sum(xp.abs(df_new[i] - df[i]) for i in range(k))
        # Converged elements keep their value: later terms only add rounding.
        f = xp.where(converged, f, f_new)
        df = [xp.where(converged, df[i], df_new[i]) for i in range(k)]
        converged = converged | (change <= _EPS * size)
        if n % _CHECK_EVERY == 0 and bool(xp.all(converged | ~near)):
            break
    return f, df, converged


def gammainc_da(xp: Any, a: Any, x: Any) -> Any:
    """d/da of the regularized lower incomplete gamma function P(a, x)."""
    special = scipy_module(xp, "special")
    a, x = _float64(xp, a, x)
    valid = (a > 0) & (x > 0) & (x < xp.inf)
    series = valid & (x < a + 1)
    fraction = valid & ~series
    a_s, x_s = xp.where(series, a, 1.0), xp.where(series, x, 0.5)
    a_f, x_f = xp.where(fraction, a, 1.0), xp.where(fraction, x, 3.0)
    low, low_ok = _lower_series_da(xp, special, a_s, x_s, series)
    high, high_ok = _upper_fraction_da(xp, special, a_f, x_f, fraction)
    out = xp.where(series, xp.where(low_ok, low, xp.nan), xp.where(high_ok, -high, xp.nan))
    # P is constant (0 or 1) at x = 0 and x = inf; outside the domain, NaN as in SciPy.
    edge = (a > 0) & ((x == 0) | (x == xp.inf))
    return xp.where(valid, out, xp.where(edge, 0.0, xp.nan))


def _lower_series_da(xp: Any, special: Any, a: Any, x: Any, near: Any) -> tuple[Any, Any]:
    """P = x^a e^-x / Γ(a+1) Σ_n c_n with c_0 = 1, c_n = c_{n-1} x / (a + n); differentiated
    in a term by term (converges fast for x < a + 1)."""
    c, dc = xp.ones_like(a), xp.zeros_like(a)
    total, dtotal = c, dc
    converged = xp.zeros_like(a, dtype=xp.bool)
    for n in range(1, _MAX_TERMS):
        ratio = x / (a + n)
        dc = ratio * (dc - c / (a + n))
        c = c * ratio
        total, dtotal = total + c, dtotal + dc
        converged = converged | (
            (c <= _EPS * total) & (xp.abs(dc) <= _EPS * (xp.abs(dtotal) + total))
        )
        if n % _CHECK_EVERY == 0 and bool(xp.all(converged | ~near)):
            break
    log_x = xp.log(x)
    prefactor = xp.exp(a * log_x - x - special.gammaln(a + 1))
    return prefactor * (total * (log_x - special.digamma(a + 1)) + dtotal), converged


def _upper_fraction_da(xp: Any, special: Any, a: Any, x: Any, near: Any) -> tuple[Any, Any]:
    """dQ/da from Legendre's continued fraction Γ(a, x) = e^-x x^a / (x + 1 - a -
    1(1 - a) / (x + 3 - a - 2(2 - a) / ...)) (converges fast for x >= a + 1)."""
    minus_one = -xp.ones_like(a)

    def term(n: int) -> tuple[Any, Any, list[Any], list[Any]]:
        return -n * (n - a), x + (2 * n + 1) - a, [n + xp.zeros_like(a)], [minus_one]

    f, (df,), converged = _continued_fraction(xp, term, x + 1 - a, [minus_one], near)
    log_x = xp.log(x)
    prefactor = xp.exp(a * log_x - x - special.gammaln(a))
    return prefactor * ((log_x - special.digamma(a)) * f + df), converged


def betainc_dab(xp: Any, a: Any, b: Any, x: Any) -> Any:
    """d/da and d/db of the regularized incomplete beta function I_x(a, b), stacked on a
    new first axis."""
    special = scipy_module(xp, "special")
    a, b, x = _float64(xp, a, b, x)
    valid = (a > 0) & (b > 0) & (x > 0) & (x < 1)
    # I_x(a, b) = 1 - I_{1-x}(b, a): the fraction converges fast for x < (a+1)/(a+b+2).
    swap = x > (a + 1) / (a + b + 2)
    p = xp.where(valid, xp.where(swap, b, a), 1.0)
    q = xp.where(valid, xp.where(swap, a, b), 1.0)
    y = xp.where(valid, xp.where(swap, 1 - x, x), 0.5)
    dp, dq, converged = _beta_fraction_d(xp, special, p, q, y, valid)
    da = xp.where(swap, -dq, dp)
    db = xp.where(swap, -dp, dq)
    edge = (a > 0) & (b > 0) & ((x == 0) | (x == 1))
    fill = xp.where(edge, 0.0, xp.nan)
    ok = valid & converged
    return xp.stack([xp.where(ok, da, fill), xp.where(ok, db, fill)])


def _beta_fraction_d(
    xp: Any, special: Any, p: Any, q: Any, y: Any, near: Any
) -> tuple[Any, Any, Any]:
    """d/dp, d/dq of I_y(p, q) = y^p (1-y)^q / (p B(p, q)) / (1 + d1 / (1 + d2 / ...))."""
    zero, one = xp.zeros_like(p), xp.ones_like(p)

    def term(n: int) -> tuple[Any, Any, list[Any], list[Any]]:
        m = n // 2
        if n % 2:  # d_{2m+1} = -(p+m)(p+q+m) y / ((p+2m)(p+2m+1))
            top, top_p, top_q = (p + m) * (p + q + m), (p + q + m) + (p + m), p + m
            bottom, bottom_p = (p + 2 * m) * (p + 2 * m + 1), (p + 2 * m + 1) + (p + 2 * m)
            sign = -y
        else:  # d_{2m} = m(q-m) y / ((p+2m-1)(p+2m))
            top, top_p, top_q = m * (q - m), zero, m + zero
            bottom, bottom_p = (p + 2 * m - 1) * (p + 2 * m), (p + 2 * m) + (p + 2 * m - 1)
            sign = y
        d = sign * top / bottom
        d_p = sign * (top_p * bottom - top * bottom_p) / (bottom * bottom)
        d_q = sign * top_q / bottom
        return d, one, [d_p, d_q], [zero, zero]

    f, (df_p, df_q), converged = _continued_fraction(xp, term, one, [zero, zero], near)
    both = special.digamma(p + q)
    log_y, log_1my = xp.log(y), xp.log1p(-y)
    prefactor = xp.exp(p * log_y + q * log_1my - xp.log(p) - special.betaln(p, q))
    dp = prefactor * ((log_y - 1 / p - special.digamma(p) + both) * f + df_p)
    dq = prefactor * ((log_1my - special.digamma(q) + both) * f + df_q)
    return dp, dq, converged
