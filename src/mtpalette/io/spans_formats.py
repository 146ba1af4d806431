"""Readers of the span formats written as tables: MTME ``.rating`` files, Google's MQM TSV,
Appraise ESA CSV exports, the WMT25 metrics task-2 TSV, the WMT23/24 QE task-2 files and
COMET's ``--to_json`` output. Each returns a :class:`~mtpalette.io.spans.SpanSet`; every
:class:`~mtpalette.errors.UserInputError` names the file and the line. The offset convention
of each format, and how it becomes ``[start, end)``, is in its reader's docstring and in
``docs/spans.md``.

References
----------
google-research/mt-metrics-eval ``ratings.py`` (``.rating`` files); google/wmt-mqm-human-
evaluation (MQM TSV); wmt-conference/wmt24-news-systems ``humeval/merge_to_jsonl.py`` (the
ESA CSV's columns and the rows the organisers leave out); wmt-conference/wmt25-mteval
``scripts/scoring/task2/scoring_esa.py`` (the WMT25 TSV); WMT-QE-Task/qe-eval-scripts
``wmt23/task2_evaluate.py`` (QE task 2); Unbabel/COMET ``comet/cli/score.py`` and
``comet/models/multitask/unified_metric.py`` (``decode``: xCOMET's spans).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.io.spans import (
    Span,
    SpanRow,
    SpanSet,
    checked_span,
    normalise_severity,
    omission,
    span_set,
)
from mtpalette.io.tabular import header_columns

_MARK = re.compile(r"</?v>")
#: three-letter language codes of Appraise exports -> the two-letter codes WMT's files use
#: (wmt24-news-systems ``merge_to_jsonl.py`` maps the same way); others are kept as written
LANG_3_TO_2 = {
    "eng": "en", "deu": "de", "ces": "cs", "hrv": "hr", "pol": "pl", "rus": "ru", "zho": "zh",
    "jpn": "ja", "spa": "es", "hin": "hi", "isl": "is", "ukr": "uk", "fra": "fr", "ita": "it",
    "kor": "ko", "ara": "ar", "est": "et", "srp": "sr",
}  # fmt: skip


def check_row_spans(
    spans: list[Span],
    text: str | None,
    source: str | None = None,
    *,
    clip: bool,
    path: str,
    line: int | None,
) -> tuple[Span, ...]:
    """Each span checked against its side's text (:func:`~mtpalette.io.spans.checked_span`).

    Examples
    --------
    >>> check_row_spans([Span(0, 2, "minor", side="source")], "a", "abc", clip=False,
    ...                 path="f", line=1)[0].end
    2
    """
    out = []
    for s in spans:
        c = checked_span(s, source if s.side == "source" else text, clip=clip, path=path, line=line)
        if c is not None:
            out.append(c)
    return tuple(out)


# ----------------------------------------------------------------------------------------
# MTME .rating
# ----------------------------------------------------------------------------------------
def read_mtme_rating(path: str | Path, *, clip: bool = False) -> SpanSet:
    """An MTME ``human-scores/LP.NAME.seg.rating`` file: ``SYSTEM<TAB>{"errors": [...]}[<TAB>
    RATER]`` per line, each system's lines in segment order (``None``: not rated, left out).

    Offsets: MTME's ``Error`` has ``start`` and ``end`` = "end+1", already ``[start, end)``;
    ``is_source_error`` spans are ``side="source"``. The segment is the 0-based index among
    the system's lines. When the file sits in an MTME folder, the texts are read from
    ``system-outputs/LP/SYSTEM.txt`` and ``sources/LP.txt`` and every span is checked
    against them; the domain and document from ``documents/LP.docs``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.rating")
    >>> span = '{"errors": [{"start": 0, "end": 4, "severity": "Major", "category": "x"}]}'
    >>> _ = open(p, "w").write(f"A\\t{span}\\tr1\\nA\\tNone\\nA\\t{{\\"errors\\": []}}\\tr2\\n")
    >>> ss = read_mtme_rating(p)
    >>> [(r.lp, r.system, r.segment, r.annotator, len(r.spans)) for r in ss]
    [('en-de', 'A', 0, 'r1', 1), ('en-de', 'A', 2, 'r2', 0)]
    >>> ss.rows[0].spans[0].severity, ss.lines
    ('major', (1, 3))
    """
    from mtpalette.io.mtme_files import parse_human_filename, read_rating_file

    name = str(path)
    lp, human, _ = parse_human_filename(Path(path).name, rating=True)
    table = read_rating_file(path, human)
    lines_of: dict[str, list[int]] = {}
    for k, text in enumerate(read_lines(path, allow_empty=True), start=1):
        lines_of.setdefault(text.strip().split("\t")[0], []).append(k)
    folder = Path(path).resolve().parent.parent
    source = _folder_lines(folder / "sources" / f"{lp}.txt")
    docs = _folder_docs(folder / "documents" / f"{lp}.docs")
    rows: list[tuple[SpanRow, int | None]] = []
    for system, ratings in table.items():
        texts = _folder_lines(folder / "system-outputs" / lp / f"{system}.txt")
        for seg, (rating, line) in enumerate(zip(ratings, lines_of[system], strict=True)):
            if rating is None:
                continue
            text = _nth(texts, seg, name, line, "system output")
            src = _nth(source, seg, name, line, "source")
            spans = []
            for e in rating.errors:
                if e.severity is None and not clip:
                    raise UserInputError(
                        "an error without a severity (or --clip to read it as undecided)",
                        path=name,
                        line=line,
                    )
                sev = normalise_severity(e.severity or "", path=name, line=line, clip=clip)
                side = "source" if e.is_source_error else "target"
                spans.append(Span(e.start, e.end, sev, e.category, side))
            checked = check_row_spans(spans, text, src, clip=clip, path=name, line=line)
            doc, domain = (
                (docs[0][seg], docs[1][seg]) if docs and seg < len(docs[0]) else (None, None)
            )
            rows.append(
                (SpanRow(lp, system, doc, seg, text, checked, None, rating.rater, domain), line)
            )
    return span_set(rows, name, "mtme")


def _folder_lines(p: Path) -> list[str] | None:
    return read_lines(p, allow_empty=True) if p.is_file() else None


def _folder_docs(p: Path) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    from mtpalette.io.mtme_files import read_docs_file

    if not p.is_file():
        return None
    d = read_docs_file(p)
    return d.doc_of, d.domain_of


def _nth(lines: list[str] | None, k: int, path: str, line: int, what: str) -> str | None:
    if lines is None:
        return None
    if k >= len(lines):
        raise UserInputError(
            f"segment {k} has no line in the folder's {what} ({len(lines)} lines)",
            path=path,
            line=line,
        )
    return lines[k]


# ----------------------------------------------------------------------------------------
# MQM TSV
# ----------------------------------------------------------------------------------------
def marked_spans(
    text: str, *, path: str, line: int, clip: bool = False
) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with its ``<v>...</v>`` marks taken out, and the ``[start, end)`` of each mark
    in the text without marks (``<v></v>`` is an insertion point). A mark opened twice, or
    closed without being opened, is refused; so is one left open (two rows of Google's
    WMT21 TED files have one), unless ``clip=True``: it then ends with the text.

    Examples
    --------
    >>> marked_spans("Ich <v>bin</v> da <v></v>.", path="m.tsv", line=2)
    ('Ich bin da .', [(4, 7), (11, 11)])
    >>> marked_spans("Ich <v>bin da", path="m.tsv", line=2)
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: m.tsv:2: a <v> mark is not closed by </v> ...
    >>> marked_spans("Ich <v>bin da", path="m.tsv", line=2, clip=True)
    ('Ich bin da', [(4, 10)])
    """
    plain: list[str] = []
    spans = []
    pos, size, start = 0, 0, None
    for m in _MARK.finditer(text):
        plain.append(text[pos : m.start()])
        size += m.start() - pos
        pos = m.end()
        opening = m.group() == "<v>"
        if opening == (start is not None):
            raise UserInputError(
                f"a {m.group()} mark {'inside another' if opening else 'without its <v>'}",
                path=path,
                line=line,
            )
        if opening:
            start = size
        else:
            spans.append((start, size))
            start = None
    plain.append(text[pos:])
    if start is not None:
        if not clip:
            raise UserInputError(
                "a <v> mark is not closed by </v> (or --clip to end it with the text)",
                path=path,
                line=line,
            )
        spans.append((start, size + len(text) - pos))
    return "".join(plain), spans


