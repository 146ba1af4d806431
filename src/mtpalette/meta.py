"""The Python API of meta-evaluation: ORANGE, correlation with human scores, the audit of
ORANGE's premise. Each function takes texts and scores as Python lists and dicts and returns
the result dataclass the command line prints (``.rows``, ``.to_dict()``, ``.to_pandas()``);
the commands ``orange``, ``correlate`` and ``audit`` read files into these same calls.

Paired significance tests between systems are :func:`mtpalette.api.paired_test`.

Examples
--------
>>> systems = {"A": ["the cat sat on the mat", "a dog ran"],
...            "B": ["cat the mat", "dog a ran far away"]}
>>> refs = [["the cat sat on the mat", "a dog ran"], ["the cat sat on a mat", "the dog ran"]]
>>> t = orange(refs, systems, ["bleus:2", "wer"], n_resamples=0)
>>> [(r.metric, round(r.orange.value, 4)) for r in t.rows]
[('bleus:2', 0.5833), ('wer', 0.5833)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metrics import parse_specs

if TYPE_CHECKING:
    from mtpalette.metaeval.audit import Audit
    from mtpalette.metaeval.candidates import CandidateLists
    from mtpalette.metaeval.correlation import CorrelationTable
    from mtpalette.metaeval.orange import OrangeTable

#: seed of every resampling unless given (sacrebleu's)
SEED = 12345


def candidate_lists(
    refs: Sequence[Sequence[str]], candidates: Mapping[str, Sequence[str]] | Sequence[Any]
) -> CandidateLists:
    """Candidate lists from systems (``{name: outputs}``, one candidate per system and
    segment) or from n-best lists (one list of candidates per segment).

    Examples
    --------
    >>> cl = candidate_lists([["r1", "r2"], ["q1", "q2"]], [["a", "b", "c"], ["d"]])
    >>> cl.offsets.tolist(), cl.origins
    ([0, 3, 4], ['n-best #1', 'n-best #2', 'n-best #3', 'n-best #1'])
    """
    from mtpalette.metaeval.candidates import CandidateLists

    refs = [list(r) for r in refs]
    if isinstance(candidates, Mapping):
        return CandidateLists.from_systems(candidates, refs)
    if isinstance(candidates, str) or not candidates:
        raise UserInputError("candidates: a dict of system outputs or a list of n-best lists")
    lists = [list(c) for c in candidates]
    if any(isinstance(c, str) for c in candidates):
        raise UserInputError("an n-best list must be a list of strings, not a string")
    offsets = np.concatenate([[0], np.cumsum([len(c) for c in lists])])
    origins = [f"n-best #{j + 1}" for c in lists for j in range(len(c))]
    texts = [t for c in lists for t in c]
    return CandidateLists(texts, offsets, refs, origins, None, {"kind": "nbest"})


def orange(
    refs: Sequence[Sequence[str]],
    candidates: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    metrics: Sequence[str] | str,
    *,
    oracle: str = "leave-one-out",
    ties: str = "mid",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    min_candidates: int = 1,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> OrangeTable:
    """ORANGE (Lin and Och 2004) of every metric: the mean rank of the references among the
    candidates, with bootstrap intervals and the metrics equivalent to the best.

    Parameters
    ----------
    refs:
        At least two reference streams (``refs[k][s]``).
    candidates:
        ``{system: outputs}`` (a pool of systems, Limited-ORANGE style) or one n-best list
        per segment.
    metrics:
        Metric specs.
    oracle, ties:
        ``leave-one-out`` or ``average-score``; ``mid``, ``optimistic`` or ``pessimistic``
        (see :mod:`mtpalette.metaeval.orange`).
    n_resamples, confidence, seed:
        Bootstrap over segments (0: no intervals).
    min_candidates:
        Leave out segments with fewer candidates.

    Returns
    -------
    OrangeTable
        ``.rows`` in metric order; ``.to_pandas()`` one row per metric.
    """
    from mtpalette.metaeval.candidates import compare_candidates
    from mtpalette.metaeval.orange import evaluate

    lists = candidate_lists(refs, candidates)
    parsed = parse_specs(_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    comparisons = compare_candidates(lists, parsed, oracle=oracle)
    return _checked(
        evaluate,
        comparisons,
        ties=ties,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        min_candidates=min_candidates,
    )


def correlate(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str]],
    human: Mapping[str, Sequence[float | None]],
    metrics: Sequence[str] | str,
    *,
    level: str = "segment",
    statistic: str = "pearson",
    grouping: str = "none",
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    test: str = "permutation",
    n_permutations: int = 1000,
    alpha: float = 0.05,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> CorrelationTable:
    """Correlation of every metric with human scores, with bootstrap intervals and
    significance clusters (mt-metrics-eval's conventions; see :mod:`mtpalette.stats`).

    Parameters
    ----------
    systems:
        ``{system: outputs}``, one line per segment.
    refs:
        Reference streams.
    human:
        ``{system: scores}``, one per segment (``None`` or NaN where unrated), higher is
        better; every system of ``systems`` needs its scores. ``{system: score}`` (one number
        per system, e.g. WMT's system-level DA) correlates the metrics' corpus scores at
        system level, the intervals resampling systems.
    level, statistic, grouping:
        ``segment`` or ``system``; ``pearson``, ``spearman``, ``kendall``...; ``none``,
        ``item`` or ``system`` (segment level).
    n_resamples, confidence, seed, test, n_permutations, alpha:
        Intervals and the test behind the clusters.

    Examples
    --------
    >>> systems = {"A": ["a b c d", "a b"], "B": ["a b x y", "x y"], "C": ["x y z w", "a x"]}
    >>> human = {"A": [1.0, 0.9], "B": [0.5, 0.1], "C": [0.0, 0.3]}
    >>> t = correlate(systems, [["a b c d", "a b"]], human, ["bleus:1", "wer"], n_resamples=0)
    >>> [(r.metric, round(r.value, 4)) for r in t.rows]
    [('bleus:1', 0.9743), ('wer', 0.9743)]
    >>> by_system = {"A": 0.95, "B": 0.3, "C": 0.15}
    >>> t = correlate(systems, [["a b c d", "a b"]], by_system, "bleu", n_resamples=0)
    >>> t.level, round(t.rows[0].value, 4)
    ('system', 0.9995)
    """
    from mtpalette.metaeval.correlation import SegmentData, correlation_table, score_segments

    names = list(systems)
    missing = [s for s in names if s not in human]
    if missing:
        raise UserInputError(f"no human scores for system(s) {', '.join(map(repr, missing))}")
    if all(isinstance(human[s], int | float | np.number) for s in names):
        return _system_level(
            systems, refs, human, metrics, statistic, tokenize, lowercase,
            n_resamples=n_resamples, confidence=confidence, seed=seed, test=test,
            n_permutations=n_permutations, alpha=alpha,
        )  # fmt: skip
    n = len(refs[0]) if refs else 0
    rows = []
    for name in names:
        scores = [np.nan if v is None else float(v) for v in human[name]]
        if len(scores) != n or len(systems[name]) != n:
            raise UserInputError(
                f"system {name!r}: {len(systems[name])} outputs and {len(scores)} human scores "
                f"for {n} segments"
            )
        rows.append(scores)
    data = SegmentData(
        names,
        np.array(rows),
        [list(systems[s]) for s in names],
        [list(r) for r in refs],
        list(range(1, n + 1)),
    )
    parsed = parse_specs(_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    return _checked(
        correlation_table,
        data,
        score_segments(data, parsed),
        statistic=statistic,
        grouping=grouping,
        level=level,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        test=test,
        n_permutations=n_permutations,
        alpha=alpha,
    )


def _system_level(systems, refs, human, metrics, statistic, tokenize, lowercase, **common):
    """Human scores per system: corpus scores of every metric, correlated across systems."""
    from mtpalette.api import score_systems
    from mtpalette.metaeval.correlation import system_table

    scored = score_systems(systems, refs, metrics, tokenize=tokenize, lowercase=lowercase)
    first = next(iter(scored.values()))
    parsed = parse_specs(first.specs)
    return _checked(
        system_table,
        {s: float(human[s]) for s in systems},
        {m.spec: {s: scored[s].corpus[k].value for s in systems} for k, m in enumerate(parsed)},
        directions={m.spec: m.higher_is_better for m in parsed},
        signatures={spec: str(sig) for spec, sig in first.signatures.items()},
        statistic=statistic,
        **common,
    )


def audit(
    refs: Sequence[Sequence[str]],
    candidates: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    metrics: Sequence[str] | str,
    *,
    candidate_human: Sequence[float] | None = None,
    reference_human: Sequence[Sequence[float]] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> Audit:
    """The audit of ORANGE's premise: how often some candidate outranks a held-out reference
    under each metric, and whether humans agree (see :mod:`mtpalette.metaeval.audit`).

    ``candidate_human`` has one score per candidate in list order (system by system within a
    segment for a pool), ``reference_human`` one per reference and segment; NaN: unrated.

    Examples
    --------
    >>> refs = [["a b c", "x y"], ["a b d", "x z"]]
    >>> a = audit(refs, {"A": ["a b c", "x"], "B": ["a b", "y z"]}, ["bleus:1"], n_resamples=0)
    >>> a.rows[0].outranked.value
    0.25
    """
    from mtpalette.metaeval.audit import audit as run_audit

    lists = candidate_lists(refs, candidates)
    parsed = parse_specs(_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    cand = None if candidate_human is None else np.asarray(candidate_human, dtype=np.float64)
    ref = None if reference_human is None else np.asarray(reference_human, dtype=np.float64)
    return _checked(
        run_audit,
        lists,
        parsed,
        candidate_human=cand,
        reference_human=ref,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
    )


def _checked(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with a bad argument reported as a :class:`UserInputError`."""
    try:
        return fn(*args, **kwargs)
    except ValueError as exc:
        raise UserInputError(str(exc)) from None


def _specs(metrics: Sequence[str] | str) -> list[str]:
    return [metrics] if isinstance(metrics, str) else list(metrics)
