"""Segments in TSV (a header row names the columns) or JSONL (one object per line).

Errors name the file and the line: a row with the wrong number of fields, a line that is not
valid JSON or not an object, a missing field, a column that does not exist (listing those
that do).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines


def read_columns(
    path: str | Path, columns: list[str], *, fmt: str | None = None
) -> list[list[str]]:
    """The named columns of a TSV or JSONL file, as one list of strings per column.

    ``fmt`` is ``tsv`` or ``jsonl``; by default it follows the file extension.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "d.tsv")
    >>> _ = open(p, "w").write("mt\\tref\\na b\\ta c\\n")
    >>> read_columns(p, ["mt", "ref"])
    [['a b'], ['a c']]
    """
    name = str(path)
    fmt = fmt or ("jsonl" if name.endswith((".jsonl", ".json")) else "tsv")
    if fmt not in {"tsv", "jsonl"}:
        raise UserInputError(f"unknown table format {fmt!r}; expected tsv or jsonl")
    lines = read_lines(path)
    if fmt == "jsonl":
        return _jsonl_columns(name, lines, columns)
    return _tsv_columns(name, lines, columns)


def _tsv_columns(name: str, lines: list[str], columns: list[str]) -> list[list[str]]:
    rows = list(csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE))
    header = rows[0]
    index = []
    for col in columns:
        if col not in header:
            raise UserInputError(
                f"no column {col!r}; the header has: {', '.join(header)}", path=name, line=1
            )
        index.append(header.index(col))
    out: list[list[str]] = [[] for _ in columns]
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise UserInputError(
                f"expected {len(header)} tab-separated fields as in the header, found {len(row)}",
                path=name,
                line=number,
            )
        for column, i in zip(out, index, strict=True):
            column.append(row[i])
    return out


def _jsonl_columns(name: str, lines: list[str], columns: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[] for _ in columns]
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise UserInputError("empty line; expected one JSON object", path=name, line=number)
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserInputError(f"invalid JSON ({exc.msg})", path=name, line=number) from None
        if not isinstance(obj, dict):
            raise UserInputError("expected a JSON object", path=name, line=number)
        for column, col in zip(out, columns, strict=True):
            if col not in obj:
                raise UserInputError(
                    f"no field {col!r}; this object has: {', '.join(map(str, obj))}",
                    path=name,
                    line=number,
                )
            value = obj[col]
            if not isinstance(value, str):
                raise UserInputError(f"field {col!r} is not a string", path=name, line=number)
            column.append(value)
    return out
