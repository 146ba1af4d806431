"""Scores of system outputs read from files, tables or folders, as ``mtpalette score`` gives
them: :class:`ScoreRun` says what to read, which metrics, and which tests and intervals;
:func:`run_score` reads, scores once and returns a :class:`ScoreResult` (the command line
renders it). The texts of Python lists are scored by
:func:`~mtpalette.sources.scoring.score_systems` (``mtpalette.score_systems``) directly.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "ref.txt").write_text("the cat sat on the mat\\n")
>>> _ = (d / "A.txt").write_text("the cat sat on the mat\\n")
>>> run = ScoreRun(ScoreInputs(refs=[str(d / "ref.txt")], hyps=[str(d / "A.txt")]), ["bleu"])
>>> result = run_score(run, progress=False)
>>> [round(s.value, 1) for s in result.scored["A"].corpus]
[100.0]
>>> result.to_pandas()[["system", "metric", "score"]].round(6).values.tolist()
[['A', 'bleu', 100.0]]
>>> ScoreRun.load(run.save(d / "score.json")) == run
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtpalette import flags
from mtpalette.api.score_tests import ScoreTests
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import METRICS, OUTPUTS, flag
from mtpalette.sources.checks import metric_specs
from mtpalette.sources.score_inputs import ScoreInputs

if TYPE_CHECKING:
    from mtpalette.sources.scoring import Scores
    from mtpalette.stats.paired import SystemComparison

__all__ = ["ScoreInputs", "ScoreResult", "ScoreRun", "ScoreTests", "run_score"]


@dataclass
class ScoreRun(Description):
    """Everything a scoring run needs: where the systems and references are (``inputs``),
    the metrics, the text settings, sentence or corpus scores (``sentence``; ``sort``: corpus
    scores best first by that metric), the paired tests and intervals (``tests``) and where to
    compute (``backend``: ``inproc``, ``local`` with ``workers``, or ``dask`` at ``scheduler``).
    """

    kind = "score"
    inputs: ScoreInputs
    metrics: list[str] = flags.METRIC_SPECS.field(factory=lambda: ["bleu"])
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    sentence: bool = flag(
        "--sentence", panel=OUTPUTS, help="One row of scores per segment."
    ).field(False)
    sort: str | None = flag(
        "--sort", panel=OUTPUTS,
        help="Order the systems by this metric, best first (lower first for ↓ metrics).",
    ).field(None)  # fmt: skip
    max_tokens: int | None = flag(
        "--max-tokens", panel=METRICS, help="Refuse sentences longer than this (tokens).",
        kw={"min": 1},
    ).field(None)  # fmt: skip
    tests: ScoreTests = field(default_factory=ScoreTests)
    backend: str = flags.BACKEND.field("inproc")
    workers: int = flags.WORKERS.but(help="Local workers.").field(1)
    scheduler: str | None = flags.SCHEDULER.field(None)

    def validate(self) -> None:
        metric_specs(self.metrics)
        if self.sort is not None and self.sentence:
            raise UserInputError("--sort orders corpus scores; drop --sentence")
        if self.max_tokens is not None and self.max_tokens < 1:
            raise UserInputError(f"--max-tokens must be at least 1 (got {self.max_tokens})")
        if self.inputs.wmt25 is not None:
            resampling = self.tests.test is not None or self.tests.confidence
            self.inputs.wmt25.check(sentence=self.sentence, resampling=resampling)
        super().validate()


@dataclass
class ScoreResult:
    """What a scoring run computed: each system's :class:`~mtpalette.sources.scoring.Scores`
    (sentence and corpus scores with signatures; sorted when the run asked it) and the paired
    tests' and intervals' :class:`~mtpalette.stats.paired.SystemComparison` (None without)."""

    scored: dict[str, Scores]
    comparison: SystemComparison | None = None
    sentence: bool = False

    def to_pandas(self):
        """Corpus scores: one row per (system, metric), as
        :meth:`~mtpalette.sources.scoring.SystemScores.to_pandas` gives them; for a sentence
        run, one row per (system, segment) with a column per metric."""
        from mtpalette.sources.scoring import SystemScores

        if not self.sentence:
            return SystemScores(self.scored).to_pandas()
        from mtpalette.records import frame

        return frame(
            {"system": name, "segment": i, **{m: float(v[i]) for m, v in s.sentence.items()}}
            for name, s in self.scored.items()
            for i in range(s.n_segments)
        )

    def to_json(self) -> str:
        """The corpus scores with their details and signatures (a JSON list, as
        :meth:`~mtpalette.sources.scoring.SystemScores.to_json`); a sentence run's rows of
        :meth:`to_pandas`."""
        from mtpalette.sources.scoring import SystemScores

        if not self.sentence:
            return SystemScores(self.scored).to_json()
        from mtpalette.records import dumps

        return dumps(self.to_pandas().to_dict(orient="records"))


def run_score(run: ScoreRun, progress: bool | Feedback | None = None) -> ScoreResult:
    """Read the systems and references ``run`` names, score every metric once, sort, and run
    the tests and intervals it asks for. ``progress`` as for
    :func:`~mtpalette.sources.scoring.score_systems`; notes on what was read (left-out files,
    folded columns) go to standard error."""
    from mtpalette.parallel import Backend
    from mtpalette.progress import feedback_of
    from mtpalette.sources.scoring import score_systems, sort_systems

    run.validate()
    feedback = feedback_of(progress)
    systems, refs, srcs = run.inputs.load(feedback.warn)
    run.tests.check(len(systems), sentence=run.sentence)
    scored = score_systems(
        systems, refs, run.metrics, tokenize=run.tokenize, lowercase=run.lowercase,
        backend=Backend(run.backend, run.workers, run.scheduler), max_tokens=run.max_tokens,
        srcs=srcs, progress=progress,
    )  # fmt: skip
    scored = scored if run.inputs.wmt25 is None else run.inputs.wmt25.aggregate(scored)
    if run.sentence:
        return ScoreResult(dict(scored), None, sentence=True)
    scored = scored if run.sort is None else sort_systems(scored, run.sort)
    return ScoreResult(dict(scored), run.tests.compare(scored))
