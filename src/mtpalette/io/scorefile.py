"""Precomputed segment scores of any metric (COMET, BLEURT, MetricX...): read and write.

The mtpalette layout, TSV (a header row) or JSON Lines, one row per score:

* ``system``: the candidate's origin as mtpalette names it - a system name (the output
  file's name without the parts all the files share, as ``mtpalette orange --systems`` prints
  it), ``n-best #J`` for the ``J``-th entry (1-based) of an n-best list - or a reference's name
  (named the same way from the reference files) for a reference's own score;
* ``segment``: the segment's 1-based line number in the texts;
* ``score``: a finite number;
* ``heldout`` (optional): the reference left out. Empty (or absent) means "scored against
  every reference" for a candidate, and "against every other reference" for a reference.
  Leave-one-out ORANGE needs, for every reference ``k``, each candidate's score against the
  other references (``heldout = k``) and reference ``k``'s own score.

The mt-metrics-eval layout is also read: a file per reference,
``<metric>-<ref>.seg.score``, with lines ``system<TAB>score``, each system's lines in segment
order; its rows are read with ``heldout`` = the references other than ``<ref>`` (with two
references, the file of reference A is exactly the "B held out" part).

Every key ``(system, segment, heldout)`` must appear at most once; a row that is not a number,
NaN or infinite, a duplicate key, and a key the run needs but the file lacks are errors that
name the file and the line.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtpalette.errors import UserInputError, shortened
from mtpalette.io.plain import display_name, read_lines
from mtpalette.io.runfile import atomic_writer
from mtpalette.io.tabular import _rows, table_format

Key = tuple[str, int, str]


@dataclass
class ScoreFile:
    """Scores keyed by ``(system, segment, heldout)``; ``where`` gives each key's line."""

    path: str
    scores: dict[Key, float] = field(default_factory=dict)
    where: dict[Key, int] = field(default_factory=dict)

    def add(self, key: Key, value: float, line: int) -> None:
        if key in self.scores:
            system, segment, heldout = key
            held = f", held out {heldout!r}" if heldout else ""
            raise UserInputError(
                f"duplicate score for system {system!r}, segment {segment}{held} "
                f"(first at line {self.where[key]})",
                path=self.path,
                line=line,
            )
        self.scores[key] = value
        self.where[key] = line

    def get(self, system: str, segment: int, heldout: str = "") -> float:
        """The score of one key; a missing key is an error naming the file."""
        try:
            return self.scores[(system, segment, heldout)]
        except KeyError:
            held = f" with reference {heldout!r} held out" if heldout else ""
            raise UserInputError(
                f"no score for system {system!r}, segment {segment}{held}; the file has "
                f"{len(self.scores)} scores for system(s) {', '.join(self.systems()[:8])}",
                path=self.path,
            ) from None

    def systems(self) -> list[str]:
        return list(dict.fromkeys(k[0] for k in self.scores))

    def has_heldout(self) -> bool:
        return any(k[2] for k in self.scores)


def _number(text: object, path: str, line: int) -> float:
    try:
        value = float(text)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise UserInputError(f"score {text!r} is not a number", path=path, line=line) from None
    except OverflowError:  # a JSON integer too large for a float
        value = math.inf
    if not math.isfinite(value):
        raise UserInputError(
            f"score {shortened(repr(text))} is not a finite number", path=path, line=line
        )
    return value


def _segment(text: object, path: str, line: int) -> int:
    try:
        value = int(str(text).strip())
    except ValueError:
        raise UserInputError(
            f"segment {text!r} is not a line number (1, 2, ...)", path=path, line=line
        ) from None
    if not 1 <= value <= 2**62:
        raise UserInputError(
            f"segment {shortened(str(value))} is not a 1-based line number", path=path, line=line
        )
    return value


def read_scores(path: str | Path, *, fmt: str | None = None) -> ScoreFile:
    """A score file in the mtpalette layout (TSV or JSONL, see the module docstring).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "comet.tsv")
    >>> _ = open(p, "w").write("system\\tsegment\\tscore\\nA\\t1\\t0.5\\nref\\t1\\t0.9\\n")
    >>> read_scores(p).get("A", 1)
    0.5
    """
    out = ScoreFile(display_name(path))
    for (name, line), row in _rows(path, ["system", "segment", "score"], fmt):
        system = str(row["system"]).strip()
        if not system:
            raise UserInputError("empty system name", path=name, line=line)
        heldout = row.get("heldout") or ""
        key = (system, _segment(row["segment"], name, line), str(heldout).strip())
        out.add(key, _number(row["score"], name, line), line)
    return out


def read_mt_metrics_eval(paths: Sequence[str | Path], refs: Sequence[str]) -> ScoreFile:
    """mt-metrics-eval ``<metric>-<ref>.seg.score`` files, one per reference of ``refs``.

    The file of reference ``r`` holds every system scored against ``r`` alone; its rows get
    ``heldout`` = the other reference when there are two, and ``""`` when ``refs`` has one.
    """
    if len(refs) > 2:
        raise UserInputError(
            "mt-metrics-eval files score against one reference each: with more than two "
            "references, give mtpalette-layout files with a heldout column"
        )
    if len(paths) != len(refs):
        raise UserInputError(f"give one score file per reference ({len(refs)}), not {len(paths)}")
    out = ScoreFile(", ".join(display_name(p) for p in paths))
    for path, ref in zip(paths, refs, strict=True):
        name = display_name(path)
        other = [r for r in refs if r != ref]
        heldout = other[0] if other else ""
        seen: dict[str, int] = {}
        part = ScoreFile(name)
        for line, text in enumerate(read_lines(path), start=1):
            fields = text.split("\t")
            if len(fields) != 2 or not fields[0].strip():
                raise UserInputError(
                    f"expected 'system<TAB>score', found {len(fields)} field(s)",
                    path=name,
                    line=line,
                )
            system = fields[0].strip()
            seen[system] = seen.get(system, 0) + 1
            part.add((system, seen[system], heldout), _number(fields[1], name, line), line)
        counts = set(seen.values())
        if len(counts) > 1:
            raise UserInputError(
                f"systems have different numbers of segments ({', '.join(map(str, counts))})",
                path=name,
            )
        for key, value in part.scores.items():
            out.scores[key] = value
            out.where[key] = part.where[key]
    return out


def write_scores(
    path: str | Path, rows: Iterable[tuple[str, int, str, float]], *, fmt: str | None = None
) -> int:
    """Write ``(system, segment, heldout, score)`` rows atomically; scores keep every digit
    (``repr``), so a file read back gives the same floats. Returns the number of rows."""
    import json

    n = 0
    as_jsonl = table_format(path, fmt) == "jsonl"
    with atomic_writer(path) as fh:
        if not as_jsonl:
            fh.write("system\tsegment\theldout\tscore\n")
        for system, segment, heldout, score in rows:
            if as_jsonl:
                obj = {"system": system, "segment": segment, "heldout": heldout, "score": score}
                fh.write(json.dumps(obj) + "\n")
            else:
                if "\t" in system or "\n" in system:
                    raise UserInputError(f"system name {system!r} contains a tab or a newline")
                fh.write(f"{system}\t{segment}\t{heldout}\t{float(score)!r}\n")
            n += 1
    return n
