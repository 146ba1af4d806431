"""Buckets of words and sentences, as compare-mt (Neubig et al., 2019) draws them.

A bucketing is a rising list of edges ``e_0 < e_1 < ... < e_m``; a value ``v`` falls in bucket
0 when ``v < e_0``, in bucket ``i`` when ``e_{i-1} <= v < e_i``, and in bucket ``m`` when
``v >= e_m``. The labels are compare-mt's: ``<e_0``, then ``e`` for a bucket holding a single
integer and ``[a,b)`` otherwise, then ``>=e_m``.

The default edges are compare-mt 0.2.10's (its ``bucketers.py``, read, not copied): word
frequency ``1 2 3 4 5 10 100 1000``, sentence length ``10 20 30 40 50 60``, length difference
(output minus reference) ``-20 -10 -5 -4 -3 -2 -1 0 1 2 3 4 5 6 11 21``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette.errors import UserInputError

FREQUENCY_EDGES = (1, 2, 3, 4, 5, 10, 100, 1000)
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
LENGTH_DIFF_EDGES = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)


def check_edges(edges: Sequence[float], what: str = "bucket edges") -> tuple[float, ...]:
    """The edges as a tuple, refused unless they are finite and strictly rising.

    Examples
    --------
    >>> check_edges([1, 2, 5])
    (1, 2, 5)
    """
    out = tuple(edges)
    if not out:
        raise UserInputError(f"{what}: give at least one edge")
    if not all(np.isfinite(out)) or any(b <= a for a, b in zip(out, out[1:], strict=False)):
        raise UserInputError(f"{what}: expected finite, strictly rising numbers, got {list(out)}")
    return out


def labels(edges: Sequence[float]) -> list[str]:
    """compare-mt's bucket labels.

    Examples
    --------
    >>> labels((1, 2, 5, 10))
    ['<1', '1', '[2,5)', '[5,10)', '>=10']
    """
    edges = check_edges(edges)
    out = [f"<{_num(edges[0])}"]
    for a, b in zip(edges, edges[1:], strict=False):
        single = float(a).is_integer() and b == a + 1
        out.append(_num(a) if single else f"[{_num(a)},{_num(b)})")
    out.append(f">={_num(edges[-1])}")
    return out


def assign(values: np.ndarray, edges: Sequence[float]) -> np.ndarray:
    """The bucket (0 to ``len(edges)``) of every value.

    Examples
    --------
    >>> assign(np.array([0, 1, 4, 5, 99, 1000]), (1, 2, 3, 4, 5, 10, 100, 1000)).tolist()
    [0, 1, 4, 5, 6, 8]
    """
    return np.searchsorted(np.asarray(check_edges(edges), dtype=np.float64),
                           np.asarray(values, dtype=np.float64), side="right")  # fmt: skip


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))
