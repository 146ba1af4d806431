"""The file kinds of an mt-metrics-eval test set folder, one reader (and writer) each.

google-research/mt-metrics-eval (MTME) keeps a test set as a folder of plain files, read by
its ``data.EvalSet`` (``mt_metrics_eval/data.py`` at commit 68a481a). This module parses
single files exactly as MTME does and reports every mistake with the file and the line;
:mod:`mtpalette.io.mtme` assembles a test set from them.

* text files (``sources/LP.txt``, ``references/LP.REF.txt``, ``system-outputs/LP/SYS.txt``):
  one segment per line, trailing white space removed (MTME's ``rstrip``), the line
  ``[No translation supplied]`` meaning "no translation" (``None``);
* JSON Lines files (WMT24++: ``sources/LP.jsonl`` with the field ``source``,
  ``references/LP.REF.jsonl`` with ``target``, ``system-outputs/LP/SYS.jsonl`` with
  ``hypothesis``);
* score files ``[DOMAIN] SYSTEM SCORE`` (white-space separated, no header): at segment and
  document level each system's lines are its scores in text order, at system level one line
  per system, at domain level one line per domain and system; ``None`` is a missing human
  score (never allowed in a metric's file);
* rating files ``SYSTEM<TAB>RATING[<TAB>RATER]``, ``RATING`` a JSON object
  ``{"errors": [{"start", "end", "category", "severity", "score", "is_source_error"}]}`` or
  ``None``;
* ``documents/LP.docs``: ``DOMAIN DOC`` per segment, each document a contiguous block.

References
----------
google-research/mt-metrics-eval, ``mt_metrics_eval/data.py`` (``ReadScoreFile``,
``ReadDomainScoreFile``, ``_ReadTextFile``, ``_ReadFieldFromJsonl``, ``_MapPositions``),
``ratings.py`` (``ReadRatingFile``) and README ("File organization and naming convention"),
commit 68a481aea1a787392d55af8f76ac8ef40c5f4664.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby, repeat
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError, converted, shortened
from mtpalette.io.jsonfile import loads
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import atomic_writer

#: the line MTME reads as "no translation"
NO_TRANSLATION = "[No translation supplied]"
#: MTME's levels, from the coarsest
LEVELS = ("sys", "domain", "doc", "seg")
#: the JSON field of each JSON Lines file kind (WMT24++)
JSONL_FIELDS = {"source": "source", "reference": "target", "output": "hypothesis"}


@dataclass
class ScoreLines:
    """One MTME score file: each system's scores in file order (NaN for ``None``).

    ``lines[system]`` holds the 1-based line of each score.
    """

    path: str
    level: str
    scores: dict[str, list[float]] = field(default_factory=dict)
    lines: dict[str, list[int]] = field(default_factory=dict)

    def count_error(self, system: str, expected: int, what: str) -> UserInputError:
        """The error for a system with the wrong number of scores."""
        lines = self.lines[system]
        have = len(self.scores[system])
        return UserInputError(
            f"system {system!r} has {have} score line(s) (lines {lines[0]}-{lines[-1]}), "
            f"expected {expected} ({what}); a short block would shift every later score",
            path=self.path,
            line=lines[-1],
        )


def _score(text: str, path: str, line: int, *, allow_none: bool) -> float:
    if text == "None":
        if not allow_none:
            raise UserInputError(
                "score None in a metric's file; expected a number (None marks a missing "
                "human score only)",
                path=path,
                line=line,
            )
        return math.nan
    value = converted(
        float, text, "score {short!r} is not a number (or None)", path=path, line=line
    )
    if not math.isfinite(value):
        raise UserInputError(f"score {shortened(text)!r} is not finite", path=path, line=line)
    return value


def read_score_file(path: str | Path, *, level: str = "seg", allow_none: bool = True) -> ScoreLines:
    """An MTME ``SYSTEM SCORE`` file (segment, document or system level).

    Parameters
    ----------
    path:
        The file.
    level:
        ``seg``, ``doc`` or ``sys`` (for ``domain`` use :func:`read_domain_score_file`).
    allow_none:
        Accept ``None`` (a missing human score); metric files must not have any.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "BLEU-refA.seg.score")
    >>> _ = open(p, "w").write("A\\t0.5\\nA\\t0.25\\nB 1\\nB\\tNone\\n")
    >>> read_score_file(p).scores
    {'A': [0.5, 0.25], 'B': [1.0, nan]}
    """
    if level not in ("seg", "doc", "sys"):
        raise ValueError(f"level must be seg, doc or sys, not {level!r}")
    name = str(path)
    lines = read_lines(path, allow_empty=True)
    out = _score_lines_fast(lines, name, level)
    if out is None:  # a line to report, or a None: line by line, each error at its line
        out = _score_lines(lines, name, level, allow_none)
    if level == "sys":
        for system, numbers in out.lines.items():
            if len(numbers) != 1:
                raise UserInputError(
                    f"system {system!r} has {len(numbers)} lines (lines {numbers[0]} and "
                    f"{numbers[1]}); a system-level file has one line per system",
                    path=name,
                    line=numbers[1],
                )
    return out


def _score_lines_fast(lines: list[str], name: str, level: str) -> ScoreLines | None:
    """:func:`_score_lines` for a file of two fields a line and finite numbers only, in a few
    passes of compiled loops (a score file of WMT holds up to 10^5 lines, and a folder
    hundreds of them); None for anything else (an empty file, a line of other than 2 fields,
    a ``None``, a word or a non-finite value), which the line-by-line reader then reports.
    The values are Python's ``float`` of each field, as there, so the two agree exactly
    (``tests/io/test_mtme_files_fast.py``)."""
    n = len(lines)
    tokens = "\n".join(lines).split()
    sep = "\t" if n and "\t" in lines[0] else " "
    # every line has exactly one white-space character (at least one, the separator, and n in
    # all) and the file 2n fields: then each line is one system and one score
    if (
        not n
        or len(tokens) != 2 * n
        or sum(map(len, lines)) != sum(map(len, tokens)) + n
        or set(map(str.count, lines, repeat(sep))) != {1}
    ):
        return None
    systems = tokens[0::2]
    try:
        values = list(map(float, tokens[1::2]))
    except ValueError:
        return None
    if not math.isfinite(sum(values)):  # a nan or inf somewhere (or a sum past 1e308)
        return None
    out = ScoreLines(name, level)
    start = 0
    for system, run in groupby(systems):  # one block per system in MTME's files
        end = start + len(list(run))
        out.scores.setdefault(system, []).extend(values[start:end])
        out.lines.setdefault(system, []).extend(range(start + 1, end + 1))
        start = end
    return out


def _score_lines(lines: list[str], name: str, level: str, allow_none: bool) -> ScoreLines:
    """The ``SYSTEM SCORE`` lines of a file, one at a time (each mistake at its line)."""
    out = ScoreLines(name, level)
    for line, text in enumerate(lines, start=1):
        fields = text.split()
        if len(fields) != 2:
            raise UserInputError(
                f"expected 'system score' (2 fields), found {len(fields)}", path=name, line=line
            )
        system, score = fields
        out.scores.setdefault(system, []).append(_score(score, name, line, allow_none=allow_none))
        out.lines.setdefault(system, []).append(line)
    return out


def read_domain_score_file(
    path: str | Path, domains: Sequence[str], *, allow_none: bool = True
) -> ScoreLines:
    """An MTME ``DOMAIN SYSTEM SCORE`` file; each system's scores in the order of ``domains``
    (MTME's canonical order: sorted names), NaN where a domain has no line.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "m-refA.domain.score")
    >>> _ = open(p, "w").write("news A 0.5\\nsocial A 0.25\\n")
    >>> read_domain_score_file(p, ["news", "social"]).scores
    {'A': [0.5, 0.25]}
    """
    name = str(path)
    index = {d: k for k, d in enumerate(domains)}
    out = ScoreLines(name, "domain")
    for line, text in enumerate(read_lines(path, allow_empty=True), start=1):
        fields = text.split()
        if len(fields) != 3:
            raise UserInputError(
                f"expected 'domain system score' (3 fields), found {len(fields)}",
                path=name,
                line=line,
            )
        domain, system, score = fields
        if domain not in index:
            raise UserInputError(
                f"unknown domain {domain!r}; the documents file has "
                f"{', '.join(domains) or 'no domains'}",
                path=name,
                line=line,
            )
        row = out.scores.setdefault(system, [math.nan] * len(domains))
        where = out.lines.setdefault(system, [0] * len(domains))
        k = index[domain]
        if where[k]:
            raise UserInputError(
                f"second score of system {system!r} in domain {domain!r} (first on line "
                f"{where[k]})",
                path=name,
                line=line,
            )
        row[k] = _score(score, name, line, allow_none=allow_none)
        where[k] = line
    for system, where in out.lines.items():
        missing = [d for d, w in zip(domains, where, strict=True) if not w]
        if missing and not allow_none:
            raise UserInputError(
                f"no score of system {system!r} for domain(s) {', '.join(missing)}", path=name
            )
        present = [w for w in where if w]
        out.lines[system] = [min(present), max(present)]
    return out


def write_score_file(
    path: str | Path,
    scores: Mapping[str, Sequence[float]],
    *,
    domains: Sequence[str] | None = None,
) -> int:
    """Write scores as MTME writes them: ``SYSTEM<TAB>SCORE`` lines, each system's block in
    order; with ``domains``, ``DOMAIN<TAB>SYSTEM<TAB>SCORE`` lines. Scores keep every digit
    (``repr``); NaN is written ``None``. Returns the number of lines.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "m-refA.sys.score")
    >>> write_score_file(p, {"A": [0.5], "B": [0.1 + 0.2]})
    2
    >>> open(p).read()
    'A\\t0.5\\nB\\t0.30000000000000004\\n'
    """
    n = 0
    with atomic_writer(path) as fh:
        for system, values in scores.items():
            if not system or any(c.isspace() for c in system):
                raise UserInputError(f"system name {system!r} is empty or has white space")
            values = list(values)
            if domains is not None and len(values) != len(domains):
                raise UserInputError(
                    f"system {system!r}: {len(values)} domain scores for {len(domains)} domains"
                )
            for k, value in enumerate(values):
                v = float(value)
                text = "None" if math.isnan(v) else repr(v)
                prefix = f"{domains[k]}\t" if domains is not None else ""
                fh.write(f"{prefix}{system}\t{text}\n")
                n += 1
    return n


def read_text_file(path: str | Path) -> list[str | None]:
    """A text file as MTME reads it: trailing white space removed, the line
    ``[No translation supplied]`` read as ``None``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.txt")
    >>> _ = open(p, "w").write("Hallo Welt.  \\n[No translation supplied]\\n")
    >>> read_text_file(p)
    ['Hallo Welt.', None]
    """
    out: list[str | None] = []
    for text in read_lines(path, allow_empty=True):
        text = text.rstrip()
        out.append(None if text == NO_TRANSLATION else text)
    return out


def read_jsonl_field(path: str | Path, key: str) -> list[str | None]:
    """The field ``key`` of every line of a JSON Lines file (WMT24++ layout).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "sys.jsonl")
    >>> _ = open(p, "w").write('{"hypothesis": "Hallo"}\\n{"hypothesis": null}\\n')
    >>> read_jsonl_field(p, "hypothesis")
    ['Hallo', None]
    """
    name = str(path)
    out: list[str | None] = []
    for line, obj in _json_lines(path):
        if not isinstance(obj, dict) or key not in obj:
            raise UserInputError(
                f'expected a JSON object with the key "{key}"', path=name, line=line
            )
        value = obj[key]
        if value is not None and not isinstance(value, str):
            raise UserInputError(
                f'"{key}" is {type(value).__name__}; expected a string or null',
                path=name,
                line=line,
            )
        out.append(value)
    return out


def read_jsonl_objects(path: str | Path) -> list[dict]:
    """Every line of a JSON Lines file as an object (MTME's ``metadata/LP/SYS.jsonl``)."""
    out = []
    for line, obj in _json_lines(path):
        if not isinstance(obj, dict):
            raise UserInputError("expected a JSON object per line", path=str(path), line=line)
        out.append(obj)
    return out


def _json_lines(path: str | Path) -> Iterator[tuple[int, Any]]:
    """Every line of a JSON Lines file parsed, with its number (from 1); invalid JSON is
    refused."""
    name = str(path)
    for line, text in enumerate(read_lines(path, allow_empty=True), start=1):
        try:
            obj = loads(text, path=name, line=line)
        except json.JSONDecodeError as exc:
            raise UserInputError(f"invalid JSON ({exc.msg})", path=name, line=line) from None
        yield line, obj


# ----------------------------------------------------------------------------------------
# documents
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Documents:
    """``documents/LP.docs``: the document and domain of every segment.

    ``docs`` maps each document to its ``(begin, end)`` segment range, in text order;
    ``domains`` maps each domain to its ranges, in MTME's canonical (sorted) order.
    """

    doc_of: tuple[str, ...]
    domain_of: tuple[str, ...]
    docs: dict[str, tuple[int, int]]
    domains: dict[str, list[tuple[int, int]]]


def read_docs_file(path: str | Path) -> Documents:
    """The ``DOMAIN DOC`` lines of an MTME documents file.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.docs")
    >>> _ = open(p, "w").write("news d1\\nnews d1\\nsocial d2\\nnews d3\\n")
    >>> d = read_docs_file(p)
    >>> d.docs, d.domains
    ({'d1': (0, 2), 'd2': (2, 3), 'd3': (3, 4)}, {'news': [(0, 2), (3, 4)], 'social': [(2, 3)]})
    """
    name = str(path)
    doc_of, domain_of = [], []
    docs: dict[str, tuple[int, int]] = {}
    domains: dict[str, list[tuple[int, int]]] = {}
    for line, text in enumerate(read_lines(path, allow_empty=True), start=1):
        fields = text.split()
        if len(fields) < 2:
            raise UserInputError(
                f"expected 'domain document', found {len(fields)} field(s)", path=name, line=line
            )
        domain, doc = fields[0], fields[1]
        k = line - 1
        if doc in docs and docs[doc][1] != k:
            raise UserInputError(
                f"document {doc!r} is not one block (it also ends at line {docs[doc][1]}); "
                "MTME needs each document's segments together",
                path=name,
                line=line,
            )
        if doc in docs and domain_of[k - 1] != domain:
            raise UserInputError(
                f"document {doc!r} is in domains {domain_of[k - 1]!r} and {domain!r}",
                path=name,
                line=line,
            )
        docs[doc] = (docs[doc][0], k + 1) if doc in docs else (k, k + 1)
        spans = domains.setdefault(domain, [])
        if spans and spans[-1][1] == k:
            spans[-1] = (spans[-1][0], k + 1)
        else:
            spans.append((k, k + 1))
        doc_of.append(doc)
        domain_of.append(domain)
    return Documents(
        tuple(doc_of), tuple(domain_of), docs, {d: domains[d] for d in sorted(domains)}
    )


# ----------------------------------------------------------------------------------------
# ratings
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ErrorSpan:
    """An error span of a rating: characters ``[start, end)`` of the translation (or of the
    source when ``is_source_error``), as MTME's ``ratings.Error``.

    Examples
    --------
    >>> e = ErrorSpan(1, 4, "cat", None, 5, True)  # MTME's ratings_test
    >>> e.to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'start': 1, 'end': 4, 'category': 'cat', 'severity': None, 'score': 5,
     'is_source_error': True}
    >>> ErrorSpan.from_dict(e.to_dict()) == e
    True
    """

    start: int
    end: int
    category: str | None = None
    severity: str | None = None
    score: float | None = None
    is_source_error: bool = False

    def to_dict(self) -> dict[str, Any]:
        """MTME's ``Error.ToDict``: every field by name."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ErrorSpan:
        """An error span from its dict, checked as a ``.rating`` file's spans are."""
        return _rating_of({"errors": [dict(d)]}, None, "error span", 0).errors[0]


@dataclass(frozen=True)
class Rating:
    """The error spans one rater marked in one translation (none: judged error-free)."""

    errors: tuple[ErrorSpan, ...]
    rater: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """MTME's ``Rating.ToDict``: ``{"errors": [...]}`` (the rater is a column of the
        ``.rating`` file, not of the rating).

        Examples
        --------
        >>> r = Rating((ErrorSpan(1, 4, "cat", None, 5, True), ErrorSpan(0, 1)))
        >>> Rating.from_dict(r.to_dict()) == r, r.to_dict()["errors"][1]["category"]
        (True, None)
        """
        return {"errors": [e.to_dict() for e in self.errors]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], rater: str | None = None) -> Rating:
        """A rating from ``{"errors": [...]}``, checked as a ``.rating`` file's ratings are."""
        return _rating_of(d, rater, "rating", 0)


