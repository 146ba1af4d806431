"""Readers of the span formats written as JSON: WMT26 metrics-task predictions, Pearmut
annotation logs (WMT26's human evaluation), the WMT25 human-evaluation JSONL; and the
project's generic JSONL and TSV, with their writers (a round trip gives the same
:class:`~mtpalette.io.spans.SpanSet`). Every :class:`~mtpalette.errors.UserInputError` names
the file and the line (a whole JSON document: the file and the entry).

References
----------
Ammonsh/WMT26-QE-baselines ``README.md`` (the WMT26 prediction JSONL, ``task1_pred``);
wmt-conference/wmt26-general-mt ``humeval/02-analyze_results.py`` (what the organisers leave
out of Pearmut's log); zouharvi/pearmut ``server/results_export.py`` and its example outputs
(the log's entries); wmt-conference/wmt25-general-mt ``humeval/04-collect_humeval.py`` (the
WMT25 human-evaluation JSONL).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import loads, read_json
from mtpalette.io.plain import read_lines
from mtpalette.io.spans import (
    SIDES,
    Span,
    SpanRow,
    SpanSet,
    normalise_severity,
    omission,
    span_set,
)
from mtpalette.io.spans_formats import appraise_spans, check_row_spans
from mtpalette.io.tabular import header_columns


def _json_lines(path: str | Path) -> Iterator[tuple[int, Any]]:
    name = str(path)
    for k, text in enumerate(read_lines(path), start=1):
        if text.strip():
            yield k, loads(text, path=name, line=k)


def _object(obj: Any, keys: tuple[str, ...], what: str, path: str, line: int | None) -> dict:
    if not isinstance(obj, dict) or not set(keys) <= set(obj):
        raise UserInputError(
            f"expected {what} with {', '.join(repr(k) for k in keys)}", path=path, line=line
        )
    return obj


#: the parts of a WMT26 metrics-task ``item_id`` (the baselines' README)
METRICS_ID = ("set", "src", "tgt", "domain", "doc", "segment")
#: the parts of a WMT26 general-MT item id (``doc_id`` of ``wmt26-genmt.jsonl``, then the
#: paragraph: the ids Pearmut shows)
GENMT_ID = ("set", "domain", "src", "tgt", "doc", "segment")


def split_item_id(
    item_id: str, order: tuple[str, ...] = METRICS_ID, sep: str = "_###_"
) -> dict[str, Any]:
    """The language pair, domain, document and segment of a WMT26 id: six parts joined by
    ``_###_`` in ``order`` (:data:`METRICS_ID`: ``SET_###_SRC_###_TGT_###_DOMAIN_###_DOC_###_
    SEG``; :data:`GENMT_ID`: ``SET_###_DOMAIN_###_SRC_###_TGT_###_DOC_###_SEG``). Another
    number of parts: the whole id is the document, the segment None.

    Examples
    --------
    >>> split_item_id("official_###_eng_Latn_###_deu_Latn_###_social_###_116_###_0")
    {'lp': 'eng_Latn-deu_Latn', 'domain': 'social', 'doc': '116', 'segment': 0}
    >>> split_item_id("WMT26_###_news_###_eng_Latn_###_isl_Latn_###_bt.37_###_2", GENMT_ID)
    {'lp': 'eng_Latn-isl_Latn', 'domain': 'news', 'doc': 'bt.37', 'segment': 2}
    >>> split_item_id("x-1")
    {'lp': None, 'domain': None, 'doc': 'x-1', 'segment': None}
    """
    parts = item_id.split(sep)
    if len(parts) != len(order):
        return {"lp": None, "domain": None, "doc": item_id, "segment": None}
    p = dict(zip(order, parts, strict=True))
    seg = p["segment"]
    return {
        "lp": f"{p['src']}-{p['tgt']}",
        "domain": p["domain"],
        "doc": p["doc"],
        "segment": int(seg) if seg.isdigit() else seg,
    }


# ----------------------------------------------------------------------------------------
# WMT26 predictions
# ----------------------------------------------------------------------------------------
def read_wmt26_jsonl(path: str | Path, *, clip: bool = False) -> SpanSet:
    """WMT26 metrics-task predictions: one JSON object per segment, ``{"item_id": ...,
    "task1_pred": {SYSTEM: {"errors": [{"start", "end", "severity", "category"}],
    "omission": null|GRADE, "instruction_fault": null}}, ["task2_pred": {SYSTEM: score}]}``.

    Offsets: ``[start, end)`` into the system's hypothesis (the file has no text). An
    ``omission`` grade becomes an omission span. A non-null ``instruction_fault`` is refused:
    its meaning is not published yet and no span can hold it. The format is known from the
    WMT26 baselines' README (the organisers' page was not reachable): see ``docs/spans.md``.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "pred.jsonl")
    >>> pred = {"errors": [{"start": 1, "end": 4, "severity": "major", "category": "acc"}],
    ...         "omission": "minor", "instruction_fault": None}
    >>> line = {"item_id": "official_###_eng_Latn_###_deu_Latn_###_news_###_d7_###_2",
    ...         "task1_pred": {"SysA": pred}, "task2_pred": {"SysA": 60.0}}
    >>> _ = open(p, "w").write(json.dumps(line) + "\\n")
    >>> r = read_wmt26_jsonl(p).rows[0]
    >>> r.key(), r.score, [(s.start, s.end, s.severity) for s in r.spans]
    (('eng_Latn-deu_Latn', 'SysA', 'd7', 2), 60.0, [(1, 4, 'major'), (0, 0, 'omission')])
    """
    name = str(path)
    rows = []
    for k, obj in _json_lines(path):
        obj = _object(obj, ("item_id", "task1_pred"), "a prediction", name, k)
        where = split_item_id(str(obj["item_id"]))
        scores = obj.get("task2_pred") or {}
        if not isinstance(obj["task1_pred"], dict):
            raise UserInputError('"task1_pred": expected {SYSTEM: {...}}', path=name, line=k)
        for system, pred in obj["task1_pred"].items():
            pred = _object(pred, ("errors",), f"system {system!r}'s prediction", name, k)
            if pred.get("instruction_fault") is not None:
                raise UserInputError(
                    f"system {system!r}: an instruction_fault ({pred['instruction_fault']!r}) "
                    "cannot be read as a span yet; its scoring is not published",
                    path=name,
                    line=k,
                )
            spans = []
            for e in pred["errors"] or []:
                e = _object(e, ("start", "end", "severity"), "an error", name, k)
                sev = normalise_severity(e["severity"], path=name, line=k, clip=clip)
                spans.append(Span(_int(e["start"], name, k), _int(e["end"], name, k), sev,
                                  e.get("category")))  # fmt: skip
            if pred.get("omission") is not None:
                grade = normalise_severity(pred["omission"], path=name, line=k, clip=clip)
                spans.append(omission(grade))
            score = scores.get(system) if isinstance(scores, dict) else None
            row = SpanRow(where["lp"], system, where["doc"], where["segment"], None,
                          check_row_spans(spans, None, clip=clip, path=name, line=k),
                          _float(score, name, k), None, where["domain"])  # fmt: skip
            rows.append((row, k))
    return span_set(rows, name, "wmt26-jsonl")


def _int(x: Any, path: str, line: int | None) -> int:
    if isinstance(x, bool) or not isinstance(x, int):
        raise UserInputError(f"span offset {x!r}: expected an integer", path=path, line=line)
    return x


def _float(x: Any, path: str, line: int | None) -> float | None:
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
        raise UserInputError(f"score {x!r}: expected a finite number", path=path, line=line)
    return float(x)


# ----------------------------------------------------------------------------------------
# Pearmut logs
# ----------------------------------------------------------------------------------------
def kept_pearmut_entries(entries: list[Any]) -> list[tuple[int, Any]]:
    """The entries the WMT26 organisers keep (``02-analyze_results.py``), with their index:
    a ``__RESET__`` annotation drops every entry before it; attention checks (an item
    without ``item_id`` or with one starting ``attention_check_``) and tutorial items
    (``_#_tutorial_#_`` in the id) are left out.

    Examples
    --------
    >>> es = [{"annotation": [{}], "item": [{"item_id": "a"}]}, {"annotation": "__RESET__"},
    ...       {"annotation": [{}], "item": [{"item_id": "attention_check_1"}]},
    ...       {"annotation": [{}], "item": [{"item_id": "b"}]}]
    >>> [k for k, _ in kept_pearmut_entries(es)]
    [3]
    """
    kept: list[tuple[int, Any]] = []
    for k, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        if e.get("annotation") == "__RESET__":
            kept = []
            continue
        items = e.get("item")
        first = items[0] if isinstance(items, list) and items else items
        if not isinstance(first, dict) or "item_id" not in first:
            continue
        item_id = str(first["item_id"])
        if item_id.startswith("attention_check_") or "_#_tutorial_#_" in item_id:
            continue
        kept.append((k, e))
    return kept


def read_pearmut(path: str | Path, *, clip: bool = False) -> SpanSet:
    """Pearmut annotation logs: a JSON Lines log of one campaign, or the collected
    ``annotations.json`` (``{LANGS: [entry, ...]}``) of WMT26. Each entry has ``user_id``,
    ``item`` (a list of items with ``item_id`` and ``tgt`` = ``{SYSTEM: text}``) and
    ``annotation`` (a list, one per item, of ``{SYSTEM: {"score", "error_spans"}}``; a single
    item and object in older logs), or ``"__RESET__"``.

    Entries are kept as the organisers keep them (:func:`kept_pearmut_entries`). Offsets:
    ``end_i`` is inclusive (:func:`~mtpalette.io.spans_formats.appraise_spans`); the spans
    are checked against ``tgt``. The key: (the ``LANGS`` key, or the language pair of a
    general-MT id (:data:`GENMT_ID`); system; the ``item_id`` up to its last ``_###_``, as
    the organisers take the document; the number after it).

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "log.jsonl")
    >>> ann = {"S": {"score": 70, "error_spans": [{"start_i": 0, "end_i": 2,
    ...                                            "severity": "major", "category": None}]}}
    >>> e = {"user_id": "u", "item": [{"item_id": "d_###_1", "tgt": {"S": "Hola mundo"}}],
    ...      "annotation": [ann]}
    >>> _ = open(p, "w").write(json.dumps(e) + "\\n")
    >>> r = read_pearmut(p).rows[0]
    >>> r.key(), r.score, r.marked()
    ((None, 'S', 'd', 1), 70.0, ['Hol'])
    """
    name = str(path)
    if str(path).removesuffix(".gz").endswith(".jsonl"):
        logs = {None: [(k, e) for k, e in _json_lines(path)]}
    else:
        data = read_json(path, "a Pearmut annotations.json")
        if not isinstance(data, dict):
            raise UserInputError("expected {LANGS: [entry, ...]}", path=name)
        logs = {lp: [(None, e) for e in v] for lp, v in data.items() if isinstance(v, list)}
    rows = []
    for lp, located in logs.items():
        for k, entry in kept_pearmut_entries([e for _, e in located]):
            line = located[k][0]
            rows += _pearmut_rows(lp, entry, clip=clip, path=name, line=line, index=k)
    return span_set(rows, name, "pearmut")


def _pearmut_rows(
    lp: str | None, entry: dict, *, clip: bool, path: str, line: int | None, index: int
) -> list[tuple[SpanRow, int | None]]:
    items, anns = entry["item"], entry.get("annotation")
    if isinstance(items, dict):
        items, anns = [items], [anns]
    if not isinstance(anns, list) or len(anns) != len(items):
        raise UserInputError(
            f"entry {index + 1}: expected one annotation per item", path=path, line=line
        )
    out = []
    for item, ann in zip(items, anns, strict=True):
        if ann is None:  # a skippable item left unannotated
            continue
        if not isinstance(item, dict) or not isinstance(ann, dict):
            raise UserInputError(
                f"entry {index + 1}: expected items and annotations as objects",
                path=path,
                line=line,
            )
        item_id = str(item.get("item_id"))
        doc, _, seg = item_id.rpartition("_###_")
        where = split_item_id(item_id, GENMT_ID)
        tgt = item.get("tgt") if isinstance(item.get("tgt"), dict) else {}
        for system, a in ann.items():
            a = _object(a, ("error_spans",), f"entry {index + 1} system {system!r}", path, line)
            text = tgt.get(system)
            spans = appraise_spans(a["error_spans"], clip=clip, path=path, line=line)
            row = SpanRow(
                lp or where["lp"], system, doc or item_id,
                (int(seg) if seg.isdigit() else seg) if doc else None, text,
                check_row_spans(spans, text, clip=clip, path=path, line=line),
                _float(a.get("score"), path, line), entry.get("user_id"), where["domain"],
            )  # fmt: skip
            out.append((row, line))
    return out


# ----------------------------------------------------------------------------------------
# WMT25 human evaluation JSONL
# ----------------------------------------------------------------------------------------
def read_wmt25_humeval(path: str | Path, *, clip: bool = False) -> SpanSet:
    """The WMT25 human-evaluation JSONL (``wmt25-genmt-humeval.jsonl``): one segment per
    line, ``{"doc_id": "LANGS_#_DOMAIN_#_DOC_#_SEG", "src_text", "tgt_text": {SYSTEM: text},
    "scores": {SYSTEM: {"humanN": score, "errorsN": [spans], "annotatorN": id}}}``, N the
    wave (1 or 2): one row per system and wave.

    Offsets: Appraise's ``start_i``/``end_i`` with an inclusive end
    (:func:`~mtpalette.io.spans_formats.appraise_spans`), checked against ``tgt_text``.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "h.jsonl")
    >>> seg = {"doc_id": "en-cs_CZ_#_news_#_d1_#_3", "src_text": "Hi", "tgt_text": {"S": "Ahoj"},
    ...        "scores": {"S": {"human1": 80.0, "annotator1": "a",
    ...                         "errors1": [{"start_i": 0, "end_i": 1, "severity": "minor"}]}}}
    >>> _ = open(p, "w").write(json.dumps(seg) + "\\n")
    >>> r = read_wmt25_humeval(p).rows[0]
    >>> r.key(), r.domain, r.score, r.annotator, r.marked()
    (('en-cs_CZ', 'S', 'en-cs_CZ_#_news_#_d1', 3), 'news', 80.0, 'a', ['Ah'])
    """
    name = str(path)
    rows = []
    for k, obj in _json_lines(path):
        obj = _object(obj, ("doc_id", "tgt_text", "scores"), "a segment", name, k)
        parts = str(obj["doc_id"]).split("_#_")
        if len(parts) != 4:
            raise UserInputError(
                f"doc_id {obj['doc_id']!r}: expected LANGS_#_DOMAIN_#_DOC_#_SEGMENT",
                path=name,
                line=k,
            )
        doc = str(obj["doc_id"]).rpartition("_#_")[0]
        if not isinstance(obj["scores"], dict) or not isinstance(obj["tgt_text"], dict):
            raise UserInputError(
                '"scores" and "tgt_text": expected objects by system', path=name, line=k
            )
        for system, waves in obj["scores"].items():
            text = obj["tgt_text"].get(system)
            if not isinstance(waves, dict):
                raise UserInputError(f"system {system!r}: expected an object", path=name, line=k)
            for n in sorted(key[5:] for key in waves if key.startswith("human")):
                spans = appraise_spans(waves.get(f"errors{n}", []), clip=clip, path=name, line=k)
                row = SpanRow(
                    parts[0], system, doc, int(parts[3]) if parts[3].isdigit() else parts[3],
                    text, check_row_spans(spans, text, clip=clip, path=name, line=k),
                    _float(waves[f"human{n}"], name, k), waves.get(f"annotator{n}"), parts[1],
                )  # fmt: skip
                rows.append((row, k))
    return span_set(rows, name, "wmt25-humeval")


# ----------------------------------------------------------------------------------------
# generic JSONL and TSV
# ----------------------------------------------------------------------------------------
#: the generic TSV's columns (one line per span); required ones in REQUIRED_TSV
GENERIC_TSV_COLUMNS = (
    "lp", "system", "doc", "segment", "annotator", "domain", "score", "error_free",
    "start", "end", "severity", "category", "side", "confidence", "text",
)  # fmt: skip
REQUIRED_TSV = ("system", "segment", "start", "end", "severity")
_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r", "0": ""}


def write_generic_jsonl(spans: SpanSet, fh: TextIO) -> int:
    """Write ``spans`` as generic JSONL: one object per row, ``{"lp", "system", "doc",
    "segment", "annotator", "domain", "score", "error_free", "text", "spans": [{"start",
    "end", "severity", "category", "side", "confidence"}]}``; returns the rows written.

    Examples
    --------
    >>> import io
    >>> ss = SpanSet((SpanRow("en-de", "A", None, 0, "ab", (Span(0, 1, "minor"),)),), "x", "y")
    >>> buf = io.StringIO(); write_generic_jsonl(ss, buf)
    1
    >>> buf.getvalue()[:60]
    '{"lp": "en-de", "system": "A", "doc": null, "segment": 0, "a'
    """
    import json

    for r in spans:
        obj = {
            "lp": r.lp, "system": r.system, "doc": r.doc, "segment": r.segment,
            "annotator": r.annotator, "domain": r.domain, "score": r.score,
            "error_free": r.error_free, "text": r.text,
            "spans": [s.to_dict() for s in r.spans],
        }  # fmt: skip
        fh.write(json.dumps(obj, ensure_ascii=False) + "\n")
    return len(spans)


def read_generic_jsonl(path: str | Path, *, clip: bool = False) -> SpanSet:
    """The generic JSONL of :func:`write_generic_jsonl` (``system``, ``segment`` and
    ``spans`` required). Offsets: ``[start, end)`` into ``text``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "s.jsonl")
    >>> _ = open(p, "w").write('{"system": "A", "segment": 1, "text": "ab", '
    ...                        '"spans": [{"start": 0, "end": 3, "severity": "minor"}]}\\n')
    >>> read_generic_jsonl(p, clip=True).rows[0].spans[0].end
    2
    """
    name = str(path)
    rows = []
    for k, obj in _json_lines(path):
        obj = _object(obj, ("system", "segment", "spans"), "a row", name, k)
        _check_key_types(obj, name, k)
        text = obj.get("text")
        if not isinstance(obj["spans"], list):
            raise UserInputError('"spans": expected a list', path=name, line=k)
        spans = [_generic_span(s, clip=clip, path=name, line=k) for s in obj["spans"]]
        ef = obj.get("error_free")
        if ef is not None and not isinstance(ef, bool):
            raise UserInputError(
                f"error_free {ef!r}: expected true, false or null", path=name, line=k
            )
        row = SpanRow(
            obj.get("lp"), str(obj["system"]), obj.get("doc"), obj["segment"], text,
            check_row_spans(spans, text, clip=clip, path=name, line=k),
            _float(obj.get("score"), name, k), obj.get("annotator"), obj.get("domain"), ef,
        )  # fmt: skip
        rows.append((row, k))
    return span_set(rows, name, "generic-jsonl")


def _check_key_types(obj: dict, path: str, line: int) -> None:
    for c in ("lp", "system", "doc", "annotator", "domain", "text"):
        if obj.get(c) is not None and not isinstance(obj[c], str):
            raise UserInputError(f"{c} {obj[c]!r}: expected a string or null", path=path, line=line)
    seg = obj["segment"]
    if isinstance(seg, bool) or not isinstance(seg, int | str | None):
        raise UserInputError(
            f"segment {seg!r}: expected an integer, a string or null", path=path, line=line
        )


def _generic_span(s: Any, *, clip: bool, path: str, line: int) -> Span:
    s = _object(s, ("start", "end", "severity"), "a span", path, line)
    side = s.get("side") or "target"
    if side not in SIDES:
        raise UserInputError(
            f"side {side!r}: expected one of {', '.join(SIDES)}", path=path, line=line
        )
    return Span(_int(s["start"], path, line), _int(s["end"], path, line),
                normalise_severity(s["severity"], path=path, line=line, clip=clip),
                s.get("category"), side, _float(s.get("confidence"), path, line))  # fmt: skip


def _cell(x: Any) -> str:
    if x is None:
        return ""
    if x == "":  # an empty string (an empty translation), not None
        return "\\0"
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return repr(x)
    return "".join(_ESCAPES.get(c, c) for c in str(x))


def _uncell(text: str) -> str:
    out, it = [], iter(text)
    for c in it:
        out.append(_UNESCAPES.get(next(it, ""), "\\") if c == "\\" else c)
    return "".join(out)


def write_generic_tsv(spans: SpanSet, fh: TextIO) -> int:
    """Write ``spans`` as the generic TSV: a header of :data:`GENERIC_TSV_COLUMNS`, then one
    line per span (a row without spans: one line with empty ``start end severity``). Empty
    cells are None and ``\\0`` an empty string; a backslash, tab, newline or carriage return
    in a cell is written ``\\\\``, ``\\t``, ``\\n``, ``\\r``; returns the lines written after
    the header.

    Examples
    --------
    >>> import io
    >>> ss = SpanSet((SpanRow("en-de", "A", None, 0, "a\\tb", (Span(0, 1, "minor"),)),), "x", "y")
    >>> buf = io.StringIO(); write_generic_tsv(ss, buf)
    1
    >>> buf.getvalue().splitlines()[1]
    'en-de\\tA\\t\\t0\\t\\t\\t\\t\\t0\\t1\\tminor\\t\\ttarget\\t\\ta\\\\tb'
    """
    fh.write("\t".join(GENERIC_TSV_COLUMNS) + "\n")
    n = 0
    for rec in spans.records():
        fh.write("\t".join(_cell(rec[c]) for c in GENERIC_TSV_COLUMNS) + "\n")
        n += 1
    return n


def read_generic_tsv(path: str | Path, *, clip: bool = False) -> SpanSet:
    """The generic TSV of :func:`write_generic_tsv`: a header naming at least ``system
    segment start end severity`` (any of :data:`GENERIC_TSV_COLUMNS` in any order), one line
    per span; the lines of one (lp, system, doc, segment, annotator) make one row, which
    must not be split by other rows' lines. A segment of digits is read as an integer.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "s.tsv")
    >>> _ = open(p, "w").write("system\\tsegment\\tstart\\tend\\tseverity\\n"
    ...                        "A\\t0\\t0\\t1\\tMajor\\nA\\t0\\t2\\t2\\tminor\\nA\\t1\\t\\t\\t\\n")
    >>> [(r.segment, [(s.start, s.end, s.severity) for s in r.spans])
    ...  for r in read_generic_tsv(p)]
    [(0, [(0, 1, 'major'), (2, 2, 'minor')]), (1, [])]
    """
    name = str(path)
    lines = read_lines(path)
    header = lines[0].split("\t")
    col = header_columns(header, REQUIRED_TSV, name, "a generic span TSV",
                         f" (expected {' '.join(REQUIRED_TSV)} at least)")  # fmt: skip
    groups: dict[tuple, dict[str, Any]] = {}
    last = None
    for k, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        f = text.split("\t")
        if len(f) != len(header):
            raise UserInputError(
                f"expected {len(header)} tab-separated fields, found {len(f)}", path=name, line=k
            )
        cell = {c: (_uncell(f[col[c]]) if f[col[c]] != "" else None) if c in col else None
                for c in GENERIC_TSV_COLUMNS}  # fmt: skip
        seg = cell["segment"]
        key = (cell["lp"], cell["system"], cell["doc"], int(seg) if seg and seg.isdigit() else seg,
               cell["annotator"])  # fmt: skip
        if key in groups and key != last:
            raise UserInputError(
                f"the spans of this segment continue those of line {groups[key]['line']} after "
                "other segments' lines; keep each segment's lines together",
                path=name,
                line=k,
            )
        g = groups.setdefault(key, {"line": k, "cell": cell, "spans": []})
        last = key
        for c in ("text", "score", "domain", "error_free"):
            if cell[c] != g["cell"][c]:
                raise UserInputError(
                    f"{c} differs from that of line {g['line']} (same segment)", path=name, line=k
                )
        if (cell["start"], cell["end"], cell["severity"]) != (None, None, None):
            g["spans"].append(_tsv_span(cell, clip=clip, path=name, line=k))
    rows = []
    for (lp, system, doc, seg, annotator), g in groups.items():
        c, k = g["cell"], g["line"]
        if system is None:
            raise UserInputError("empty system", path=name, line=k)
        spans = check_row_spans(g["spans"], c["text"], clip=clip, path=name, line=k)
        row = SpanRow(lp, system, doc, seg, c["text"], spans,
                      _tsv_number(c["score"], "score", name, k), annotator, c["domain"],
                      _tsv_bool(c["error_free"], name, k))  # fmt: skip
        rows.append((row, k))
    return span_set(rows, name, "generic-tsv")


def _tsv_span(cell: dict[str, Any], *, clip: bool, path: str, line: int) -> Span:
    try:
        start, end = int(cell["start"]), int(cell["end"])
    except (TypeError, ValueError):
        raise UserInputError(
            f"start {cell['start']!r} and end {cell['end']!r}: expected integers",
            path=path,
            line=line,
        ) from None
    side = cell["side"] or "target"
    if side not in SIDES:
        raise UserInputError(
            f"side {side!r}: expected one of {', '.join(SIDES)}", path=path, line=line
        )
    return Span(start, end,
                normalise_severity(cell["severity"] or "", path=path, line=line, clip=clip),
                cell["category"], side,
                _tsv_number(cell["confidence"], "confidence", path, line))  # fmt: skip


def _tsv_number(text: str | None, what: str, path: str, line: int) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not a number", path=path, line=line) from None
    if not math.isfinite(value):
        raise UserInputError(f"{what} {text!r}: expected a finite number", path=path, line=line)
    return value


def _tsv_bool(text: str | None, path: str, line: int) -> bool | None:
    if text is None:
        return None
    if text.lower() in ("true", "1"):
        return True
    if text.lower() in ("false", "0"):
        return False
    raise UserInputError(f"error_free {text!r}: expected true or false", path=path, line=line)
