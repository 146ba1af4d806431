"""Reference agreement: is each reference an independent translation?

ORANGE, the audit and every multi-reference score assume that the references are independent
human translations. A reference post-edited from another one (or from an MT output) breaks
that silently: on a recent WMT zh-en test set reference B scores BLEU 46.0 against reference
A while the best of 17 systems reaches 33.5 (median 28.8), and ORANGE comes out about half of
de-en's, where B against A scores 26.9 with systems at 33-34.

:func:`reference_agreement` scores every reference ``k`` as a candidate against the other
references, with the run's metrics, and every system against the *same* other references on
the *same* segments, so the numbers compare like with like.

The clear margin
    Independent human translations agree with each other *less* than good MT systems agree
    with them, on lexical metrics (the independent WMT21 references score BLEU 18-36 against
    each other, below the median system of every language pair). So a reference is flagged
    when its score against the others exceeds the best system's by more than the systems'
    own spread at the top, ``best - median`` (oriented: for an error metric, lower is
    better), with a floor of 2% of the best system's score so that near-identical systems do
    not make every small excess a warning. A reference that stands out from the best system
    by more than the best stands out from the median system is not plausibly one more
    independent translation. With fewer than three systems there is no spread to judge by:
    nothing is flagged, and the warnings say that the check was not made.

What it does to ORANGE
    ORANGE ranks each reference among the candidates by its score against the other
    references. A derived reference scores near the top against its source for every metric
    by construction, so ORANGE comes out low (flattering) for all metrics and measures how
    well each metric detects the copying rather than translation quality; the ranking of
    metrics by ORANGE is then not evidence about the metrics. The warning says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metrics.base import Metric
from mtpalette.metrics.registry import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.records import Record, constant, frame, out, written

#: the floor of the margin, as a share of the best system's score
MARGIN_FLOOR = 0.02
#: the fewest systems whose spread can judge a reference (with two, the median is the mean of
#: the two and the floor alone decides: the bundled independent references were flagged)
MIN_SYSTEMS = 3

ORANGE_EFFECT = (
    "ORANGE ranks each reference among the systems by its score against the other "
    "references, so a derived reference ranks near the top by construction: ORANGE comes out "
    "low (flattering) for every metric and measures how each metric detects the copying, not "
    "translation quality. Use the independent reference(s) only, or read ORANGE with care."
)


@dataclass(frozen=True)
class ReferenceRow(Record):
    """One reference against the others, by one metric, next to the systems.

    Scores are the metric's own (not negated); ``excess`` and ``margin`` are oriented (higher
    is better) and ``closer`` is ``excess > margin``.
    """

    reference: str
    against: tuple[str, ...]
    metric: str
    higher_is_better: bool = field(metadata=out("metric_higher_is_better"))
    reference_score: float
    best_system: str
    best_score: float = field(metadata=out("best_system_score"))
    median_score: float = field(metadata=out("median_system_score"))
    n_systems: int
    n_segments: int
    margin: float
    excess: float
    closer: bool = field(metadata=out("closer_than_best_system"))


@dataclass(frozen=True)
class ReferenceAgreement(Record):
    """Every reference against the others, per metric; :meth:`warnings` the plain sentences."""

    rows: list[ReferenceRow] = field(metadata=out(after="margin"))
    references: list[str]
    systems: list[str]

    margin = constant(
        f"best - median system (oriented), at least {MARGIN_FLOOR:.0%} of best", after="systems"
    )
    #: the sentences of :meth:`warnings`, written last
    warning_sentences = written(lambda self: self.warnings(), key="warnings")

    def flagged(self) -> dict[str, list[ReferenceRow]]:
        """The rows where a reference is closer than the best system, by reference."""
        out: dict[str, list[ReferenceRow]] = {}
        for row in self.rows:
            if row.closer:
                out.setdefault(row.reference, []).append(row)
        return out

    def warnings(self) -> list[str]:
        """One sentence per flagged reference, with the figures and the effect on ORANGE."""
        out = []
        if len(self.systems) < MIN_SYSTEMS:
            out.append(
                f"the references were not checked for independence: {len(self.systems)} "
                f"system(s) have no spread to judge by (at least {MIN_SYSTEMS} are needed)"
            )
        for ref, rows in self.flagged().items():
            figures = "; ".join(
                f"{r.metric} {r.reference_score:.4g} against {', '.join(r.against)} vs the best "
                f"system {r.best_system} {r.best_score:.4g} (median {r.median_score:.4g})"
                for r in rows
            )
            out.append(
                f"reference {ref!r} is closer to the other reference(s) than the best of "
                f"{rows[0].n_systems} systems by a clear margin ({figures}): it is probably "
                f"not an independent translation. {ORANGE_EFFECT}"
            )
        return out

    def to_pandas(self):
        """One row per (reference, metric); ``against`` names the other references in one
        comma-separated cell (no list in a cell)."""
        return frame({**r.to_dict(), "against": ", ".join(r.against)} for r in self.rows)


def _metrics(metrics: Sequence[str | Metric] | str, tokenize: str, lowercase: bool) -> list:
    if isinstance(metrics, str):
        metrics = [metrics]
    specs = [m for m in metrics if isinstance(m, str)]
    parsed = parse_specs(specs, tokenize=tokenize, lowercase=lowercase) if specs else []
    given = [m for m in metrics if isinstance(m, Metric)]
    return [*given, *parsed]


def clear_margin(oriented_systems: np.ndarray) -> float:
    """The margin a reference must exceed the best system by: ``best - median`` of the
    systems' oriented scores, at least :data:`MARGIN_FLOOR` of ``|best|``.

    Examples
    --------
    >>> clear_margin(np.array([33.5, 28.8, 20.0]))  # the zh-en example of the module doc
    4.699999999999999
    >>> round(clear_margin(np.array([30.0, 30.0])), 6)
    0.6
    """
    best = float(np.max(oriented_systems))
    return max(best - float(np.median(oriented_systems)), MARGIN_FLOOR * abs(best))


def reference_agreement(
    refs: Sequence[Sequence[str | None]],
    systems: Mapping[str, Sequence[str]],
    metrics: Sequence[str | Metric] | str,
    *,
    ref_names: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> ReferenceAgreement:
    """Score each reference against the others and the systems against the same references.

    Parameters
    ----------
    refs:
        Two or more reference streams, one line per segment (``None`` where missing).
    systems:
        ``{name: outputs}``, one line per segment.
    metrics:
        Spec strings or metric objects (the run's metrics).
    ref_names:
        Names of the references (default ``ref1``, ``ref2``...).

    Returns
    -------
    ReferenceAgreement
        One row per (reference, metric); ``.warnings()`` says which reference is closer to
        the others than the best system by a clear margin (see the module docstring).

    Examples
    --------
    >>> refs = [["the cat sat on the mat", "it rained all day long"],
    ...         ["the cat sat on a mat", "it rained all day"]]  # the second: edited copy
    >>> systems = {"A": ["a cat was on the mat", "rain fell the whole day"],
    ...            "B": ["the cat is sitting on the mat", "it was raining all day"],
    ...            "C": ["one cat on a mat", "rain all the day"]}
    >>> out = reference_agreement(refs, systems, ["bleus:2"], ref_names=["A-ref", "B-ref"])
    >>> [(r.reference, r.closer) for r in out.rows]
    [('A-ref', True), ('B-ref', True)]
    >>> two = reference_agreement(refs, {k: systems[k] for k in "AB"}, ["bleus:2"])
    >>> [r.closer for r in two.rows], two.warnings()[0][:48]
    ([False, False], 'the references were not checked for independence')
    """
    R = len(refs)
    if R < 2:
        raise UserInputError("reference agreement needs at least two references")
    names = list(ref_names) if ref_names is not None else [f"ref{k + 1}" for k in range(R)]
    if len(names) != R or len(set(names)) != R:
        raise UserInputError(f"{R} references need {R} distinct names, got {names}")
    if not systems:
        raise UserInputError("reference agreement needs the systems' outputs to compare with")
    n = len(refs[0])
    for k, r in enumerate(refs):
        if len(r) != n:
            raise UserInputError(
                f"reference {names[k]!r} has {len(r)} line(s), {names[0]!r} has {n}"
            )
    sys_names = list(systems)
    for s in sys_names:
        if len(systems[s]) != n:
            raise UserInputError(f"system {s!r} has {len(systems[s])} line(s), the references {n}")
    parsed = _metrics(metrics, tokenize, lowercase)
    if not parsed:
        raise UserInputError("no metric given")
    present = np.array([[line is not None for line in r] for r in refs])
    rows: list[ReferenceRow] = []
    for k in range(R):
        others = [j for j in range(R) if j != k]
        keep = np.flatnonzero(present[k] & present[others].any(axis=0))
        if keep.size == 0:
            raise UserInputError(f"reference {names[k]!r} shares no segment with the others")
        hyps = [systems[s][i] for s in sys_names for i in keep] + [refs[k][i] for i in keep]
        seg = np.tile(np.arange(keep.size, dtype=np.int64), len(sys_names) + 1)
        other_refs = [[refs[j][i] for i in keep] for j in others]
        stats = compute_stats(parsed, TextPairs(hyps, seg, other_refs))
        for m in parsed:
            blocks = np.split(stats[m], len(sys_names) + 1)
            scores = np.array([m.corpus_score(b) for b in blocks])
            sign = 1.0 if m.higher_is_better else -1.0
            oriented = sign * scores[:-1]
            b = int(np.argmax(oriented))
            margin = clear_margin(oriented)
            excess = float(sign * scores[-1] - oriented[b])
            rows.append(
                ReferenceRow(
                    names[k],
                    tuple(names[j] for j in others),
                    m.spec,
                    bool(m.higher_is_better),
                    float(scores[-1]),
                    sys_names[b],
                    float(scores[b]),
                    float(np.median(scores[:-1])),
                    len(sys_names),
                    int(keep.size),
                    float(margin),
                    excess,
                    bool(excess > margin and len(sys_names) >= MIN_SYSTEMS),
                )
            )
    return ReferenceAgreement(rows, names, sys_names)


def reference_agreement_task(task: Mapping[str, Any]) -> ReferenceAgreement:
    """:func:`reference_agreement` of ``task``'s keyword arguments (metrics as specs): a task
    for :func:`mtpalette.parallel.run_tasks`, so that a run on Dask computes it on a worker.

    Examples
    --------
    >>> task = dict(refs=[["a b"], ["a c"]], systems={"S": ["a b"]}, metrics=["bleus:1"])
    >>> [r.reference for r in reference_agreement_task(task).rows]
    ['ref1', 'ref2']
    """
    return reference_agreement(**task)


#: the metrics the reference agreement of an ORANGE or audit run takes (its first ones)
AGREEMENT_METRICS = 6


def reference_agreement_of(
    lists: CandidateLists, parsed: list, run: Any, feedback: Feedback
) -> ReferenceAgreement | None:
    """Each reference against the others and the systems against the same references, when
    the candidates are systems' outputs (one per segment each) and there are two or more
    references; warns when a reference is closer to another than the best system is.
    ``run`` gives the tokenizer and case (an ORANGE or audit run); a chunked run on Dask
    computes it on a worker (its client may be a login node), any other here."""
    from mtpalette.parallel import run_tasks

    if lists.origins is None or len(lists.refs) < 2 or not parsed:
        return None
    systems: dict[str, list[str]] = {}
    for text, origin in zip(lists.texts, lists.origins, strict=True):
        systems.setdefault(origin, []).append(text)
    if any(len(v) != lists.n_segments for v in systems.values()):
        return None  # n-best lists: no system to compare with
    metrics = parsed[:AGREEMENT_METRICS]
    if len(parsed) > AGREEMENT_METRICS:
        feedback.note(f"reference agreement: with the first {AGREEMENT_METRICS} metrics")
    chunking = getattr(run, "chunking", None)  # an audit run has none
    where = None if chunking is None else chunking.dask_backend()
    task = dict(refs=lists.refs, systems=systems, ref_names=data_names(lists),
                tokenize=run.tokenize, lowercase=run.lowercase)  # fmt: skip
    # a worker parses the specs itself, with the run's tokenizer and case
    task["metrics"] = metrics if where is None else [m.spec for m in metrics]
    try:
        ((_, agreement),) = run_tasks(reference_agreement_task, [task], where)
    except UserInputError as exc:  # e.g. a plugin that reads the sources
        feedback.warn(f"note: reference agreement not computed: {exc}")
        return None
    for line in agreement.warnings():
        feedback.warn(f"warning: {line}")
    return agreement


def data_names(lists: CandidateLists) -> list[str] | None:
    """The references' names from the data (``ref``, ``refB``; ``A``, ``B`` of WMT's files),
    not their file names (``ref.txt``).

    Examples
    --------
    >>> from mtpalette.sources.candidates import candidate_lists
    >>> lists = candidate_lists([["a"], ["b"]], {"S": ["c"]})
    >>> lists.ref_names = ["data/ref.txt", "data/refB.txt"]
    >>> data_names(lists)
    ['ref', 'refB']
    """
    from mtpalette.reporting.names import reference_names

    return reference_names(lists.ref_names) if lists.ref_names else None
