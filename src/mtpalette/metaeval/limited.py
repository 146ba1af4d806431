"""Limited ORANGE (Yu et al.): one reference, a few systems, and a feature-combined ranking.

With a single reference nothing can score the reference itself against other references, so
Limited ORANGE ranks the reference among the candidates by a mix of three features computed
against a *pivot* translation ``T`` of the source (the paper uses the 1-best of its own
Moses system; any other translation of the source works, e.g. one more MT system):

* ``m_x = 1 - d(T, x) / max(|T|, |x|)``: word-level Levenshtein similarity after synonym
  matching (:func:`mtpalette.text.synonyms.transform` toward the pivot), the paper's eq. 11;
* adequacy ``ade_x = P(S|T) * m_x`` (eq. 12) with ``P(S|T)`` from IBM Model 1
  (:mod:`mtpalette.models.ibm1`), per source word;
* fluency ``flu_x = P_LM(T) * m_x`` (eq. 14) with a Kneser-Ney 4-gram LM
  (:mod:`mtpalette.models.ngram_lm`; the paper used Katz back-off in SRILM), per word;
* similarity ``sim_x = metric(x, T)``: the metric under evaluation with the pivot as its
  reference;

``score_x = l1 ade_x + l2 flu_x + l3 sim_x`` (1/3 each by default) after each feature is
min-max normalised over the segment's N+1 translations (so that features on different
scales mix). Limited ORANGE of the metric is then the reference's rank by ``score`` over
N + 1, as in ORANGE.

Note (a consequence of the paper's definitions): within a segment ``P(S|T)`` and ``P_LM(T)``
are constants, so after per-segment normalisation ade and flu both equal the normalised
``m_x``. ``mode="direct"`` instead scores each translation itself: ``ade_x`` from
``P(S|x)`` and ``flu_x`` from ``P_LM(x)`` (per word), which makes the models matter.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from rapidfuzz.distance import Levenshtein

from mtpalette.errors import UserInputError, repeated
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.orange import Comparisons
from mtpalette.metrics.base import Metric
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.models.ibm1 import IBMModel1
from mtpalette.models.ngram_lm import KneserNeyLM
from mtpalette.text.synonyms import Synonyms, transform
from mtpalette.text.tokenizers import get_tokenizer

FEATURES = ("ade", "flu", "sim")
MODES = ("pivot", "direct")


def pivot_similarity(x: Sequence[str], pivot: Sequence[str], syn: Synonyms | None) -> float:
    """``1 - d / max(len)`` with the word-level Levenshtein distance after synonym matching.

    Examples
    --------
    >>> pivot_similarity("a big car".split(), "a large car".split(), None)
    0.6666666666666667
    >>> from mtpalette.text.synonyms import from_groups
    >>> pivot_similarity("a big car".split(), "a large car".split(),
    ...                  from_groups("t", [["big", "large"]]))
    1.0
    """
    if not x and not pivot:
        return 1.0
    moved = transform(list(x), list(pivot), syn) if syn is not None else list(x)
    return 1.0 - Levenshtein.distance(moved, list(pivot)) / max(len(x), len(pivot))


def _minmax(values: np.ndarray) -> np.ndarray:
    lo, hi = values.min(), values.max()
    return np.full_like(values, 0.5) if hi == lo else (values - lo) / (hi - lo)


@dataclass
class LimitedSetup:
    """How translations are ranked: feature weights, mode and resources."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict.fromkeys(FEATURES, 1 / 3))
    mode: str = "pivot"
    synonyms: Synonyms | None = None
    tokenize: str = "13a"
    source_tokenize: str = "13a"
    lm: KneserNeyLM | None = None
    tm: IBMModel1 | None = None

    def __post_init__(self) -> None:
        unknown = set(self.weights) - set(FEATURES)
        if unknown:
            raise UserInputError(
                f"unknown feature(s) {', '.join(sorted(unknown))}; expected {', '.join(FEATURES)}"
            )
        if self.mode not in MODES:
            raise UserInputError(f"unknown feature mode {self.mode!r}; expected pivot or direct")
        if self.weights.get("flu") and self.lm is None:
            raise UserInputError("the fluency feature needs a language model (--lm-text)")
        if self.weights.get("ade") and self.tm is None:
            raise UserInputError(
                "the adequacy feature needs a translation model (--tm-source, --tm-target)"
            )


