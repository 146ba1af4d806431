"""Does ORANGE rank metrics the way human judgments do? Each metric's ORANGE and human
correlation with their intervals and ranks, Kendall's tau-b between the two orderings, and,
for rated references, how humans rank them among the systems (their "human ORANGE"); see
:mod:`mtpalette.metaeval.agreement`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.api.orange_run import SEED
from mtpalette.api.results import RecordResult
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import parse_epsilon
from mtpalette.sources.checks import check_resampling, checked
from mtpalette.sources.inputs import JudgedInputs
from mtpalette.stats import catalogue

if TYPE_CHECKING:
    from mtpalette.metaeval.agreement import Agreement

#: the metrics of Lin and Och (2004)'s tables and chrF/TER, where registered
SEED_METRICS = "bleus:4 nist wer per rouge-l rouge-w:1.2 rouge-s:4 chrf ter".split()


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
        from mtpalette.io.run_folder import check_out_dir
        from mtpalette.io.runfile import check_output_folders
        from mtpalette.metaeval.orange import check_oracle, tie_weight

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
class AgreementResult(RecordResult):
    """The agreement and the files written (its frame and JSON: :class:`RecordResult`)."""

    record = "agreement"

    agreement: Agreement
    outputs: dict[str, Any]


def run_agreement(run: AgreementRun, progress: bool | Feedback | None = None) -> AgreementResult:
    """Run the comparison ``run`` describes, write its run record and return the result.

    ``progress``: bars (and with ``True`` notes) on standard error, ``None`` (the default)
    bars alone when it is a terminal or in a notebook; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    from mtpalette.io.run_folder import staged_folder
    from mtpalette.metaeval.agreement import agreement_of_run
    from mtpalette.metrics import known_metrics
    from mtpalette.metrics.registry import registered
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_records import agreement_record

    run.validate()
    feedback = feedback_of(progress)
    specs, skipped = registered(list(run.metrics or SEED_METRICS))
    if run.metrics and skipped:
        raise UserInputError(
            f"unknown metric(s) {', '.join(skipped)}; known: {', '.join(known_metrics())}"
        )
    for s in skipped:
        feedback.note(f"note: {s} is not available yet; left out", style="yellow")
    result, data, inputs, scores = agreement_of_run(run, specs, feedback)
    outputs: dict[str, Any] = {}
    json_out = run.json
    if run.out_dir is not None:
        json_out = json_out or run.out_dir / "run.json"
    if json_out is not None:
        with staged_folder(run.out_dir) as stage:  # a new folder made only with its file
            RunFiles(outputs, stage).record("run_json", json_out, lambda: agreement_record(
                run, specs, skipped, result, data, inputs, scores, dict(outputs)))  # fmt: skip
    return AgreementResult(result, outputs)
