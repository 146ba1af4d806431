"""Generic judgment files (format ``generic``): ``(system, segment, score)`` rows of a
table (TSV, CSV, JSON Lines or Parquet), ``segment`` the line number of the system's output by
default.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError, shortened
from mtpalette.io.judgments import Judgments, _id_key
from mtpalette.io.judgments_parsing import MatrixBuilder, number_field
from mtpalette.io.tabular import cell_float


def read_generic(path: str | Path, *, id_base: int = 1) -> Judgments:
    """``(system, segment, score)`` judgments from a table with those columns: TSV, CSV, JSON
    Lines or Parquet (:func:`mtpalette.io.tabular.rows`; quoting as pandas writes it).

    ``segment`` is the line number of the system's output, the first line being ``id_base``
    (1 by default); non-integer ids need an id list when aligned with texts.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "j.tsv")
    >>> _ = open(p, "w").write("system\\tsegment\\tscore\\nA\\t1\\t0.5\\nA\\t2\\t0.25\\n")
    >>> j = read_generic(p)
    >>> j.systems, j.items, j.scores.tolist(), j.line_indices().tolist()
    (['A'], [1, 2], [[0.5, 0.25]], [0, 1])
    """
    from mtpalette.io.tabular import rows

    name = str(path)
    out = MatrixBuilder(name)
    keys: list[str] = []
    for (_, line), row in rows(path):
        if list(row) != keys:  # every row of a header; each object of JSON Lines
            keys = list(row)
            columns = _generic_columns(name, keys, line)
        system = row[columns["system"]]
        if not isinstance(system, str) or not system.strip():
            raise UserInputError(
                f'"system" is {shortened(json.dumps(system, default=str))}; '
                "expected a non-empty string",
                path=name,
                line=line,
            )
        out.add(
            system.strip(),
            _id_key(row[columns["segment"]]),
            _score_value(row[columns["score"]], name, line),
            line,
        )
    j = out.build("generic")
    ints = all(isinstance(i, int) for i in j.items)
    return replace(j, item_base=id_base if ints else None)


def _generic_columns(name: str, header: list[str], line: int = 1) -> dict[str, str]:
    """The header's system, segment and score columns (matched without case), refusing a
    header where two columns could be the same one."""
    found: dict[str, list[str]] = {"system": [], "segment": [], "score": []}
    for col in header:
        key = str(col).strip().lower()
        key = "segment" if key == "seg_id" else key
        if key in found:
            found[key].append(col)
    for key, cols in found.items():
        if len(cols) > 1:
            raise UserInputError(
                f"columns {', '.join(map(repr, cols))} could each be the {key}; keep one",
                path=name,
                line=line,
            )
    missing = [k for k, cols in found.items() if not cols]
    if missing:
        raise UserInputError(
            "each row needs the columns system, segment (or seg_id) and score; missing "
            f"{', '.join(missing)} in: {', '.join(map(str, header))}",
            path=name,
            line=line,
        )
    return {k: cols[0] for k, cols in found.items()}


def _score_value(value: Any, name: str, line: int) -> float:
    """A judgment's score from a table cell: a number, or the text of one."""
    if isinstance(value, str):
        if not value.strip():
            raise UserInputError("missing score", path=name, line=line)
        return number_field(value.strip(), "score", name, line)
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        raise UserInputError(f"score {value!r} is not a number", path=name, line=line)
    number = cell_float(value)
    if not math.isfinite(number):
        raise UserInputError(
            f"score is {shortened(str(value))}; expected a finite number", path=name, line=line
        )
    return number
