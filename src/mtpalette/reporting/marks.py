"""How the report's tables mark values: every value tied with the best, p-values as text,
missing numbers as NaN."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def nan_if_none(x: Any) -> float:
    """``x`` as a float, NaN for None.

    Examples
    --------
    >>> nan_if_none(None) != nan_if_none(None), nan_if_none(2)
    (True, 2.0)
    """
    return float("nan") if x is None else float(x)


def tied_best(values: Sequence[float | None], higher: bool) -> list[bool]:
    """Every value equal to the best one (to 1e-12, relative): all tied best are bold.

    Examples
    --------
    >>> tied_best([0.5, 0.7, 0.7, None], True)
    [False, True, True, False]
    >>> tied_best([0.65, 0.66, 0.65], False)
    [True, False, True]
    """
    ok = [v for v in values if v is not None and v == v]
    if not ok:
        return [False] * len(values)
    best = max(ok) if higher else min(ok)
    tol = 1e-12 * max(1.0, abs(best))
    return [v is not None and v == v and abs(v - best) <= tol for v in values]


def p_text(p: float) -> str:
    """A p-value as the tables print it: three decimals, ``p < 0.001`` below that (a
    resampled p-value of 0 only says that no resample went the other way).

    Examples
    --------
    >>> p_text(0.0579), p_text(0.0), p_text(1.0)
    ('p = 0.058', 'p < 0.001', 'p = 1.000')
    """
    return "p < 0.001" if p < 0.0005 else f"p = {p:.3f}"
