"""Reading judgment files: their text, lines and fields, numbers checked, and the
``(system, item, score)`` rows collected into a :class:`~mtpalette.io.judgments.Judgments`
matrix; every error names the file and the line. Shared by the judgment readers
(:mod:`mtpalette.io.judgments_read`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError, shortened
from mtpalette.io import inputs
from mtpalette.io.judgments import Judgments
from mtpalette.io.plain import gunzipped


def read_text(path: str | Path) -> str:
    """A UTF-8 (optionally gzip-compressed) file's text; errors name the file."""
    p = Path(path)
    try:
        data = p.read_bytes()
        inputs.note(p)
    except FileNotFoundError:
        raise UserInputError("file not found", path=str(path)) from None
    except IsADirectoryError:
        raise UserInputError("is a directory, expected a file", path=str(path)) from None
    data = gunzipped(data, str(path))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UserInputError(
            "invalid UTF-8; expected UTF-8 text", path=str(path), line=line
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def text_lines(path: str | Path) -> list[str]:
    lines = read_text(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def split_rows(
    lines: list[str], first: int, n_fields: int, path: str, layout: str = ""
) -> Iterator[tuple[int, list[str]]]:
    """The non-blank ``lines`` split on white space, with their line numbers (the first is
    ``first``); a line of other than ``n_fields`` fields is refused, naming ``layout``."""
    for k, ln in enumerate(lines, start=first):
        fields = ln.split()
        if not fields:
            continue
        if len(fields) != n_fields:
            shape = f" ({layout})" if layout else ""
            raise UserInputError(
                f"expected {n_fields} fields{shape}, found {len(fields)}", path=path, line=k
            )
        yield k, fields


def number_field(text: str, what: str, path: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not a number", path=path, line=line) from None
    if not math.isfinite(value):
        raise UserInputError(
            f"{what} is {shortened(text)!r}; expected a finite number", path=path, line=line
        )
    return value


def integer_field(text: str, what: str, path: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not an integer", path=path, line=line) from None


class MatrixBuilder:
    """Collects (system, item, score) and reports duplicates with both lines."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.values: dict[tuple[str, Hashable], tuple[float, int]] = {}
        self.systems: dict[str, None] = {}

    def add(self, system: str, item: Hashable, score: float, line: int) -> None:
        if not system:
            raise UserInputError("empty system name", path=self.path, line=line)
        key = (system, item)
        if key in self.values:
            raise UserInputError(
                f"duplicate judgment of system {system!r} segment {item!r} (first on line "
                f"{self.values[key][1]})",
                path=self.path,
                line=line,
            )
        self.values[key] = (score, line)
        self.systems.setdefault(system, None)

    def build(self, kind: str, **extra: Any) -> Judgments:
        if not self.values:
            raise UserInputError("no judgments in the file", path=self.path)
        systems = list(self.systems)
        items = sorted({i for _, i in self.values}, key=sort_key)
        col = {i: k for k, i in enumerate(items)}
        row = {s: k for k, s in enumerate(systems)}
        scores = np.full((len(systems), len(items)), np.nan)
        for (s, i), (v, _) in self.values.items():
            scores[row[s], col[i]] = v
        return Judgments(systems, items, scores, kind, self.path, **extra)


def sort_key(x: Hashable) -> tuple:
    return (0, x, "") if isinstance(x, int) else (1, 0, str(x))


def tsv_rows(text: str, path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise UserInputError("the file is empty", path=path)
    header = lines[0].rstrip("\r").split("\t")
    rows = []
    for k, ln in enumerate(lines[1:], start=2):
        ln = ln.rstrip("\r")
        if ln.strip():
            rows.append((k, ln.split("\t")))
    return header, rows