_SPAN_KEYS = {"start", "end", "category", "severity", "score", "is_source_error"}


def _rating(text: str, rater: str, path: str, line: int) -> Rating:
    try:
        obj = loads(text, path=path, line=line or None)
    except json.JSONDecodeError as exc:
        raise UserInputError(f"invalid JSON rating ({exc.msg})", path=path, line=line) from None
    return _rating_of(obj, rater, path, line)


def _rating_of(obj: Any, rater: str | None, path: str, line: int) -> Rating:
    line = line or None
    if not isinstance(obj, Mapping) or not isinstance(obj.get("errors"), list):
        raise UserInputError('expected a rating {"errors": [...]}', path=path, line=line)
    spans = []
    for k, e in enumerate(obj["errors"], start=1):
        if not isinstance(e, dict) or not {"start", "end"} <= set(e):
            raise UserInputError(f'error {k}: expected "start" and "end"', path=path, line=line)
        unknown = set(e) - _SPAN_KEYS
        if unknown:
            raise UserInputError(
                f"error {k}: unknown key(s) {', '.join(sorted(unknown))}", path=path, line=line
            )
        if not all(isinstance(e[x], int) and not isinstance(e[x], bool) for x in ("start", "end")):
            raise UserInputError(f"error {k}: start and end must be integers", path=path, line=line)
        score = e.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int | float)):
            raise UserInputError(
                f"error {k}: score {score!r} is not a number", path=path, line=line
            )
        spans.append(
            ErrorSpan(
                e["start"],
                e["end"],
                e.get("category"),
                e.get("severity"),
                None if score is None else float(score),
                bool(e.get("is_source_error", False)),
            )
        )
    return Rating(tuple(spans), rater)


