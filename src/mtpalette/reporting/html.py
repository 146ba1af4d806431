"""The self-contained HTML report of one or more runs (``mtpalette report``).

Reads run files (``run.json`` of ``orange``, ``correlate``, ``agree``, ``audit``) and writes
one HTML file that works offline: styles, scripts, figures (inline SVG from matplotlib) and
data are all inside it; the page is made from a jinja2 template.

* Overview: per data set, the systems table (every metric's corpus score and rank next to the
  human score and rank, and each system-level correlation with its interval) when a
  correlation run holds the systems' scores; with several runs, one table of every metric's
  result per run and statistic (the ORANGE paper's tables 2-7 side by side).
* ORANGE runs: the paper's table (ORANGE, average rank, 95% interval, "=" for metrics
  equivalent to the best), a dot-and-whisker chart of the intervals, the ORANGE-vs-N curve
  (every metric, its own colour and marker), and the error browser: per segment, the
  references (each with its score against the others) and the candidates that outrank them
  (each with its score in each comparison, and against which reference), the words the
  metric in view matched highlighted; choose the metric and the comparison, search, filter,
  sort, page. The browser reads the run's ``errors.jsonl`` (written next to ``run.json``).
* Correlation runs: each table (statistic, 95% interval, significance cluster), a
  dot-and-whisker chart, and human-vs-metric plots: a hexbin of the segments when the run kept
  its segment scores, one labelled dot per system at system level.
* Audit runs: a readable page (the human share and a plain verdict on ORANGE's premise, one
  row per metric with intervals, baselines marked, the definitions, a chart of the
  "outranked" shares, the reference agreement).
* Other runs: their results as a collapsible JSON block.
* Every run: its command, inputs, settings, seeds and signatures as compact tables, the raw
  JSON behind a toggle.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io import inputs
from mtpalette.io.runfile import atomic_writer, load_run
from mtpalette.reporting.names import dataset_label, ref_label, reference_names
from mtpalette.reporting.plots import ci_dots, segment_scatter, svg_of, system_scatter

TEMPLATE = "report.html.j2"
#: outranking candidates shown per segment before "+N more" in the error browser
ERRORS_PER_SEGMENT = 5
#: human score names by judgment format
HUMAN_NAMES = {"mqm": "MQM", "da": "DA", "wmt-da": "DA", "psqm": "pSQM"}


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


def tied_best(values: Sequence[float | None], higher: bool) -> list[bool]:
    """Every value equal to the best one (to 1e-12, relative): all tied best are bold.

    Examples
    --------
    >>> tied_best([0.5, 0.7, 0.7, None], True)
    [False, True, True, False]
    >>> tied_best([0.65, 0.66, 0.65], False)
    [True, False, True]
    """
    ok = [v for v in values if v is not None and v == v]
    if not ok:
        return [False] * len(values)
    best = max(ok) if higher else min(ok)
    tol = 1e-12 * max(1.0, abs(best))
    return [v is not None and v == v and abs(v - best) <= tol for v in values]


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


def _nan(x: Any) -> float:
    return float("nan") if x is None else float(x)


def p_text(p: float) -> str:
    """A p-value as the tables print it: three decimals, ``p < 0.001`` below that (a
    resampled p-value of 0 only says that no resample went the other way).

    Examples
    --------
    >>> p_text(0.0579), p_text(0.0), p_text(1.0)
    ('p = 0.058', 'p < 0.001', 'p = 1.000')
    """
    return "p < 0.001" if p < 0.0005 else f"p = {p:.3f}"


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


def _orange_section(run: dict[str, Any], run_path: Path | None, per_segment: int) -> dict:
    table = run["results"]["table"]
    rows = orange_rows(table["rows"])
    names = [r["metric"] for r in rows]
    dots = ci_dots(
        names,
        [100 * r["orange"] for r in rows],
        [100 * _nan(r["orange_low"]) for r in rows],
        [100 * _nan(r["orange_high"]) for r in rows],
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
        curve_svg = svg_of(orange_curve_figure(c))
    errors = None
    path = _errors_path(run, run_path)
    if path is not None:
        with open(path, encoding="utf-8") as fh:
            inputs.note(path)
            records = [json.loads(line) for line in fh if line.strip()]
        settings = run.get("settings") or {}
        errors = error_browser_data(
            records,
            per_segment=per_segment,
            directions={r["metric"]: bool(r["metric_higher_is_better"]) for r in rows},
            ref_files=_ref_paths(run),
            kept=settings.get("errors_max"),
            lowercase=bool(settings.get("lowercase", False)),
        )
        best = next((r["metric"] for r in rows if r["best"]), None)
        if best in errors["metrics"]:
            errors["initial"] = errors["metrics"].index(best)  # the browser opens on the best
    agreement = agreement_named(run["results"].get("reference_agreement"), _ref_paths(run))
    return {
        "table": table,
        "rows": rows,
        "dots": dots,
        "agreement": agreement,
        "curve": curve_svg,
        "curve_names": curve_names,
        "errors": errors,
        "errors_missing": path is None,
    }


#: the audit's shares, in table order, and their column titles
AUDIT_COLUMNS = ("outranked", "outranking_candidates", "humans_agree", "humans_prefer")


def audit_verdict(human: dict[str, Any] | None) -> str:
    """One plain sentence on ORANGE's premise from the human share (some rated system at
    least as good as the held-out reference).

    Examples
    --------
    >>> audit_verdict({"value": 0.989, "low": 0.977, "high": 0.994})[:40]
    'The premise does not hold here: in most '
    >>> audit_verdict({"value": 0.2, "low": 0.1, "high": 0.3})[:34]
    'The premise mostly holds: humans r'
    >>> audit_verdict(None)
    ''
    """
    if not human or human.get("value") is None:
        return ""
    if human["value"] >= 0.5:
        return (
            "The premise does not hold here: in most cases a system is as good as the "
            "reference, so ORANGE rewards metrics for ranking good systems below poorer "
            "references; read ORANGE with care. Where a metric outranks the reference and "
            "humans agree (humans ≥ high), the metric is right and the premise wrong."
        )
    return (
        "The premise mostly holds: humans rate the reference better than every system in "
        "most cases. Where a metric outranks the reference and humans do not agree (humans ≥ "
        "low), the metric, not the premise, is at fault."
    )


def _audit_section(run: dict[str, Any]) -> dict[str, Any]:
    """The audit as a page: the human share and its verdict, one row per metric, the
    definitions, a chart of the "outranked" shares, and the reference agreement."""
    a = (run.get("results") or {}).get("audit") or {}
    rows = [{**r, "baseline": is_baseline(r)} for r in a.get("rows", [])]
    human = a.get("human_outranked")
    has_human = human is not None or any(r.get("humans_agree") for r in rows)
    columns = AUDIT_COLUMNS if has_human else AUDIT_COLUMNS[:2]
    dots = None
    shown = [r for r in rows if r.get("outranked") and r["outranked"].get("value") is not None]
    if shown:
        dots = ci_dots(
            [r["metric"] for r in shown],
            [100 * r["outranked"]["value"] for r in shown],
            [100 * _nan(r["outranked"].get("low")) for r in shown],
            [100 * _nan(r["outranked"].get("high")) for r in shown],
            xlabel="held-out references outranked by some candidate (%)",
            title=f"Outranked, {100 * a.get('confidence', 0.95):g}% bootstrap intervals",
            labels=[
                r["metric"] + ("" if r.get("higher_is_better", True) else " ↓")
                + (" [baseline]" if r["baseline"] else "")
                for r in shown
            ],
            legend=False,
        )  # fmt: skip
    names = {
        "outranked": "outranked",
        "outranking_candidates": "outranking candidates",
        "humans_agree": "humans ≥",
        "humans_prefer": "humans >",
        "human_outranked": "humans: some system ≥ (>)",
    }
    definitions = [(names.get(k, k), v) for k, v in (a.get("definitions") or {}).items()]
    return {
        "n_segments": a.get("n_segments"),
        "n_refs": a.get("n_refs"),
        "n_candidates": a.get("n_candidates"),
        "references": a.get("references") or [],
        "human": human if has_human else None,
        "human_strict": a.get("human_outranked_strict"),
        "verdict": audit_verdict(human),
        "rows": rows,
        "columns": columns,
        "has_baseline": any(r["baseline"] for r in rows),
        "bootstrap": a.get("bootstrap"),
        "seed": a.get("seed"),
        "confidence": a.get("confidence", 0.95),
        "definitions": definitions,
        "dots": dots,
        "agreement": agreement_named(
            (run.get("results") or {}).get("reference_agreement"), _ref_paths(run)
        ),
    }


def _ref_paths(run: dict[str, Any]) -> list[str]:
    # file records, or the reference names of an mt-metrics-eval folder (--mtme)
    refs = (run.get("inputs") or {}).get("refs") or []
    return [r["path"] if isinstance(r, dict) else str(r) for r in refs]


def agreement_named(agreement: dict[str, Any] | None, ref_paths: Sequence[str]):
    """The reference agreement with the references named from the data (``ref``, ``refB``)
    where a run recorded their file names (``ref.txt``).

    Examples
    --------
    >>> ag = {"references": ["ref.txt", "refB.txt"], "warnings": [],
    ...       "rows": [{"reference": "ref.txt", "against": ["refB.txt"]}]}
    >>> agreement_named(ag, ["/d/ref.txt", "/d/refB.txt"])["rows"]
    [{'reference': 'ref', 'against': ['refB']}]
    """
    if not agreement or not ref_paths:
        return agreement
    names = dict(zip([Path(p).name for p in ref_paths], reference_names(ref_paths), strict=True))
    rows = [
        {**r, "reference": names.get(r["reference"], r["reference"]),
         "against": [names.get(a, a) for a in r.get("against", [])]}
        for r in agreement.get("rows", [])
    ]  # fmt: skip
    refs = [names.get(n, n) for n in agreement.get("references", [])]
    return {**agreement, "rows": rows, "references": refs}


def _direction(higher: bool) -> str:
    return "higher is better" if higher else "lower is better"


def is_baseline(row: dict[str, Any]) -> bool:
    """Whether a result row is a trivial baseline: the row's own ``baseline`` key, else the
    registered family's ``baseline`` attribute (``len``, ``lendiff``).

    Examples
    --------
    >>> is_baseline({"metric": "len:sign=-1"}), is_baseline({"metric": "bleus:4"})
    (True, False)
    """
    if "baseline" in row:
        return bool(row["baseline"])
    from mtpalette.metrics.registry import metric_class

    family = str(row.get("metric", "")).partition(":")[0].partition(",")[0]
    try:
        return bool(getattr(metric_class(family), "baseline", False))
    except (UserInputError, KeyError, ValueError, ImportError):
        return False


def baseline_notes(table: dict[str, Any]) -> dict[str, str]:
    """The plain sentence of every metric not significantly above the best baseline, from a
    table's ``baselines`` entry (:meth:`mtpalette.stats.baselines.BaselineReport.to_dict`).

    Examples
    --------
    >>> baseline_notes({"baselines": {"comparisons": [{"metric": "a", "note": ""},
    ...                                               {"metric": "b", "note": "b is below"}]}})
    {'b': 'b is below'}
    """
    comparisons = (table.get("baselines") or {}).get("comparisons") or []
    return {c["metric"]: c["note"] for c in comparisons if c.get("note")}


#: the length baseline's two orientations: their correlations mirror each other (r and -r)
LENGTH_ORIENTATIONS = {"len": "longer is better", "len:sign=-1": "shorter is better"}


def one_length_row(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str | None]:
    """The rows with one of ``len`` and ``len:sign=-1``, the one that correlates higher
    (each is minus the other), labelled with its orientation; and a note saying so.

    Examples
    --------
    >>> rows = [{"metric": "len", "correlation": -0.3}, {"metric": "len:sign=-1",
    ...          "correlation": 0.3}, {"metric": "bleu", "correlation": 0.2}]
    >>> kept, note = one_length_row(rows)
    >>> [(r["metric"], r.get("label")) for r in kept]
    [('len:sign=-1', 'len:sign=-1 (shorter is better)'), ('bleu', None)]
    """
    found = [r for r in rows if r["metric"] in LENGTH_ORIENTATIONS]
    if len(found) != 2:
        return rows, None
    value = [_nan(r.get("correlation")) for r in found]
    keep = found[0] if not value[1] > value[0] else found[1]  # NaN: the first
    drop = found[1] if keep is found[0] else found[0]
    kept = {**keep, "label": f"{keep['metric']} ({LENGTH_ORIENTATIONS[keep['metric']]})"}
    note = (
        f"{drop['metric']} is not shown: it is minus {keep['metric']}, so its correlation is "
        "minus this one's; the length baseline is shown in its better orientation"
    )
    return [kept if r is keep else r for r in rows if r is not drop], note


def cluster_rows(table: dict[str, Any]) -> list[dict[str, Any]]:
    """Correlation rows with ``top`` (every metric tied with the highest value) and ``p_text``:
    the p-value that made each cluster boundary (the first metric of a cluster, against the
    metric above it that is significantly better) and, inside a cluster, the p-value against
    the cluster's first metric ("= best" in cluster 1), from the table's comparisons.

    Examples
    --------
    >>> t = {"alpha": 0.05, "rows": [
    ...     {"metric": "a", "correlation": 0.5, "cluster": 1},
    ...     {"metric": "b", "correlation": 0.5, "cluster": 1},
    ...     {"metric": "c", "correlation": 0.3, "cluster": 2}],
    ...     "comparisons": [{"better": "a", "worse": "b", "p_value": 0.5},
    ...                     {"better": "a", "worse": "c", "p_value": 0.01}]}
    >>> [(r["metric"], r["top"], r["p_text"]) for r in cluster_rows(t)]
    [('a', True, ''), ('b', True, '= best (p = 0.500 vs a)'), ('c', False, 'p = 0.010 vs a')]
    """
    rows = table["rows"]
    alpha = float(table.get("alpha", 0.05))
    top = tied_best([r.get("correlation") for r in rows], higher=True)
    tests: dict[str, list[dict[str, Any]]] = {}
    for c in table.get("comparisons") or []:
        tests.setdefault(c["worse"], []).append(c)
    first: dict[Any, str] = {}
    out = []
    for r, is_top in zip(rows, top, strict=True):
        cluster = r.get("cluster")
        head = first.setdefault(cluster, r["metric"])
        made = tests.get(r["metric"], [])
        boundary = [c for c in made if c["p_value"] is not None and c["p_value"] <= alpha]
        if boundary:  # the test that opened this cluster
            c = boundary[-1]
            text = f"{p_text(c['p_value'])} vs {c['better']}"
        else:
            c = next((c for c in made if c["better"] == head), made[0] if made else None)
            text = "" if c is None else f"{p_text(c['p_value'])} vs {c['better']}"
            if text and cluster == 1:
                text = f"= best ({text})"
        out.append({**r, "top": is_top, "p_text": text, "baseline": is_baseline(r)})
    notes = baseline_notes(table)
    return [{**r, "below_baseline": notes.get(r["metric"], "")} for r in out]


def _correlation_section(run: dict[str, Any], human_name: str = "human") -> dict:
    tables = []
    seg_scores = run["results"].get("segment_scores")
    for t in run["results"]["tables"]:
        rows, length_note = one_length_row(cluster_rows(t))
        conf = 100 * t.get("confidence", 0.95)
        dots = ci_dots(
            [r["metric"] for r in rows],
            [r["correlation"] for r in rows],
            [_nan(r["low"]) for r in rows],
            [_nan(r["high"]) for r in rows],
            xlabel=f"{t['statistic']} ({t.get('level', 'segment')} level), higher is better; "
            "error metrics negated",
            title=f"Correlation with {human_name} scores, {conf:g}% bootstrap intervals",
            best=[r["top"] for r in rows],
            equivalent=[r["cluster"] == 1 and not r["top"] for r in rows],
            labels=[
                r.get("label", r["metric"])
                + ("" if r["metric_higher_is_better"] else " (neg.)")
                + (" [baseline]" if r["baseline"] else "")
                for r in rows
            ],
            best_label="highest",
            equivalent_label="same cluster (not significantly worse)",
        )
        tables.append(
            {
                "table": t,
                "rows": rows,
                "dots": dots,
                "chance": t.get("chance"),
                "notes": list(baseline_notes(t).values()) + ([length_note] if length_note else []),
            }
        )
    scatters = []
    seg_table = next(
        (t for t in run["results"]["tables"] if t.get("level", "segment") == "segment"), None
    )
    sys_tables = [t for t in run["results"]["tables"] if t.get("level") == "system"]
    if seg_scores:
        human = seg_scores["human"]
        # the points are segments: the note quotes a segment-level correlation, never a
        # system-level one (which once titled 3,150 segment points)
        for name, values in seg_scores["metrics"].items():
            rows = seg_table["rows"] if seg_table is not None else []
            row = next((r for r in rows if r["metric"] == name), None)
            if row is None:
                note = f"{name}: segment scores (no segment-level correlation in this run)"
                higher = True
            else:
                higher = bool(row["metric_higher_is_better"])
                note = (
                    f"{name}, segment level: {seg_table['statistic']} {row['correlation']:.3f}"
                    f" [{_nan(row['low']):.3f}, {_nan(row['high']):.3f}]"
                )
            scatters.append(
                {
                    "name": name,
                    "level": "segment",
                    "svg": segment_scatter(
                        human,
                        values,
                        xlabel=f"{name} segment score ({_direction(higher)})",
                        ylabel=f"{human_name} score of the translation",
                        note=note,
                    ),
                }
            )
    if sys_tables and sys_tables[0].get("system_scores"):
        ss = sys_tables[0]["system_scores"]
        for name, values in ss["metrics"].items():
            notes = []
            higher = True
            for t in sys_tables:
                row = next((r for r in t["rows"] if r["metric"] == name), None)
                if row is not None:
                    higher = bool(row["metric_higher_is_better"])
                    notes.append(
                        f"{t['statistic']} {row['correlation']:.3f} "
                        f"[{_nan(row['low']):.3f}, {_nan(row['high']):.3f}]"
                    )
            kind = "corpus score" if ss.get("kind") == "corpus" else "mean segment score"
            scatters.append(
                {
                    "name": name,
                    "level": "system",
                    "svg": system_scatter(
                        ss["human"],
                        values,
                        ss["systems"],
                        xlabel=f"{name} {kind} ({_direction(higher)})",
                        ylabel=f"{human_name} score (system mean)",
                        note=f"{name}, system level ({len(ss['systems'])} systems)\n"
                        + "; ".join(notes),
                    ),
                }
            )
    return {"tables": tables, "scatters": scatters}


def _ranks(values: Sequence[float | None], higher: bool) -> list[int | None]:
    """Competition ranks (1 = best; ties share the best rank; None stays None).

    Examples
    --------
    >>> _ranks([0.3, 0.5, 0.3, None], True)
    [2, 1, 2, None]
    """
    ok = [v for v in values if v is not None and v == v]
    out: list[int | None] = []
    for v in values:
        if v is None or v != v:
            out.append(None)
        else:
            out.append(1 + sum(1 for w in ok if (w > v if higher else w < v)))
    return out


def systems_table(
    runs: Sequence[dict[str, Any]], *, human_name: str = "human"
) -> dict[str, Any] | None:
    """The systems table of one data set from its correlation runs: per system its human
    score and rank and each metric's score and rank; below, each system-level correlation
    with its interval. None when no table holds the systems' scores.

    Examples
    --------
    >>> t = {"level": "system", "statistic": "pearson", "rows": [{"metric": "wer",
    ...      "correlation": 0.5, "low": 0.1, "high": 0.8, "cluster": 1,
    ...      "metric_higher_is_better": False}], "system_scores": {"systems": ["A", "B"],
    ...      "kind": "corpus", "human": [-1.0, -2.0], "metrics": {"wer": [0.3, 0.4]}}}
    >>> st = systems_table([{"results": {"tables": [t]}}])
    >>> [(r["system"], r["human_rank"], r["cells"][0]) for r in st["rows"]]
    [('A', 1, (0.3, 1)), ('B', 2, (0.4, 2))]
    >>> st["correlations"][0]["cells"]
    [(0.5, 0.1, 0.8, 1)]
    """
    scores = None
    tables = [t for run in runs for t in run["results"].get("tables", [])]
    for t in sorted(tables, key=lambda t: t.get("level") != "system"):
        if t.get("system_scores"):
            scores = t["system_scores"]
            break
    if scores is None:
        return None
    metrics = list(scores["metrics"])
    higher: dict[str, bool] = {}
    for t in tables:
        for r in t["rows"]:
            higher.setdefault(r["metric"], bool(r["metric_higher_is_better"]))
    human = scores["human"]
    human_rank = _ranks(human, True)
    ranks = {m: _ranks(scores["metrics"][m], higher.get(m, True)) for m in metrics}
    order = sorted(range(len(human)), key=lambda i: -(human[i] if human[i] is not None else -1e300))
    rows = [
        {
            "system": scores["systems"][i],
            "human": human[i],
            "human_rank": human_rank[i],
            "n_rated": (scores.get("n_rated") or [None] * len(human))[i],
            "cells": [(scores["metrics"][m][i], ranks[m][i]) for m in metrics],
        }
        for i in order
    ]
    correlations = []
    for t in tables:
        if t.get("level") != "system":
            continue
        by = {r["metric"]: r for r in t["rows"]}
        cells = []
        for m in metrics:
            r = by.get(m)
            cells.append(
                None if r is None else (r["correlation"], r["low"], r["high"], r["cluster"])
            )
        correlations.append(
            {"statistic": t["statistic"], "confidence": t.get("confidence", 0.95), "cells": cells}
        )
    return {
        "metrics": metrics,
        "higher": [higher.get(m, True) for m in metrics],
        "kind": scores.get("kind", "corpus"),
        "human_name": human_name,
        "rows": rows,
        "correlations": correlations,
    }


def summary_table(sections: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Every metric's result in each run and table, one column each (the ORANGE paper's
    tables 2-7 side by side): ORANGE columns mark the best and its equivalents, correlation
    columns the first significance cluster. None with fewer than two columns."""
    columns: list[dict[str, Any]] = []
    for sec in sections:
        label = sec["dataset"]
        if sec["orange"]:
            rows = sec["orange"]["rows"]
            columns.append(
                {
                    "title": "ORANGE (%) ↓",
                    "dataset": label,
                    "run": sec["id"],
                    "cells": {
                        r["metric"]: (
                            f"{100 * r['orange']:.2f}",
                            "best" if r["best"] else ("equiv" if r["equivalent_to_best"] else ""),
                        )
                        for r in rows
                    },
                }
            )
        if sec["correlation"]:
            for item in sec["correlation"]["tables"]:
                t = item["table"]
                columns.append(
                    {
                        "title": f"{t['statistic']} ({t.get('level', 'segment')})",
                        "dataset": label,
                        "run": sec["id"],
                        "cells": {
                            r["metric"]: (
                                f"{r['correlation']:.4f}" if r["correlation"] is not None else "-",
                                ("best" if r["top"] else "equiv") if r["cluster"] == 1 else "",
                            )
                            for r in item["rows"]
                        },
                    }
                )
    if len(columns) < 2:
        return None
    metrics: list[str] = []
    for col in columns:
        for m in col["cells"]:
            if m not in metrics:
                metrics.append(m)
    return {
        "columns": columns,
        "rows": [
            {"metric": m, "cells": [col["cells"].get(m, ("", "")) for col in columns]}
            for m in metrics
        ],
    }