def read_mqm_spans(path: str | Path, *, clip: bool = False) -> SpanSet:
    """Google's MQM TSV (``system doc doc_id seg_id rater source target category severity
    [comment]``, one row per error; ``No-error`` rows mark a segment without errors).

    Offsets: each error's span is marked ``<v>...</v>`` in the target (or in the source: a
    source error, ``side="source"``); the offsets are into the text with every mark taken
    out. An error row with no mark at all is an omission. One :class:`SpanRow` per
    (system, doc, seg_id, rater), its line the group's first; the texts of a group's rows
    must agree. The language pair is read from the file name (``..._ende.tsv`` ->
    ``en-de``) when it has one.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "mqm_ted_ende.tsv")
    >>> rows = ["system\\tdoc\\tdoc_id\\tseg_id\\trater\\tsource\\ttarget\\tcategory\\tseverity",
    ...         "A\\ttalk\\t1\\t7\\tr1\\tI am\\tIch <v>bin</v>\\tAccuracy/Mistranslation\\tMajor",
    ...         "A\\ttalk\\t1\\t7\\tr1\\t<v>I</v> am\\tIch bin\\tSource error\\tMinor",
    ...         "A\\ttalk\\t1\\t7\\tr2\\tI am\\tIch bin\\tNo-error\\tNo-error"]
    >>> _ = open(p, "w").write("\\n".join(rows) + "\\n")
    >>> ss = read_mqm_spans(p)
    >>> [(r.lp, r.annotator, [(s.start, s.end, s.severity, s.side) for s in r.spans]) for r in ss]
    [('en-de', 'r1', [(4, 7, 'major', 'target'), (0, 1, 'minor', 'source')]), ('en-de', 'r2', [])]
    """
    name = str(path)
    lines = read_lines(path)
    header = lines[0].split("\t")
    need = ("system", "doc", "seg_id", "rater", "source", "target", "category", "severity")
    col = header_columns([h.strip() for h in header], need, name, "an MQM TSV",
                         f" (expected {' '.join(need)})")  # fmt: skip
    m = re.search(r"_([a-z]{2,3})([a-z]{2,3})\.tsv", Path(name).name.removesuffix(".gz"))
    lp = f"{m.group(1)}-{m.group(2)}" if m else None
    groups: dict[tuple, dict[str, Any]] = {}
    for k, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        f = text.split("\t")
        if len(f) < len(need) or len(f) > len(header):
            raise UserInputError(
                f"expected {len(header)} tab-separated fields, found {len(f)}", path=name, line=k
            )
        target, tspans = marked_spans(f[col["target"]], path=name, line=k, clip=clip)
        source, sspans = marked_spans(f[col["source"]], path=name, line=k, clip=clip)
        key = (f[col["system"]], f[col["doc"]], f[col["seg_id"]], f[col["rater"]])
        g = groups.setdefault(key, {"line": k, "target": target, "source": source, "spans": []})
        for what, value in (("target", target), ("source", source)):
            if value != g[what]:
                raise UserInputError(
                    f"the {what} text differs from that of line {g['line']} (same system, doc, "
                    "seg_id and rater): the offsets would not agree",
                    path=name,
                    line=k,
                )
        raw = f[col["severity"]].strip()
        if raw.lower() == "no-error":
            continue
        sev = normalise_severity(raw, path=name, line=k, clip=clip)
        cat = f[col["category"]].strip() or None
        marks = [Span(a, b, sev, cat) for a, b in tspans]
        marks += [Span(a, b, sev, cat, "source") for a, b in sspans]
        g["spans"] += check_row_spans(
            marks or [omission(category=cat)], target, source, clip=clip, path=name, line=k
        )
    rows = []
    for (system, doc, seg, rater), g in groups.items():
        segment = _int_or_text(seg.strip())
        row = SpanRow(lp, system.strip(), doc.strip(), segment, g["target"], tuple(g["spans"]),
                      annotator=rater.strip())  # fmt: skip
        rows.append((row, g["line"]))
    return span_set(rows, name, "mqm")