def read_rating_file(path: str | Path, default_rater: str) -> dict[str, list[Rating | None]]:
    """An MTME ``.rating`` file: each system's ratings in segment order (``None``: unrated).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.rating")
    >>> span = '{"errors": [{"start": 0, "end": 4, "severity": "major"}]}'
    >>> _ = open(p, "w").write(f"A\\t{span}\\tr1\\nA\\tNone\\n")
    >>> r = read_rating_file(p, "mqm")["A"]
    >>> r[0].errors[0].severity, r[0].rater, r[1]
    ('major', 'r1', None)
    """
    name = str(path)
    out: dict[str, list[Rating | None]] = {}
    for line, text in enumerate(read_lines(path, allow_empty=True), start=1):
        cols = text.strip().split("\t")
        if len(cols) not in (2, 3):
            raise UserInputError(
                f"expected 'system<TAB>rating[<TAB>rater]', found {len(cols)} field(s)",
                path=name,
                line=line,
            )
        system, rating = cols[0], cols[1]
        rater = cols[2] if len(cols) == 3 else default_rater
        out.setdefault(system, []).append(
            None if rating == "None" else _rating(rating, rater, name, line)
        )
    return out


def write_rating_file(path: str | Path, ratings: Mapping[str, Sequence[Rating | None]]) -> Path:
    """Write ratings as an MTME ``.rating`` file (``system<TAB>{"errors": [...]}<TAB>rater``,
    ``system<TAB>None`` where unrated; systems sorted, as MTME's ``WriteRatingFile``),
    atomically: a failure leaves any earlier file as it was.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.rating")
    >>> r = Rating((ErrorSpan(0, 4, severity="major"),), "r1")
    >>> _ = write_rating_file(p, {"A": [r, None]})
    >>> read_rating_file(p, "mqm")["A"] == [r, None]
    True
    """
    from mtpalette.io.runfile import atomic_writer

    lines = []
    for system in sorted(ratings):
        if not system or any(c in system for c in "\t\n"):
            raise UserInputError(f"system name {system!r} cannot be written to a .rating file")
        for r in ratings[system]:
            if r is None:
                lines.append(f"{system}\tNone\n")
                continue
            rater = "" if r.rater is None else r.rater
            if any(c in rater for c in "\t\n"):
                raise UserInputError(f"rater name {rater!r} cannot be written to a .rating file")
            tail = f"\t{rater}" if r.rater is not None else ""
            lines.append(f"{system}\t{json.dumps(r.to_dict())}{tail}\n")
    with atomic_writer(Path(path)) as fh:
        fh.write("".join(lines))
    return Path(path)


