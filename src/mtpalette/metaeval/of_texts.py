"""Results of the API's runs on Python texts (:func:`mtpalette.orange`,
:func:`mtpalette.audit`) with the texts and comparisons behind them, so that
:func:`mtpalette.report` shows what a command's report shows (the error analysis, the reference
agreement), computed by the same functions
(:func:`~mtpalette.metaeval.orange_errors.error_records`,
:func:`~mtpalette.metaeval.references.reference_agreement_of`)."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from mtpalette.metaeval.audit import Audit
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.orange import Comparisons, OrangeTable
from mtpalette.records import out


@dataclass(frozen=True)
class TextsRun:
    """What a run on texts computed its table from, kept beside the table."""

    lists: CandidateLists
    metrics: list
    #: the metrics' comparisons, each keeping ``ERRORS_MAX`` outranking scores per segment
    comparisons: list[Comparisons] | None
    tokenize: str
    lowercase: bool
    min_candidates: int = 1


@dataclass(frozen=True)
class OrangeOfTexts(OrangeTable):
    """The :class:`~mtpalette.metaeval.orange.OrangeTable` :func:`mtpalette.orange` returns,
    with the texts and comparisons behind it (``texts``: not compared, not written)."""

    texts: TextsRun | None = field(default=None, repr=False, compare=False,
                                   metadata=out(skip=True))  # fmt: skip

    @classmethod
    def of(cls, table: OrangeTable, texts: TextsRun) -> OrangeOfTexts:
        return cls(**{f.name: getattr(table, f.name) for f in fields(OrangeTable)}, texts=texts)


@dataclass(frozen=True)
class AuditOfTexts(Audit):
    """The :class:`~mtpalette.metaeval.audit.Audit` :func:`mtpalette.audit` returns, with the
    texts behind it (``texts``: not compared, not written), for the report's reference
    agreement."""

    texts: TextsRun | None = field(default=None, repr=False, compare=False)

    @classmethod
    def of(cls, audit: Audit, texts: TextsRun) -> AuditOfTexts:
        return cls(**{f.name: getattr(audit, f.name) for f in fields(Audit)}, texts=texts)
