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


def orange_settings(
    table: Any, metric_specs: list[str], *, tokenize: str, lowercase: bool,
    min_candidates: int, errors_max: int, **files: Any,
) -> dict[str, Any]:  # fmt: skip
    """An ORANGE run's settings as its record holds them; ``files`` (a run from files: its
    ``id_base`` and ``max_candidates``) in their places."""
    settings = {
        "oracle": table.oracle,
        "ties": table.ties,
        "bootstrap": table.n_resamples,
        "confidence": table.confidence,
        "metric_specs": metric_specs,
        "metrics": [row.metric for row in table.rows],
        "tokenize": tokenize,
        "lowercase": lowercase,
    }
    if "id_base" in files:
        settings["id_base"] = files["id_base"]
    settings["min_candidates"] = min_candidates
    if "max_candidates" in files:
        settings["max_candidates"] = files["max_candidates"]
    settings["errors_max"] = errors_max
    return settings


def orange_results(table: Any, curve: Any, references: Any) -> dict[str, Any]:
    """An ORANGE run's results: the table, the curve and the reference agreement."""
    return {"table": table.to_dict(), "curve": _dict_of(curve),
            "reference_agreement": _dict_of(references)}  # fmt: skip


def orange_record(run: Any, result: Any, files: list[Any]) -> Run:
    """The record of an ORANGE run from files (``run`` its description, ``result`` what it
    computed and wrote, ``files`` the candidate files read)."""
    from mtpalette.io.runfile import file_record

    table, lists = result.table, result.lists
    n = lists.n_candidates
    settings = orange_settings(
        table, run.specs, tokenize=run.tokenize, lowercase=run.lowercase,
        id_base=run.candidates.id_base, min_candidates=run.min_candidates,
        max_candidates=run.max_candidates,
        errors_max=run.outputs.errors_max,
    )  # fmt: skip
    return Run(
        "orange",
        inputs={
            "refs": [file_record(p) for p in run.candidates.refs] or run.candidates.ref_names(),
            "candidates": {
                "kind": lists.info.get("kind"),
                "files": [file_record(p) for p in files],
                "systems": lists.info.get("systems"),
            },
            "n_segments": lists.n_segments,
            "n_candidates": {"total": int(n.sum()), "min": int(n.min()), "max": int(n.max())},
        },
        settings=settings,
        signatures={row.metric: row.signature for row in table.rows},
        seeds={"bootstrap": table.seed},
        results=orange_results(table, result.curve, result.references),
        outputs={k: v for k, v in result.outputs.items() if k != "run_json"}
        | {"run_json": result.outputs["run_json"]},
    )


def audit_record(audit: Any, metrics: list[Any], specs: list[str], *, score_files: list[str],
                 n_refs: int, tokenize: str, lowercase: bool, agreement: Any, bootstrap: int,
                 confidence: float, seed: Any, **run: Any) -> Run:  # fmt: skip
    """The record of an audit: its ``metrics`` (parsed; ``specs`` as given) and settings, the
    signatures with one reference held out of ``n_refs``, the reference agreement; ``run``:
    the record's inputs, outputs and command."""
    return Run(
        "audit",
        settings={
            "metric_specs": specs,
            "score_files": score_files,
            "bootstrap": bootstrap,
            "confidence": confidence,
            "tokenize": tokenize,
            "lowercase": lowercase,
        },
        signatures={m.spec: m.signature(n_refs=max(n_refs - 1, 1)) for m in metrics},
        seeds={"bootstrap": seed},
        results={"audit": audit.to_dict(), "reference_agreement": _dict_of(agreement)},
        **run,
    )


def described_record(kind: str, run: Any, *, left_out: tuple[str, ...], files: dict[str, Any],
                     signatures: dict[str, Any], seeds: dict[str, Any],
                     results: dict[str, Any]) -> Run:  # fmt: skip
    """The record of a run whose settings are its description (``run``'s fields, without
    its outputs and the inputs in ``left_out``) and whose inputs are ``files``, each file
    recorded with its size, SHA-256 and lines (``rank``, ``spans``, ``errorfree``)."""
    from mtpalette.sources.recorded import recorded_inputs

    settings = {k: v for k, v in run.to_dict().items() if k not in left_out}
    return Run(kind, inputs=recorded_inputs(**files), settings=settings, signatures=signatures,
               seeds=seeds, results=results)  # fmt: skip


def agreement_record(run: Any, specs: list[str], skipped: list[str], result: Any, data: Any,
                     inputs: dict[str, Any], scores: list[Any],
                     outputs: dict[str, Any]) -> Run:  # fmt: skip
    """The record of an agreement run (``run`` its description; ``specs`` the metrics
    compared, ``skipped`` those left out; ``data`` and ``scores`` what was read and scored)."""
    return Run(
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
        outputs=outputs,
    )



def _texts_agreement(texts: Any) -> Any:
    """The reference agreement of a run on texts (``texts``: what it computed its table
    from): the command's function, on the same lists and metrics (None: one reference, or
    n-best lists)."""
    from mtpalette.metaeval.references import reference_agreement_of
    from mtpalette.progress import feedback_of

    return reference_agreement_of(texts.lists, texts.metrics, texts, feedback_of(False))


def audit_texts_record(audit: Any, texts: Any) -> Run:
    """The record of an audit made in memory; with the texts behind it (``audit()``'s), the
    reference agreement, signatures and settings the command's record holds."""
    if texts is None:
        results = {"audit": audit.to_dict(), "reference_agreement": None}
        return Run("audit", results=results, command=[])
    specs = [m.spec for m in texts.metrics]
    return audit_record(audit, texts.metrics, specs, score_files=[], n_refs=texts.lists.n_refs,
                        tokenize=texts.tokenize, lowercase=texts.lowercase,
                        agreement=_texts_agreement(texts), bootstrap=audit.n_resamples,
                        confidence=audit.confidence, seed=audit.seed, command=[])  # fmt: skip


def orange_texts_record(table: Any, texts: Any, errors_max: int) -> Run:
    """The record of an ORANGE table made in memory; with the texts behind it (``orange()``'s),
    the reference agreement and the settings the command's record holds."""
    results: dict[str, Any] = {"table": table.to_dict()}
    settings: dict[str, Any] = {}
    if texts is not None:
        results["reference_agreement"] = _dict_of(_texts_agreement(texts))
        settings = orange_settings(table, [m.spec for m in texts.metrics], tokenize=texts.tokenize,
                                   lowercase=texts.lowercase, min_candidates=texts.min_candidates,
                                   errors_max=errors_max)  # fmt: skip
    return Run(
        "orange",
        settings=settings,
        signatures={r.metric: r.signature for r in table.rows},
        seeds={"bootstrap": table.seed},
        results=results,
        command=[],
    )
