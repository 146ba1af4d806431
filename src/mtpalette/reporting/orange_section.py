"""The report's section of an ORANGE run: the paper's table with every tied best marked, a
dot-and-whisker chart of the intervals, the ORANGE-vs-N curve, the reference agreement and the
data of the error browser (per segment, the references and the candidates that outrank them,
read from the run's ``errors.jsonl``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.io import inputs
from mtpalette.reporting.marks import nan_if_none, p_text, tied_best
from mtpalette.reporting.names import agreement_named, ref_label, ref_paths, reference_names
from mtpalette.reporting.plots import ci_dots_figure, responsive

#: outranking candidates shown per segment before "+N more" in the error browser
ERRORS_PER_SEGMENT = 5


def _errors_path(run: dict[str, Any], run_path: Path | None) -> Path | None:
    name = (run.get("outputs") or {}).get("errors_jsonl")
    if not name:
        return None
    p = Path(name)
    if not p.is_absolute() and not p.exists() and run_path is not None:
        p = run_path.parent / p.name
    return p if p.exists() else None


def highlight_mode(metric: str) -> list[Any]:
    """What the error browser highlights for a metric: ``["ngram", n]`` (words in matched
    n-grams of 2..n words), ``["char", 6]`` (characters in matched character 6-grams),
    ``["lcs"]`` (a longest common subsequence), ``["edit"]`` (words an edit-distance
    alignment keeps), ``["bag"]`` (words matched regardless of position) or ``["skip", d]``
    (words of matched skip-bigrams with at most ``d`` words between them; -1: any).

    Examples
    --------
    >>> [highlight_mode(m) for m in ("bleus:2", "bleu", "chrf", "wer", "per", "rouge-s:4")]
    [['ngram', 2], ['ngram', 4], ['char', 6], ['edit'], ['bag'], ['skip', 4]]
    """
    family, _, arg = metric.partition(":")
    first = arg.split(",")[0]
    number = int(first) if first.isdigit() else None
    if family in ("bleu", "bleus", "rouge-n", "nist"):
        default = 5 if family == "nist" else (2 if family == "rouge-n" else 4)
        return ["ngram", number or default]
    if family == "chrf":
        return ["char", 6]
    if family in ("wer", "ter"):
        return ["edit"]
    if family == "per":
        return ["bag"]
    if family in ("rouge-s", "rouge-su"):
        return ["skip", number if number is not None else -1]
    return ["lcs"]


#: relative tolerance of "beats the reference" in the error browser: errors.jsonl stores the
#: candidates' scores with 7 significant digits (float32) and the references' rounded to 6
#: decimals, so a candidate identical to the reference can differ from it by ~1e-7
BEAT_TOLERANCE = 1e-6


def beats(candidate: float, reference: float, higher: bool) -> bool:
    """Whether a candidate's stored score beats the reference's by more than rounding.

    Examples
    --------
    >>> beats(76.92308, 76.923077, True)  # the same text, stored at two precisions
    False
    >>> beats(76.93, 76.923077, True), beats(0.41, 0.4, False)
    (True, False)
    """
    tol = BEAT_TOLERANCE * max(1.0, abs(reference))
    return candidate > reference + tol if higher else candidate < reference - tol


def error_browser_data(
    records: Sequence[dict[str, Any]],
    *,
    per_segment: int = ERRORS_PER_SEGMENT,
    directions: dict[str, bool] | None = None,
    ref_files: Sequence[str] = (),
    kept: int | None = None,
    lowercase: bool = False,
) -> dict[str, Any]:
    """Compact data of the error browser: tables of distinct texts and origins and, per
    segment, each metric's oracle rank, the references' scores against the others and the
    outranking candidates (text id, origin id, score in each comparison).

    Examples
    --------
    >>> recs = [{"metric": "m", "segment": 1, "n_candidates": 2, "oracle_rank": 2.0,
    ...          "n_outranking": 1, "n_comparisons": 2, "oracle": "leave-one-out",
    ...          "reference_scores": [0.4, 0.6], "references": ["a b", "a c"],
    ...          "candidates": [{"scores": [0.9, 0.7], "origin": "S", "text": "a b"}]}]
    >>> d = error_browser_data(recs)
    >>> d["texts"], d["origins"], d["refs"], d["segments"][0]["by"]["0"]
    (['a b', 'a c'], ['S'], ['A', 'B'], {'rank': 2.0, 'n': 2, 'out': 1, 'rs': [0.4, 0.6], \
'c': [[0, 0, [0.9, 0.7], [0, 1]]]})

    Each candidate ends with one flag per comparison: whether it beats the reference of that
    comparison (:func:`beats`; a candidate identical to the held-out reference never does: here
    "a b" is reference A, so it does not beat A whatever the stored scores say).
    """
    texts: dict[str, int] = {}
    origins: dict[str, int] = {}
    metrics: dict[str, int] = {}
    segments: dict[int, dict[str, Any]] = {}
    n_refs = 0
    oracle = "leave-one-out"
    n_comp = 1

    def tid(text: str) -> int:
        return texts.setdefault(text, len(texts))

    directions = directions or {}
    for rec in records:
        m = metrics.setdefault(rec["metric"], len(metrics))
        higher = bool(directions.get(rec["metric"], True))
        s = int(rec["segment"])
        refs = rec.get("references") or []
        n_refs = max(n_refs, len(refs))
        oracle = rec.get("oracle", oracle)
        n_comp = max(n_comp, int(rec.get("n_comparisons", 1)))
        entry = segments.setdefault(s, {"s": s, "refs": [tid(r) for r in refs]})
        ref_scores = rec.get("reference_scores")
        loo = rec.get("oracle", oracle) == "leave-one-out"
        cands = []
        for c in rec["candidates"]:
            scores = c.get("scores")
            if scores is None:
                scores = [c["score"]] if c.get("score") is not None else []
            text = c.get("text", "")
            wins = []
            for j, v in enumerate(scores):
                if ref_scores:
                    held = loo and len(scores) == len(ref_scores)
                    o = ref_scores[j] if held else sum(ref_scores) / len(ref_scores)
                    # a candidate identical to the held-out reference ties it, whatever the
                    # rounding of the two stored scores
                    same = held and j < len(refs) and text == refs[j]
                else:
                    o, same = rec.get("oracle_score"), False
                wins.append(int(o is not None and not same and beats(float(v), float(o), higher)))
            cands.append(
                [
                    tid(text),
                    origins.setdefault(c.get("origin") or "", len(origins)),
                    [float(v) for v in scores],
                    wins,
                ]
            )
        item: dict[str, Any] = {
            "rank": rec["oracle_rank"],
            "n": rec["n_candidates"],
            "out": rec["n_outranking"],
        }
        if rec.get("reference_scores") is not None:
            item["rs"] = [float(v) for v in rec["reference_scores"]]
        elif rec.get("oracle_score") is not None:
            item["os"] = float(rec["oracle_score"])
        item["c"] = cands
        entry.setdefault("by", {})[str(m)] = item
    names = list(metrics)
    return {
        "texts": list(texts),
        "origins": list(origins),
        "metrics": names,
        "modes": [highlight_mode(n) for n in names],
        "higher": [bool(directions.get(n, True)) for n in names],
        "refs": [ref_label(k) for k in range(n_refs)],
        "ref_files": [Path(f).name for f in ref_files][:n_refs],
        "ref_names": reference_names(list(ref_files))[:n_refs] if ref_files else [],
        "oracle": oracle,
        "comparisons": n_comp,
        "per_segment": per_segment,
        "kept": kept,
        "lowercase": lowercase,
        "segments": [segments[s] for s in sorted(segments)],
    }


def orange_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """ORANGE rows with every tied best marked ``best`` (the run marks one) and the p-value
    of the paired test against the best as text (``p_text``) where the run has it.

    Examples
    --------
    >>> rows = orange_rows([
    ...     {"metric": "a", "orange": 0.65, "best": True, "equivalent_to_best": False},
    ...     {"metric": "b", "orange": 0.65, "best": False, "equivalent_to_best": True,
    ...      "p_value": 1.0},
    ...     {"metric": "c", "orange": 0.68, "best": False, "equivalent_to_best": True,
    ...      "p_value": 0.3},
    ...     {"metric": "d", "orange": 0.70, "best": False, "equivalent_to_best": False,
    ...      "p_value": 0.004}])
    >>> [(r["metric"], r["best"], r["p_text"]) for r in rows]
    [('a', True, ''), ('b', True, '= best'), ('c', False, '= best (p = 0.300)'), \
('d', False, 'p = 0.004')]
    """
    best = tied_best([r.get("orange") for r in rows], higher=False)
    out = []
    for r, b in zip(rows, best, strict=True):
        p = r.get("p_value")
        has_p = p is not None and p == p
        if b:
            text = "= best" if not r.get("best") else ""
        elif has_p and r.get("equivalent_to_best"):
            text = f"= best ({p_text(p)})"
        elif has_p:
            text = p_text(p)
        else:
            text = ""
        out.append(
            {**r, "best": b, "equivalent_to_best": bool(r.get("equivalent_to_best")) and not b,
             "p_text": text}
        )  # fmt: skip
    return out


def orange_section(run: dict[str, Any], run_path: Path | None, per_segment: int) -> dict:
    table = run["results"]["table"]
    rows = orange_rows(table["rows"])
    names = [r["metric"] for r in rows]
    dots = responsive(
        ci_dots_figure,
        names,
        [100 * r["orange"] for r in rows],
        [100 * nan_if_none(r["orange_low"]) for r in rows],
        [100 * nan_if_none(r["orange_high"]) for r in rows],
        xlabel="ORANGE (%), lower is better; axis zoomed to the intervals",
        title=f"ORANGE with {100 * table.get('confidence', 0.95):g}% bootstrap intervals",
        best=[bool(r["best"]) for r in rows],
        equivalent=[bool(r["equivalent_to_best"]) and not r["best"] for r in rows],
        labels=[
            n + ("" if r["metric_higher_is_better"] else " ↓")
            for n, r in zip(names, rows, strict=True)
        ],
        equivalent_label='"=": equivalent to the best',
    )
    curve_svg = None
    curve_names: list[str] = []
    curve = run["results"].get("curve")
    if curve:
        import numpy as np

        from mtpalette.metaeval.orange import OrangeCurve
        from mtpalette.reporting.curves import orange_curve_figure

        c = OrangeCurve(
            np.asarray(curve["cutoffs"]),
            {k: np.asarray(v, dtype=float) for k, v in curve["orange"].items()},
            {k: np.asarray(v, dtype=float) for k, v in curve["avg_rank"].items()},
            curve["ties"],
        )
        curve_names = list(c.orange)
        curve_svg = responsive(orange_curve_figure, c)
    errors = None
    records = run.get("errors_records")  # a run made in memory (mtpalette.report of orange())
    path = None if records is not None else _errors_path(run, run_path)
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            inputs.note(path)
            records = [json.loads(line) for line in fh if line.strip()]
    if records is not None:
        settings = run.get("settings") or {}
        errors = error_browser_data(
            records,
            per_segment=per_segment,
            directions={r["metric"]: bool(r["metric_higher_is_better"]) for r in rows},
            ref_files=ref_paths(run),
            kept=settings.get("errors_max"),
            lowercase=bool(settings.get("lowercase", False)),
        )
        best = next((r["metric"] for r in rows if r["best"]), None)
        if best in errors["metrics"]:
            errors["initial"] = errors["metrics"].index(best)  # the browser opens on the best
    agreement = agreement_named(run["results"].get("reference_agreement"), ref_paths(run))
    return {
        "table": table,
        "rows": rows,
        "dots": dots,
        "agreement": agreement,
        "curve": curve_svg,
        "curve_names": curve_names,
        "errors": errors,
        "errors_missing": records is None,
    }
