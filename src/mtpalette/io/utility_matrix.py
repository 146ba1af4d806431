"""Stored MBR utility matrices: per segment, candidates x pseudo-references, read back.

Two layouts:

* ``.npz``, as ``mtpalette mbr --matrix`` writes it: one array ``segment_<id>`` per segment
  (ids as in the n-best file), of shape (candidates, references);
* a table (TSV with a header, CSV, JSONL or Parquet, as :func:`mtpalette.io.tabular.rows`
  reads them) of pairwise scores written by another tool (a COMET or MetricX pairwise run),
  one row per cell: ``segment`` (its id), ``candidate`` and ``reference`` (0-based positions
  in the segment's list of candidates, the references being the candidates in MBR) and
  ``score``.

Every segment must have a full matrix with one row per candidate: a missing segment or cell,
a cell given twice, a position outside the list, a score that is not a finite number and a
shape that does not match the candidates are errors naming the file (and the line, or the
array).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.plain import display_name
from mtpalette.io.tabular import cell_float, rows


def read_utility_matrices(
    path: str | Path, sizes: Sequence[int], *, id_base: int = 0
) -> list[np.ndarray]:
    """Per segment ``s`` (id ``s + id_base``), its ``(sizes[s], M_s)`` float64 matrix.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "comet.tsv")
    >>> cells = "".join(f"0\\t{i}\\t{j}\\t{0.5 + i - j}\\n" for i in range(2) for j in range(2))
    >>> _ = open(p, "w").write("segment\\tcandidate\\treference\\tscore\\n" + cells)
    >>> read_utility_matrices(p, [2])[0].tolist()
    [[0.5, -0.5], [1.5, 0.5]]
    """
    name = display_name(path)
    if str(path).endswith(".npz"):
        return _npz(path, name, sizes, id_base)
    cells: dict[int, dict[tuple[int, int], float]] = {}
    for (file, line), row in rows(path, ["segment", "candidate", "reference", "score"]):
        seg = _integer(row["segment"], "segment", file, line) - id_base
        i = _integer(row["candidate"], "candidate", file, line)
        j = _integer(row["reference"], "reference", file, line)
        if not 0 <= seg < len(sizes):
            raise UserInputError(
                f"segment {seg + id_base} is not among the n-best's ids {id_base}.."
                f"{len(sizes) - 1 + id_base}",
                path=file,
                line=line,
            )
        if not 0 <= i < sizes[seg]:
            raise UserInputError(
                f"candidate {i} of segment {seg + id_base}: the segment has {sizes[seg]} "
                "(positions from 0)",
                path=file,
                line=line,
            )
        if j < 0:
            raise UserInputError(f"reference {j}: positions count from 0", path=file, line=line)
        seen = cells.setdefault(seg, {})
        if (i, j) in seen:
            raise UserInputError(
                f"segment {seg + id_base}, candidate {i}, reference {j} is given twice",
                path=file,
                line=line,
            )
        seen[(i, j)] = _score(row["score"], file, line)
    return [_full(cells.get(s, {}), n, s + id_base, name) for s, n in enumerate(sizes)]


def _npz(path, name: str, sizes: Sequence[int], id_base: int) -> list[np.ndarray]:
    try:
        stored = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise UserInputError(f"not a readable .npz file ({e})", path=name) from None
    out = []
    with stored:
        for s, n in enumerate(sizes):
            key = f"segment_{s + id_base}"
            if key not in stored.files:
                raise UserInputError(f"no array {key!r} (one per segment id)", path=name)
            m = np.asarray(stored[key], dtype=np.float64)
            if m.ndim != 2 or m.shape[0] != n:
                raise UserInputError(
                    f"{key} has shape {m.shape}; expected ({n}, references): one row per "
                    "candidate",
                    path=name,
                )
            if not np.all(np.isfinite(m)):
                raise UserInputError(f"{key} holds a value that is not finite", path=name)
            out.append(m)
    return out


def _full(cells: dict[tuple[int, int], float], n: int, seg_id: int, name: str) -> np.ndarray:
    """The segment's matrix; every cell of ``n`` rows x (largest reference + 1) present."""
    if not cells:
        raise UserInputError(f"no score for segment {seg_id}", path=name)
    m = max(j for _, j in cells) + 1
    if len(cells) != n * m:
        missing = next((i, j) for i in range(n) for j in range(m) if (i, j) not in cells)
        raise UserInputError(
            f"segment {seg_id}: {len(cells)} of its {n} x {m} cells; candidate {missing[0]}, "
            f"reference {missing[1]} has no score",
            path=name,
        )
    out = np.empty((n, m))
    for (i, j), v in cells.items():
        out[i, j] = v
    return out


def _integer(value, what: str, file: str, line: int) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise UserInputError(f"{what} {value!r} is not an integer", path=file, line=line) from None


def _score(value, file: str, line: int) -> float:
    try:
        out = cell_float(value)
    except (TypeError, ValueError):
        out = math.nan
    if not math.isfinite(out):
        raise UserInputError(f"score {value!r} is not a finite number", path=file, line=line)
    return out
