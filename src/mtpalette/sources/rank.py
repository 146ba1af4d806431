"""The score sources of a ranking (:mod:`mtpalette.api.rank_run`), read into :class:`Source`
objects: Python mappings, metrics computed from texts, score files, a long table, an
mt-metrics-eval folder."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback


@dataclass
class Source:
    """What one ranking ranks: a score per system and item, the items' domains, and for a
    metric computed here its sufficient statistics (``corpus_is_mean``: whether its corpus
    score is the mean of its sentence scores)."""

    name: str
    systems: list[str]
    items: list[Any]
    matrix: np.ndarray
    higher_is_better: bool = True
    domains: list[str] | None = None
    metric: Any = None
    stats: list[np.ndarray] | None = None
    signature: str = ""
    corpus_is_mean: bool = True
    #: the language pair of a table's rows (``--lp-col``), None for every other source
    lp: str | None = None

    def ranked_as(self, protocol: str) -> tuple[str, list[np.ndarray] | None]:
        """The ranking's name and the statistics it resamples under ``protocol``: a metric
        computed here is ranked by its corpus score under ``bootstrap`` and ``ar``, and by the
        mean of its sentence scores under the item tests, named so (``mean(sentence bleu)``)
        where that mean is not the metric's corpus score.

        Examples
        --------
        >>> s = Source("bleu", ["A"], [1], np.ones((1, 1)), stats=[np.ones((1, 4))],
        ...            corpus_is_mean=False)
        >>> s.ranked_as("wilcoxon")[0], s.ranked_as("bootstrap")[0]
        ('mean(sentence bleu)', 'bleu')
        """
        if protocol in ("bootstrap", "ar") and self.stats is not None:
            return self.name, self.stats
        return (self.name if self.corpus_is_mean else f"mean(sentence {self.name})"), None

    def domains_for(self, given: Sequence[str] | Mapping[Any, str] | None) -> list[str] | None:
        """The items' domains: ``given`` (a list in item order or ``{item: domain}``), else
        the source's own."""
        if given is None:
            return self.domains
        if isinstance(given, Mapping):
            missing = [i for i in self.items if i not in given]
            if missing:
                raise UserInputError(f"no domain for item(s) {', '.join(map(str, missing[:5]))}")
            return [str(given[i]) for i in self.items]
        out = [str(d) for d in given]
        if len(out) != len(self.items):
            raise UserInputError(f"{len(out)} domains for {len(self.items)} items")
        return out


def mapping_source(scores: Mapping[str, Any], name: str, higher_is_better: bool) -> Source:
    """A :class:`Source` from ``{system: [scores]}`` or ``{system: {item: score}}``."""
    if not isinstance(scores, Mapping) or not scores:
        raise UserInputError("scores: expected {system: [score per item]}")
    systems = [str(s) for s in scores]
    if all(isinstance(v, Mapping) for v in scores.values()):
        items = list(dict.fromkeys(i for v in scores.values() for i in v))
        rows = [[_number(v.get(i), s, i) for i in items] for s, v in scores.items()]
    else:
        lengths = {len(v) for v in scores.values()}
        if len(lengths) != 1:
            raise UserInputError("every system needs one score per item (None: no score)")
        items = list(range(1, lengths.pop() + 1))
        rows = [[_number(x, s, k) for k, x in enumerate(v, 1)] for s, v in scores.items()]
    return Source(name, systems, items, np.array(rows, dtype=np.float64), higher_is_better)


def _number(x: Any, system: str, item: Any) -> float:
    """A score as a float: None or NaN is no score; a boolean, a text or an infinity is
    refused."""
    if x is None:
        return np.nan
    try:
        if isinstance(x, bool | np.bool_):
            raise TypeError
        v = float(x)
    except (TypeError, ValueError):
        raise UserInputError(
            f"score of {system!r} on item {item!r} is {x!r}; expected a number (None: no score)"
        ) from None
    if np.isinf(v):
        raise UserInputError(f"score of {system!r} on item {item!r} is {x!r}; expected a "
                             "finite number (None: no score)")  # fmt: skip
    return v


