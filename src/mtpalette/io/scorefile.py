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

The mt-metrics-eval layout is also read (:func:`read_score_option`): a file per reference,
``<metric>-<ref>.<level>.score``, header-less ``system score`` lines, each system's lines in
segment (document) order; its rows are read with ``heldout`` = the references other than
``<ref>`` (with two references, the file of reference A is exactly the "B held out" part). A
literal MTME path is read against the reference its name gives; ``{ref}`` in a path expands
to each reference's MTME name (``refA`` for ``references/zh-en.refA.txt``).

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
from mtpalette.io.mtme_files import read_score_file
from mtpalette.io.plain import display_name
from mtpalette.io.runfile import atomic_writer
from mtpalette.io.tabular import cell_float, rows, table_format

Key = tuple[str, int, str]


@dataclass
class ScoreFile:
    """Scores keyed by ``(system, segment, heldout)``; ``where`` gives each key's line.

    ``level`` is ``seg`` (the key's number is a segment), or for an MTME document- or
    system-level file ``doc`` (a document, in text order) or ``sys`` (always 1).
    """

    path: str
    scores: dict[Key, float] = field(default_factory=dict)
    where: dict[Key, int] = field(default_factory=dict)
    level: str = "seg"

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
        value = cell_float(text)
    except (TypeError, ValueError):
        raise UserInputError(f"score {text!r} is not a number", path=path, line=line) from None
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
    for (name, line), row in rows(path, ["system", "segment", "score"], fmt=fmt):
        system = str(row["system"]).strip()
        if not system:
            raise UserInputError("empty system name", path=name, line=line)
        heldout = row.get("heldout") or ""
        key = (system, _segment(row["segment"], name, line), str(heldout).strip())
        out.add(key, _number(row["score"], name, line), line)
    return out


