"""What a grouped correlation leaves out or cannot tell, said in one sentence each: groups
with one rated entry (dropped), groups whose human scores are all equal (no correlation
defined), and groups of two entries (a rank correlation of two entries is +1 or -1).

Examples
--------
>>> import numpy as np
>>> h = np.array([[1.0, 2.0, np.nan], [1.0, 3.0, 2.0]])
>>> degenerate_groups(h, "item").sentences()  # doctest: +NORMALIZE_WHITESPACE
['1 of 3 items have human scores all equal: no correlation is defined for them, left out
  of the average', '2 of 3 items have two rated systems: a correlation of two entries is
  +1 or -1', '1 of 3 items have one rated system: left out']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from mtpalette.stats.grouping import as_matrix

_UNIT = {"item": ("items", "systems"), "system": ("systems", "items")}


@dataclass(frozen=True)
class DegenerateGroups:
    """Counts of the groups of a grouping (``item``: segments; ``system``) that are left out
    or degenerate."""

    grouping: str
    n_groups: int
    single: int
    constant: int
    pairs: int

    def sentences(self) -> list[str]:
        if self.grouping not in _UNIT:
            out = []
            if self.constant:
                out.append("the human scores are all equal: no correlation is defined")
            return out
        unit, inner = _UNIT[self.grouping]
        total = f"of {self.n_groups} {unit}"
        out = []
        if self.constant:
            out.append(
                f"{self.constant} {total} have human scores all equal: no correlation is "
                "defined for them, left out of the average"
            )
        if self.pairs:
            out.append(
                f"{self.pairs} {total} have two rated {inner}: a correlation of two entries "
                "is +1 or -1"
            )
        if self.single:
            out.append(f"{self.single} {total} have one rated {inner[:-1]}: left out")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "grouping": self.grouping,
            "n_groups": self.n_groups,
            "one_rated": self.single,
            "human_constant": self.constant,
            "two_rated": self.pairs,
            "notes": self.sentences(),
        }


def degenerate_groups(human: Any, grouping: str) -> DegenerateGroups:
    """The left-out and degenerate groups of ``human`` (``(systems, items)``, NaN unrated)."""
    h = as_matrix(human)
    rows = {"item": h.T, "system": h, "none": h.reshape(1, -1)}[grouping]
    rated = ~np.isnan(rows)
    sizes = rated.sum(axis=1)
    with np.errstate(invalid="ignore"):
        lo = np.where(rated, rows, np.inf).min(axis=1)
        hi = np.where(rated, rows, -np.inf).max(axis=1)
    constant = int(((sizes >= 2) & (lo == hi)).sum())
    return DegenerateGroups(
        grouping, rows.shape[0], int((sizes == 1).sum()), constant, int((sizes == 2).sum())
    )