def texts_source(systems, refs, metric: str, *, tokenize: str, lowercase: bool,
                 progress: bool | Feedback | None = None) -> Source:  # fmt: skip
    """A metric computed here: its sentence scores, and its sufficient statistics for the
    corpus-level protocols (``progress``: of the scoring, as in
    :func:`~mtpalette.sources.scoring.score_systems`)."""
    from mtpalette.metrics import parse_specs
    from mtpalette.sources.scoring import score_systems

    n_metrics = len(parse_specs([metric]))
    if n_metrics != 1:
        raise UserInputError(
            f"metric {metric!r} names {n_metrics} metrics (a grid); a ranking ranks one: give "
            "each spec on its own"
        )
    scored = score_systems(systems, refs, [metric], tokenize=tokenize, lowercase=lowercase,
                           progress=progress)  # fmt: skip
    first = next(iter(scored.values()))
    (parsed,) = parse_specs(first.specs)
    names = list(scored)
    spec = first.names[0]
    matrix = np.stack([scored[s].sentence[spec] for s in names])
    stats = [scored[s].stats[spec] for s in names]
    return Source(
        spec, names, list(range(1, matrix.shape[1] + 1)), matrix,
        bool(first.corpus[0].higher_is_better), None, parsed, stats,
        str(first.corpus[0].signature), parsed.corpus_combine == "mean",
    )  # fmt: skip


#: ``--scores`` layouts rank reads (:mod:`mtpalette.io.item_scores`)
SCORE_LAYOUTS = ("mtpalette", "mtme", "comet", "metricx")


def sources_of(run: Any, feedback: Feedback) -> list[Source]:
    """Every source a :class:`~mtpalette.api.rank_run.RankRun` names, in the order: metrics,
    score files, table, folder."""
    out: list[Source] = []
    if run.metrics:
        out += _texts(run, feedback)
    for value in run.scores or []:
        out.append(_score_file(value))
    if run.table is not None:
        out += _table(run)
    if run.mtme is not None:
        out += _folder(run, feedback)
    names = [s.name for s in out]
    if len(set(names)) != len(names):
        raise UserInputError(f"two score sources share a name: {', '.join(names)}")
    return out


def _texts(run: Any, feedback: Feedback) -> list[Source]:
    from mtpalette.sources.inputs import CandidateInputs

    inputs = CandidateInputs(list(run.refs or []), systems=run.systems,
                             systems_dir=run.systems_dir)  # fmt: skip
    specs = rank_specs(run.metrics, tokenize=run.tokenize, lowercase=run.lowercase)
    refs = inputs.read_refs()
    outputs, _ = inputs.system_outputs(refs)
    feedback.note(f"scoring {len(outputs)} systems with {len(specs)} metric(s)")
    return [
        texts_source(
            outputs, refs, spec, tokenize=run.tokenize, lowercase=run.lowercase, progress=feedback
        )  # fmt: skip
        for spec in specs
    ]


def rank_specs(specs: Sequence[str], **common: Any) -> list[str]:
    """The ``-m`` specs of a ranking, one per metric: a grid's metrics by their canonical
    specs. One metric given twice, however spelled, is refused: it would be two rankings of
    the same scores, and AutoRank would count it twice (``common``: the run's ``tokenize``
    and ``lowercase``, as the metrics are scored).

    Examples
    --------
    >>> rank_specs(["chrF++", "bleus:1..2"])
    ['chrF++', 'bleus:1', 'bleus:2']
    >>> rank_specs(["chrf", "chrf:n=6"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: -m chrf and -m chrf:n=6 are the same metric (chrf); ...
    """
    from mtpalette.metrics.registry import parse_spec

    first: dict[Any, str] = {}
    out: list[str] = []
    for spec in specs:
        metrics = parse_spec(spec, **common)
        for metric in metrics:
            if metric in first:
                raise UserInputError(
                    f"-m {first[metric]} and -m {spec.strip()} are the same metric "
                    f"({metric.spec}); give it once (AutoRank would count it twice)"
                )
            first[metric] = spec.strip()
            out.append(spec.strip() if len(metrics) == 1 else metric.spec)
    return out


