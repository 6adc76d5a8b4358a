"""How the lessons write their numbers: rounding as the sources do, near-certainties, small shares, plurals."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from lshdesk.core.humanize import plural, scheme_text  # noqa: F401  (the lessons write schemes the same way)


def to_fixed(x: float, digits: int) -> str:
    """JavaScript's ``x.toFixed(digits)``: the double's exact decimal value rounded half up (1/8 -> '0.13').

    Python's format rounds half to even (``f'{0.125:.2f}'`` is '0.12'); the article's status line rounds up.
    """
    if math.isnan(x):
        return "NaN"
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def ratio_text(num: int, den: int, digits: int = 3) -> str:
    """``num/den`` as a decimal: exact when it ends within ``digits + 1`` places (1/16 -> '0.0625'), else rounded
    half up to ``digits`` places (1/3 -> '0.333')."""
    if den == 0:
        return "NaN"
    f = Fraction(num, den)
    for places in range(digits + 2):
        if (f * 10**places).denominator == 1:
            return f"{float(f):.{places}f}"
    return to_fixed(float(f), digits)


def prob_text(p: float, digits: int = 3) -> str:
    """A probability that never reads as a certainty it is not: 0.99998 -> '> 0.999', 1e-6 -> '< 0.001'."""
    if math.isnan(p):
        return "NaN"
    step = 10.0**-digits
    if p >= 1.0:
        return "1"
    if p <= 0.0:
        return "0"
    if p > 1.0 - step / 2:
        return f"> {1 - step:.{digits}f}"
    if p < step / 2:
        return f"< {step:.{digits}f}"
    return to_fixed(p, digits)


def prob_is(p: float, digits: int = 3) -> str:
    """' = 0.123', ' > 0.999' or ' < 0.001': a probability after its name, never 'P = > 0.999'."""
    text = prob_text(p, digits)
    return f" {text}" if text[0] in "<>" else f" = {text}"


PERCENT_DIGITS = 4  # the most decimals a share is written with; anything smaller reads '< 0.0001 %'


def percent_text(share: float, digits: int = 1) -> str:
    """A share as a percentage with enough digits that a small non-zero share does not read 0 (0.0002 -> '0.02 %');
    below 0.0001 % it says so ('< 0.0001 %') rather than print a row of zeros."""
    if math.isnan(share):
        return "–"
    pct = 100.0 * share
    if pct == 0:
        return "0 %"
    while digits < PERCENT_DIGITS and float(to_fixed(pct, digits)) == 0.0:
        digits += 1
    if float(to_fixed(pct, digits)) == 0.0:
        return f"< {10.0**-PERCENT_DIGITS:.{PERCENT_DIGITS}f} %"
    return f"{to_fixed(pct, digits)} %"