def mtme_ref_name(name: str) -> str:
    """The name MTME gives a reference, from its file name or stem: the part before the
    extension (``zh-en.refA.txt``, ``zh-en.refA`` -> ``refA``).

    Examples
    --------
    >>> mtme_ref_name("zh-en.refA"), mtme_ref_name("references/en-de.refB.txt"), mtme_ref_name("A")
    ('refA', 'refB', 'A')
    """
    stem = Path(name).name
    for ext in (".txt", ".jsonl"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
    return stem.rsplit(".", 1)[-1]


def is_mtme_score_file(path: str | Path) -> bool:
    """Whether ``path`` looks like an MTME score file: named ``NAME-REF.LEVEL.score``, or
    header-less ``system score`` lines (a second field that is a number or ``None``)."""
    name = Path(path).name
    if name.endswith((".seg.score", ".doc.score", ".sys.score", ".domain.score")):
        return True
    if str(path) == "-" or not Path(path).is_file():
        return False
    with open(path, encoding="utf-8", errors="replace") as fh:
        first = fh.readline().split()
    if len(first) != 2:
        return False
    try:
        float(first[1])
    except ValueError:
        return first[1] == "None"
    return True


def _mtme_rows(path: str | Path, heldout: str, level: str) -> ScoreFile:
    """One header-less MTME file as a :class:`ScoreFile` (the ``i``-th line of a system is
    its item ``i``: segment, document or, at system level, 1)."""
    lines = read_score_file(path, level=level, allow_none=False)
    name = display_name(path)
    counts = {len(v) for v in lines.scores.values()}
    if len(counts) > 1:
        what = "segments" if level == "seg" else f"{level} scores"
        raise UserInputError(
            f"systems have different numbers of {what} ({', '.join(map(str, sorted(counts)))})",
            path=name,
        )
    out = ScoreFile(name, level=level)
    for system, values in lines.scores.items():
        for k, (value, line) in enumerate(zip(values, lines.lines[system], strict=True), 1):
            out.add((system, k, heldout), value, line)
    return out


def _level_of(path: str | Path) -> str:
    parts = Path(path).name.rsplit(".", 2)
    if len(parts) == 3 and parts[2] == "score" and parts[1] in ("seg", "doc", "sys", "domain"):
        if parts[1] == "domain":
            raise UserInputError(
                "a domain-level MTME file needs the test set's domains: read it with "
                "mtpalette.io.mtme.read_mtme (--mtme DIR --mtme-metrics NAME)",
                path=display_name(path),
            )
        return parts[1]
    return "seg"


def read_mt_metrics_eval(paths: Sequence[str | Path], refs: Sequence[str]) -> ScoreFile:
    """mt-metrics-eval ``<metric>-<ref>.<level>.score`` files, one per reference of ``refs``.

    The file of reference ``r`` holds every system scored against ``r`` alone; its rows get
    ``heldout`` = the other reference when there are two, and ``""`` when ``refs`` has one.
    Lines are ``system score`` (MTME's white-space separated, header-less format); the level
    (``seg``, ``doc``, ``sys``) comes from the file name, ``seg`` when it says none.
    """
    if len(refs) > 2:
        raise UserInputError(
            "mt-metrics-eval files score against one reference each: with more than two "
            "references, give mtpalette-layout files with a heldout column"
        )
    if len(paths) != len(refs):
        raise UserInputError(f"give one score file per reference ({len(refs)}), not {len(paths)}")
    levels = {_level_of(p) for p in paths}
    if len(levels) > 1:
        raise UserInputError(f"score files of different levels: {', '.join(sorted(levels))}")
    out = ScoreFile(", ".join(display_name(p) for p in paths), level=levels.pop())
    for path, ref in zip(paths, refs, strict=True):
        other = [r for r in refs if r != ref]
        part = _mtme_rows(path, other[0] if other else "", out.level)
        out.scores.update(part.scores)
        out.where.update(part.where)
    return out


def read_score_option(
    path: str, ref_names: Sequence[str], *, layout: str | None = None
) -> ScoreFile:
    """The scores of a ``--scores NAME=PATH[,layout=...]`` option.

    Parameters
    ----------
    path:
        A file in the mtpalette layout; an MTME file (``.../BLEU-refA.seg.score``, or any
        header-less ``system score`` file), read as scored against the reference its name
        gives; or an MTME path with ``{ref}``, expanded to each reference's MTME name
        (``BLEU-{ref}.seg.score`` -> ``BLEU-refA.seg.score``, ``BLEU-refB.seg.score``).
    ref_names:
        The run's reference names (file stems such as ``zh-en.refA`` are fine).
    layout:
        ``mtpalette`` or ``mtme``; None guesses from the path and the first line.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> for r in ("refA", "refB"):
    ...     _ = open(os.path.join(d, f"BLEU-{r}.seg.score"), "w").write(f"A\\t{len(r)}\\n")
    >>> f = read_score_option(os.path.join(d, "BLEU-{ref}.seg.score"), ["zh-en.refA", "zh-en.refB"])
    >>> sorted(f.scores.items())
    [(('A', 1, 'zh-en.refA'), 4.0), (('A', 1, 'zh-en.refB'), 4.0)]
    """
    if layout not in (None, "mtpalette", "mtme"):
        raise UserInputError(f"unknown layout {layout!r}; expected mtpalette or mtme")
    mtme_names = [mtme_ref_name(r) for r in ref_names]
    if "{ref}" in path:
        if layout == "mtpalette":
            raise UserInputError(f"{path}: {{ref}} is for MTME files (layout=mtme)")
        return read_mt_metrics_eval([path.replace("{ref}", r) for r in mtme_names], ref_names)
    if layout == "mtpalette" or (layout is None and not is_mtme_score_file(path)):
        return read_scores(path)
    parts = Path(path).name.rsplit(".", 2)
    ref_text = parts[0].rsplit("-", 1)[-1] if "-" in parts[0] and len(parts) == 3 else None
    # no reference, or every reference of the run (``chrF-refA.refB``: scored against all)
    if ref_text in (None, "src", "all") or sorted(ref_text.split(".")) == sorted(mtme_names):
        return _mtme_rows(path, "", _level_of(path))
    if ref_text not in mtme_names:
        raise UserInputError(
            f"the file scores against {ref_text!r} (NAME-REF.LEVEL.score), not one of this "
            f"run's references ({', '.join(mtme_names)})",
            path=display_name(path),
        )
    if len(ref_names) > 2:
        raise UserInputError(
            "an MTME file scores against one reference: with more than two references, give "
            "mtpalette-layout files with a heldout column",
            path=display_name(path),
        )
    other = [r for r, m in zip(ref_names, mtme_names, strict=True) if m != ref_text]
    return _mtme_rows(path, other[0], _level_of(path))


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
