"""Span sets and files built from the inputs stored in ``tests/data/spans/golden_*.json``
(project-written texts and spans; the outputs there are the organisers' scorers'), for the
tests of ``mtpalette spans`` and its API."""

from __future__ import annotations

import json
from pathlib import Path

from mtpalette.io.spans import Span, SpanRow, SpanSet
from mtpalette.io.spans_read import write_spans

DATA = Path(__file__).resolve().parent / "data" / "spans"


def golden(name: str) -> dict:
    """``golden_wmt25.json`` or ``golden_wmt23_qe.json`` as stored."""
    return json.loads((DATA / f"golden_{name}.json").read_text(encoding="utf-8"))


def span_set(inputs: dict, spans: list[list], path: str = "mem", *, qe_ids: bool = False
             ) -> SpanSet:  # fmt: skip
    """One annotation of the golden segments; ``qe_ids``: the segment is its QE number."""
    numbers = inputs["qe_ids"] if qe_ids else [s["segment"] for s in inputs["segments"]]
    rows = tuple(
        SpanRow(s["lp"], s["system"], s["doc"], n, s["text"],
                tuple(Span(a, b, sev) for a, b, sev in sp), domain=s["domain"])
        for s, sp, n in zip(inputs["segments"], spans, numbers, strict=True)
    )  # fmt: skip
    return SpanSet(rows, path, "generic-jsonl")


def write_files(inputs: dict, folder: Path, *, qe_ids: bool = False) -> dict[str, Path]:
    """The gold and every annotator (baselines aside) as generic JSONL files in ``folder``."""
    out = {"gold": folder / "gold.jsonl"}
    write_spans(span_set(inputs, inputs["gold"], qe_ids=qe_ids), out["gold"])
    for name, spans in inputs["annotators"].items():
        if name in ("none", "all"):
            continue
        out[name] = folder / f"{name}.jsonl"
        write_spans(span_set(inputs, spans, qe_ids=qe_ids), out[name])
    return out