def _from_items(name: str, scores, higher: bool, signature: str) -> Source:
    systems, items, matrix = scores.matrix()
    domains = None
    if scores.domains:
        missing = [i for i in items if i not in scores.domains]
        if missing:
            raise UserInputError(f"no domain for item(s) {', '.join(map(str, missing[:5]))}",
                                 path=scores.path)  # fmt: skip
        domains = [scores.domains[i] for i in items]
    return Source(name, systems, items, matrix, higher, domains, signature=signature)


def _score_file(value: str) -> Source:
    from mtpalette.io.item_scores import read_item_scores
    from mtpalette.sources.external import scores_option

    name, path, higher, options = scores_option(value, SCORE_LAYOUTS)
    scores = read_item_scores(path, layout=options.get("layout", "auto"))
    if "higher" not in options:
        higher = scores.higher_is_better  # MetricX: an error score
    elif higher != scores.higher_is_better and scores.layout == "metricx":
        raise UserInputError(
            f"--scores {value!r}: MetricX predictions are errors (lower is better); "
            "leave out higher=",
        )
    return _from_items(name, scores, higher, f"{name}|file:{path}|layout:{scores.layout}")


def _table(run: Any) -> list[Source]:
    """The table's source, or with ``lp_col`` one per language pair (named ``SCORE LP``)."""
    from mtpalette.io.item_scores import read_long_scores

    read = read_long_scores(
        run.table, system_col=run.system_col, item_col=run.item_col, score_col=run.score_col,
        domain_col=run.domain_col, doc_col=run.doc_col,
        higher_is_better=not run.lower_is_better,
        repeated="mean" if run.protocol == "wmt26" else "refuse",  # WMT26: mean annotation
        lp_col=run.lp_col,
    )  # fmt: skip
    pairs = read if run.lp_col is not None else {None: read}
    out = []
    for lp, scores in pairs.items():
        name = run.score_col if lp is None else f"{run.score_col} {lp}"
        sig = f"{name}|file:{run.table}|column:{run.score_col}"
        src = _from_items(name, scores, scores.higher_is_better, sig)
        out.append(dataclasses.replace(src, lp=lp))
    return out


def _folder(run: Any, feedback: Feedback) -> list[Source]:
    """The folder's human scores (``human``, default the standard one) and its stored
    metrics (``mtme_metrics``), each system's segment scores as the engine's data object holds
    them (:func:`~mtpalette.sources.folders.mtme_pair_data`, as ``wmt`` and ``correlate`` read the
    folder), with the folder's domains. Stored scores are ranked as stored (higher is better,
    as mt-metrics-eval keeps them); the systems are the folder's evaluated ones."""
    from mtpalette.sources.folders import mtme_pair_data, read_mtme_set

    evs = read_mtme_set(run.mtme, run.lp, human=run.human, metrics=run.mtme_metrics)
    feedback.note(evs.left_out_line())
    data, _ = mtme_pair_data(evs)
    domains = list(evs.docs.domain_of) if evs.docs is not None else None
    items = list(range(1, evs.n_segments + 1))
    where = f"{Path(str(run.mtme)).name}/{run.lp}"
    out = []
    if run.human is not None or not run.mtme_metrics:
        if "seg" not in data.human.get(evs.human, {}):
            evs.human_matrix()  # refuses, naming the human scores the folder has
        h = data.human[evs.human]["seg"]
        out.append(Source(evs.human, list(data.systems), items, h, True, domains,
                          signature=f"{evs.human}|mtme:{where}|level:seg"))  # fmt: skip
    for stored in evs.metrics.values():
        if "seg" not in stored.scores:
            levels = ", ".join(sorted(stored.scores))
            feedback.warn(f"note: {stored.basename} has no segment scores (only {levels}): "
                          "a ranking tests items, so it is left out")  # fmt: skip
            continue
        key = stored.basename + ("" if stored.refs else "[noref]")  # mtme_pair_data's name
        m = np.asarray(data.metrics[key]["seg"], dtype=np.float64)
        sig = f"{stored.basename}|mtme:{where}|file:{stored.name}.seg.score"
        out.append(Source(stored.basename, list(data.systems), items, m, True, domains,
                          signature=sig))  # fmt: skip
    return out
