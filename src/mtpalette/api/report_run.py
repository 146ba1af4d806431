"""The HTML report from Python: :func:`report` writes the page ``mtpalette report`` writes.

A result whose run wrote a run file (``out_dir``, ``json``: ``result.outputs["run_json"]``) is
reported from that file, so the page equals the command line's for the same run (error browser
included: it reads the ``errors.jsonl`` beside the run file). A result computed in memory
(:func:`~mtpalette.api.orange_run.orange`, :func:`~mtpalette.api.correlation_run.correlate`,
:func:`~mtpalette.api.audit_run.audit`, or a run without output files) becomes a run record in
memory with its results and signatures; it has no inputs to list and no error browser.

Examples
--------
>>> import tempfile
>>> from mtpalette.api.orange_run import orange
>>> refs = [["the cat sat on the mat", "a dog"], ["a cat sat on the mat", "the dog"]]
>>> table = orange(refs, {"S": ["the cat sat", "a dog barked"]}, ["bleus:2", "wer"],
...                n_resamples=0)
>>> with tempfile.TemporaryDirectory() as d:
...     path = report(table, f"{d}/report.html", title="two segments")
...     text = path.read_text(encoding="utf-8")
>>> "<title>two segments</title>" in text and 'class="metrics orange-table"' in text
True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.api.agreement_run import AgreementResult
from mtpalette.api.audit_run import AuditResult
from mtpalette.api.correlation_run import CorrelationResult
from mtpalette.api.orange_run import ERRORS_MAX, OrangeResult
from mtpalette.api.rank_run import RankResult
from mtpalette.errors import UserInputError
from mtpalette.io.runfile import Run, load_run
from mtpalette.metaeval.agreement import Agreement
from mtpalette.metaeval.audit import Audit
from mtpalette.metaeval.correlation import CorrelationTable
from mtpalette.metaeval.orange import OrangeTable
from mtpalette.metaeval.orange_errors import error_records
from mtpalette.metaeval.system_ranking import SystemRanking
from mtpalette.records import to_jsonable
from mtpalette.reporting.html import write_runs
from mtpalette.reporting.run_records import (
    audit_texts_record,
    orange_results,
    orange_texts_record,
)

#: what :func:`report` takes, for its error message
KINDS = (
    "a run file (run.json), or the result of run_orange, run_correlation, run_audit, "
    "run_agreement, run_rank, orange, correlate, audit or rank"
)


def report(
    *results: Any,
    path: str | os.PathLike | None = None,
    title: str = "mtpalette report",
    labels: Sequence[str] | None = None,
) -> Path:
    """Write the self-contained HTML report of ``results`` (the page of ``mtpalette report``).

    Parameters
    ----------
    *results:
        Results of :func:`~mtpalette.api.orange_run.run_orange`,
        :func:`~mtpalette.api.correlation_run.run_correlation`,
        :func:`~mtpalette.api.audit_run.run_audit`,
        :func:`~mtpalette.api.agreement_run.run_agreement`,
        :func:`~mtpalette.api.rank_run.run_rank` (from their run file when they wrote one),
        tables of :func:`~mtpalette.api.orange_run.orange`,
        :func:`~mtpalette.api.correlation_run.correlate` (one table or a list),
        :func:`~mtpalette.api.audit_run.audit` and :func:`~mtpalette.api.rank_run.rank`, or
        paths of run files; the last one is the
        HTML file to write unless ``path`` is given: ``report(a, b, "report.html")``.
    path:
        The HTML file to write.
    title, labels:
        The page's title and a name of each result's data set (default: from its inputs).

    Returns
    -------
    Path
        The file written.
    """
    items = list(results)
    if path is None:
        if not items or not isinstance(items[-1], str | os.PathLike):
            raise UserInputError("report(results..., path): give the HTML file to write last")
        path = items.pop()
    if not items:
        raise UserInputError(f"report(results..., path): give at least one result ({KINDS})")
    return write_runs([run_of(item) for item in items], path, title=title, labels=labels)


def run_of(result: Any) -> tuple[dict[str, Any], Path | None]:
    """The run record (as a run file holds it) and the run file's path of one result.

    Examples
    --------
    >>> run, where = run_of(Audit([], None, None, 3, 2, 6, ["A", "B"], 0, 0.95, 1))
    >>> run["kind"], run["results"]["audit"]["n_segments"], where
    ('audit', 3, None)
    """
    if isinstance(result, str | os.PathLike):
        return load_run(result), Path(result)
    outputs = getattr(result, "outputs", None)
    if isinstance(outputs, dict) and outputs.get("run_json"):
        return load_run(outputs["run_json"]), Path(outputs["run_json"])
    run = _in_memory(result)
    if run is None:
        raise UserInputError(f"report: cannot report a {type(result).__name__}; give {KINDS}")
    record = to_jsonable(run.to_dict())
    texts = getattr(result, "texts", None)
    if isinstance(result, OrangeTable) and texts is not None and texts.comparisons:
        # the error browser's records, as the command writes them to errors.jsonl
        most = record["settings"]["errors_max"]
        record["errors_records"] = list(
            error_records(texts.comparisons, texts.lists, ties=result.ties, most=most)
        )
    return record, None


def _dict_of(result: Any) -> dict[str, Any] | None:
    return None if result is None else result.to_dict()


def _in_memory(result: Any) -> Run | None:
    """A run record of a result that wrote no run file (None: not a result of a run)."""

    def record(kind: str, results: dict[str, Any], signatures: dict[str, Any]) -> Run:
        return Run(kind, signatures=signatures, results=results, command=[])

    if isinstance(result, OrangeResult):
        table = result.table
        return record("orange", orange_results(table, result.curve, result.references),
                      {r.metric: r.signature for r in table.rows})  # fmt: skip
    if isinstance(result, OrangeTable):
        return orange_texts_record(result, getattr(result, "texts", None), ERRORS_MAX)
    if isinstance(result, CorrelationResult):
        return record("correlate", {"tables": [t.to_dict() for t in result.tables]},
                      dict(result.signatures))  # fmt: skip
    tables = result if isinstance(result, list | tuple) else [result]
    if tables and all(isinstance(t, CorrelationTable) for t in tables):
        return record("correlate", {"tables": [t.to_dict() for t in tables]}, {})
    if isinstance(result, AuditResult):
        return record("audit", {"audit": result.audit.to_dict(),
                                "reference_agreement": _dict_of(result.agreement)}, {})  # fmt: skip
    if isinstance(result, Audit):
        return audit_texts_record(result, getattr(result, "texts", None))
    if isinstance(result, AgreementResult):
        result = result.agreement
    if isinstance(result, Agreement):
        return record("agree", {"agreement": result.to_dict()}, {})
    if isinstance(result, SystemRanking):
        result = RankResult([result], None)
    if isinstance(result, RankResult):
        return record("rank", result.results(), {r.name: r.signature for r in result.rankings})
    return None