def _int_or_text(text: str) -> int | str:
    return int(text) if text.isdigit() else text


# ----------------------------------------------------------------------------------------
# Appraise ESA CSV
# ----------------------------------------------------------------------------------------
ESA_COLUMNS = (
    "user_id", "system_id", "segment_id", "segment_type", "source_lang", "target_lang",
    "overall", "doc_id", "unk", "error_spans", "start_time", "end_time",
)  # fmt: skip


def appraise_spans(
    items: Any, *, clip: bool, path: str, line: int | None, inclusive: bool = True
) -> list[Span]:
    """Appraise's and Pearmut's spans ``[{"start_i", "end_i", "severity", ...}]`` as spans.

    ``end_i`` is inclusive in both tools (the last marked character: checked against the
    WMT24 en-ja texts and Pearmut's own examples, where ``end_i`` + 1 ends the marked word),
    so ``end = end_i + 1``; ``inclusive=False`` reads ``[start_i, end_i)`` as WMT25's
    conversion did. ``"missing"`` in both is an omission of that grade.

    Examples
    --------
    >>> appraise_spans([{"start_i": 0, "end_i": 2, "severity": "minor"},
    ...                 {"start_i": "missing", "end_i": "missing", "severity": "major"}],
    ...                clip=False, path="e.csv", line=1)  # doctest: +NORMALIZE_WHITESPACE
    [Span(start=0, end=3, severity='minor', category=None, side='target', confidence=None),
     Span(start=0, end=0, severity='omission', category='major', side='target',
          confidence=None)]
    """
    if not isinstance(items, list):
        raise UserInputError("expected a JSON list of error spans", path=path, line=line)
    out = []
    for k, e in enumerate(items, start=1):
        if not isinstance(e, dict) or not {"start_i", "end_i", "severity"} <= set(e):
            raise UserInputError(
                f'error span {k}: expected "start_i", "end_i" and "severity"', path=path, line=line
            )
        a, b = e["start_i"], e["end_i"]
        sev = normalise_severity(e["severity"], path=path, line=line, clip=clip)
        cat = e.get("category", e.get("error_type"))
        if a == "missing" and b == "missing":
            out.append(omission(sev, cat))
            continue
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
            raise UserInputError(
                f"error span {k}: start_i {a!r} and end_i {b!r}: expected two integers or "
                'two "missing"',
                path=path,
                line=line,
            )
        out.append(Span(a, b + 1 if inclusive else b, sev, cat))
    return out


