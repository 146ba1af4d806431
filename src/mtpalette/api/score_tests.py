"""The tests and intervals ``mtpalette score`` asks for with sacrebleu's options
(``--paired-bs``, ``--paired-ar``, ``--confidence``, their counts, ``--baseline``, ``--seed``):
which test, checked against the run, and the comparison of the scored systems
(:func:`~mtpalette.api.paired.compare_scored`, imported only when one is asked for, so that a
plain scoring run does not load the paired tests).

Examples
--------
>>> ScoreTests(paired_ar=True).test, ScoreTests(confidence=True).test
('ar', None)
>>> ScoreTests().compare({}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.flags import RESAMPLING, flag
from mtpalette.sources.checks import SACREBLEU_SEED

if TYPE_CHECKING:
    from mtpalette.sources.scoring import Scores
    from mtpalette.stats.paired import SystemComparison


@dataclass(frozen=True)
class ScoreTests(Description):
    """A paired test against the baseline (``paired_bs``: bootstrap resampling, Koehn 2004;
    ``paired_ar``: approximate randomization, Riezler and Maxwell 2005) and/or each score's
    bootstrap interval (``confidence``), as ``mtpalette score`` takes them.

    Examples
    --------
    >>> ScoreTests(baseline="A").check(2)
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --baseline names the system of a paired test: add --paired-bs
    """

    kind = "score-tests"
    paired_bs: bool = flag(
        "--paired-bs", "-pbs", panel=RESAMPLING,
        help="Paired bootstrap test against the baseline (Koehn 2004).",
    ).field(False)  # fmt: skip
    paired_ar: bool = flag(
        "--paired-ar", "-par", panel=RESAMPLING,
        help="Approximate randomization test against the baseline (Riezler & Maxwell 2005).",
    ).field(False)  # fmt: skip
    paired_bs_n: int = flag(
        "--paired-bs-n", "-pbsn", panel=RESAMPLING, help="Bootstrap resamples.", kw={"min": 1}
    ).field(1000)
    paired_ar_n: int = flag(
        "--paired-ar-n", "-parn", panel=RESAMPLING, help="Randomization trials.", kw={"min": 1}
    ).field(10000)
    baseline: str | None = flag(
        "--baseline", panel=RESAMPLING,
        help="The baseline system's name (default: the first); best: the best system by the "
        "first metric.",
    ).field(None)  # fmt: skip
    confidence: bool = flag(
        "--confidence", "-ci", panel=RESAMPLING, help="Bootstrap 95% interval of every score."
    ).field(False)
    confidence_n: int = flag(
        "--confidence-n", "-cin", panel=RESAMPLING, help="Resamples of the intervals.",
        kw={"min": 1},
    ).field(1000)  # fmt: skip
    seed: int = flags.SEED.but(
        help="Seed of resampling (sacrebleu's 12345).", kw={"min": 0}
    ).field(SACREBLEU_SEED)

    @property
    def test(self) -> str | None:
        """``"bs"``, ``"ar"`` or None (intervals at most)."""
        return "bs" if self.paired_bs else "ar" if self.paired_ar else None

    def check(self, n_systems: int, *, sentence: bool = False) -> None:
        """Refuse options that contradict each other or the run: ``n_systems`` systems scored,
        ``sentence`` scores asked for (tests and intervals are of corpus scores)."""
        if self.paired_bs and self.paired_ar:
            raise UserInputError("give either --paired-bs or --paired-ar, not both")
        if sentence and (self.test or self.confidence):
            raise UserInputError(
                "significance tests and intervals are for corpus scores; drop --sentence"
            )
        if self.test and n_systems < 2:
            raise UserInputError(
                "a paired test needs a baseline and at least one other system: "
                "-i BASE SYS [SYS ...]"
            )
        if self.baseline is not None and self.test is None:
            raise UserInputError("--baseline names the system of a paired test: add --paired-bs")

    def compare(self, scored: Mapping[str, Scores]) -> SystemComparison | None:
        """The comparison of the systems ``scored`` asks for, or None (no test, no interval):
        the test's own count of trials; ``confidence_n`` resamples of the intervals with
        ``confidence``, else the paired bootstrap's own (none with ``paired_ar``)."""
        test = self.test
        if not (test or self.confidence):
            return None
        from mtpalette.api.paired import compare_scored

        return compare_scored(
            scored,
            test=test,
            baseline=self.baseline,
            n_trials={"bs": self.paired_bs_n, "ar": self.paired_ar_n, None: None}[test],
            n_resamples=self.confidence_n if self.confidence else (None if test else 0),
            seed=self.seed,
        )
