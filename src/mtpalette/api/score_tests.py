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

from mtpalette.description import Description
from mtpalette.errors import UserInputError
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
    paired_bs: bool = False
    paired_ar: bool = False
    paired_bs_n: int = 1000
    paired_ar_n: int = 10000
    baseline: str | None = None
    confidence: bool = False
    confidence_n: int = 1000
    seed: int = SACREBLEU_SEED

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