def read_esa_csv(path: str | Path, *, clip: bool = False) -> SpanSet:
    """An Appraise ESA CSV export (WMT24's ``esa_generalMT2024_wave*.csv``): no header,
    the columns of :data:`ESA_COLUMNS`, ``error_spans`` a JSON list.

    As the organisers' ``merge_to_jsonl.py`` does, rows of type ``BAD`` (attention checks),
    documents ending ``#bad``, ``#dup`` or ``#incomplete`` and tutorial documents are left
    out; where one annotator rated one item twice, the later rating (by ``end_time``) is
    kept. The key is (``source_lang-target_lang`` in two-letter codes, ``system_id``,
    ``doc_id``, ``segment_id`` as written: it counts WMT24's canary line). The export has no
    text: spans are checked only for order. Offsets: ``end_i`` is inclusive
    (:func:`appraise_spans`).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "esa.csv")
    >>> spans = '"[{""start_i"":8,""end_i"":11,""severity"":""minor"",""error_type"":null}]"'
    >>> _ = open(p, "w").write(f"u1,SysA,7,TGT,eng,ces,91,doc-1,False,{spans},1.0,2.0\\n"
    ...                        "u1,SysA,8,BAD,eng,ces,9,doc-1#bad,False,[],3.0,4.0\\n")
    >>> r = read_esa_csv(p).rows
    >>> len(r), r[0].key(), r[0].score, r[0].annotator, r[0].spans[0].end
    (1, ('en-cs', 'SysA', 'doc-1', 7), 91.0, 'u1', 12)
    """
    import json

    name = str(path)
    kept: dict[tuple, tuple[float, SpanRow, int]] = {}
    for k, text in enumerate(read_lines(path), start=1):
        if not text.strip():
            continue
        f = next(csv.reader([text]))
        if k == 1 and f and f[0] == "user_id":
            continue
        if len(f) != len(ESA_COLUMNS):
            raise UserInputError(
                f"expected {len(ESA_COLUMNS)} comma-separated fields ({','.join(ESA_COLUMNS)}), "
                f"found {len(f)}",
                path=name,
                line=k,
            )
        user, system, seg, kind, sl, tl, overall, doc, _, spans, _, end_time = f
        if kind == "BAD" or doc.endswith(("#bad", "#dup", "#incomplete")) or "-tutorial" in doc:
            continue
        score = _number(overall, "overall score", name, k)
        try:
            items = json.loads(spans)
        except json.JSONDecodeError as exc:
            raise UserInputError(
                f"error_spans is not JSON ({exc.msg})", path=name, line=k
            ) from None
        marks = check_row_spans(appraise_spans(items, clip=clip, path=name, line=k), None,
                                clip=clip, path=name, line=k)  # fmt: skip
        lp = f"{LANG_3_TO_2.get(sl, sl)}-{LANG_3_TO_2.get(tl, tl)}"
        row = SpanRow(lp, system, doc, _int_or_text(seg), None, marks, score, user)
        when = _number(end_time, "end_time", name, k)
        key = (*row.key(), user)
        if key not in kept or when >= kept[key][0]:
            kept[key] = (when, row, k)
    rows = sorted(((r, k) for _, r, k in kept.values()), key=lambda x: x[1])
    return span_set(rows, name, "esa-csv")