def feature_table(
    lists: CandidateLists,
    sources: Sequence[str],
    pivots: Sequence[str],
    metric: Metric,
    setup: LimitedSetup,
) -> dict[str, np.ndarray]:
    """Every feature of every translation: rows are the candidates (in list order) followed
    by the S references; values before normalisation."""
    if lists.n_refs != 1:
        raise UserInputError(
            "Limited ORANGE takes exactly one reference (the pivot replaces the others)"
        )
    S = lists.n_segments
    if len(sources) != S or len(pivots) != S:
        raise UserInputError(
            f"the source and the pivot need one line per segment ({S}); got "
            f"{len(sources)} and {len(pivots)}"
        )
    tok = get_tokenizer(setup.tokenize)
    seg = np.concatenate([lists.segment_of_candidates(), np.arange(S)])
    texts = list(lists.texts) + list(lists.refs[0])
    words = [tok(t) for t in texts]
    piv = [tok(p) for p in pivots]
    src_tok = get_tokenizer(setup.source_tokenize)
    src = [src_tok(s) for s in sources]
    m = np.array(
        [pivot_similarity(w, piv[s], setup.synonyms) for w, s in zip(words, seg, strict=True)]
    )
    out = {"m": m}
    if setup.weights.get("sim"):
        stats = compute_stats([metric], TextPairs(texts, seg, [list(pivots)]))[metric]
        out["sim"] = np.asarray(metric.sentence_scores(stats), dtype=float)
        if not metric.higher_is_better:
            out["sim"] = -out["sim"]
    if setup.weights.get("flu"):
        if setup.mode == "pivot":
            p_t = np.array([math.exp(setup.lm.per_word_logprob(p)) for p in piv])
            out["flu"] = p_t[seg] * m
        else:
            out["flu"] = np.array([math.exp(setup.lm.per_word_logprob(w)) for w in words])
    if setup.weights.get("ade"):
        if setup.mode == "pivot":
            p_st = np.array([math.exp(setup.tm.per_word_logprob(src[s], piv[s])) for s in range(S)])
            out["ade"] = p_st[seg] * m
        else:
            out["ade"] = np.array(
                [
                    math.exp(setup.tm.per_word_logprob(src[s], w))
                    for w, s in zip(words, seg, strict=True)
                ]
            )
    return out


def limited_comparisons(
    lists: CandidateLists,
    sources: Sequence[str],
    pivots: Sequence[str],
    metric: Metric,
    setup: LimitedSetup,
) -> Comparisons:
    """The reference ranked among the candidates by the combined feature score."""
    table = feature_table(lists, sources, pivots, metric, setup)
    S = lists.n_segments
    seg = np.concatenate([lists.segment_of_candidates(), np.arange(S)])
    score = np.zeros(len(seg))
    for s in range(S):
        rows = np.flatnonzero(seg == s)
        for f in FEATURES:
            w = setup.weights.get(f, 0.0)
            if w:
                score[rows] += w * _minmax(table[f][rows])
    P = len(lists.texts)
    return Comparisons.from_scores(
        metric.spec,
        score[:P],
        score[P:],
        lists.offsets,
        higher_is_better=True,
        oracle="limited-features",
        n_refs=1,
        signature=metric.signature(n_refs=1),
    )


def parse_weights(features: str, weights: str | None) -> dict[str, float]:
    """``"ade,flu,sim"`` and ``"0.2,0.2,0.6"`` (default equal) as a mapping.

    Examples
    --------
    >>> parse_weights("sim,flu", None)
    {'sim': 0.5, 'flu': 0.5}
    >>> parse_weights("sim,ade,sim", "0.2,0.3,0.5")
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --features sim given twice
    """
    names = [f.strip() for f in features.split(",") if f.strip()]
    if not names:
        raise UserInputError("--features needs at least one of ade, flu, sim")
    twice = repeated(names)
    if twice:  # the last weight of a feature would win, the first one dropped
        raise UserInputError(f"--features {', '.join(twice)} given twice")
    if weights is None:
        return dict.fromkeys(names, 1 / len(names))
    try:
        values = [float(x) for x in weights.split(",")]
    except ValueError:
        raise UserInputError(f"--feature-weights {weights!r}: expected numbers") from None
    if len(values) != len(names) or any(v < 0 for v in values):
        raise UserInputError("--feature-weights needs one non-negative weight per feature")
    return dict(zip(names, values, strict=True))
