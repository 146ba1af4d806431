"""AutoRank: one ranking from several metrics' system scores, as WMT's preliminary rankings.

Two methods:

* WMT24's (:func:`autorank`, Kocmi et al. 2024, arXiv:2407.19884): each metric's system
  scores linearly rescaled so that the best system gets 1 and the worst the number of
  systems ``N``, then averaged over the metrics;
* WMT25's (:func:`autorank25`, the preliminary ranking of WMT25 General MT; the organisers'
  code is ``autorank/compute_autorank.py`` of prosho-97/wmt-automatic-eval): each metric's
  system scores robustly scaled, ``z = (x - median) / (P100 - P25)`` (percentiles with
  linear interpolation, as numpy's; a spread of zero divides by 1, as the organisers' code
  does), ``z`` averaged over the metrics, and the averages mapped linearly so that the best
  system gets 1 and the worst ``N`` (every system 1 when the averages are all equal, to
  numpy's ``isclose``). Lower is better.

WMT25's choice of metrics per language pair is :func:`wmt25_metrics`: CometKiwi-XL (a
quality-estimation metric) is dropped on the pairs without references, where XCOMET and
MetricX already run without them, and chrF++ is shown and used alone on the pairs where the
neural metrics do not cover the target language (en-bho_IN, en-mas_KE); elsewhere chrF++ is
left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from mtpalette.errors import UserInputError, repeated
from mtpalette.records import Record, out

#: the AutoRank methods: WMT24's rescaled ranks, WMT25's robust z-scores
AUTORANK_METHODS = ("wmt24", "wmt25")
#: WMT25's language pairs with references (the others were scored in QE mode)
WMT25_REFERENCE_PAIRS = frozenset({
    "cs-uk_UA", "en-ar_EG", "en-cs_CZ", "en-et_EE", "en-is_IS", "en-ja_JP", "en-ko_KR",
    "en-ru_RU", "en-uk_UA", "en-zh_CN", "ja-zh_CN", "cs-de_DE", "en-sr_Cyrl_RS",
})  # fmt: skip
#: WMT25's pairs ranked by chrF++ alone
WMT25_CHRF_ONLY_PAIRS = frozenset({"en-bho_IN", "en-mas_KE"})
#: the metric dropped on pairs without references, and the metric of the chrF-only pairs
WMT25_QE_METRIC = "CometKiwi-XL"
WMT25_CHRF = "chrF++"


@dataclass(frozen=True)
class AutoRank(Record):
    """AutoRank of systems from several metrics (rescaled ranks, averaged; lower is better)."""

    systems: list[str] = field(metadata=out(after="metrics"))
    metrics: list[str]
    rescaled: dict[str, list[float]] = field(metadata=out(after="autorank"))
    autorank: list[float]
    method: str = field(default="minmax-1-to-N", metadata=out(first=True))
    left_out: dict[str, list[str]] = field(default_factory=dict)

    @property
    def notes(self) -> list[str]:
        """One line per metric whose systems AutoRank left out (not scored by every metric)."""
        return [f"AutoRank leaves out {', '.join(v)}: scored by {m} but not by every metric"
                for m, v in self.left_out.items()]  # fmt: skip

    def to_pandas(self):
        from mtpalette.records import frame

        return frame(
            {"system": s, "autorank": a, **{m: self.rescaled[m][k] for m in self.metrics}}
            for k, (s, a) in enumerate(zip(self.systems, self.autorank, strict=True))
        )


def autorank(system_scores: Mapping[str, Mapping[str, float]],
             higher_is_better: Mapping[str, bool] | None = None, *,
             only_shared: bool = False) -> AutoRank:  # fmt: skip
    """AutoRank: each metric's system scores linearly rescaled to ``[1, N]`` (the best
    system 1, the worst ``N``, the number of systems), averaged over the metrics; systems by
    increasing AutoRank. Metrics that score different systems are refused, or with
    ``only_shared`` combined on the systems every metric scores (the others are named in
    ``left_out``).

    Examples
    --------
    >>> a = autorank({"m1": {"A": 0.9, "B": 0.5, "C": 0.1}, "m2": {"A": 10, "B": 30, "C": 0}})
    >>> list(zip(a.systems, a.autorank))
    [('B', 1.5), ('A', 1.6666666666666665), ('C', 3.0)]
    """
    metrics = list(system_scores)
    if not metrics:
        raise UserInputError("AutoRank needs at least one metric")
    systems = list(system_scores[metrics[0]])
    left_out: dict[str, list[str]] = {}
    if only_shared:
        shared = set.intersection(*(set(system_scores[m]) for m in metrics))
        left_out = {m: [s for s in system_scores[m] if s not in shared] for m in metrics}
        left_out = {m: v for m, v in left_out.items() if v}
        systems = [s for s in systems if s in shared]
        if len(systems) < 2:
            raise UserInputError(f"the metrics share {len(systems)} system(s); AutoRank needs 2")
        system_scores = {m: {s: system_scores[m][s] for s in systems} for m in metrics}
    for m in metrics:
        if set(system_scores[m]) != set(systems):
            raise UserInputError(f"metric {m!r} does not score the same systems as {metrics[0]!r}")
    directions = dict(higher_is_better or {})
    N = len(systems)
    rescaled: dict[str, np.ndarray] = {}
    for m in metrics:
        v = np.array([system_scores[m][s] for s in systems], dtype=np.float64)
        if not directions.get(m, True):
            v = -v
        lo, hi = v.min(), v.max()
        if hi == lo:
            raise UserInputError(f"metric {m!r} gives every system the same score")
        rescaled[m] = 1.0 + (hi - v) / (hi - lo) * (N - 1)
    avg = np.mean(np.column_stack(list(rescaled.values())), axis=1)
    order = sorted(range(N), key=lambda k: (avg[k], systems[k]))
    return AutoRank(
        [systems[k] for k in order],
        metrics,
        {m: [float(rescaled[m][k]) for k in order] for m in metrics},
        [float(avg[k]) for k in order],
        left_out=left_out,
    )


@dataclass(frozen=True)
class AutoRankSystem(Record):
    """One system of AutoRank-25: its AutoRank (1 = best), the mean of its robust z-scores
    over the combined metrics, and per metric its system score and z (higher is better)."""

    system: str
    autorank: float
    mean_z: float
    scores: dict[str, float] = field(default_factory=dict)
    z: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class AutoRank25(Record):
    """WMT25's AutoRank: the systems by increasing AutoRank; ``metrics`` are averaged,
    ``shown`` are the metrics with a table (``metrics`` and, on WMT25's chrF-only pairs, the
    neural metrics not combined); ``language_pair`` and ``notes`` say what was ranked."""

    systems: list[AutoRankSystem] = field(metadata=out(after="notes"))
    metrics: list[str]
    shown: list[str]
    language_pair: str = ""
    notes: list[str] = field(default_factory=list)
    method: str = field(default="wmt25-robust-z", metadata=out(first=True))

    @property
    def autorank(self) -> list[float]:
        return [s.autorank for s in self.systems]

    def system(self, name: str) -> AutoRankSystem:
        return next(s for s in self.systems if s.system == name)

    def to_pandas(self):
        from mtpalette.records import frame

        return frame(
            {"system": s.system, "autorank": s.autorank, "mean_z": s.mean_z,
             **{m: s.scores.get(m, float("nan")) for m in self.shown},
             **{f"{m}_z": s.z.get(m, float("nan")) for m in self.shown}}
            for s in self.systems
        )  # fmt: skip


def robust_z(scores: Sequence[float]) -> np.ndarray:
    """WMT25's robust scaling: ``(x - median) / (P100 - P25)``, a spread of 0 taken as 1.

    Examples
    --------
    >>> robust_z([1.0, 2.0, 3.0, 4.0, 5.0]).tolist()  # median 3, P25 2, P100 5
    [-0.6666666666666666, -0.3333333333333333, 0.0, 0.3333333333333333, 0.6666666666666666]
    >>> robust_z([2.0, 2.0, 2.0, 0.0]).tolist()  # P25 1.5: spread 0.5
    [0.0, 0.0, 0.0, -4.0]
    >>> robust_z([7.0]).tolist()
    [0.0]
    """
    x = np.asarray(scores, dtype=np.float64)
    spread = np.percentile(x, 100.0) - np.percentile(x, 25.0)
    return (x - np.median(x)) / (spread if spread != 0 else 1.0)


def autorank25(
    system_scores: Mapping[str, Mapping[str, float]],
    *,
    metrics: Sequence[str] | None = None,
    higher_is_better: Mapping[str, bool] | None = None,
    language_pair: str = "",
    notes: Sequence[str] = (),
) -> AutoRank25:
    """WMT25's AutoRank of ``system_scores`` (``{metric: {system: score}}``).

    Each metric is scaled by :func:`robust_z` over the systems it scores (negated for a
    metric whose ``higher_is_better`` is False); a system's mean z over ``metrics`` (all by
    default; the others are shown only) is mapped linearly to ``[1, N]``, the best system 1.
    A system that one of ``metrics`` does not score is refused (the organisers' code would
    average it over fewer metrics). Ties keep one AutoRank and are listed by name.

    Examples
    --------
    >>> a = autorank25({"m1": {"A": 3.0, "B": 2.0, "C": 1.0},
    ...                 "m2": {"A": 1.0, "B": 3.0, "C": 2.0}})
    >>> [(s.system, round(s.mean_z, 4), s.autorank) for s in a.systems]
    [('B', 0.3333, 1.0), ('A', 0.0, 2.0), ('C', -0.3333, 3.0)]
    """
    shown = list(system_scores)
    combined = list(metrics) if metrics is not None else shown
    unknown = [m for m in combined if m not in system_scores]
    if not combined or unknown:
        raise UserInputError(
            f"AutoRank metric(s) {', '.join(unknown) or '(none)'} not among the scores' "
            f"metrics ({', '.join(shown) or 'none'})"
        )
    twice = repeated(combined)
    if twice:  # the mean would weight it twice
        raise UserInputError(f"AutoRank metric(s) {', '.join(twice)} given twice; name each "
                             "once")  # fmt: skip
    directions = dict(higher_is_better or {})
    z: dict[str, dict[str, float]] = {}
    for m in shown:
        names = list(system_scores[m])
        v = robust_z([system_scores[m][s] for s in names])
        z[m] = {s: float(-v[k] if directions.get(m, True) is False else v[k])
                for k, s in enumerate(names)}  # fmt: skip
    systems = list(dict.fromkeys(s for m in combined for s in system_scores[m]))
    for s in systems:
        lacking = [m for m in combined if s not in system_scores[m]]
        if lacking:
            raise UserInputError(f"system {s!r} has no {', '.join(lacking)} score: AutoRank "
                                 "averages every system over the same metrics")  # fmt: skip
    mean_z = np.array([np.mean([z[m][s] for m in combined]) for s in systems], dtype=np.float64)
    ranks = _one_to_n(mean_z)
    order = sorted(range(len(systems)), key=lambda k: (ranks[k], systems[k]))
    ranked = [
        AutoRankSystem(systems[k], float(ranks[k]), float(mean_z[k]),
                       {m: float(system_scores[m][systems[k]]) for m in shown
                        if systems[k] in system_scores[m]},
                       {m: z[m][systems[k]] for m in shown if systems[k] in z[m]})  # fmt: skip
        for k in order
    ]
    return AutoRank25(ranked, combined, shown, language_pair, list(notes))


def _one_to_n(mean_z: np.ndarray) -> np.ndarray:
    """The mean z-scores mapped linearly to ``[1, N]``, the highest 1 (all 1 when they are
    equal to numpy's ``isclose``, as the organisers' code)."""
    hi, lo = mean_z.max(), mean_z.min()
    if np.isclose(hi, lo):
        return np.ones_like(mean_z)
    return 1.0 + (len(mean_z) - 1) * (hi - mean_z) / (hi - lo)


def wmt25_metrics(lp: str, available: Sequence[str]) -> tuple[list[str], list[str], list[str]]:
    """``(combined, shown, notes)``: WMT25's metrics for AutoRank on ``lp`` among
    ``available`` (see the module docstring).

    Examples
    --------
    >>> ms = ["CometKiwi-XL", "XCOMET-XL", "chrF++"]
    >>> wmt25_metrics("en-cs_CZ", ms)[:2]
    (['CometKiwi-XL', 'XCOMET-XL'], ['CometKiwi-XL', 'XCOMET-XL'])
    >>> wmt25_metrics("en-it_IT", ms)[:2]
    (['XCOMET-XL'], ['XCOMET-XL'])
    >>> wmt25_metrics("en-bho_IN", ms)[:2]
    (['chrF++'], ['XCOMET-XL', 'chrF++'])
    """
    notes = []
    shown = list(available)
    if lp not in WMT25_REFERENCE_PAIRS and WMT25_QE_METRIC in shown:
        shown.remove(WMT25_QE_METRIC)
        notes.append(f"{WMT25_QE_METRIC} left out: {lp} has no references, so the other "
                     "neural metrics already run without them (WMT25)")  # fmt: skip
    if lp in WMT25_CHRF_ONLY_PAIRS:
        if WMT25_CHRF not in shown:
            raise UserInputError(f"WMT25 ranks {lp} by {WMT25_CHRF} alone, and the scores have "
                                 "none")  # fmt: skip
        notes.append(f"{lp}: AutoRank is {WMT25_CHRF} alone (WMT25); the other metrics are "
                     "shown only")  # fmt: skip
        return [WMT25_CHRF], shown, notes
    if WMT25_CHRF in shown:
        shown.remove(WMT25_CHRF)
        only = ", ".join(sorted(WMT25_CHRF_ONLY_PAIRS))
        notes.append(f"{WMT25_CHRF} left out: WMT25 uses it on {only} only")
    if not shown:
        raise UserInputError(f"no metric left for WMT25's AutoRank on {lp}")
    return list(shown), list(shown), notes


def autorank_of_folder(directory, lp: str, *, metrics: Sequence[str] | None = None,
                       metadata=None, domain: str | None = None,
                       method: str = "wmt25") -> AutoRank25 | AutoRank:  # fmt: skip
    """AutoRank of the systems of a folder of WMT25's ``automatic_scores`` on ``lp`` (see
    :func:`mtpalette.api.autorank_run.autorank_wmt25`, whose parameters these are): the
    scores read (:mod:`mtpalette.io.wmt25_scores`), the systems the ``metadata`` lists kept,
    WMT25's metrics for the pair chosen unless ``metrics`` are given, and the notes of what
    was left out."""
    from mtpalette.io.wmt25_scores import read_wmt25_scores, supported_systems

    if method not in AUTORANK_METHODS:
        raise UserInputError(f"--autorank must be one of {', '.join(AUTORANK_METHODS)} (got "
                             f"{method!r})")  # fmt: skip
    scores = read_wmt25_scores(directory)
    keep = None
    if metadata is not None:
        from mtpalette.io.jsonfile import read_json

        meta = read_json(metadata, "WMT25's systems metadata (systems_metadata*.json)")
        if not isinstance(meta, dict):
            raise UserInputError("expected an object of systems", path=str(metadata))
        keep = supported_systems(meta, lp, path=str(metadata))
    by_metric, notes = scores.system_scores(lp, domain=domain, systems=keep)
    if not by_metric:
        pairs = ", ".join(scores.language_pairs()) or "none"
        where = f" in domain {domain!r}" if domain else ""
        raise UserInputError(f"no system has {lp} documents{where} (the files' pairs: {pairs})",
                             path=str(directory))  # fmt: skip
    if keep is not None:
        with_lp = {s for s, docs in scores.documents.items()
                   if any(d.language_pair == lp for d in docs)}  # fmt: skip
        dropped = sorted(with_lp - keep)
        left = f"; not listed, left out: {', '.join(dropped)}" if dropped else ""
        notes.insert(0, f"{len(with_lp & keep)} system(s) listed for {lp} in {metadata}{left}")
    if metrics:
        combined, shown = list(metrics), list(metrics)
    else:
        combined, shown, chosen = wmt25_metrics(lp, list(by_metric))
        notes += chosen
    if method == "wmt24":
        return autorank({m: by_metric[m] for m in combined if m in by_metric})
    return autorank25({m: by_metric[m] for m in shown if m in by_metric}, metrics=combined,
                      language_pair=lp, notes=notes)  # fmt: skip