_SIG_COMMON = ("nrefs", "tok", "case", "scale", "version")


def signature_rows(signatures: dict[str, Any]) -> dict[str, Any]:
    """Signatures (``name|key:value|...``) as a compact table: a column for each field
    every metric has, the other fields as ``key value`` pairs.

    Examples
    --------
    >>> t = signature_rows({"wer": "wer|nrefs:1|tok:13a|multiref:fewest-errors"})
    >>> t["columns"], t["rows"][0]["cells"], t["rows"][0]["other"]
    (['nrefs', 'tok'], ['1', '13a'], [('multiref', 'fewest-errors')])
    """
    parsed = []
    for name, sig in signatures.items():
        fields: dict[str, str] = {}
        for part in str(sig).split("|")[1:]:
            key, _, value = part.partition(":")
            fields[key] = value
        parsed.append((name, fields))
    columns = [c for c in _SIG_COMMON if parsed and all(c in f for _, f in parsed)]
    rows = [
        {
            "metric": name,
            "cells": [f[c] for c in columns],
            "other": [(k, v) for k, v in f.items() if k not in columns],
        }
        for name, f in parsed
    ]
    return {"columns": columns, "rows": rows}


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return "-" if value is None else str(value)


def input_rows(ins: dict[str, Any]) -> list[dict[str, str]]:
    """Inputs as rows: a file (role, name, lines, size, SHA-256 prefix, full path) or a value.

    Examples
    --------
    >>> input_rows({"refs": [{"path": "/d/ref.txt", "bytes": 10, "sha256": "ab" * 32,
    ...             "lines": 2}], "format": "mqm"})[0]["sha"]
    'abababababab'
    """
    out: list[dict[str, str]] = []

    def visit(role: str, value: Any) -> None:
        if isinstance(value, dict) and "path" in value and ("sha256" in value or "bytes" in value):
            out.append(
                {
                    "role": role,
                    "name": Path(str(value["path"])).name,
                    "path": str(value["path"]),
                    "lines": _fmt(value.get("lines")),
                    "bytes": _fmt(value.get("bytes")),
                    "sha": str(value.get("sha256", ""))[:12],
                }
            )
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for k, v in enumerate(value):
                visit(f"{role} {k + 1}" if len(value) > 1 else role, v)
        elif isinstance(value, dict) and any(isinstance(v, dict | list) for v in value.values()):
            for k, v in value.items():
                visit(f"{role}.{k}", v)
        else:
            text = _fmt(value)
            out.append({"role": role, "value": text if len(text) < 300 else text[:300] + "…"})

    for key, value in ins.items():
        visit(key, value)
    return out


