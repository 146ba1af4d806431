"""The run record (``run.json``, :class:`~mtpalette.io.runfile.Run`) of each kind of run, as
the report and later comparisons read it: made here once for the command's run file and for
a result the report receives in memory (:func:`mtpalette.api.report_run.report`), so the two
hold the same settings, signatures and results.
"""

from __future__ import annotations

from typing import Any

from mtpalette.io.runfile import Run


def _dict_of(result: Any) -> dict[str, Any] | None:
    return None if result is None else result.to_dict()


def correlation_record(run: Any, result: Any, inputs: dict[str, Any],
                       kept: dict[str, Any]) -> Run:  # fmt: skip
    """A correlation run's record: ``run`` its description, ``result`` its tables and
    signatures (``result.outputs``: the files written, this one included), ``kept`` the
    segment scores kept for the report's scatter plots."""
    return Run(
        "correlate",
        inputs=inputs,
        settings={
            "metric_specs": run.specs,
            "score_files": list(run.scores or []),
            "statistics": run.statistics,
            "grouping": run.grouping,
            "level": run.level if isinstance(run.level, str) else ",".join(run.levels),
            "system_score": run.system_score,
            "epsilon": "calibrated" if run.epsilon is None else run.epsilon,
            "threshold": run.threshold,
            "bootstrap": run.bootstrap,
            "confidence": run.confidence,
            "test": run.test,
            "permutations": run.permutations,
            "alpha": run.alpha,
            "max_items": run.max_items,
            "tokenize": run.tokenize,
            "lowercase": run.lowercase,
        },
        signatures=result.signatures,
        seeds={"bootstrap": run.seed, "permutation": [run.seed, 1]},
        results={"tables": [t.to_dict() for t in result.tables], **kept},
        outputs=result.outputs,
    )