# ----------------------------------------------------------------------------------------
# names
# ----------------------------------------------------------------------------------------
def parse_human_filename(filename: str, *, rating: bool = False) -> tuple[str, str, str]:
    """``(lp, name, level)`` of ``LP.NAME.LEVEL.score`` (or ``.rating``); the name may hold
    dots (``mqm.rater1``).

    Examples
    --------
    >>> parse_human_filename("en-de.esa-human1.seg.score")
    ('en-de', 'esa-human1', 'seg')
    """
    ext = "rating" if rating else "score"
    toks = Path(filename).name.split(".")
    if len(toks) < 4 or toks[-1] != ext or toks[-2] not in LEVELS:
        raise UserInputError(
            f"expected a name like LP.NAME.LEVEL.{ext} (LEVEL one of {', '.join(LEVELS)})",
            path=filename,
        )
    return toks[0], ".".join(toks[1:-2]), toks[-2]


def parse_metric_filename(filename: str) -> tuple[str, str, str]:
    """``(basename, refs, level)`` of ``NAME-REF.LEVEL.score``; ``refs`` is a reference name,
    names joined by ``.``, ``src`` (no reference) or ``all``.

    Examples
    --------
    >>> parse_metric_filename("metricx_24-hybrid-refA.seg.score")
    ('metricx_24-hybrid', 'refA', 'seg')
    >>> parse_metric_filename("COMET-refA.refB.sys.score")
    ('COMET', 'refA.refB', 'sys')
    """
    parts = Path(filename).name.rsplit(".", 2)
    if len(parts) != 3 or parts[2] != "score" or parts[1] not in LEVELS or "-" not in parts[0]:
        raise UserInputError(
            "expected a metric file named NAME-REF.LEVEL.score (REF: a reference, "
            f"refA.refB, src or all; LEVEL one of {', '.join(LEVELS)})",
            path=filename,
        )
    basename, refs = parts[0].rsplit("-", 1)
    return basename, refs, parts[1]


