"""A run's result that wraps one record: its frame and JSON, and the files the run wrote
(:class:`EvaluationResult`: ``spans``, ``errorfree``; :class:`RecordResult`: ``audit``,
``agree``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar


@dataclass
class EvaluationResult:
    """The evaluation of a run (a record with ``to_pandas`` and ``to_json``) and the files
    written, by output name."""

    evaluation: Any
    outputs: dict[str, str] = field(default_factory=dict)

    def to_pandas(self):
        """The evaluation's rows as a DataFrame."""
        return self.evaluation.to_pandas()

    def to_json(self) -> str:
        """The evaluation as JSON (:meth:`to_dict` of its record)."""
        return self.evaluation.to_json()

    def write_tables(self, tsv, latex) -> None:
        """The evaluation's rows to ``tsv`` and its table to ``latex`` (None: not asked),
        through the writers' registry, each recorded in :attr:`outputs`."""
        from mtpalette.reporting.run_files import RunFiles

        files = RunFiles(self.outputs)
        files.table("tsv", "tsv", tsv, self.evaluation.to_pandas)
        files.table("latex", "latex", latex, lambda: self.evaluation)


class RecordResult:
    """The frame and JSON of a run's result that holds one record in the field ``record``
    names, beside ``outputs`` (the files written): the record's rows, and as JSON the
    record's dict under that name with the files (``audit``, ``agree``)."""

    record: ClassVar[str]
    outputs: dict[str, Any]

    def to_pandas(self):
        """The record's rows as a DataFrame (one row per metric, flat columns)."""
        return getattr(self, self.record).to_pandas()

    def to_json(self) -> str:
        """The record (its ``to_dict``) and the files written, as JSON."""
        from mtpalette.records import dumps

        return dumps({self.record: getattr(self, self.record).to_dict(), "outputs": self.outputs})

