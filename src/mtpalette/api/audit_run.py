"""The audit of ORANGE's premise: how often machine output outranks a held-out reference under
each metric and, where the references were rated, whether humans agree (see
:mod:`mtpalette.metaeval.audit` for the definitions).

:func:`audit` takes texts as Python lists; :class:`AuditRun` names files (judged inputs, or
references with candidates for the metric part alone) and :func:`run_audit` runs it.

Examples
--------
>>> refs = [["a b c", "x y"], ["a b d", "x z"]]
>>> a = audit(refs, {"A": ["a b c", "x"], "B": ["a b", "y z"]}, ["bleus:1"], n_resamples=0)
>>> a.rows[0].outranked.value
0.25
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.api.orange_run import SEED
from mtpalette.api.results import RecordResult
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.sources.checks import check_resampling, checked
from mtpalette.sources.inputs import CandidateInputs, JudgedInputs

if TYPE_CHECKING:
    from mtpalette.metaeval.audit import Audit


def audit(
    refs: Sequence[Sequence[str]],
    candidates: Mapping[str, Sequence[str]] | Sequence[Sequence[str]],
    metrics: Sequence[str] | str,
    *,
    candidate_human: Sequence[float] | None = None,
    reference_human: Sequence[Sequence[float]] | None = None,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int | None = SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> Audit:
    """The audit of ORANGE's premise on texts.

    ``candidate_human`` has one score per candidate in list order (system by system within a
    segment for a pool), ``reference_human`` one per reference and segment; NaN: unrated.
    ``progress``: a bar counting the metrics scored with each reference held out, ``None``
    (the default) when standard error is a terminal or in a notebook; ``True``: always
    offered; ``False``: silent; or a :class:`~mtpalette.feedback.Feedback`.

    Examples
    --------
    >>> a = audit([["a b", "c"], ["a c", "c d"]], [["a b", "a"], ["c"]], "wer", n_resamples=0)
    >>> a.n_segments, a.n_refs
    (2, 2)
    """
    import numpy as np

    from mtpalette.metaeval.audit import HELD_OUT
    from mtpalette.metaeval.audit import audit as run_metric_audit
    from mtpalette.metaeval.of_texts import AuditOfTexts, TextsRun
    from mtpalette.progress import feedback_of
    from mtpalette.sources.candidates import lists_and_metrics

    check_resampling(bootstrap=n_resamples, confidence=confidence, seed=seed, least=0)
    if (candidate_human is None) != (reference_human is None):
        raise UserInputError(
            "candidate_human and reference_human go together: give both or neither"
        )
    lists, parsed = lists_and_metrics(refs, candidates, metrics, tokenize, lowercase)
    cand = None if candidate_human is None else np.asarray(candidate_human, dtype=np.float64)
    ref = None if reference_human is None else np.asarray(reference_human, dtype=np.float64)
    feedback = feedback_of(progress)
    result = checked(
        run_metric_audit,
        lists,
        parsed,
        candidate_human=cand,
        reference_human=ref,
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
        progress=lambda ms: feedback.track(ms, HELD_OUT),
    )
    texts = TextsRun(lists, parsed, None, tokenize, lowercase)
    return AuditOfTexts.of(result, texts)


@dataclass
class AuditRun(Description):
    """An audit from files: ``judged`` inputs (metric and human parts), or ``candidates``
    (references with system outputs or n-best lists: the metric part alone).

    Examples
    --------
    >>> AuditRun(judged=JudgedInputs(bundled="zhen")).validate()
    """

    kind = "audit"
    judged: JudgedInputs = field(default_factory=JudgedInputs)
    candidates: CandidateInputs | None = None
    metrics: list[str] | None = flags.METRIC_SPECS.field(None)
    scores: list[str] | None = flags.SCORES.field(None)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    bootstrap: int = flags.BOOTSTRAP.field(1000)
    seed: int = flags.SEED.field(SEED)
    confidence: float = flags.CONFIDENCE.field(0.95)
    json: Path | None = flags.JSON.field(None)

    def validate(self) -> None:
        check_resampling(bootstrap=self.bootstrap, confidence=self.confidence, seed=self.seed)
        if not self.judged.given and (self.candidates is None or not self.candidates.refs):
            raise UserInputError("give --bundled, --judgments ..., or --refs with the candidates")
        self.judged.validate()


@dataclass
class AuditResult(RecordResult):
    """The audit and the files written (its frame and JSON: :class:`RecordResult`)."""

    record = "audit"

    audit: Audit
    outputs: dict[str, Any]
    #: each reference scored against the others beside the systems (part of the premise
    #: check: a reference derived from another makes every metric look good), or None
    references: Any = None


def run_audit(run: AuditRun, progress: bool | Feedback | None = None) -> AuditResult:
    """Run the audit ``run`` describes, write its run record and return the result
    (``progress`` as in :func:`audit`; ``True`` adds notes)."""
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.metaeval.audit import audit_of_run
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles
    from mtpalette.reporting.run_records import audit_record

    run.validate()
    check_output_folders({"--json": run.json})  # before any work
    result, lists, parsed, specs, agreement, inputs = audit_of_run(run, feedback_of(progress))
    outputs: dict[str, Any] = {}
    RunFiles(outputs).record("run_json", run.json, lambda: audit_record(
        result, parsed, specs, score_files=list(run.scores or []), n_refs=lists.n_refs,
        tokenize=run.tokenize, lowercase=run.lowercase, agreement=agreement,
        bootstrap=run.bootstrap, confidence=run.confidence, seed=run.seed, inputs=inputs,
        outputs=dict(outputs),
    ))  # fmt: skip
    return AuditResult(result, outputs, agreement)
