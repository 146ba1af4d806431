"""Minimum Bayes risk selection and reranking, on :func:`mtpalette.metrics.pairwise.pairwise`.

For each segment, the candidate with the highest expected utility: the mean of its scores
against the pseudo-references (the other candidates of the segment: MBR decoding, Kumar and
Byrne 2004; with ``include_self=True`` against all candidates, itself included, as mbrs
does) or against given references (reranking). Ties go to the first candidate in list order.

References
----------
Kumar and Byrne (2004), Minimum Bayes-risk decoding for statistical machine translation;
Freitag et al. (2022), High quality rather than high model probability: MBR decoding with
neural metrics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class MbrSelection:
    """The selected candidate of every segment.

    Attributes
    ----------
    index:
        int64, the selected candidate's position in its segment's list (-1: no candidate).
    text:
        The selected candidates ("" where a segment has none).
    utility:
        The selected candidate's expected utility (NaN where none).
    utilities:
        Per segment, the expected utility of every candidate.
    matrices:
        Per segment, the pairwise score matrix (candidates x pseudo-references).
    """

    index: np.ndarray
    text: list[str]
    utility: np.ndarray
    utilities: list[np.ndarray]
    matrices: list[np.ndarray]

    def _rows(self) -> list[dict]:
        return [
            {"segment": i + 1, "index": int(k), "text": t, "utility": float(u)}
            for i, (k, t, u) in enumerate(zip(self.index, self.text, self.utility, strict=True))
        ]

    def to_pandas(self):
        """One row per segment (numbered from 1): the selected candidate's ``index``,
        ``text`` and ``utility``."""
        from mtpalette.records import frame

        return frame(self._rows())

    def to_json(self) -> str:
        """The rows of :meth:`to_pandas`, each with every candidate's expected utility."""
        from mtpalette.records import dumps

        rows = self._rows()
        for row, utilities in zip(rows, self.utilities, strict=True):
            row["utilities"] = utilities
        return dumps(rows)


def mbr(
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    metric: str = "chrf",
    *,
    include_self: bool = False,
    lowercase: bool = False,
    tokenize: str = "13a",
) -> MbrSelection:
    """Select, per segment, the candidate of highest expected utility.

    Parameters
    ----------
    candidates
        Per segment, its candidates (samples or an n-best list).
    references
        Per segment, references to rerank against; None: MBR, the candidates are the
        pseudo-references.
    metric
        The utility, one metric spec (``chrf`` by default; ``bleus:4``, ``chrf++``...).
        Metrics where lower is better (TER, WER) are negated.
    include_self
        MBR only: count each candidate's score against itself (mbrs' convention).

    Examples
    --------
    >>> sel = mbr([["the cat sat", "a cat sat on", "the cat sat on"]])
    >>> sel.index.tolist(), sel.text
    ([2], ['the cat sat on'])
    """
    from mtpalette.metrics import parse_specs
    from mtpalette.metrics.pairwise import pairwise

    sign = 1.0 if parse_specs([metric])[0].higher_is_better else -1.0
    out = pairwise(candidates, references, metric, lowercase=lowercase, tokenize=tokenize)
    matrices = list(out)
    index, text, utility, utilities = [], [], [], []
    for s, m in enumerate(matrices):
        m = sign * np.asarray(m, dtype=np.float64)
        n = m.shape[0]
        if references is None and not include_self:
            total = m.sum(axis=1) - np.diagonal(m)
            u = total / (n - 1) if n > 1 else np.zeros(n)
        else:
            u = m.mean(axis=1) if m.shape[1] else np.zeros(n)
        utilities.append(u)
        if n == 0:
            index.append(-1)
            text.append("")
            utility.append(np.nan)
            continue
        best = int(np.argmax(u))
        index.append(best)
        text.append(candidates[s][best])
        utility.append(float(u[best]))
    return MbrSelection(
        np.array(index, dtype=np.int64), text, np.array(utility), utilities, matrices
    )
