"""The Python API: score texts with any metric spec.

Texts are tokenized once per tokenizer setting and shared by every metric; metrics of one
family share their passes (``bleus:1..9`` is one n-gram pass). Every corpus score carries a
:class:`~mtpalette.metrics.Signature`.

References come as *streams*, as in sacrebleu: ``refs[k][i]`` is the ``k``-th reference of
segment ``i``; ``None`` marks a segment that has fewer references than others.

Examples
--------
>>> hyps = ["the cat sat on the mat"]
>>> refs = [["the cat sat on the mat"]]
>>> [round(s.value, 2) for s in corpus_score(hyps, refs, ["bleu", "bleus:4"])]
[100.0, 100.0]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.metrics import Metric, Score, Signature, parse_named_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats_on
from mtpalette.progress import feedback_of
from mtpalette.records import dumps
from mtpalette.sources.checks import metric_specs, sources, system_outputs, text_pairs


class ByName(dict):
    """A dict keyed by the metric names the user gave (``chrf++``) that also answers to each
    metric's canonical spec (``chrf:w=2``).

    Examples
    --------
    >>> d = ByName({"chrf++": 1.0}, {"chrf:w=2": "chrf++"})
    >>> d["chrf++"], d["chrf:w=2"], list(d), "chrf:w=2" in d
    (1.0, 1.0, ['chrf++'], False)
    """

    def __init__(self, items=(), specs: Mapping[str, str] | None = None):
        super().__init__(items)
        self.specs = dict(specs or {})

    def __missing__(self, key):
        name = self.specs.get(key)
        if name is None or name == key or name not in self:
            raise KeyError(key)
        return self[name]


@dataclass(frozen=True)
class Scores:
    """Everything one scoring run computed, for every metric (grids expanded), in order.

    Attributes
    ----------
    corpus:
        One corpus-level :class:`~mtpalette.metrics.Score` (value and signature) per metric.
    sentence:
        Name to an array of segment-level scores, one per segment.
    stats:
        Name to the sufficient statistics, one row per segment (what bootstrap resamples).
    n_segments, n_refs:
        The number of segments and of reference streams.

    Metrics are keyed by the names the user gave (``chrf++``); a grid's metrics by their
    canonical specs (``bleus:1``...); the canonical spec of each is in its signature, and
    ``sentence`` and ``stats`` answer to it too.
    """

    corpus: list[Score]
    sentence: dict[str, np.ndarray]
    stats: dict[str, np.ndarray]
    n_segments: int
    n_refs: int

    @property
    def names(self) -> list[str]:
        """The name of every metric (as the user spelled it), in order."""
        return [s.metric for s in self.corpus]

    @property
    def specs(self) -> list[str]:
        """The canonical spec of every metric, in order."""
        return [s.spec for s in self.corpus]

    @property
    def signatures(self) -> dict[str, Signature]:
        """Name to signature."""
        return {s.metric: s.signature for s in self.corpus}

    def to_pandas(self):
        """One row per metric: ``metric`` (the name given), ``spec``, ``score``,
        ``higher_is_better``, ``signature`` (flat columns; the details are left out)."""
        return ScoreList(self.corpus).to_pandas()

    def to_json(self) -> str:
        """The rows of :meth:`to_pandas` as a JSON list, the details included."""
        return ScoreList(self.corpus).to_json()


class SystemScores(dict):
    """System name to its :class:`Scores` (what :func:`score_systems` returns: a dict, with
    :meth:`to_pandas` and :meth:`to_json`)."""

    def to_pandas(self):
        """One row per (system, metric): ``system``, ``metric`` (the name given), ``spec``,
        ``score``, ``higher_is_better``, ``signature``."""
        import pandas as pd

        return pd.DataFrame(score_records(self))

    def to_json(self) -> str:
        """The rows of :meth:`to_pandas` as a JSON list, each with its ``details``."""
        return dumps(score_records(self, details=True))


class ScoreList(list):
    """Corpus :class:`~mtpalette.metrics.Score` objects, one per metric (what
    :func:`corpus_score` returns: a list, with :meth:`to_pandas` and :meth:`to_json`)."""

    def _records(self, details: bool = False) -> list[dict]:
        return [_record(score, details) for score in self]

    def to_pandas(self):
        """One row per metric: ``metric``, ``spec``, ``score``, ``higher_is_better``,
        ``signature``."""
        import pandas as pd

        return pd.DataFrame(self._records())

    def to_json(self) -> str:
        """The rows of :meth:`to_pandas` as a JSON list, each with its ``details``."""
        return dumps(self._records(details=True))


def _record(score: Score, details: bool) -> dict:
    out = {
        "metric": score.metric,
        "spec": score.spec,
        "score": float(score.value),
        "higher_is_better": score.higher_is_better,
        "signature": str(score.signature),
    }
    return out | ({"details": score.details} if details else {})


def sort_systems(scored: Mapping[str, Scores], metric: str) -> SystemScores:
    """The systems best first by ``metric`` (its name as given, or its canonical spec),
    respecting its direction (lower-is-better metrics ascending); ties keep their order and
    a NaN score comes last.

    Raises
    ------
    UserInputError
        ``metric`` is not one of the scored metrics (naming them).

    Examples
    --------
    >>> out = score_systems({"A": ["a b"], "B": ["a b c"], "C": ["x"]}, [["a b c"]], ["wer"])
    >>> list(sort_systems(out, "wer"))
    ['B', 'A', 'C']
    """
    k = metric_index(scored, metric)

    def key(item):
        score = item[1].corpus[k]
        value = float(score.value)
        if np.isnan(value):
            return (1, 0.0)
        return (0, -value if score.higher_is_better else value)

    return SystemScores(sorted(scored.items(), key=key))


def best_system(scored: Mapping[str, Scores], metric: str | None = None) -> str:
    """The name of the best system by ``metric`` (default: the first metric), respecting
    its direction.

    Examples
    --------
    >>> out = score_systems({"A": ["a b"], "B": ["a b c"]}, [["a b c"]], ["chrf", "wer"])
    >>> best_system(out), best_system(out, "wer")
    ('B', 'B')
    """
    if not scored:
        raise UserInputError("no system scored")
    first = next(iter(scored.values()))
    return next(iter(sort_systems(scored, first.names[0] if metric is None else metric)))


def metric_index(scored: Mapping[str, Scores], metric: str) -> int:
    """The column of ``metric`` (a name as given, or a canonical spec) in ``scored``."""
    first = next(iter(scored.values()))
    for names in (first.names, first.specs):
        if metric in names:
            return names.index(metric)
    raise UserInputError(f"{metric!r} is not one of the metrics scored: {', '.join(first.names)}")


def score_records(scored: Mapping[str, Scores], *, details: bool = False) -> list[dict]:
    """One flat record per (system, metric) of :func:`score_systems`'s result (``details``:
    each metric's components too, a nested object).

    Examples
    --------
    >>> out = score_systems({"A": ["a b c"], "B": ["a b"]}, [["a b c"]], ["chrf++"])
    >>> [(r["system"], r["metric"], r["spec"]) for r in score_records(out)]
    [('A', 'chrf++', 'chrf:w=2'), ('B', 'chrf++', 'chrf:w=2')]
    """
    return [
        {"system": system, **_record(score, details)}
        for system, result in scored.items()
        for score in result.corpus
    ]


def score_texts(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    backend=None,
    max_tokens: int | None = None,
    srcs: Sequence[str] | None = None,
    progress: bool | Feedback | None = None,
) -> Scores:
    """Corpus scores, sentence scores and sufficient statistics of several metrics at once.

    Parameters
    ----------
    hyps:
        One candidate per segment.
    refs:
        Reference streams, each with one entry per segment (``None`` where missing; every
        segment needs at least one reference).
    metrics:
        Spec strings such as ``"bleu"``, ``"bleus:1..9"``, ``"chrf"`` (or one string).
    tokenize, lowercase:
        Run-wide text settings; a spec may override them (``bleu:tok=intl``).
    backend:
        A :class:`mtpalette.parallel.Backend`: metric groups are computed on its workers
        (the same numbers as in-process).
    max_tokens:
        Refuse any sentence longer than this (in a metric's tokens), naming the segment;
        metrics whose cost grows with the square of the length have their own limit.
    srcs:
        The source sentence of every segment, for plugin metrics that read it.
    progress:
        A bar counting the metric groups (one pass each, e.g. ``bleus:1..9``): ``None`` (the
        default) when standard error is a terminal or in a notebook; ``True``: always
        offered; ``False``: silent; or a :class:`~mtpalette.feedback.Feedback`.

    Raises
    ------
    UserInputError
        Inputs of the wrong shape or type, no segment, a segment without references, an
        unknown metric, tokenizer or option value.

    References
    ----------
    The stream layout and signatures follow sacrebleu (Post, 2018, "A Call for Clarity in
    Reporting BLEU Scores").

    Examples
    --------
    >>> out = score_texts(["a b c d", "a b"], [["a b c d", "a c"]], ["bleus:2", "wer"])
    >>> out.specs, out.n_segments, out.n_refs
    (['bleus:2', 'wer'], 2, 1)
    >>> out.sentence["wer"].tolist(), round(out.corpus[1].value, 4)
    ([0.0, 0.5], 0.1667)
    """
    pairs = text_pairs(hyps, refs)
    text = dict(tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens)
    parsed, stats = _stats(pairs, metrics, srcs, backend, progress, **text)
    return _scores(parsed, stats, pairs.n_segments, pairs.n_refs)


def _stats(pairs: TextPairs, metrics, srcs, backend, progress, *, tokenize, lowercase,
           max_tokens):  # fmt: skip
    """The parsed metrics and their sufficient statistics on ``pairs``, a metric group at a
    time in process (as :func:`~mtpalette.metrics.scoring.compute_stats` takes them, sharing
    the pairs' tokenization), so that ``progress`` counts the groups; all at once on another
    backend (the groups spread over its workers)."""
    if srcs is not None:
        pairs.srcs = sources(srcs, pairs.n_segments)
    parsed = parse_named_specs(metric_specs(metrics), tokenize=tokenize, lowercase=lowercase)
    metrics = list(parsed.values())
    in_process = backend is None or backend.name == "inproc"
    parts = _groups(metrics) if in_process else [metrics]
    stats: dict[Metric, np.ndarray] = {}
    for part in feedback_of(progress).track(parts, "scoring (metric groups)"):
        stats.update(compute_stats_on(part, pairs, backend, tokenize=tokenize,
                                      lowercase=lowercase, max_tokens=max_tokens))  # fmt: skip
    return parsed, stats


def _groups(metrics: list[Metric]) -> list[list[Metric]]:
    """The metrics by group (one pass each), in the order of
    :func:`~mtpalette.metrics.scoring.compute_stats`: those without a route straight from text
    first, so that a view they encode is encoded already when a text route is asked."""
    groups: dict[object, list[Metric]] = {}
    for m in metrics:
        groups.setdefault(m.group_key(), []).append(m)
    return sorted(groups.values(), key=lambda g: hasattr(type(g[0]), "compute_group_text"))


def _scores(parsed: Mapping, stats: Mapping, n_segments: int, n_refs: int) -> Scores:
    corpus = [
        Score(
            name,
            m.corpus_score(stats[m]),
            m.signature(n_refs=n_refs),
            m.higher_is_better,
            m.details(stats[m]),
        )
        for name, m in parsed.items()
    ]
    return Scores(
        corpus=corpus,
        sentence=_sentence_by_name(parsed, stats),
        stats=_by_name(parsed, stats),
        n_segments=n_segments,
        n_refs=n_refs,
    )


def _by_name(parsed: Mapping, values: Mapping) -> ByName:
    """``values`` (by metric) under each metric's name as given, also found by its spec."""
    specs = {m.spec: name for name, m in parsed.items()}
    return ByName({name: values[m] for name, m in parsed.items()}, specs)


def _sentence_by_name(parsed: Mapping, stats: Mapping) -> ByName:
    """Each metric's sentence scores from its statistics, by :func:`_by_name`."""
    return _by_name(parsed, {m: m.sentence_scores(stats[m]) for m in parsed.values()})


def score_systems(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    backend=None,
    max_tokens: int | None = None,
    srcs: Sequence[str] | None = None,
    progress: bool | Feedback | None = None,
) -> SystemScores:
    """:func:`score_texts` of several systems on the same segments, in one pass.

    The systems' outputs are scored as one set of candidates that share their segments'
    references, so every reference is tokenized and indexed once for all systems.

    Parameters
    ----------
    systems:
        System name to its outputs, one per segment (every system the same length).
    refs, metrics, tokenize, lowercase, backend, max_tokens, srcs, progress:
        As in :func:`score_texts`.

    Returns
    -------
    SystemScores
        System name to its :class:`Scores`, in the order given (a dict with
        ``to_pandas()``).

    Examples
    --------
    >>> out = score_systems({"A": ["a b c", "d e"], "B": ["a b", "d e"]}, [["a b c", "d e"]],
    ...                     ["wer"])
    >>> {name: round(s.corpus[0].value, 4) for name, s in out.items()}
    {'A': 0.0, 'B': 0.2}
    """
    names, outputs = system_outputs(systems)
    n = len(outputs[0])
    flat = [h for hyps in outputs for h in hyps]
    pairs = text_pairs(flat[:n], refs)  # checks the references against one system
    pairs = TextPairs(flat, np.tile(np.arange(n, dtype=np.int64), len(names)), pairs.refs)
    text = dict(tokenize=tokenize, lowercase=lowercase, max_tokens=max_tokens)
    parsed, stats = _stats(pairs, metrics, srcs, backend, progress, **text)
    return SystemScores(
        (
            name,
            _scores(
                parsed,
                {m: stats[m][k * n : (k + 1) * n] for m in parsed.values()},
                n,
                pairs.n_refs,
            ),
        )
        for k, name in enumerate(names)
    )


def corpus_score(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> ScoreList:
    """Corpus-level scores, one per metric (grids expand), each with its signature.

    Parameters are those of :func:`score_texts`.

    Examples
    --------
    >>> (s,) = corpus_score(["the cat sat"], [["the cat sat down"]], "wer")
    >>> s.value, s.higher_is_better, str(s.signature).split("|")[:2]
    (0.25, False, ['wer', 'nrefs:1'])
    """
    text = dict(tokenize=tokenize, lowercase=lowercase)
    return ScoreList(score_texts(hyps, refs, metrics, progress=progress, **text).corpus)


def sentence_scores(
    hyps: Sequence[str],
    refs: Sequence[Sequence[str | None]],
    metrics: Sequence[str] | str,
    *,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> dict[str, np.ndarray]:
    """Segment-level scores: a dict from each metric's name (as given) to an array, one per
    segment.

    Parameters are those of :func:`score_texts`.

    Examples
    --------
    >>> out = sentence_scores(["a b c d"], [["a b c d"]], ["bleus:2", "chrF++"])
    >>> out["bleus:2"].round(2).tolist(), out["chrF++"].round(2).tolist()
    ([100.0], [100.0])
    """
    text = dict(tokenize=tokenize, lowercase=lowercase, max_tokens=None)
    parsed, stats = _stats(text_pairs(hyps, refs), metrics, None, None, progress, **text)
    return _sentence_by_name(parsed, stats)


def paired_comparison(
    scored: Mapping[str, Scores], *, test: str | None, baseline: str | None,
    n_trials: int | None, n_resamples: int | None, level: float, alpha: float, seed: int | None,
):  # fmt: skip
    """The paired tests and intervals of systems already scored (see
    :func:`mtpalette.api.paired.compare_scored`): the counts checked, ``baseline`` (a name,
    ``best``, or None: the first) resolved, :func:`~mtpalette.stats.paired.compare_systems`
    run on every system's statistics, the metrics named as the user named them."""
    from dataclasses import replace

    from mtpalette.metrics import parse_specs
    from mtpalette.sources.checks import count_argument
    from mtpalette.stats.paired import compare_systems

    n_trials = count_argument(n_trials, "n_trials")
    n_resamples = count_argument(n_resamples, "n_resamples")
    names = list(scored)
    if baseline == "best" and "best" not in scored:
        baseline = best_system(scored)
    if baseline is not None and baseline not in scored:
        raise UserInputError(f"baseline {baseline!r} is not one of the systems: {', '.join(names)}")
    first = next(iter(scored.values()))
    parsed = parse_specs(first.specs)
    try:
        result = compare_systems(
            parsed,
            [[s.stats[name] for name in first.names] for s in scored.values()],
            names,
            test=test,
            baseline=0 if baseline is None else names.index(baseline),
            n_trials=n_trials,
            n_resamples=n_resamples,
            level=level,
            alpha=alpha,
            seed=seed,
            signatures=dict(first.signatures),
        )
    except ValueError as e:
        raise UserInputError(str(e)) from None
    return replace(result, metrics=first.names)  # the names the user gave
