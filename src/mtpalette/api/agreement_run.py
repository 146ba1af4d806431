"""Does ORANGE rank metrics the way human judgments do? Each metric's ORANGE and human
correlation with their intervals and ranks, Kendall's tau-b between the two orderings, and,
for rated references, how humans rank them among the systems (their "human ORANGE"); see
:mod:`mtpalette.metaeval.agreement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtpalette import flags
from mtpalette.api.orange_run import SEED
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import parse_epsilon
from mtpalette.io.run_folder import check_out_dir, staged_folder
from mtpalette.io.runfile import Run, check_output_folders
from mtpalette.metaeval.agreement import Agreement, agreement
from mtpalette.metaeval.orange import check_oracle, tie_weight
from mtpalette.metaeval.segments import require_varied, score_segments
from mtpalette.metrics import known_metrics, parse_specs
from mtpalette.progress import feedback_of
from mtpalette.sources.checks import bootstrap_of, check_resampling, checked
from mtpalette.sources.inputs import JudgedInputs
from mtpalette.stats import catalogue

#: the metrics of Lin and Och (2004)'s tables and chrF/TER, where registered
SEED_METRICS = "bleus:4 nist wer per rouge-l rouge-w:1.2 rouge-s:4 chrf ter".split()


def available(specs: list[str]) -> tuple[list[str], list[str]]:
    """The specs whose family is registered, and the others.

    Examples
    --------
    >>> available(["bleus:4", "no-such-metric:2"])
    (['bleus:4'], ['no-such-metric:2'])
    """
    known = set(known_metrics())
    ok = [s for s in specs if s.split(":")[0].split(",")[0].strip().lower() in known]
    return ok, [s for s in specs if s not in ok]


@dataclass
class AgreementRun(Description):
    """ORANGE against human correlation on judged inputs (the bundled zh-en data unless
    judgments are named).

    Examples
    --------
    >>> AgreementRun().validate()
    """

    kind = "agree"
    inputs: JudgedInputs = field(default_factory=JudgedInputs)
    metrics: list[str] | None = flags.METRIC_SPECS.but(
        help="Metric specs (default: the seeds')."
    ).field(None)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    max_items: int | None = flags.MAX_ITEMS.field(None)
    statistic: str = flags.STATISTICS.but(
        help=", ".join(catalogue.names(interval=True)), cli=None, parse=None
    ).field("kendall")
    grouping: str = flags.GROUPING.field("none")
    epsilon: float | None = flags.EPSILON.field(None)
    oracle: str = flags.ORACLE.field("leave-one-out")
    ties: str = flags.TIES.field("mid")
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SEED)
    confidence: float = flags.CONFIDENCE.field(0.95)
    out_dir: Path | None = flags.OUT_DIR.field(None)
    json: Path | None = flags.JSON.field(None)

    def validate(self) -> None:
        check_resampling(bootstrap=self.bootstrap, confidence=self.confidence, seed=self.seed)
        checked(catalogue.statistic, self.statistic, interval=True)
        if self.max_items is not None and self.max_items < 2:
            raise UserInputError("--max-items must be at least 2")
        if self.epsilon is not None:
            parse_epsilon(str(self.epsilon))
        check_oracle(self.oracle)
        tie_weight(self.ties)
        check_out_dir(self.out_dir)
        check_output_folders({"--json": self.json}, made=[self.out_dir])
        super().validate()


@dataclass
class AgreementResult:
    """The agreement and the files written."""

    agreement: Agreement
    outputs: dict[str, Any]

    def to_pandas(self):
        """One row per metric: ORANGE and the human correlation with their intervals and
        ranks (flat columns)."""
        return self.agreement.to_pandas()

    def to_json(self) -> str:
        """The agreement (:meth:`Agreement.to_dict`) and the files written, as JSON."""
        from mtpalette.records import dumps

        return dumps({"agreement": self.agreement.to_dict(), "outputs": self.outputs})


def run_agreement(run: AgreementRun, progress: bool | Feedback | None = None) -> AgreementResult:
    """Run the comparison ``run`` describes, write its run record and return the result.

    ``progress``: bars (and with ``True`` notes) on standard error, ``None`` (the default)
    bars alone when it is a terminal or in a notebook; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    run.validate()
    feedback = feedback_of(progress)
    specs, skipped = available(list(run.metrics or SEED_METRICS))
    if run.metrics and skipped:
        raise UserInputError(
            f"unknown metric(s) {', '.join(skipped)}; known: {', '.join(known_metrics())}"
        )
    for s in skipped:
        feedback.note(f"note: {s} is not available yet; left out", style="yellow")
    judged_inputs = run.inputs
    if not judged_inputs.given:
        judged_inputs = JudgedInputs(**{**vars(judged_inputs), "bundled": "zhen"})
    loaded = judged_inputs.load(note=feedback.warn)
    data, judged, inputs = loaded.data, loaded.judged, loaded.inputs
    ref_paths = [Path(r["path"]) for r in inputs["refs"]]
    if len(ref_paths) < 2:
        raise UserInputError("ORANGE needs at least 2 references (--refs A B)")
    n = data.n_items if run.max_items is None else min(run.max_items, data.n_items)
    keep = list(range(n))
    data = data.select_items(keep)
    rated_refs = {}
    for p in ref_paths:
        name = p.name[: -len(p.suffix)] if p.suffix else p.name
        if name in judged.systems:
            rated_refs[name] = judged.scores[judged.systems.index(name)][keep]
    parsed = parse_specs(specs, tokenize=run.tokenize, lowercase=run.lowercase)
    require_varied(data.human)
    feedback.note(
        f"ORANGE ({run.oracle}) and {run.statistic} of {len(parsed)} metrics on "
        f"{data.n_items} segments"
    )
    with feedback.stage(f"scoring {len(parsed)} metrics"):
        scores = score_segments(data, parsed)
    with feedback.stage(f"ORANGE and {run.statistic}"):
        result = agreement(
            data,
            parsed,
            statistic=run.statistic,
            grouping=run.grouping,
            oracle=run.oracle,
            ties=run.ties,
            **bootstrap_of(run),
            epsilon=run.epsilon,
            reference_scores=rated_refs,
            scores=scores,
        )
    outputs: dict[str, Any] = {}
    json_out = run.json
    if run.out_dir is not None:
        json_out = json_out or run.out_dir / "run.json"
    if json_out is not None:
        outputs["run_json"] = str(json_out)
        record = Run(
            "agree",
            inputs={**inputs, "n_segments": data.n_items, "systems": data.systems},
            settings={
                "metric_specs": specs,
                "skipped_specs": skipped,
                "statistic": run.statistic,
                "grouping": run.grouping,
                "epsilon": "calibrated" if run.epsilon is None else run.epsilon,
                "oracle": run.oracle,
                "ties": run.ties,
                "bootstrap": run.bootstrap,
                "confidence": run.confidence,
                "max_items": run.max_items,
                "tokenize": run.tokenize,
                "lowercase": run.lowercase,
            },
            signatures={s.name: s.signature for s in scores},
            seeds={"bootstrap": run.seed},
            results={"agreement": result.to_dict()},
            outputs=dict(outputs),
        )
        with staged_folder(run.out_dir) as stage:  # a new folder made only with its file
            record.save(stage.path(json_out))
    return AgreementResult(result, outputs)
