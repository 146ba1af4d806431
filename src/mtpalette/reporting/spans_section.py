"""The report's section of a span run (``mtpalette spans --json``): per protocol, every
annotator's precision, recall and F1 with their bootstrap intervals, rank range and cluster
(baselines and the human ceiling marked), and the span viewer: for the segments where the
annotators disagree most, the text once per annotation with its spans highlighted by severity
(a character covered by several spans shows the most severe), insertion points as a caret and
omissions listed."""

from __future__ import annotations

from typing import Any

#: which severity a character covered by several spans shows (the highest)
SEVERITY_ORDER = {"undecided": 0, "minor": 1, "major": 2, "critical": 3}


def pieces(text: str, spans: list[list[Any]]) -> list[dict[str, Any]]:
    """``text`` cut where the shown severity changes: ``{"t": text, "sev": name or None,
    "ins": False}``, with ``{"t": "", "sev": severity, "ins": True}`` at each insertion point.

    Examples
    --------
    >>> [(p["t"], p["sev"]) for p in pieces("abcdef", [[1, 4, "minor"], [2, 3, "major"]])]
    [('a', None), ('b', 'minor'), ('c', 'major'), ('d', 'minor'), ('ef', None)]
    >>> [(p["t"], p["ins"]) for p in pieces("ab", [[1, 1, "major"]])]
    [('a', False), ('', True), ('b', False)]
    """
    level = [-1] * len(text)
    inserts: dict[int, str] = {}
    for start, end, sev in spans:
        if sev == "omission":
            continue
        if start == end:
            inserts.setdefault(start, sev)
        for i in range(start, min(end, len(text))):
            level[i] = max(level[i], SEVERITY_ORDER.get(sev, 0))
    names = {v: k for k, v in SEVERITY_ORDER.items()}
    out: list[dict[str, Any]] = []
    for i in range(len(text) + 1):
        if i in inserts:
            out.append({"t": "", "sev": inserts[i], "ins": True})
        if i == len(text):
            break
        sev = names.get(level[i])
        if out and not out[-1]["ins"] and out[-1]["sev"] == sev:
            out[-1]["t"] += text[i]
        else:
            out.append({"t": text[i], "sev": sev, "ins": False})
    return out


def _line(name: str, text: str, spans: list[list[Any]], f1: float | None) -> dict[str, Any]:
    omitted = [s[2] for s in spans if s[2] == "omission"]
    return {"name": name, "f1": f1, "pieces": pieces(text, spans), "omissions": len(omitted)}


def spans_section(run: dict[str, Any]) -> dict[str, Any]:
    """The tables and the viewer of a span run's results."""
    res = run.get("results", {})
    tables = []
    for proto in res.get("protocols", []):
        rows = [r for r in res.get("rows", []) if r["protocol"] == proto
                and r.get("system") is None and r.get("domain") is None]  # fmt: skip
        pairs = [p for p in res.get("pairs", []) if p["protocol"] == proto]
        tables.append({"protocol": proto, "rows": rows, "n_pairs": len(pairs),
                       "n_significant": sum(bool(p["significant"]) for p in pairs),
                       "signature": (run.get("signatures") or {}).get(proto, "")})  # fmt: skip
    viewer = []
    for v in res.get("viewer", []):
        lines = [_line("gold", v["text"], v["gold"], None)]
        lines += [_line(n, v["text"], s, v["f1"].get(n)) for n, s in v["annotators"].items()]
        viewer.append({"key": " / ".join("-" if x is None else str(x) for x in v["key"]),
                       "spread": v["spread"], "lines": lines})  # fmt: skip
    return {"tables": tables, "viewer": viewer, "notes": res.get("notes") or [],
            "average": res.get("average"), "n_resamples": res.get("n_resamples"),
            "seed": res.get("seed"), "first": (res.get("protocols") or [""])[0]}  # fmt: skip