def make_metric_name(basename: str, refs: str | Sequence[str]) -> str:
    """MTME's full metric name: ``BLEU-refA``, ``COMET-refA.refB``, ``COMETKiwi-src``.

    Examples
    --------
    >>> make_metric_name("BLEU", "refA"), make_metric_name("Kiwi", []), make_metric_name("M", "all")
    ('BLEU-refA', 'Kiwi-src', 'M-all')
    """
    if isinstance(refs, str):
        refs = [refs]
    refs = list(refs)
    return f"{basename}-{'.'.join(refs) if refs else 'src'}"


def check_name_inside(what: str, name: str, folder: str | Path) -> str:
    """Refuse a name that becomes part of a path under ``folder`` (a language pair, a metric
    or reference name) when it could lead outside it or into a subfolder: empty, a path
    separator, ``..``, or a leading dot.

    Examples
    --------
    >>> check_name_inside("language pair", "zh-en", "wmt21")
    'zh-en'
    >>> check_name_inside("language pair", "../..", "wmt21")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: wmt21: language pair '../..' would reach outside the ...
    """
    if not name or "/" in name or "\\" in name or ".." in name or name.startswith("."):
        raise UserInputError(
            f"{what} {name!r} would reach outside the folder (a name, not a path)",
            path=str(folder),
        )
    return name