def run_title(run: dict[str, Any], human_name: str = "human") -> str:
    """What a run is, in words, for its section's title and the menu.

    Examples
    --------
    >>> run_title({"kind": "correlate", "settings": {"level": "segment,system"}}, "MQM")
    'correlation with MQM, segment and system level'
    >>> run_title({"kind": "orange", "settings": {"oracle": "leave-one-out"},
    ...            "inputs": {"candidates": {"kind": "nbest"}}})
    'ORANGE of n-best lists, leave-one-out'
    """
    kind = run.get("kind", "")
    settings = run.get("settings") or {}
    if kind == "correlate":
        levels = [x for x in str(settings.get("level", "segment")).split(",") if x]
        return f"correlation with {human_name}, {' and '.join(levels)} level"
    if kind == "orange":
        lists = ((run.get("inputs") or {}).get("candidates") or {}).get("kind")
        what = {"nbest": "n-best lists", "systems": "system outputs"}.get(lists, "candidates")
        return f"ORANGE of {what}, {settings.get('oracle', 'leave-one-out')}"
    titles = {
        "audit": "audit of ORANGE's premise",
        "rank": "systems ranked, every pair tested",
        "analyze": "where systems differ (compare-mt's analyses)",
    }
    return titles.get(kind, kind)


def build_report(
    runs: Sequence[tuple[dict[str, Any], Path | None]],
    *,
    title: str = "mtpalette report",
    per_segment: int = ERRORS_PER_SEGMENT,
    labels: Sequence[str] | None = None,
) -> str:
    """The report's HTML for ``(run, run_path)`` pairs; ``labels`` name each run's data set
    (default: :func:`dataset_label`)."""
    from importlib import resources

    import jinja2

    from mtpalette._version import __version__

    if labels is not None and len(labels) != len(runs):
        raise UserInputError(f"{len(labels)} label(s) for {len(runs)} run file(s)")
    sections = []
    by_dataset: dict[str, list[dict[str, Any]]] = {}
    for k, (run, path) in enumerate(runs):
        kind = run.get("kind", "")
        label = labels[k] if labels is not None else dataset_label(run, path)
        ins = run.get("inputs") or {}
        human_name = HUMAN_NAMES.get(str(ins.get("format", "")).lower(), "human")
        settings = run.get("settings") or {}
        section: dict[str, Any] = {
            "id": f"run{k + 1}",
            "kind": kind,
            "title": run_title(run, human_name),
            "dataset": label,
            "path": str(path) if path else "",
            "run": run,
            "command": " ".join(run.get("command") or []),
            "settings": [(key, _fmt(v)) for key, v in settings.items()],
            "settings_json": json.dumps(settings, indent=1),
            "inputs": input_rows(ins),
            "inputs_json": json.dumps(ins, indent=1),
            "seeds": [(key, _fmt(v)) for key, v in (run.get("seeds") or {}).items()],
            "seeds_json": json.dumps(run.get("seeds", {})),
            "signatures": signature_rows(run.get("signatures") or {}),
            "signatures_json": json.dumps(run.get("signatures", {}), indent=1),
            "orange": None,
            "correlation": None,
            "audit": None,
            "rank": None,
            "analyze": None,
            "results_json": None,
        }
        if kind == "orange":
            section["orange"] = _orange_section(run, path, per_segment)
        elif kind == "correlate":
            section["correlation"] = _correlation_section(run, human_name)
            by_dataset.setdefault(label, []).append(run)
            section["human_name"] = human_name
        elif kind == "audit":
            section["audit"] = _audit_section(run)
        elif kind == "rank":
            from mtpalette.reporting.rank_section import rank_section

            section["rank"] = rank_section(run)
        elif kind == "analyze":
            from mtpalette.reporting.analyze_section import analyze_section

            section["analyze"] = analyze_section(run)
        else:
            section["results_json"] = json.dumps(run.get("results", {}), indent=1)[:200_000]
        sections.append(section)
    systems = []
    for label, group in by_dataset.items():
        fmt = str((group[0].get("inputs") or {}).get("format", "")).lower()
        table = systems_table(group, human_name=HUMAN_NAMES.get(fmt, "human"))
        if table is not None:
            systems.append({"dataset": label, **table})
    env = jinja2.Environment(autoescape=True)
    env.filters["pct"] = lambda x, d=2: "-" if x is None else f"{100 * x:.{d}f}%"
    env.filters["num"] = lambda x, d=4: "-" if x is None or x != x else f"{x:.{d}f}"
    env.filters["score"] = _score_text
    env.filters["json_script"] = lambda obj: _json_script(obj)
    source = (resources.files("mtpalette.reporting") / "templates" / TEMPLATE).read_text("utf-8")
    template = env.from_string(source)
    return template.render(
        title=title,
        sections=sections,
        systems=systems,
        summary=summary_table(sections),
        version=__version__,
    )


