"""The Python API: score texts with any metric spec.

Examples
--------
>>> hyps = ["the cat sat on the mat"]
>>> refs = [["the cat sat on the mat"]]
>>> [round(s.value, 2) for s in corpus_score(hyps, refs, ["bleu", "bleus:4"])]
[100.0, 100.0]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics import Score, parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats


def _pairs(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> TextPairs:
    if not refs:
        raise UserInputError("at least one reference stream is needed")
    for k, ref in enumerate(refs):
        if len(ref) != len(hyps):
            raise UserInputError(
                f"reference stream {k + 1} has {len(ref)} segments, the hypotheses {len(hyps)}"
            )
    return TextPairs.parallel(list(hyps), [list(r) for r in refs])


def corpus_score(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> list[Score]:
    """Corpus-level scores, one per metric (grids expand), each with its signature.

    Parameters
    ----------
    hyps:
        One candidate per segment.
    refs:
        Reference streams, each with one entry per segment (``None`` where missing).
    metrics:
        Spec strings such as ``"bleu"``, ``"bleus:1..9"``, ``"chrf"``.
    tokenize, lowercase:
        Run-wide text settings; a spec may override them (``bleu:tok=intl``).
    """
    pairs = _pairs(hyps, refs)
    parsed = parse_specs(list(metrics), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats(parsed, pairs)
    return [
        Score(
            m.spec, m.corpus_score(stats[m]), m.signature(n_refs=pairs.n_refs), m.higher_is_better
        )
        for m in parsed
    ]


def sentence_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str],
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> dict[str, np.ndarray]:
    """Segment-level scores: a dict from each metric's spec to an array, one per segment.

    Examples
    --------
    >>> out = sentence_scores(["a b c d"], [["a b c d"]], ["bleus:2"])
    >>> out["bleus:2"].round(2).tolist()
    [100.0]
    """
    pairs = _pairs(hyps, refs)
    parsed = parse_specs(list(metrics), tokenize=tokenize, lowercase=lowercase)
    stats = compute_stats(parsed, pairs)
    return {m.spec: m.sentence_scores(stats[m]) for m in parsed}
