"""Rank systems as WMT does, from any score per system and item: every pair tested, rank
ranges, clusters (:mod:`mtpalette.metaeval.system_ranking`).

Two doors, one engine: :func:`rank` takes texts or scores as Python objects;
:class:`RankRun` names files (texts and metrics, score files of COMET, MetricX, mtpalette or
mt-metrics-eval, a long table of human ratings, an mt-metrics-eval folder) and
:func:`run_rank` runs it. ``mtpalette rank`` is a :class:`RankRun` built from its options.

Examples
--------
>>> scores = {"A": [80, 75, 90, 60, 85, 70], "B": [60, 65, 70, 50, 62, 55],
...           "C": [81, 74, 88, 62, 86, 71]}
>>> r = rank(scores, protocol="wilcoxon")
>>> [(s.system, s.rank_top, s.rank_bottom) for s in r.systems]
[('C', 1, 2), ('A', 1, 2), ('B', 3, 3)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import OUTPUTS, flag
from mtpalette.sources import inputs
from mtpalette.sources.checks import SACREBLEU_SEED, probability_argument

if TYPE_CHECKING:
    from mtpalette.metaeval.autorank import AutoRank25
    from mtpalette.metaeval.system_ranking import AutoRank, SystemRanking


def rank(
    scores: Mapping[str, Any] | None = None,
    *,
    systems: Mapping[str, Sequence[str]] | None = None,
    refs: Sequence[Sequence[str]] | None = None,
    metric: str | None = None,
    protocol: str = "wilcoxon",
    domains: Sequence[str] | Mapping[Any, str] | None = None,
    correction: str = "none",
    alpha: float = 0.05,
    n_resamples: int | None = None,
    seed: int | None = SACREBLEU_SEED,
    higher_is_better: bool = True,
    missing: str | None = None,
    rank_range_rule: str = "corrected",
    name: str | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> SystemRanking:
    """Rank systems with a significance test between every pair.

    Parameters
    ----------
    scores:
        ``{system: [score per item]}`` (``None`` or NaN: no score) or ``{system: {item:
        score}}``, in the direction ``higher_is_better``; or give texts instead:
    systems, refs, metric:
        ``{system: outputs}``, the reference streams and a metric spec: the metric's
        sentence scores (tests on items) or its corpus score recomputed from sufficient
        statistics (``bootstrap``, ``ar``: sacrebleu's paired tests between every pair).
    protocol:
        ``wilcoxon``, ``ttest``, ``wmt24`` (per-domain Wilcoxon, Stouffer; needs
        ``domains``), ``wmt26`` (WMT26's one-sided BCa bootstrap per pair, its rank ranges
        and cluster lines), ``bootstrap`` or ``ar``.
    domains:
        Each item's domain (a list in item order, or ``{item: domain}``).
    correction, alpha:
        ``none``, ``holm`` or ``bh`` over all pairs; the significance level.
    missing:
        When the systems are not scored on the same items: ``refuse`` (the default, but for
        ``wmt24`` and ``mannwhitney``), ``common`` (every score and test on the items every
        system has) or ``mark`` (WMT's rule: each system's mean over its own items, each pair
        tested on the items it shares; a pair whose shared items favour the lower-ranked
        system is never significant, and a note names it). The ranking's ``missing`` and
        signature say which rule applied (``none``: every system has every item).
    n_resamples, seed:
        Resamples of ``bootstrap`` / trials of ``ar`` (1000 by default) or of each ``wmt26``
        test (100 by default, as the organisers) and their seed (sacrebleu's).
    rank_range_rule:
        ``wmt26``'s rank ranges: ``corrected`` (a system that beats nobody below ends at N)
        or ``wmt26`` (the organisers' code: N - 1).
    progress:
        Bars while scoring the texts and testing the pairs: ``None`` (the default) when
        standard error is a terminal or in a notebook; ``True``: always offered; ``False``:
        silent; or a :class:`~mtpalette.feedback.Feedback`.

    Examples
    --------
    >>> hyps = {"A": ["the cat sat on the mat", "a dog"], "B": ["cat the", "dog a"]}
    >>> r = rank(systems=hyps, refs=[["the cat sat on the mat", "a dog"]], metric="bleu",
    ...          protocol="bootstrap", n_resamples=100)
    >>> r.systems[0].system, r.protocol, r.pairs[0].n_items
    ('A', 'bootstrap', 2)
    """
    from mtpalette.metaeval.rankings import rank_source
    from mtpalette.progress import feedback_of
    from mtpalette.sources.checks import count_argument
    from mtpalette.sources.rank import mapping_source, texts_source

    if n_resamples is None:
        n_resamples = default_resamples(protocol)
    n_resamples = count_argument(n_resamples, "n_resamples", allow_none=False)
    probability_argument(alpha, "alpha")
    feedback = feedback_of(progress)
    if systems is not None:
        if scores is not None or refs is None or metric is None:
            raise UserInputError("give scores, or systems with refs and a metric")
        source = texts_source(systems, refs, metric, tokenize=tokenize, lowercase=lowercase,
                              progress=feedback)  # fmt: skip
    elif scores is not None:
        source = mapping_source(scores, name or "score", higher_is_better)
    else:
        raise UserInputError("give scores, or systems with refs and a metric")
    with feedback.stage(f"{source.name}: {protocol} test of every pair"):
        return rank_source(source, source.domains_for(domains), protocol=protocol,
                           correction=correction, alpha=alpha, n_resamples=n_resamples,
                           seed=seed, missing=missing,
                           rank_range_rule=rank_range_rule)  # fmt: skip


def default_resamples(protocol: str) -> int:
    """Resamples when none are given: 100 per ``wmt26`` test (the organisers'), else 1000.

    Examples
    --------
    >>> default_resamples("wmt26"), default_resamples("bootstrap")
    (100, 1000)
    """
    return 100 if protocol == "wmt26" else 1000


#: help sections of the ranking's own options
RANKING = "Ranking"
TABLE = "Long table of scores (--table)"
WMT25 = "WMT25 automatic scores (AutoRank)"


@dataclass
class RankRun(Description):
    """A ranking run from files: every score source gives one ranking (and AutoRank of
    them when there are several).

    Sources: ``metrics`` computed from ``refs`` and the system files (``systems`` or
    ``systems_dir``); ``scores`` (``NAME=FILE``: COMET JSON, MetricX JSONL, mtpalette
    TSV/JSONL, mt-metrics-eval ``.seg.score``; ``NAME=FILE,higher=no`` for an error score);
    ``table`` (a long table: ``system_col``, ``item_col``, ``score_col``, optional
    ``domain_col`` and ``doc_col``; ``lower_is_better``; with ``lp_col`` the table's language
    pairs are ranked apart, one ranking each, and under ``wmt26`` ordered together as WMT26's
    global table does); an mt-metrics-eval folder (``mtme``,
    ``lp``: its human scores ``human`` and its stored ``mtme_metrics``, with the folder's
    domains).

    ``wmt25_scores`` (a folder of WMT25 ``automatic_scores``, with ``lp``) gives AutoRank
    alone (``autorank``: ``wmt25``, the default there, or ``wmt24``) of ``autorank_metrics``
    (WMT25's choice by default), on the systems ``systems_metadata`` lists for ``lp`` if given
    (:func:`~mtpalette.api.autorank_run.autorank_wmt25`). ``autorank`` also chooses how
    several sources are combined (``wmt24`` by default).
    """

    kind: ClassVar[str] = "rank"
    refs: list[Path] | None = inputs.REFS.field(None)
    systems: list[Path] | None = inputs.SYSTEMS.field(None)
    systems_dir: Path | None = inputs.SYSTEMS_DIR.field(None)
    metrics: list[str] | None = flags.METRIC_SPECS.field(None)
    scores: list[str] | None = flags.SCORES.but(
        help="Segment scores: NAME=FILE[,higher=no][,layout=comet|metricx|mtme|mtpalette]."
    ).field(None)
    table: Path | None = flag("--table", panel=TABLE, help="Scores per system, item.").field(None)
    system_col: str = inputs.SYSTEM_COL.but(panel=TABLE).field("system")
    item_col: str = flag("--item-col", panel=TABLE, help="The item column (item).").field("item")
    score_col: str = flag("--score-col", panel=TABLE, help="The score column (score).").field(
        "score"
    )
    domain_col: str | None = flag(
        "--domain-col", panel=TABLE, help="The domain column (for wmt24)."
    ).field(None)
    doc_col: str | None = flag("--doc-col", panel=TABLE, help="The document column.").field(None)
    lp_col: str | None = flag(
        "--lp-col", panel=TABLE,
        help="The table's language-pair column: one ranking per pair (wmt26: a global order).",
    ).field(None)  # fmt: skip
    lower_is_better: bool = flag(
        "--lower-is-better", panel=TABLE, help="The table's scores are errors."
    ).field(False)
    mtme: Path | None = inputs.MTME.field(None)
    lp: str | None = inputs.LP.field(None)
    human: str | None = inputs.HUMAN.field(None)
    mtme_metrics: list[str] | None = inputs.MTME_METRICS.field(None)
    wmt25_scores: Path | None = flag(
        "--wmt25-scores", panel=WMT25,
        help="Folder of WMT25 automatic_scores/<system>.jsonl (with --lp): AutoRank alone.",
    ).field(None)  # fmt: skip
    autorank: str | None = flag(
        "--autorank", panel=WMT25, choices="mtpalette.metaeval.autorank:AUTORANK_METHODS",
        help="wmt25 (robust z-scores; default with --wmt25-scores) or wmt24 (1..N rescaled; "
        "default for several sources).",
    ).field(None)  # fmt: skip
    autorank_metrics: list[str] | None = flag(
        "--autorank-metrics", panel=WMT25,
        help="Metrics to combine (repeat; default: WMT25's choice for the pair).",
    ).field(None)  # fmt: skip
    systems_metadata: Path | None = flag(
        "--systems-metadata", panel=WMT25,
        help="WMT25 systems_metadata*.json: only the systems its supported_lps list for --lp.",
    ).field(None)  # fmt: skip
    protocol: str = flag(
        "--protocol", panel=RANKING, choices="mtpalette.metaeval.system_ranking:PROTOCOLS",
        help="wilcoxon, ttest, wmt24, wmt26, mannwhitney, bootstrap or ar.",
    ).field("wilcoxon")  # fmt: skip
    missing: str | None = flag(
        "--missing", panel=RANKING, choices="mtpalette.metaeval.system_ranking:MISSING_RULES",
        help="Items some systems lack: refuse (default; mark for wmt24, mannwhitney), common "
        "(rank on the items every system has) or mark (each pair on its shared items).",
    ).field(None)  # fmt: skip
    correction: str = flags.CORRECTION.but(panel=RANKING).field("none")
    alpha: float = flags.ALPHA.but(panel=RANKING).field(0.05)
    resamples: int | None = flag(
        "--resamples", panel=RANKING,
        help="bootstrap resamples / ar trials (1000); wmt26 resamples per test (100).",
    ).field(None)  # fmt: skip
    rank_range_rule: str = flag(
        "--rank-range-rule", panel=RANKING,
        choices="mtpalette.metaeval.system_ranking:RANK_RANGE_RULES",
        help="wmt26's rank ranges: corrected (default; beating nobody below ends at N) or "
        "wmt26 (the organisers' code: N - 1).",
    ).field("corrected")  # fmt: skip
    seed: int = flags.SEED.field(SACREBLEU_SEED)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    json: Path | None = flags.JSON.field(None)
    tsv: Path | None = flag(
        "--tsv", panel=OUTPUTS,
        help="Rankings as TSV (pairs in FILE.pairs.tsv; -: stdout, rankings only).",
    ).field(None)  # fmt: skip
    latex: Path | None = flag(
        "--latex", panel=OUTPUTS, help="Rankings as LaTeX (WMT's style)."
    ).field(None)
    report: Path | None = flags.REPORT.field(None)

    def validate(self) -> None:
        from mtpalette.reporting.run_files import pairs_path as _pairs_path

        super().validate()  # the options' choices first
        probability_argument(self.alpha, "--alpha")
        if self.lp_col is not None and (self.table is None or self.metrics or self.scores
                                        or self.mtme is not None):  # fmt: skip
            raise UserInputError(
                "--lp-col ranks the language pairs of one --table apart; give --table and no "
                "other source (-m, --scores, --mtme)"
            )
        if self.resamples is None:
            self.resamples = default_resamples(self.protocol)
        if self.resamples < 1:
            raise UserInputError(f"--resamples must be 1 or more (got {self.resamples})")
        self._validate_autorank()
        given = [bool(self.metrics), bool(self.scores), self.table is not None,
                 self.mtme is not None, self.wmt25_scores is not None]  # fmt: skip
        if not any(given):
            raise UserInputError(
                "nothing to rank: give -m SPEC with -r and the systems, --scores NAME=FILE, "
                "--table FILE, --mtme DIR --lp LP or --wmt25-scores DIR --lp LP"
            )
        if self.metrics and not (self.refs and (self.systems or self.systems_dir)):
            raise UserInputError(
                "-m needs the references (-r) and the systems (-i or --systems-dir)"
            )
        if self.mtme is not None and not self.lp:
            raise UserInputError("--mtme needs the language pair: --lp (e.g. --lp zh-en)")
        if self.lp and self.mtme is None and self.wmt25_scores is None:  # read by nothing else
            raise UserInputError("--lp names the language pair of --mtme or --wmt25-scores; "
                                 "a --table's pairs are told apart by --lp-col COLUMN")  # fmt: skip
        from mtpalette.io.runfile import check_output_folders, run_file_path

        run_file = "--json" if self.json is not None else "--report's run file"
        check_output_folders({run_file: run_file_path(self.json, self.report), "--tsv": self.tsv,
                              "--tsv's pairs file": _pairs_path(self.tsv), "--latex": self.latex,
                              "--report": self.report})  # fmt: skip

    def _validate_autorank(self) -> None:
        if self.wmt25_scores is None:
            if self.autorank_metrics or self.systems_metadata is not None:
                raise UserInputError("--autorank-metrics and --systems-metadata go with "
                                     "--wmt25-scores DIR")  # fmt: skip
            return
        others = [bool(self.metrics), bool(self.scores), self.table is not None,
                  self.mtme is not None]  # fmt: skip
        if any(others):
            raise UserInputError("--wmt25-scores gives AutoRank alone: rank other sources in "
                                 "a separate run")  # fmt: skip
        if not self.lp:
            raise UserInputError("--wmt25-scores needs the language pair: --lp (e.g. en-cs_CZ)")


@dataclass
class RankResult:
    """The rankings of a run (one per score source), AutoRank when there are several, and
    the files written."""

    rankings: list[SystemRanking]
    autorank: AutoRank | AutoRank25 | None
    outputs: dict[str, str] = field(default_factory=dict)
    #: the rankings of a table's language pairs ordered together (``lp_col`` under ``wmt26``:
    #: each system's mean, over the pairs it is in, of the fraction of systems ranked higher)
    global_order: list[tuple[str, float]] | None = None
    #: per language pair, WMT26's domain table (each domain's mean over the systems)
    domain_tables: dict[str, dict[str, float]] | None = None

    def to_pandas(self):
        """Every ranking's systems in one frame, with a ``ranking`` column (its name)."""
        from mtpalette.records import frame

        return frame(
            {"ranking": r.name, "protocol": r.protocol, **s.to_dict()}
            for r in self.rankings
            for s in r.systems
        )

    def pairs_frame(self):
        """Every ranking's pairs in one frame, with a ``ranking`` column."""
        from mtpalette.records import frame

        return frame(
            {"ranking": r.name, "protocol": r.protocol, **p.to_dict()}
            for r in self.rankings
            for p in r.pairs
        )

    def results(self) -> dict[str, Any]:
        """What a rank run file holds as its results (and :meth:`to_json` writes)."""
        out: dict[str, Any] = {"rankings": [r.to_dict() for r in self.rankings]}
        if self.autorank is not None:
            out["autorank"] = self.autorank.to_dict()
        if self.global_order is not None:
            out["global_order"] = [{"system": s, "fraction_higher": v}
                                   for s, v in self.global_order]  # fmt: skip
            out["domain_tables"] = self.domain_tables
        return out

    def to_json(self) -> str:
        from mtpalette.records import dumps

        return dumps(self.results())


def run_rank(run: RankRun, progress: bool | Feedback | None = None) -> RankResult:
    """Rank the systems of every source ``run`` names; write the outputs it asks for.
    ``progress``: as in :func:`rank`."""
    from mtpalette.metaeval.rankings import rank_sources
    from mtpalette.progress import feedback_of
    from mtpalette.sources.rank import sources_of

    run.validate()
    feedback = feedback_of(progress)
    if run.wmt25_scores is not None:
        from mtpalette.api.autorank_run import autorank_wmt25

        with feedback.stage(f"AutoRank ({run.autorank or 'wmt25'}) of {run.lp}"):
            result = RankResult([], autorank_wmt25(
                run.wmt25_scores, str(run.lp), metrics=run.autorank_metrics,
                metadata=run.systems_metadata, method=run.autorank or "wmt25"))  # fmt: skip
        _write(run, result)
        return result
    sources = sources_of(run, feedback)
    rankings, auto, order, tables = rank_sources(run, sources, feedback)
    result = RankResult(rankings, auto, global_order=order, domain_tables=tables)
    _write(run, result)
    return result


def _write(run: RankRun, result: RankResult) -> None:
    from mtpalette.io.runfile import run_file_path
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_files import pairs_path as _pairs_path
    from mtpalette.reporting.run_records import described_record

    json_path = run_file_path(run.json, run.report)
    files = RunFiles(result.outputs)
    inputs = dict(
        refs=run.refs, systems=run.systems, systems_dir=run.systems_dir, scores=run.scores,
        table=run.table, mtme=run.mtme, lp=run.lp, wmt25_scores=run.wmt25_scores,
        systems_metadata=run.systems_metadata,
    )  # fmt: skip
    resampled = run.protocol in ("bootstrap", "ar", "wmt26")
    files.record("json", json_path, lambda: described_record(
        "rank", run, left_out=("json", "tsv", "latex", "report"), files=inputs,
        signatures={r.name: r.signature for r in result.rankings},
        seeds={"resampling": run.seed} if resampled else {}, results=result.results(),
    ))  # fmt: skip
    files.table("tsv", "tsv", run.tsv, result.to_pandas)
    # none on standard output: it takes the rankings alone
    files.table("pairs_tsv", "tsv", _pairs_path(run.tsv), result.pairs_frame)
    files.table("latex", "latex", run.latex, lambda: result.rankings)
    files.report(json_path, run.report)