def _score_text(x: Any) -> str:
    """A metric or human score with 4 significant digits after the point for small values.

    Examples
    --------
    >>> _score_text(51.12780679), _score_text(0.38637278), _score_text(-2.40529), _score_text(None)
    ('51.13', '0.3864', '-2.405', '-')
    """
    if x is None or x != x:
        return "-"
    a = abs(x)
    return f"{x:.2f}" if a >= 10 else (f"{x:.3f}" if a >= 1 else f"{x:.4f}")


def _json_script(obj: Any) -> Any:
    """JSON safe inside ``<script type="application/json">`` (no ``</`` can close it)."""
    from markupsafe import Markup

    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return Markup(text)


def write_report(
    run_paths: Sequence[str | Path],
    output: str | Path,
    *,
    title: str = "mtpalette report",
    labels: Sequence[str] | None = None,
) -> Path:
    """Read run files and write the report atomically; returns its path."""
    if not run_paths:
        raise UserInputError("give at least one run file")
    return write_runs(
        [(load_run(p), Path(p)) for p in run_paths], output, title=title, labels=labels
    )


def write_runs(
    runs: Sequence[tuple[dict[str, Any], Path | None]],
    output: str | Path,
    *,
    title: str = "mtpalette report",
    labels: Sequence[str] | None = None,
) -> Path:
    """Write the report of ``(run, run_path)`` pairs (run files read, or runs made in memory
    by :func:`mtpalette.api.report_run.report`) atomically; returns its path."""
    text = build_report(runs, title=title, labels=labels)
    out = Path(output)
    with atomic_writer(out) as fh:
        fh.write(text)
    return out
