"""Rows of a table with named columns: TSV, CSV, JSON Lines or Parquet - one reader for every
command (segments to score, judgments, metric score files, long tables).

The format comes from the caller, else from the file: Parquet's magic bytes, then the
extension (``.tsv``/``.tab``, ``.csv``, ``.jsonl``/``.ndjson``/``.json``, ``.parquet``/``.pq``),
else the first line (a tab: TSV; a comma and no tab: CSV; ``{``: JSONL). A header that names
a column twice is refused with the column, in every format (JSON objects too: a JSON parser
keeps the last of two equal keys without a word).

* TSV: the first line is the header; every row has as many tab-separated fields as the
  header. Python's ``csv`` module and pandas quote a field that holds a tab, a newline or a
  double quote (``"say ""hi"" now"``); a hand-written TSV takes fields literally, and MT
  text is full of quotes. ``quoting="auto"`` reads a file as CSV-quoted exactly when a CSV
  writer would have written it so (the parsed rows, quoted again, give back the file), and
  literally when the CSV reading fails or changes nothing; a file that could be either
  (``"Yes."`` alone in a field: ``Yes.`` quoted, or the literal text) is refused with the
  line, and ``quoting="csv"`` or ``"none"`` decides.
* JSONL: one JSON object per line; the named fields are strings. For scoring, a reference
  field may also hold a list of strings (several references) or ``null`` (none), so the
  number of references may vary from segment to segment.

Errors name the file and the line: a row with the wrong number of fields, a line that is not
valid JSON or not an object, a missing field or a value of the wrong type, a column that does
not exist (listing those that do), a header without rows.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import json_type, loads
from mtpalette.io.plain import display_name, read_lines

#: table formats and the file extensions that select them when none is given
FORMATS = {
    "tsv": (".tsv", ".tab"),
    "csv": (".csv",),
    "jsonl": (".jsonl", ".ndjson", ".json"),
    "parquet": (".parquet", ".pq"),
}
#: the first bytes of every Parquet file
PARQUET_MAGIC = b"PAR1"
#: how TSV fields are quoted (see the module notes)
QUOTING = ("auto", "csv", "none")


def table_format(path: str | Path, fmt: str | None = None) -> str:
    """The format of a table file: ``fmt`` if given, else sniffed (see the module notes).

    Examples
    --------
    >>> table_format("judged.jsonl"), table_format("data.csv"), table_format("-", "jsonl")
    ('jsonl', 'csv', 'jsonl')
    """
    if fmt is not None and fmt != "auto":
        if fmt not in FORMATS:
            raise UserInputError(
                f"unknown table format {fmt!r}; expected auto, {', '.join(FORMATS)}"
            )
        return fmt
    head = _head(path)
    if head.startswith(PARQUET_MAGIC):
        return "parquet"
    name = str(path).lower().removesuffix(".gz")
    by_name = next((f for f, exts in FORMATS.items() if name.endswith(exts)), None)
    if by_name is not None:
        return by_name
    first = head.split(b"\n", 1)[0]
    if b"\t" in first:
        return "tsv"
    if first.lstrip().startswith(b"{"):
        return "jsonl"
    return "csv" if b"," in first else "tsv"


def _head(path: str | Path) -> bytes:
    """The first bytes of a file (nothing for standard input, which cannot be read twice)."""
    if str(path) == "-":
        return b""
    try:
        with open(path, "rb") as fh:
            head = fh.read(4096)
        if head[:2] == b"\x1f\x8b":  # gzip: the start of what it holds
            import gzip

            with gzip.open(path, "rb") as fh:
                head = fh.read(4096)
        return head
    except (OSError, EOFError):
        return b""  # read_lines names the problem with the file


def read_columns(
    path: str | Path, columns: Sequence[str], *, fmt: str | None = None, quoting: str = "auto"
) -> list[list[str]]:
    """The named columns of a TSV or JSONL file, as one list of strings per column.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.tsv")
    >>> _ = open(p, "w").write("mt\\tref\\na b\\ta c\\n")
    >>> read_columns(p, ["mt", "ref"])
    [['a b'], ['a c']]
    """
    out: list[list[str]] = [[] for _ in columns]
    for where, row in rows(path, columns, fmt=fmt, quoting=quoting):
        for column, col in zip(out, columns, strict=True):
            column.append(_string(row[col], col, where))
    return out


def read_segments(
    path: str | Path,
    hyp_col: str,
    ref_cols: Sequence[str],
    *,
    fmt: str | None = None,
    quoting: str = "auto",
) -> tuple[list[str], list[list[str | None]]]:
    """Hypotheses and references from a table, as ``(hyps, refs)`` with reference streams.

    ``refs[k][i]`` is the ``k``-th reference of segment ``i``, ``None`` where segment ``i``
    has fewer references (a JSONL reference field may be a list, or ``null``). Reference
    columns are read in the order given; a list contributes its items in order.

    Raises
    ------
    UserInputError
        See the module: the message names the file and the line; also a segment without any
        reference.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.jsonl")
    >>> _ = open(p, "w").write('{"mt": "a b", "refs": ["a b", "a c"]}\\n'
    ...                        '{"mt": "c", "refs": "c d"}\\n')
    >>> read_segments(p, "mt", ["refs"])
    (['a b', 'c'], [['a b', 'c d'], ['a c', None]])
    """
    if hyp_col in ref_cols:
        raise UserInputError(f"column {hyp_col!r} is given as the hypotheses and as a reference")
    hyps: list[str] = []
    per_segment: list[list[str]] = []
    for where, row in rows(path, [hyp_col, *ref_cols], fmt=fmt, quoting=quoting):
        hyps.append(_string(row[hyp_col], hyp_col, where))
        refs: list[str] = []
        for col in ref_cols:
            refs += _references(row[col], col, where)
        if not refs:
            raise UserInputError("this segment has no reference", path=where[0], line=where[1])
        per_segment.append(refs)
    n_refs = max(len(r) for r in per_segment)
    streams = [[r[k] if k < len(r) else None for r in per_segment] for k in range(n_refs)]
    return hyps, streams


def rows(
    path: str | Path, columns: Sequence[str] = (), *, fmt: str | None = None, quoting: str = "auto"
) -> Iterator[tuple[tuple[str, int], dict[str, Any]]]:
    """``((file, line), row)`` for every data row of a table, checked to have ``columns``.

    Lines count as in the file (the header is line 1 of a TSV or CSV file); a Parquet file's
    rows count from 1.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "j.csv")
    >>> _ = open(p, "w").write('system,segment,score\\n"A, Inc.",1,0.5\\n')
    >>> [(line, row["system"]) for (_, line), row in rows(p, ["system", "score"])]
    [(2, 'A, Inc.')]
    """
    name = display_name(path)
    kind = table_format(path, fmt)
    if kind == "parquet":
        yield from _parquet_rows(path, name, columns)
        return
    if _head(path).startswith(PARQUET_MAGIC):
        raise UserInputError(
            f"this is a Parquet file, not {kind.upper()}; name it .parquet or say --table-format "
            "parquet",
            path=name,
        )
    lines = read_lines(path)
    if kind == "jsonl":
        yield from _jsonl_rows(name, lines, columns)
    elif kind == "csv":
        yield from _header_rows(name, _csv_fields(name, lines), columns, "comma")
    else:
        yield from _header_rows(name, _tsv_fields(name, lines, quoting), columns, "tab")


def segment_column(names: Sequence[str], path: str | Path) -> str | None:
    """The segment id column of a long table's header (``segment`` or ``seg_id``), None when
    it has neither; both are refused, as the judgments' reader refuses them (which one holds
    the ids cannot be told).

    Examples
    --------
    >>> segment_column(["system", "seg_id", "hyp"], "t.tsv"), segment_column(["hyp"], "t.tsv")
    ('seg_id', None)
    >>> segment_column(["segment", "seg_id"], "t.tsv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: t.tsv: columns 'segment', 'seg_id' could each be the ...
    """
    found = [c for c in ("segment", "seg_id") if c in names]
    if len(found) > 1:
        raise UserInputError(
            f"columns {', '.join(map(repr, found))} could each be the segment; keep one",
            path=str(path),
        )
    return found[0] if found else None


def header(path: str | Path, *, fmt: str | None = None, quoting: str = "auto") -> list[str]:
    """The column names of a table (the keys of its first object for JSON Lines; a Parquet
    file's schema, read without its rows). A TSV file's quoting is decided on the whole file,
    so a text table is read through."""
    if table_format(path, fmt) == "parquet":
        return _parquet_schema(path, display_name(path))
    for _, row in rows(path, (), fmt=fmt, quoting=quoting):
        return list(row)
    return []


def cell_float(value: Any) -> float:
    """A table cell (text or a JSON number) as a float, as ``float`` reads it (raising its
    TypeError or ValueError), except that a JSON integer too large for a float is infinite
    (for the caller to refuse with the other non-finite values) and a JSON ``true`` or
    ``false`` is no number (a TypeError; once read as 1.0 and 0.0).

    Examples
    --------
    >>> cell_float("0.5"), cell_float(3), cell_float(10**400)
    (0.5, 3.0, inf)
    """
    if isinstance(value, bool):
        raise TypeError(f"{value!r} is not a number")
    try:
        return float(value)
    except OverflowError:  # a JSON integer too large for a float
        return math.inf


def header_columns(
    header: Sequence[str], need: Sequence[str], name: str, kind: str, expected: str = ""
) -> dict[str, int]:
    """Each column's index in the ``header`` of a file in a fixed format (a name given twice:
    its last place), once every column in ``need`` is there; else the error on line 1 says
    the file is not ``kind``, names the missing columns and adds ``expected``.

    Examples
    --------
    >>> header_columns(["seg_id", "system"], ["system"], "f.tsv", "a ranking file")
    {'seg_id': 0, 'system': 1}
    >>> header_columns(["seg_id"], ["system", "rater"], "f.tsv", "a ranking file")
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: f.tsv:1: not a ranking file: no column(s) system, rater
    """
    col = {h: k for k, h in enumerate(header)}
    missing = [c for c in need if c not in col]
    if missing:
        raise UserInputError(
            f"not {kind}: no column(s) {', '.join(missing)}{expected}", path=name, line=1
        )
    return col


def _csv_fields(name: str, lines: list[str]) -> list[tuple[int, list[str]]]:
    """``(line number, fields)`` of every CSV record (quoted fields may span lines)."""
    out, error = _quoted_records(lines, ",")
    if error is not None:
        raise UserInputError(
            f"not valid CSV ({error[0]}); expected comma-separated fields quoted as CSV writers do",
            path=name,
            line=error[1],
        )
    return out


def _quoted_records(
    lines: list[str], delimiter: str
) -> tuple[list[tuple[int, list[str]]], tuple[str, int] | None]:
    """``(line number, fields)`` of every record read with CSV quoting (a quoted field may
    span lines), and the first error as ``(reason, line number)`` (``None`` if there is none).

    Examples
    --------
    >>> _quoted_records(['a,"b', 'c"', 'd,e'], ",")
    ([(1, ['a', 'b\\nc']), (3, ['d', 'e'])], None)
    >>> _quoted_records(['a,"b"c', 'd'], ",")[1][1]  # the line of the error
    1
    """
    records: list[tuple[int, list[str]]] = []
    reader = csv.reader((line + "\n" for line in lines), delimiter=delimiter, strict=True)
    try:
        start = 1
        for fields in reader:
            records.append((start, fields))
            start = reader.line_num + 1
    except csv.Error as exc:
        return records, (str(exc), reader.line_num)
    return records, None


def _parquet_schema(path: str | Path, name: str) -> list[str]:
    """The column names of a Parquet file, from its footer."""
    try:
        import pyarrow.parquet as pq

        return list(pq.read_schema(path).names)
    except (OSError, ValueError) as exc:
        raise UserInputError(f"not a readable Parquet file ({exc})", path=name) from None


def _parquet_rows(path: str | Path, name: str, columns: Sequence[str]):
    try:
        import pyarrow.parquet as pq

        table = pq.read_table(path)
    except (OSError, ValueError) as exc:
        raise UserInputError(f"not a readable Parquet file ({exc})", path=name) from None
    names = table.column_names
    _check_header(name, names, columns, "column")
    if table.num_rows == 0:
        raise UserInputError("the table has no rows", path=name)
    for number, row in enumerate(table.to_pylist(), start=1):
        yield (name, number), row


def _tsv_fields(name: str, lines: list[str], quoting: str) -> list[tuple[int, list[str]]]:
    """``(line number, fields)`` of every line, read literally or as CSV-quoted (see the
    module notes).

    Examples
    --------
    >>> _tsv_fields("t.tsv", ['mt\\tref', '"a\\tb"\\t"say ""hi"" now"'], "auto")
    [(1, ['mt', 'ref']), (2, ['a\\tb', 'say "hi" now'])]
    >>> _tsv_fields("t.tsv", ['mt\\tref', '"Hi," he said\\tx'], "auto")  # not CSV: literal
    [(1, ['mt', 'ref']), (2, ['"Hi," he said', 'x'])]
    """
    if quoting not in QUOTING:
        raise UserInputError(f"unknown quoting {quoting!r}; expected one of {', '.join(QUOTING)}")
    literal = [(n, line.split("\t")) for n, line in enumerate(lines, start=1)]
    if quoting == "none" or not any('"' in line for line in lines):
        return literal
    parsed, error = _quoted_records(lines, "\t")
    if error is not None:
        if quoting == "csv":
            raise UserInputError(
                f"not valid CSV quoting ({error[0]}); expected fields quoted as CSV writers do",
                path=name,
                line=error[1],
            )
        return literal
    if quoting == "csv" or [f for _, f in parsed] == [f for _, f in literal]:
        return parsed
    buf = io.StringIO()
    csv.writer(buf, delimiter="\t", lineterminator="\n").writerows(f for _, f in parsed)
    if buf.getvalue().split("\n")[:-1] == lines:
        return parsed
    first = next(
        n for (n, a), (_, b) in zip(literal, parsed, strict=False) if a != b
    )  # the readings part here
    raise UserInputError(
        "the table reads differently with CSV quoting (a field in double quotes) and "
        "literally; say which with --table-quoting csv or none",
        path=name,
        line=first,
    )


def _check_header(name: str, header: Sequence[str], columns: Sequence[str], sep: str) -> None:
    seen: set[str] = set()
    for col in header:
        if col in seen:
            raise UserInputError(
                f"column {col!r} appears twice in the header; name each column once",
                path=name,
                line=1,
            )
        seen.add(col)
    for col in columns:
        if col not in seen:
            hint = ""
            if len(header) == 1 and sep == "tab" and "," in header[0]:
                hint = (
                    "; the header has commas and no tab: the file looks comma-separated "
                    "(name it .csv or say --table-format csv)"
                )
            elif len(header) == 1 and sep == "comma" and "\t" in header[0]:
                hint = "; the header has tabs: the file looks tab-separated (name it .tsv)"
            raise UserInputError(
                f"no column {col!r}; the header has: {', '.join(header)}{hint}",
                path=name,
                line=1,
            )


def _header_rows(
    name: str, numbered: list[tuple[int, list[str]]], columns: Sequence[str], sep: str
):
    header = numbered[0][1]
    _check_header(name, header, columns, sep)
    if len(numbered) == 1:
        raise UserInputError("the table has a header but no rows", path=name, line=1)
    for number, row in numbered[1:]:
        if len(row) != len(header):
            raise UserInputError(
                f"expected {len(header)} {sep}-separated fields as in the header, found {len(row)}",
                path=name,
                line=number,
            )
        yield (name, number), dict(zip(header, row, strict=True))


def _jsonl_rows(name: str, lines: list[str], columns: Sequence[str]):
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise UserInputError("empty line; expected one JSON object", path=name, line=number)
        try:
            obj = loads(line, path=name, line=number, kind="field")  # a field twice refused
        except json.JSONDecodeError as exc:
            raise UserInputError(
                f"invalid JSON ({exc.msg} at column {exc.colno}); expected one JSON object "
                "per line (JSON Lines)",
                path=name,
                line=number,
            ) from None
        if not isinstance(obj, dict):
            raise UserInputError(
                f"expected a JSON object, found {json_type(obj)}", path=name, line=number
            )
        for col in columns:
            if col not in obj:
                has = ", ".join(map(str, obj)) or "no fields"
                raise UserInputError(
                    f"no field {col!r}; this object has: {has}", path=name, line=number
                )
        yield (name, number), obj


def _string(value: Any, col: str, where: tuple[str, int]) -> str:
    if not isinstance(value, str):
        raise UserInputError(
            f"field {col!r} is {json_type(value)}, expected a string",
            path=where[0],
            line=where[1],
        )
    return value


def _references(value: Any, col: str, where: tuple[str, int]) -> list[str]:
    if value is None:
        return []
    if isinstance(value, list):
        return [_string(v, f"{col}[{i}]", where) for i, v in enumerate(value)]
    if isinstance(value, str):
        return [value]
    raise UserInputError(
        f"field {col!r} is {json_type(value)}, expected a string, a list of strings or null",
        path=where[0],
        line=where[1],
    )


def read_long_segments(
    path: str | Path,
    system_col: str,
    hyp_col: str,
    ref_cols: Sequence[str],
    *,
    segment_col: str | None = None,
    fmt: str | None = None,
    quoting: str = "auto",
) -> tuple[dict[str, list[str]], list[list[str | None]]]:
    """Systems' outputs and the shared references from a long table: one row per system and
    segment (the layout pandas users keep), as ``({system: hyps}, reference streams)``.

    With ``segment_col`` the rows of a system may come in any order (each segment once per
    system, every system every segment); without it each system's rows are its segments in
    order. The references of a segment must be the same in every system's row.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "long.jsonl")
    >>> rows = [("A", 1, "a b", "a b"), ("B", 1, "a", "a b"), ("A", 2, "c", "c d"),
    ...         ("B", 2, "c d", "c d")]
    >>> _ = open(p, "w").write("".join(json.dumps(dict(zip(
    ...     ("system", "segment", "hyp", "ref"), r))) + "\\n" for r in rows))
    >>> read_long_segments(p, "system", "hyp", ["ref"], segment_col="segment")
    ({'A': ['a b', 'c'], 'B': ['a', 'c d']}, [['a b', 'c d']])
    """
    outputs, streams, _ = _read_long(
        path, system_col, hyp_col, ref_cols, None, segment_col=segment_col, fmt=fmt,
        quoting=quoting,
    )  # fmt: skip
    return outputs, streams


def read_long_judged(
    path: str | Path,
    system_col: str,
    hyp_col: str,
    ref_cols: Sequence[str],
    score_col: str,
    *,
    segment_col: str | None = None,
    fmt: str | None = None,
    quoting: str = "auto",
) -> tuple[dict[str, list[str]], list[list[str | None]], dict[str, list[float]]]:
    """:func:`read_long_segments` with a human score in every row (``score_col``; an empty
    cell or JSON ``null``: unrated, NaN): ``({system: hyps}, reference streams,
    {system: scores})``, the scores in the segments' order.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "long.csv")
    >>> _ = open(p, "w").write("system,hyp,ref,score\\nA,a b,a b,-1\\nB,a,a b,\\n")
    >>> read_long_judged(p, "system", "hyp", ["ref"], "score")
    ({'A': ['a b'], 'B': ['a']}, [['a b']], {'A': [-1.0], 'B': [nan]})
    """
    outputs, streams, scores = _read_long(
        path, system_col, hyp_col, ref_cols, score_col, segment_col=segment_col, fmt=fmt,
        quoting=quoting,
    )  # fmt: skip
    assert scores is not None
    return outputs, streams, scores


def _read_long(path, system_col, hyp_col, ref_cols, score_col, *, segment_col, fmt, quoting):
    columns = [system_col, hyp_col, *ref_cols] + ([segment_col] if segment_col else [])
    columns += [score_col] if score_col else []
    scores: dict[str, dict[Any, float]] = {}
    outputs: dict[str, dict[Any, str]] = {}
    refs: dict[Any, tuple[list[str], tuple[str, int]]] = {}
    order: list[Any] = []
    for where, row in rows(path, columns, fmt=fmt, quoting=quoting):
        system = _string(row[system_col], system_col, where).strip()
        if not system:
            raise UserInputError("empty system name", path=where[0], line=where[1])
        mine = outputs.setdefault(system, {})
        seg = row[segment_col] if segment_col else len(mine)
        if seg in mine:
            raise UserInputError(
                f"system {system!r} has segment {seg!r} twice", path=where[0], line=where[1]
            )
        mine[seg] = _string(row[hyp_col], hyp_col, where)
        if score_col:
            scores.setdefault(system, {})[seg] = _score(row[score_col], score_col, where)
        seg_refs: list[str] = []
        for col in ref_cols:
            seg_refs += _references(row[col], col, where)
        if seg not in refs:
            refs[seg] = (seg_refs, where)
            order.append(seg)
        elif refs[seg][0] != seg_refs:
            first = refs[seg][1]
            raise UserInputError(
                f"segment {seg!r} has other references here than at {first[0]}:{first[1]}; "
                "a long table's systems must share each segment's references",
                path=where[0],
                line=where[1],
            )
    for system, mine in outputs.items():
        missing = [s for s in order if s not in mine]
        if missing:
            raise UserInputError(
                f"system {system!r} lacks {len(missing)} of the {len(order)} segments "
                f"(first: {missing[0]!r}); every system needs every segment",
                path=str(path),
            )
    per_segment = [refs[s][0] for s in order]
    if any(not r for r in per_segment):
        raise UserInputError("a segment has no reference", path=str(path))
    n_refs = max(len(r) for r in per_segment)
    streams = [[r[k] if k < len(r) else None for r in per_segment] for k in range(n_refs)]
    texts = {name: [mine[s] for s in order] for name, mine in outputs.items()}
    if not score_col:
        return texts, streams, None
    return texts, streams, {name: [mine[s] for s in order] for name, mine in scores.items()}


def _score(value: Any, col: str, where: tuple[str, int]) -> float:
    """A human score cell: a number, or empty / null for an unrated translation (NaN)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return math.nan
    try:
        x = cell_float(value)
    except (TypeError, ValueError):
        raise UserInputError(
            f"column {col!r}: {value!r} is not a number", path=where[0], line=where[1]
        ) from None
    if not math.isfinite(x):
        raise UserInputError(
            f"column {col!r}: {value!r} is not finite", path=where[0], line=where[1]
        )
    return x
