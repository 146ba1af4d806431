"""Scores per system and item from files, as the tools that made them write them: the input of
system ranking (``mtpalette rank``).

* a **long table** (TSV, CSV, JSON Lines, Parquet) with named columns for the system, the
  item, the score, and optionally the domain and the document (human ratings such as ESA,
  MQM or DA; any metric);
* **mtpalette's score files** (``system``, ``segment``, ``score``; :mod:`mtpalette.io.scorefile`)
  and **mt-metrics-eval's** ``NAME-REF.seg.score`` (one ``system score`` line per segment);
* **COMET's** ``comet-score --to_json`` output: ``{"<hypothesis file>": [{"src", "mt", "ref",
  "COMET"}, ...]}``, the segments in file order, each system named by its file's name;
* **MetricX's** ``predict`` output (JSON Lines with ``system_id``, a 0-based ``segment_id`` and
  ``prediction``, an error score: lower is better, as MetricX-23/24 define it).

Every reader returns :class:`ItemScores`; every malformed row is refused with the file and the
line, and a (system, item) scored twice is an error.

References
----------
Unbabel/COMET ``comet/cli/score.py`` (the ``--to_json`` layout) and google-research/metricx
``metricx24/evaluate_wmt24.py`` (``system_id``, ``segment_id``, ``-1 * prediction``), read,
not copied.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import loads
from mtpalette.io.plain import display_name, read_lines
from mtpalette.io.tabular import (
    PARQUET_MAGIC,
    _check_header,
    _head,
    cell_float,
    rows,
    table_format,
)

#: the layouts :func:`read_item_scores` knows
LAYOUTS = ("auto", "mtpalette", "mtme", "comet", "metricx")


@dataclass
class ItemScores:
    """Scores of systems on items: ``scores[(system, item)]``, with each item's domain and
    document where known, and the direction of the scores."""

    path: str
    scores: dict[tuple[str, Any], float] = field(default_factory=dict)
    where: dict[tuple[str, Any], int] = field(default_factory=dict)
    domains: dict[Any, str] = field(default_factory=dict)
    docs: dict[Any, str] = field(default_factory=dict)
    higher_is_better: bool = True
    layout: str = "table"

    def add(self, system: str, item: Any, value: float, line: int) -> None:
        key = (system, item)
        if key in self.scores:
            raise UserInputError(
                f"system {system!r} item {item!r} scored twice (first on line {self.where[key]})",
                path=self.path,
                line=line,
            )
        if not math.isfinite(value):
            raise UserInputError(f"score {value!r} is not a finite number", path=self.path,
                                 line=line)  # fmt: skip
        self.scores[key] = value
        self.where[key] = line

    def label(self, kind: dict[Any, str], item: Any, value: Any, line: int, what: str) -> None:
        text = "" if value is None else str(value).strip()
        if not text:
            raise UserInputError(f"empty {what}", path=self.path, line=line)
        if kind.setdefault(item, text) != text:
            raise UserInputError(
                f"item {item!r} is in {what} {kind[item]!r} and {text!r}",
                path=self.path,
                line=line,
            )

    @property
    def systems(self) -> list[str]:
        return list(dict.fromkeys(s for s, _ in self.scores))

    @property
    def items(self) -> list[Any]:
        seen = list(dict.fromkeys(i for _, i in self.scores))
        if all(isinstance(i, int) for i in seen):
            return sorted(seen)
        return seen

    def matrix(self) -> tuple[list[str], list[Any], np.ndarray]:
        """``(systems, items, scores)``: the ``(systems, items)`` matrix, NaN where a system
        has no score for an item."""
        systems, items = self.systems, self.items
        row = {s: k for k, s in enumerate(systems)}
        col = {i: k for k, i in enumerate(items)}
        out = np.full((len(systems), len(items)), np.nan)
        for (s, i), v in self.scores.items():
            out[row[s], col[i]] = v
        return systems, items, out


def _item(value: Any, path: str, line: int) -> Any:
    if isinstance(value, bool) or value is None:
        raise UserInputError(f"item id {value!r} is not an id", path=path, line=line)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not text:
        raise UserInputError("empty item id", path=path, line=line)
    return int(text) if text.lstrip("-").isdigit() else text


def _score(value: Any, path: str, line: int) -> float:
    try:
        return cell_float(value)
    except (TypeError, ValueError):
        raise UserInputError(f"score {value!r} is not a number", path=path, line=line) from None


def read_long_scores(
    path: str | Path,
    *,
    system_col: str = "system",
    item_col: str = "item",
    score_col: str = "score",
    domain_col: str | None = None,
    doc_col: str | None = None,
    fmt: str | None = None,
    higher_is_better: bool = True,
    repeated: str = "refuse",
    lp_col: str | None = None,
) -> ItemScores | dict[str, ItemScores]:
    """A long table, one row per (system, item), the columns named; with ``repeated="mean"``
    several rows of one (system, item) are its annotations, averaged (WMT26's item score).
    With ``lp_col`` the table holds several language pairs: ``{pair: ItemScores}``, in the
    order the pairs first appear, each pair's items and systems its own.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "esa.tsv")
    >>> rows = ["system\\titem\\tdomain\\tscore", "A\\t1\\tnews\\t80", "B\\t1\\tnews\\t60"]
    >>> _ = open(p, "w").write("\\n".join(rows) + "\\n")
    >>> s = read_long_scores(p, domain_col="domain")
    >>> s.matrix()[2].tolist(), s.domains
    ([[80.0], [60.0]], {1: 'news'})
    """
    if repeated not in ("refuse", "mean"):
        raise ValueError(f"repeated must be 'refuse' or 'mean' (got {repeated!r})")
    if repeated == "refuse" and lp_col is None:
        fast = _long_scores_fast(path, (system_col, item_col, score_col, domain_col, doc_col),
                                 fmt, higher_is_better)  # fmt: skip
        if fast is not None:
            return fast
    annotations: dict[tuple[str, str, Any], tuple[int, list[float]]] = {}
    name = display_name(path)
    pairs: dict[str, ItemScores] = {}
    columns = [system_col, item_col, score_col] + [c for c in (domain_col, doc_col, lp_col) if c]
    for (_, line), row in rows(path, columns, fmt=fmt):
        system = "" if row[system_col] is None else str(row[system_col]).strip()
        if not system:
            raise UserInputError(f"empty {system_col!r}", path=name, line=line)
        lp = "" if lp_col is None or row[lp_col] is None else str(row[lp_col]).strip()
        if lp_col is not None and not lp:
            raise UserInputError(f"empty {lp_col!r}", path=name, line=line)
        out = pairs.get(lp)
        if out is None:
            out = pairs[lp] = ItemScores(name, higher_is_better=higher_is_better, layout="table")
        item = _item(row[item_col], name, line)
        value = _score(row[score_col], name, line)
        if repeated == "mean":
            annotations.setdefault((lp, system, item), (line, []))[1].append(value)
        else:
            out.add(system, item, value, line)
        if domain_col:
            out.label(out.domains, item, row[domain_col], line, f"{domain_col!r}")
        if doc_col:
            out.label(out.docs, item, row[doc_col], line, f"{doc_col!r}")
    for (lp, system, item), (line, values) in annotations.items():
        pairs[lp].add(system, item, math.fsum(values) / len(values), line)
    if lp_col is not None:
        return pairs
    return pairs.get("") or ItemScores(name, higher_is_better=higher_is_better, layout="table")


def _long_scores_fast(path, columns, fmt, higher_is_better) -> ItemScores | None:
    """:func:`read_long_scores` of a plain TSV file (no quotes, every line its header's
    fields, one row per (system, item)) a column at a time: the same ids, scores, labels,
    line numbers and order as the row-by-row reader, in a fraction of its time (a WMT24 ESA
    pair is ~8,000 rows). None for anything else (another format, standard input, a quote,
    an empty or non-finite cell, a row scored twice, an item in two domains...), which the
    row-by-row reader then reads or refuses, naming the line
    (``tests/io/test_item_scores_fast.py`` keeps the two equal)."""
    system_col, item_col, score_col, domain_col, doc_col = columns
    if str(path) == "-" or table_format(path, fmt) != "tsv" or _head(path).startswith(
        PARQUET_MAGIC
    ):
        return None
    lines = read_lines(path)
    if any('"' in line for line in lines):  # quoted fields: the row reader's rules
        return None
    header = lines[0].split("\t")
    _check_header(display_name(path), header, [c for c in columns if c], "tab")
    if len(lines) < 2:
        return None
    fields = [line.split("\t") for line in lines[1:]]
    if any(len(f) != len(header) for f in fields):
        return None

    def column(name: str) -> list[str] | None:
        k = header.index(name)
        cells = [f[k].strip() for f in fields]
        return cells if all(cells) else None

    systems, texts = column(system_col), column(item_col)
    if systems is None or texts is None:
        return None
    try:
        items = [int(t) if t.lstrip("-").isdigit() else t for t in texts]
        k = header.index(score_col)
        values = [float(f[k]) for f in fields]
    except ValueError:
        return None
    if not all(map(math.isfinite, values)):
        return None
    keys = list(zip(systems, items, strict=True))
    out = ItemScores(display_name(path), higher_is_better=higher_is_better, layout="table")
    out.scores = dict(zip(keys, values, strict=True))
    if len(out.scores) != len(keys):  # a (system, item) twice
        return None
    out.where = dict(zip(keys, range(2, len(keys) + 2), strict=True))
    for name, kind in ((domain_col, out.domains), (doc_col, out.docs)):
        if not name:
            continue
        labels = column(name)
        if labels is None:
            return None
        for item, label in zip(items, labels, strict=True):
            if kind.setdefault(item, label) != label:
                return None
    return out


def read_comet_json(path: str | Path) -> ItemScores:
    """``comet-score --to_json`` output: each hypothesis file's list of segments, the score
    under ``COMET``; items are 1-based segment numbers, systems the files' names."""
    name = display_name(path)
    text = "\n".join(read_lines(path))
    try:
        obj = loads(text, path=name)  # a key twice (a file, a field) refused
    except json.JSONDecodeError as exc:
        raise UserInputError(f"invalid JSON ({exc.msg})", path=name, line=exc.lineno) from None
    if not isinstance(obj, dict) or not obj:
        raise UserInputError(
            'expected COMET\'s --to_json layout {"<hypothesis file>": [{"mt": ..., "COMET": '
            "...}, ...]}",
            path=name,
        )
    out = ItemScores(name, layout="comet")
    systems = {str(f): Path(str(f)).stem or str(f) for f in obj}
    if len(set(systems.values())) != len(systems):
        systems = {f: f for f in systems}  # two files of one stem: their paths tell them apart
    lengths = {}
    for file, segments in obj.items():
        if not isinstance(segments, list):
            raise UserInputError(f"{file!r}: expected a list of segments", path=name)
        for k, seg in enumerate(segments, start=1):
            where = f"{file!r} segment {k}"  # one JSON document: no line to name
            if not isinstance(seg, dict) or "COMET" not in seg:
                raise UserInputError(f"{where}: expected an object with a COMET score", path=name)
            try:
                value = cell_float(seg["COMET"])
            except (TypeError, ValueError):
                value = math.nan
            if not math.isfinite(value):
                raise UserInputError(
                    f"{where}: COMET score {seg['COMET']!r} is not a finite number", path=name
                )
            out.add(systems[str(file)], k, value, k)
        lengths[str(file)] = len(segments)
    if len(set(lengths.values())) > 1:  # one test set: once ranked on the items in common
        most, fewest = max(lengths, key=lengths.get), min(lengths, key=lengths.get)
        raise UserInputError(
            f"{fewest!r} has {lengths[fewest]} segments, {most!r} {lengths[most]}: COMET "
            "scored one test set, so every file has every segment",
            path=name,
        )
    return out


def _every_system_every_item(out: ItemScores) -> ItemScores:
    """Refuse scores of one test set where a system lacks an item another has (the ranking
    would compare means over different items)."""
    items = set(out.items)
    for system in out.systems:
        missing = sorted(i for i in items if (system, i) not in out.scores)
        if missing:
            raise UserInputError(
                f"system {system!r} has no score for segment {missing[0] - 1} (0-based; "
                f"{len(missing)} missing): every system needs every segment",
                path=out.path,
            )
    return out


def read_metricx_jsonl(path: str | Path) -> ItemScores:
    """MetricX ``predict`` output: JSON Lines with ``system_id``, a 0-based ``segment_id`` and
    ``prediction`` (lower is better); items are the 1-based segment numbers."""
    name = display_name(path)
    out = ItemScores(name, higher_is_better=False, layout="metricx")
    for (_, line), row in rows(path, ["system_id", "segment_id", "prediction"], fmt="jsonl"):
        if row["system_id"] is None or isinstance(row["system_id"], bool | dict | list):
            raise UserInputError(
                f"system_id is {json.dumps(row['system_id'])}; expected a system name",
                path=name,
                line=line,
            )  # once read as a system named "None"
        system = str(row["system_id"]).strip()
        if not system:
            raise UserInputError("empty system_id", path=name, line=line)
        seg = _item(row["segment_id"], name, line)
        if not isinstance(seg, int) or seg < 0:
            raise UserInputError(
                f"segment_id {row['segment_id']!r} is not a 0-based segment number",
                path=name,
                line=line,
            )
        out.add(system, seg + 1, _score(row["prediction"], name, line), line)
    return _every_system_every_item(out)


def read_item_scores(path: str | Path, *, layout: str = "auto") -> ItemScores:
    """Scores per system and item from a file of any layout of the module docstring
    (``auto``: COMET's by a ``.json`` name, MetricX's by its ``prediction`` column, MTME's by
    its ``NAME-REF.seg.score`` name, else mtpalette's ``system``/``segment``/``score``)."""
    from mtpalette.io.scorefile import is_mtme_score_file, read_scores

    if layout not in LAYOUTS:
        raise UserInputError(f"unknown layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    p = Path(path)
    if layout == "auto":
        layout = _guess_layout(p, is_mtme_score_file(p))
    if layout == "comet":
        return read_comet_json(p)
    if layout == "metricx":
        return read_metricx_jsonl(p)
    name = display_name(p)
    out = ItemScores(name, layout=layout)
    if layout == "mtme":
        from mtpalette.io.mtme_files import read_score_file

        for system, values in read_score_file(p).scores.items():
            for k, v in enumerate(values, start=1):
                if not math.isnan(v):
                    out.add(system, k, float(v), k)
        return out
    file = read_scores(p)
    for (system, segment, heldout), v in file.scores.items():
        if heldout:
            raise UserInputError(
                "a held-out reference: rank takes one score per system and segment",
                path=name,
                line=file.where[(system, segment, heldout)],
            )
        out.add(system, segment, v, file.where[(system, segment, heldout)])
    return out


def _guess_layout(p: Path, mtme: bool) -> str:
    if p.suffix.lower() == ".json":
        return "comet"
    if mtme:
        return "mtme"
    if p.suffix.lower() == ".jsonl":
        first = next((t for t in read_lines(p, allow_empty=True) if t.strip()), "")
        try:
            head = json.loads(first)
        except json.JSONDecodeError:
            return "mtpalette"
        if isinstance(head, dict) and "prediction" in head and "system_id" in head:
            return "metricx"
    return "mtpalette"