def _number(text: str, what: str, path: str, line: int) -> float:
    try:
        return float(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not a number", path=path, line=line) from None


# ----------------------------------------------------------------------------------------
# WMT25 metrics task 2 TSV
# ----------------------------------------------------------------------------------------
WMT25_COLUMNS = (
    "doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id",
    "source_segment", "hypothesis_segment", "reference_segment", "domain_name", "method",
    "start_indices", "end_indices", "error_types",
)  # fmt: skip


def read_wmt25_tsv(path: str | Path, *, clip: bool = False) -> SpanSet:
    """The WMT25 metrics task-2 TSV (gold ``task2_refs.tsv`` and ``predictions.tsv`` alike):
    a header with the columns of :data:`WMT25_COLUMNS`, fields quoted as Python's ``csv``
    writes them; ``start_indices``, ``end_indices`` and ``error_types`` space-separated
    lists of one length; ``-1 -1 no-error`` for a segment without errors, ``missing``
    indices for an omission, ``undecided`` a severity.

    Offsets: ``[start, end)`` into ``hypothesis_segment`` as the file writes it (newlines
    as a literal ``\\n``), as ``scoring_esa.py`` counts them. Only ``set_id == official``
    rows are read (the organisers score only those). Lists of different lengths, or empty
    ones, are refused (the organisers' script would drop the segment's spans with a
    warning; ``clip=True`` does the same).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "predictions.tsv")
    >>> head = "\\t".join(WMT25_COLUMNS)
    >>> row = ["d1", "0", "en", "cs_CZ", "official", "S", "src", "Ahoj svete", "ref",
    ...        "news", "ESA", "0 missing", "4 missing", "minor major"]
    >>> _ = open(p, "w").write(head + "\\n" + "\\t".join(row) + "\\n")
    >>> r = read_wmt25_tsv(p).rows[0]
    >>> r.key(), r.domain, [(s.start, s.end, s.severity, s.category) for s in r.spans]
    (('en-cs_CZ', 'S', 'd1', 0), 'news', [(0, 4, 'minor', None), (0, 0, 'omission', 'major')])
    """
    name = str(path)
    lines = read_lines(path)
    header = next(csv.reader([lines[0]], delimiter="\t"))
    need = [c for c in WMT25_COLUMNS if c != "reference_segment"]
    col = header_columns(header, need, name, "a WMT25 task-2 TSV")
    rows = []
    reader = csv.reader(lines[1:], delimiter="\t")
    for f in reader:
        k = reader.line_num + 1
        if not f:  # a blank line
            continue
        if len(f) != len(header):
            raise UserInputError(
                f"expected {len(header)} tab-separated fields, found {len(f)}", path=name, line=k
            )
        if f[col["set_id"]] != "official":
            continue
        hyp = f[col["hypothesis_segment"]]
        spans = _index_lists(
            f[col["start_indices"]], f[col["end_indices"]], f[col["error_types"]],
            clip=clip, path=name, line=k,
        )  # fmt: skip
        lp = f"{f[col['source_lang']]}-{f[col['target_lang']]}"
        row = SpanRow(
            lp, f[col["system_id"]], f[col["doc_id"]], _int_or_text(f[col["segment_id"]]), hyp,
            check_row_spans(spans, hyp, clip=clip, path=name, line=k),
            domain=f[col["domain_name"]] or None,
        )  # fmt: skip
        rows.append((row, k))
    return span_set(rows, name, "wmt25-tsv")


def _index_lists(
    starts: str, ends: str, types: str, *, clip: bool, path: str, line: int
) -> list[Span]:
    if types.strip() == "no-error":
        return []
    s, e, t = starts.split(" "), ends.split(" "), types.split(" ")
    if len({len(s), len(e), len(t)}) != 1 or not all(s + e + t):
        if clip:
            return []
        raise UserInputError(
            f"start_indices, end_indices and error_types hold {len(s)}, {len(e)} and {len(t)} "
            "items (or an empty one); expected one start, end and type per span "
            "(or --clip to drop the segment's spans, as the organisers' script does)",
            path=path,
            line=line,
        )
    out = []
    for a, b, sev in zip(s, e, t, strict=True):
        grade = normalise_severity(sev, path=path, line=line, clip=clip)
        if a == "missing" and b == "missing":
            out.append(omission(grade))
            continue
        try:
            out.append(Span(int(a), int(b), grade))
        except ValueError:
            raise UserInputError(
                f"span indices {a!r} and {b!r}: expected two integers or two 'missing'",
                path=path,
                line=line,
            ) from None
    return out


# ----------------------------------------------------------------------------------------
# WMT23/24 QE task 2
# ----------------------------------------------------------------------------------------
def read_qe_task2(path: str | Path, *, clip: bool = False) -> SpanSet:
    """A WMT23/24 QE task-2 file: the gold (one header line) or a submission (three header
    lines: disk footprint, parameters, ensembled models), then ``LP<TAB>METHOD<TAB>SEGMENT
    <TAB>TARGET<TAB>STARTS<TAB>ENDS<TAB>TYPES``, the last three space-separated.

    Offsets: ``[start, end)`` into the target with surrounding spaces stripped (as
    ``task2_evaluate.py`` strips it); ``-1 -1 no-error`` is a segment without spans and
    ``start == end`` an insertion point. The organisers cut an end past the target back
    silently; here that needs ``clip=True``. The system is the METHOD column; the document
    is None.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "predictions.txt")
    >>> _ = open(p, "w").write("2409244995\\n2280000000\\n1\\n"
    ...     "en-de\\tm1\\t0\\tDas ist gut.\\t-1\\t-1\\tno-error\\n"
    ...     "en-de\\tm1\\t1\\tDas ist schlecht.\\t4 8\\t7 8\\tmajor minor\\n")
    >>> ss = read_qe_task2(p)
    >>> [(r.segment, [(s.start, s.end, s.severity) for s in r.spans]) for r in ss], ss.lines
    ([(0, []), (1, [(4, 7, 'major'), (8, 8, 'minor')])], (4, 5))
    """
    name = str(path)
    lines = read_lines(path)
    first = lines[0].strip().split("\t")
    skip = 1 if len(first) == 7 else 3
    if skip == 3 and not all(ln.strip().lstrip("-").replace(".", "").isdigit()
                             for ln in lines[:3]):  # fmt: skip
        raise UserInputError(
            "expected a QE task-2 file: a header line of 7 tab-separated fields (gold) or three "
            "lines of numbers (disk footprint, parameters, ensembled models: a submission)",
            path=name,
            line=1,
        )
    rows = []
    for k, text in enumerate(lines[skip:], start=skip + 1):
        text = text.strip()
        if not text:
            continue
        f = text.split("\t")
        if len(f) != 7:
            raise UserInputError(
                "expected 7 tab-separated fields (lp, method, segment, target, starts, ends, "
                f"types), found {len(f)}",
                path=name,
                line=k,
            )
        mt = f[3].strip()
        spans: list[Span] = []
        for a, b, t in _qe_triples(f[4], f[5], f[6], path=name, line=k):
            if (a, b) == (-1, -1):
                continue
            spans.append(Span(a, b, normalise_severity(t, path=name, line=k, clip=clip)))
        seg = _int_or_text(f[2].strip())
        row = SpanRow(f[0].strip(), f[1].strip(), None, seg, mt,
                      check_row_spans(spans, mt, clip=clip, path=name, line=k))  # fmt: skip
        rows.append((row, k))
    return span_set(rows, name, "qe-task2")


def _qe_triples(starts: str, ends: str, types: str, *, path: str, line: int):
    s, e, t = starts.split(" "), ends.split(" "), types.split(" ")
    if len({len(s), len(e), len(t)}) != 1:
        raise UserInputError(
            f"{len(s)} starts, {len(e)} ends and {len(t)} types; expected as many of each",
            path=path,
            line=line,
        )
    for a, b, kind in zip(s, e, t, strict=True):
        try:
            yield int(a), int(b), kind
        except ValueError:
            raise UserInputError(
                f"span start {a!r} and end {b!r}: expected integers (-1 for no span)",
                path=path,
                line=line,
            ) from None


# ----------------------------------------------------------------------------------------
# COMET --to_json
# ----------------------------------------------------------------------------------------
def read_comet_json(path: str | Path, *, clip: bool = False) -> SpanSet:
    """COMET's ``comet-score --to_json`` output: ``{"TRANSLATIONS_FILE": [{"src", "mt",
    ["ref",] "COMET", ["errors": [{"text", "confidence", "severity", "start", "end"}]]},
    ...]}``, one list per system file (xCOMET adds ``errors``; ``error_spans`` is read too).

    Offsets: ``[start, end)`` into ``mt`` as xCOMET gives them: the character offsets of the
    first and last subword of the span, so a span that starts a word usually begins *with
    the space before it* (SentencePiece's ``▁``). They are kept as given, which is what the
    WMT baselines scored; :func:`~mtpalette.io.spans.trimmed` takes the spaces off. The system
    is the file name key, the segment the 0-based index, the score COMET's.

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "out.json")
    >>> err = {"text": "▁bin", "confidence": 0.8, "severity": "major", "start": 3, "end": 7}
    >>> _ = open(p, "w").write(json.dumps({"hyp.txt": [
    ...     {"src": "I am", "mt": "Ich bin", "COMET": 0.5, "errors": [err]}]}))
    >>> r = read_comet_json(p).rows[0]
    >>> r.system, r.score, r.marked(), r.spans[0].confidence
    ('hyp.txt', 0.5, [' bin'], 0.8)
    """
    from mtpalette.io.jsonfile import read_json

    name = str(path)
    data = read_json(path, "a COMET --to_json file")
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise UserInputError(
            'expected COMET\'s --to_json output: {"FILE": [{"src": ..., "mt": ...}, ...]}',
            path=name,
        )
    rows = []
    for system, items in data.items():
        for seg, item in enumerate(items):
            where = f"{system!r} segment {seg}"
            if not isinstance(item, dict) or not isinstance(item.get("mt"), str):
                raise UserInputError(f'{where}: expected an object with "mt"', path=name)
            spans = []
            for e in item.get("errors", item.get("error_spans")) or []:
                if not isinstance(e, dict) or not {"start", "end", "severity"} <= set(e):
                    raise UserInputError(
                        f'{where}: an error without "start", "end" and "severity"', path=name
                    )
                sev = normalise_severity(e["severity"], path=name, line=None, clip=clip)
                if not all(type(e[x]) is int for x in ("start", "end")):
                    raise UserInputError(f"{where}: start and end must be integers", path=name)
                conf = e.get("confidence")
                if conf is not None and (type(conf) not in (int, float) or not conf == conf):
                    raise UserInputError(f"{where}: confidence {conf!r} is not a number", path=name)
                spans.append(Span(e["start"], e["end"], sev, None, "target", conf))
            try:
                checked = check_row_spans(spans, item["mt"], clip=clip, path=name, line=None)
            except UserInputError as exc:
                raise UserInputError(f"{where}: {exc.message}", path=name) from None
            score = item.get("COMET")
            rows.append((SpanRow(None, system, None, seg, item["mt"], checked,
                                 None if score is None else float(score)), None))  # fmt: skip
    return span_set(rows, name, "comet-json")
