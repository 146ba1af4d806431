"""Human judgments of translations: MQM, WMT direct assessment, rankings, generic files.

Segment-level scores load into :class:`Judgments`, a ``(systems, items)`` matrix with NaN
where a translation was not rated, oriented so that **higher is better** (MQM scores are minus
the weighted error count). Items keep the ids of the file; :meth:`Judgments.line_indices`
maps them to lines of the texts and refuses when the file's ids are not line numbers.

Formats
-------
``mqm``
    Google's MQM TSV (``system doc doc_id seg_id rater source target category severity
    [comment]``), one row per error (``No-error`` rows for clean segments), optionally
    gzip-compressed. Segment score = minus the sum of the error weights of a rater, averaged
    over the segment's raters. Default weights (Freitag et al. 2021; mt-metrics-eval's
    ``score_mqm``): Major 5, Minor 1, Neutral 0, Minor Fluency/Punctuation 0.1,
    Non-translation 25 (either severity); the most specific ``severity[/category[/sub]]``
    entry applies; an unknown severity is an error.
``mqm-avg``
    ``system mqm_avg_score seg_id`` (whitespace-separated, header line; ``None`` = unrated).
``wmt-da-seg``
    WMT17 ``DA-seglevel.csv``: ``LP DATA SYSTEM SID HUMAN``; SID is the 1-based line of the
    system's output file (verified on WMT17), so it aligns with texts.
``wmt-seg-scores``
    WMT ``ad-seg-scores-*.csv``: ``SYS SID RAW.SCR Z.SCR N``. Its SIDs are **not** line
    numbers of the released WMT21 texts (measured: metric and DA agree at chance level at
    any offset), so these judgments can be averaged per system but never aligned with texts:
    :meth:`Judgments.line_indices` raises.
``wmt17-testset``
    WMT17 ``testset_<lp>.tsv``: ``LP source translation reference HUMAN_score sentBLEU``, the
    texts inside the file (:class:`ScoredTexts`).
``wmt-sys-ranking``
    WMT21 ``ad-sys-ranking-*-z-names.csv``: ``RAW Z n N SYSTEM.ID NAME`` (no header);
    WMT17/19 ``DA-syslevel.csv``: ``LP HUMAN SYSTEM`` (:class:`SystemScores`).
``wmt12-rr``
    WMT12 ``wmt12.RNK_results.csv``: five-way relative rankings, rank 1 best, ties allowed,
    -1 blank; ``srcIndex`` is the 1-based line (:class:`RelativeRankings`).
``generic``
    TSV with a header naming ``system``, ``segment`` (or ``seg_id``) and ``score`` columns,
    or JSONL objects with those keys. ``segment`` is the 1-based line number of the system's
    output by default (``id_base``).

Every error names the file and the line; NaN or missing scores and duplicated
(system, segment) pairs are errors.

References
----------
Freitag et al. (2021), Experts, Errors, and Context (MQM weights). google/wmt-mqm-human-
evaluation (file formats). Graham et al. (2017), Can machine translation systems be evaluated
by the crowd alone (DA, z-scores). Callison-Burch et al. (2012), Findings of WMT12 (relative
rankings). google-research/mt-metrics-eval ``converters/score_mqm.py`` (weights).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError, shortened
from mtpalette.io import inputs
from mtpalette.io.judgment_formats import FORMATS
from mtpalette.io.mtme_files import read_score_file
from mtpalette.io.plain import gunzipped, read_lines
from mtpalette.io.tabular import cell_float

#: MQM error weights: ``severity[/category[/subcategory]]`` (lower case) -> weight
MQM_WEIGHTS: dict[str, float] = {
    "major": 5.0,
    "minor": 1.0,
    "neutral": 0.0,
    "no-error": 0.0,
    "major/non-translation": 25.0,
    "minor/non-translation": 25.0,
    "minor/fluency/punctuation": 0.1,
}
MQM_SEVERITIES = ("major", "minor", "neutral", "no-error")
WMT21_SEG_WARNING = (
    "the segment ids (SID) of WMT 'ad-seg-scores' files are not line numbers of the released "
    "texts (on WMT21, metric and DA orderings agree at chance level at any offset), so these "
    "judgments cannot be aligned with translations at segment level; use them at system "
    "level only (system means), or use MQM, WMT17 DA or WMT12 rankings"
)
_SPAN = re.compile(r"</?v>")
WMT12_LANGUAGES = {"Czech": "cs", "English": "en", "German": "de", "French": "fr", "Spanish": "es"}


# ----------------------------------------------------------------------------------------
# containers
# ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Judgments:
    """Segment-level human scores: a ``(systems, items)`` matrix, NaN where unrated.

    Attributes
    ----------
    systems:
        Row labels, in order of first appearance in the file.
    items:
        Column labels: the segment ids of the file, sorted.
    scores:
        float64 ``(S, I)``, higher is better, NaN where unrated.
    kind, path:
        The format and the file.
    item_base:
        When the ids are line numbers: the id of the first line (1 for WMT's SID); ``None``
        when they are not known to be (MQM seg_ids: give the mapping).
    unaligned:
        Why the ids must never be used as line numbers, or ``None``.
    n_raters:
        Optional ``(S, I)`` number of raters behind each score.
    targets:
        Optional translations found in the file, ``{system: {item: text}}``.
    docs:
        Optional document of each item, ``{item: doc}`` (MQM's ``doc`` column), for splits
        that keep documents whole.
    """

    systems: list[str]
    items: list[Hashable]
    scores: np.ndarray
    kind: str
    path: str
    item_base: int | None = None
    unaligned: str | None = None
    n_raters: np.ndarray | None = field(default=None, repr=False)
    targets: dict[str, dict[Hashable, str]] | None = field(default=None, repr=False)
    docs: dict[Hashable, str] | None = field(default=None, repr=False)

    @property
    def n_rated(self) -> int:
        return int((~np.isnan(self.scores)).sum())

    def score(self, system: str, item: Hashable) -> float:
        """The score of one translation (NaN when unrated)."""
        return float(self.scores[self.systems.index(system), self.items.index(item)])

    def require(self, systems: Iterable[str], *, listed_as: str = "the file has") -> None:
        """Refuse ``systems`` that have no judgments, listing the judged ones after
        ``listed_as``.

        Examples
        --------
        >>> j = Judgments(["A", "B"], [1], np.array([[0.5], [0.1]]), "generic", "j.tsv")
        >>> j.require(["B"])
        >>> j.require(["B", "C"])
        Traceback (most recent call last):
        ...
        mtpalette.errors.UserInputError: j.tsv: no judgments for system(s) C; the file has A, B
        """
        missing = [s for s in systems if s not in self.systems]
        if missing:
            raise UserInputError(
                f"no judgments for system(s) {', '.join(missing)}; {listed_as} "
                f"{', '.join(self.systems)}",
                path=self.path,
            )

    def select(self, systems: Sequence[str]) -> Judgments:
        """Only these systems, in this order (unknown names are an error)."""
        self.require(systems)
        rows = [self.systems.index(s) for s in systems]
        return replace(
            self,
            systems=list(systems),
            scores=self.scores[rows],
            n_raters=None if self.n_raters is None else self.n_raters[rows],
            targets=None if self.targets is None else {s: self.targets[s] for s in systems},
        )

    def rename(self, mapping: Mapping[str, str]) -> Judgments:
        """Systems renamed by ``mapping`` (e.g. ``{"ref-A": "ref"}``); others unchanged."""
        names = [mapping.get(s, s) for s in self.systems]
        if len(set(names)) != len(names):
            raise UserInputError("renaming makes two systems share a name", path=self.path)
        targets = None
        if self.targets is not None:
            targets = {mapping.get(s, s): t for s, t in self.targets.items()}
        return replace(self, systems=names, targets=targets)

    def line_indices(
        self, *, seg_ids: Sequence[Hashable] | None = None, id_base: int | None = None
    ) -> np.ndarray:
        """The 0-based text line of every item.

        Parameters
        ----------
        seg_ids:
            The id of each line of the texts (e.g. MQM TED's ``seg_ids.txt``); every judged
            item must appear.
        id_base:
            The id of the first line, when the ids are line numbers (overrides the format's).

        Raises
        ------
        UserInputError
            When the format's ids are not line numbers (WMT ``ad-seg-scores``), or no mapping
            is known.
        """
        if self.unaligned is not None:
            raise UserInputError(self.unaligned, path=self.path)
        if seg_ids is not None:
            where: dict[Hashable, int] = {}
            for line, sid in enumerate(seg_ids):
                key = _id_key(sid)
                if key in where:
                    raise UserInputError(
                        f"segment id {sid!r} appears on lines "
                        f"{where[key] + 1} and {line + 1} of the id list"
                    )
                where[key] = line
            missing = [i for i in self.items if _id_key(i) not in where]
            if missing:
                raise UserInputError(
                    f"{len(missing)} judged segment id(s) are not in the id list (first: "
                    f"{missing[0]!r})",
                    path=self.path,
                )
            return np.array([where[_id_key(i)] for i in self.items], dtype=np.int64)
        base = id_base if id_base is not None else self.item_base
        if base is None:
            raise UserInputError(
                "the segment ids of these judgments are not known to be line numbers; give the "
                "id of each text line (--seg-ids FILE) or the first id (--id-base)",
                path=self.path,
            )
        try:
            lines = np.array([int(i) for i in self.items], dtype=np.int64) - base
        except (TypeError, ValueError):
            raise UserInputError(
                "segment ids are not integers; give --seg-ids", path=self.path
            ) from None
        if lines.size and lines.min() < 0:
            raise UserInputError(
                f"segment id {int(lines.min()) + base} is below the first id {base}", path=self.path
            )
        return lines

    def system_means(self) -> dict[str, float]:
        """Each system's mean over its rated items."""
        rated = ~np.isnan(self.scores)
        out = {}
        for s, name in enumerate(self.systems):
            out[name] = float(self.scores[s, rated[s]].mean()) if rated[s].any() else math.nan
        return out


def _id_key(x: Hashable) -> Hashable:
    """Ids compare as integers when they look like integers ("084" == 84)."""
    if isinstance(x, int | np.integer):
        return int(x)
    text = str(x).strip()
    try:
        return int(text)
    except ValueError:
        return text


@dataclass(frozen=True)
class ScoredTexts:
    """Judged translations with their texts (WMT17 test-set TSV): one row per judgment."""

    lps: list[str]
    sources: list[str]
    hyps: list[str]
    refs: list[str]
    scores: np.ndarray
    path: str

    def __len__(self) -> int:
        return len(self.hyps)

    def select_lp(self, lp: str) -> ScoredTexts:
        keep = [i for i, x in enumerate(self.lps) if x == lp]
        if not keep:
            raise UserInputError(
                f"no rows for language pair {lp!r}; the file has "
                f"{', '.join(sorted(set(self.lps)))}",
                path=self.path,
            )
        return ScoredTexts(
            [self.lps[i] for i in keep],
            [self.sources[i] for i in keep],
            [self.hyps[i] for i in keep],
            [self.refs[i] for i in keep],
            self.scores[keep],
            self.path,
        )


@dataclass(frozen=True)
class SystemScores:
    """System-level human scores (higher is better)."""

    systems: list[str]
    scores: np.ndarray
    path: str
    kind: str
    ids: list[str] | None = None
    raw: np.ndarray | None = None

    def as_dict(self) -> dict[str, float]:
        return dict(zip(self.systems, self.scores.tolist(), strict=True))


@dataclass(frozen=True)
class PreferencePairs:
    """Human pairwise preferences: ``better[k]`` was ranked above ``worse[k]`` on ``line[k]``."""

    line: np.ndarray
    better: list[str]
    worse: list[str]
    n_ties: int
    n_blank: int


@dataclass(frozen=True)
class RelativeRankings:
    """WMT five-way relative rankings of one language pair (rank 1 best, ties allowed).

    ``systems[k]`` and ``ranks[k]`` are the five systems and ranks of ranking ``k``;
    ``line[k]`` its 0-based source line; a rank of -1 is blank.
    """

    lp: str
    line: np.ndarray
    judges: list[str]
    systems: list[list[str]]
    ranks: np.ndarray
    path: str

    def __len__(self) -> int:
        return len(self.judges)

    def system_names(self) -> list[str]:
        return sorted({s for row in self.systems for s in row})

    def pairs(self) -> PreferencePairs:
        """Every pair of systems of every ranking with a strict human preference.

        Ties are counted and left out; pairs with a blank rank are left out.

        Examples
        --------
        >>> rr = RelativeRankings("de-en", np.array([0]), ["j"], [["A", "B", "C", "D", "E"]],
        ...                       np.array([[1, 2, 2, 3, -1]]), "x.csv")
        >>> p = rr.pairs()
        >>> list(zip(p.better, p.worse)), p.n_ties, p.n_blank
        ([('A', 'B'), ('A', 'C'), ('A', 'D'), ('B', 'D'), ('C', 'D')], 1, 4)
        """
        lines, better, worse = [], [], []
        ties = blank = 0
        for k, (names, ranks) in enumerate(zip(self.systems, self.ranks, strict=True)):
            for a in range(len(names)):
                for b in range(a + 1, len(names)):
                    ra, rb = int(ranks[a]), int(ranks[b])
                    if ra < 0 or rb < 0:
                        blank += 1
                    elif ra == rb:
                        ties += 1
                    else:
                        lines.append(int(self.line[k]))
                        better.append(names[a] if ra < rb else names[b])
                        worse.append(names[b] if ra < rb else names[a])
        return PreferencePairs(np.asarray(lines, dtype=np.int64), better, worse, ties, blank)


# ----------------------------------------------------------------------------------------
# reading helpers
# ----------------------------------------------------------------------------------------
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


def _lines(path: str | Path) -> list[str]:
    lines = read_text(path).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def _split_rows(
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


def _number(text: str, what: str, path: str, line: int) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not a number", path=path, line=line) from None
    if not math.isfinite(value):
        raise UserInputError(
            f"{what} is {shortened(text)!r}; expected a finite number", path=path, line=line
        )
    return value


def _integer(text: str, what: str, path: str, line: int) -> int:
    try:
        return int(text)
    except ValueError:
        raise UserInputError(f"{what} {text!r} is not an integer", path=path, line=line) from None


class _MatrixBuilder:
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
        items = sorted({i for _, i in self.values}, key=_sort_key)
        col = {i: k for k, i in enumerate(items)}
        row = {s: k for k, s in enumerate(systems)}
        scores = np.full((len(systems), len(items)), np.nan)
        for (s, i), (v, _) in self.values.items():
            scores[row[s], col[i]] = v
        return Judgments(systems, items, scores, kind, self.path, **extra)


def _sort_key(x: Hashable) -> tuple:
    return (0, x, "") if isinstance(x, int) else (1, 0, str(x))


def _tsv_rows(text: str, path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
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


# ----------------------------------------------------------------------------------------
# MQM
# ----------------------------------------------------------------------------------------
def mqm_weight(severity: str, category: str, weights: Mapping[str, float] = MQM_WEIGHTS) -> float:
    """The weight of one MQM error: the most specific ``severity/category/...`` entry.

    Category parts are compared in lower case without a trailing ``!`` (Google's files
    write ``Non-translation!``).

    Examples
    --------
    >>> mqm_weight("Minor", "Fluency/Punctuation"), mqm_weight("Major", "Fluency/Punctuation")
    (0.1, 5.0)
    >>> mqm_weight("Major", "Non-translation!"), mqm_weight("No-error", "No-error")
    (25.0, 0.0)
    """
    parts = [severity.strip().lower()] + [
        p.strip().lower().rstrip("!") for p in category.split("/") if p.strip()
    ]
    while parts:
        key = "/".join(parts)
        if key in weights:
            return float(weights[key])
        parts.pop()
    return 0.0


def read_mqm(path: str | Path, *, weights: Mapping[str, float] | None = None) -> Judgments:
    """MQM error annotations (Google's TSV) as segment scores, averaged over raters.

    Parameters
    ----------
    path:
        The TSV (or ``.gz``) file.
    weights:
        ``severity[/category[/subcategory]]`` -> weight (lower case); default
        :data:`MQM_WEIGHTS`. Severities must be among the weights' first parts.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "m.tsv")
    >>> rows = ["system\\tdoc\\tdoc_id\\tseg_id\\trater\\tsource\\ttarget\\tcategory\\tseverity",
    ...         "A\\td\\t1\\t7\\tr1\\ts\\tt\\tAccuracy/Mistranslation\\tMajor",
    ...         "A\\td\\t1\\t7\\tr1\\ts\\tt\\tFluency/Punctuation\\tMinor",
    ...         "A\\td\\t1\\t7\\tr2\\ts\\tt\\tNo-error\\tNo-error"]
    >>> _ = open(p, "w").write("\\n".join(rows) + "\\n")
    >>> j = read_mqm(p)
    >>> j.systems, j.items, round(j.score("A", 7), 6)  # -(5.1 + 0) / 2
    (['A'], [7], -2.55)
    """
    name = str(path)
    w = dict(MQM_WEIGHTS if weights is None else {k.lower(): v for k, v in weights.items()})
    severities = {k.split("/")[0] for k in w}
    header, rows = _tsv_rows(read_text(path), name)
    need = ("system", "seg_id", "rater", "category", "severity")
    col = {h.strip(): k for k, h in enumerate(header)}
    missing = [c for c in need if c not in col]
    if missing:
        raise UserInputError(
            f"not an MQM TSV: no column(s) {', '.join(missing)} in the header "
            f"(expected {' '.join(need)} ...)",
            path=name,
            line=1,
        )
    width = len(header)
    sums: dict[tuple[str, int], dict[str, float]] = {}
    order: dict[str, None] = {}
    targets: dict[str, dict[Hashable, str]] = {}
    tcol = col.get("target")
    dcol = col.get("doc")
    docs: dict[Hashable, str] = {}
    for line, fields in rows:
        if len(fields) < max(col[c] for c in need) + 1 or len(fields) > width:
            raise UserInputError(
                f"expected {width} tab-separated fields, found {len(fields)}", path=name, line=line
            )
        system = fields[col["system"]].strip()
        if not system:
            raise UserInputError("empty system name", path=name, line=line)
        seg = _integer(fields[col["seg_id"]].strip(), "seg_id", name, line)
        severity = fields[col["severity"]].strip()
        if severity.lower() not in severities:
            raise UserInputError(
                f"unknown MQM severity {severity!r}; expected one of "
                f"{', '.join(sorted(severities))} (or give weights for it)",
                path=name,
                line=line,
            )
        weight = mqm_weight(severity, fields[col["category"]], w)
        rater = fields[col["rater"]].strip()
        per_rater = sums.setdefault((system, seg), {})
        per_rater[rater] = per_rater.get(rater, 0.0) + weight
        order.setdefault(system, None)
        if tcol is not None and tcol < len(fields):
            targets.setdefault(system, {}).setdefault(seg, _SPAN.sub("", fields[tcol]))
        if dcol is not None and dcol < len(fields):
            docs.setdefault(seg, fields[dcol].strip())
    if not sums:
        raise UserInputError("no annotation rows in the file", path=name)
    systems = list(order)
    items = sorted({seg for _, seg in sums})
    row = {s: k for k, s in enumerate(systems)}
    colx = {i: k for k, i in enumerate(items)}
    scores = np.full((len(systems), len(items)), np.nan)
    n_raters = np.zeros((len(systems), len(items)), dtype=np.int64)
    for (system, seg), per_rater in sums.items():
        # rounded to 1e-9 so that sums like 5 + 0.1 + 0.1 read -5.2, not -5.1999999
        vals = [round(v, 9) for v in per_rater.values()]
        scores[row[system], colx[seg]] = -sum(vals) / len(vals)
        n_raters[row[system], colx[seg]] = len(vals)
    return Judgments(
        systems, items, scores, "mqm", name, None, None, n_raters, targets or None, docs or None
    )


def read_mqm_avg(path: str | Path) -> Judgments:
    """MQM average segment scores: ``system mqm_avg_score seg_id`` (``None`` = unrated).

    Examples
    --------
    The bundled WMT21 TED MQM en-de averages (``None`` in 1,078 of 8,484 rows):

    >>> from importlib import resources
    >>> ende = resources.files("mtpalette").joinpath("data/mqm_ted/ende")
    >>> j = read_mqm_avg(ende / "mqm_ted_ende.avg_seg_scores.tsv.gz")
    >>> len(j.systems), len(j.items), j.n_rated, j.systems[0], j.scores[0, :3].tolist()
    (14, 606, 7406, 'Facebook-AI', [-1.0, -0.0, -0.0])
    """
    name = str(path)
    lines = _lines(path)
    if not lines:
        raise UserInputError("the file is empty", path=name)
    head = lines[0].split()
    if head[:3] != ["system", "mqm_avg_score", "seg_id"]:
        raise UserInputError("expected the header 'system mqm_avg_score seg_id'", path=name, line=1)
    out = _MatrixBuilder(name)
    for k, fields in _split_rows(lines[1:], 2, 3, name, "system score seg_id"):
        system, score_text, seg_text = fields
        seg = _integer(seg_text, "seg_id", name, k)
        score = math.nan if score_text == "None" else _number(score_text, "score", name, k)
        out.add(system, seg, score, k)
    return out.build("mqm-avg")


# ----------------------------------------------------------------------------------------
# WMT
# ----------------------------------------------------------------------------------------
def read_wmt_da_seglevel(path: str | Path, lp: str | None = None) -> Judgments:
    """WMT17 segment DA, ``LP DATA SYSTEM SID HUMAN``; SID is the 1-based output line.

    With several language pairs in the file, ``lp`` is required.
    """
    name = str(path)
    lines = _lines(path)
    if not lines or lines[0].split()[:5] != ["LP", "DATA", "SYSTEM", "SID", "HUMAN"]:
        raise UserInputError("expected the header 'LP DATA SYSTEM SID HUMAN'", path=name, line=1)
    present = sorted({ln.split()[0] for ln in lines[1:] if ln.split()})
    if lp is None:
        if len(present) != 1:
            raise UserInputError(
                f"the file has several language pairs ({', '.join(present)}); choose one", path=name
            )
        lp = present[0]
    out = _MatrixBuilder(name)
    for k, fields in _split_rows(lines[1:], 2, 5, name):
        if fields[0] != lp:
            continue
        sid = _integer(fields[3], "SID", name, k)
        out.add(fields[2], sid, _number(fields[4], "HUMAN score", name, k), k)
    if not out.values:
        raise UserInputError(
            f"no rows for language pair {lp!r}; the file has {', '.join(present)}", path=name
        )
    return out.build("wmt-da-seg", item_base=1)


def read_wmt_seg_scores(
    path: str | Path, *, score: str = "z", strip_run_ids: bool = True
) -> Judgments:
    """WMT ``ad-seg-scores`` (``SYS SID RAW.SCR Z.SCR N``): usable at system level only.

    ``score`` picks ``z`` (standardised, default) or ``raw``. ``strip_run_ids`` turns
    ``XMU.17`` into ``XMU`` (WMT appends the submission id). The result refuses segment-level
    alignment (:data:`WMT21_SEG_WARNING`).
    """
    name = str(path)
    if score not in ("z", "raw"):
        raise ValueError("score must be 'z' or 'raw'")
    lines = _lines(path)
    if not lines or lines[0].split()[:5] != ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]:
        raise UserInputError("expected the header 'SYS SID RAW.SCR Z.SCR N'", path=name, line=1)
    out = _MatrixBuilder(name)
    for k, fields in _split_rows(lines[1:], 2, 5, name):
        system = _strip_run_id(fields[0]) if strip_run_ids else fields[0]
        value = _number(fields[3] if score == "z" else fields[2], f"{score} score", name, k)
        out.add(system, _integer(fields[1], "SID", name, k), value, k)
    return out.build("wmt-seg-scores", unaligned=WMT21_SEG_WARNING)


def _strip_run_id(name: str) -> str:
    head, dot, tail = name.rpartition(".")
    return head if dot and tail.isdigit() else name


def read_wmt17_testset(path: str | Path) -> ScoredTexts:
    """WMT17 segment DA test set with its texts: ``LP source translation reference HUMAN_score
    sentBLEU`` (tab-separated, header)."""
    name = str(path)
    header, rows = _tsv_rows(read_text(path), name)
    need = ["LP", "source", "translation", "reference", "HUMAN_score"]
    if header[:5] != need:
        raise UserInputError(f"expected the header {' '.join(need)} ...", path=name, line=1)
    lps, srcs, hyps, refs, scores = [], [], [], [], []
    for line, fields in rows:
        if len(fields) < 5:
            raise UserInputError(
                f"expected at least 5 tab-separated fields, found {len(fields)}",
                path=name,
                line=line,
            )
        lps.append(fields[0])
        srcs.append(fields[1])
        hyps.append(fields[2])
        refs.append(fields[3])
        scores.append(_number(fields[4], "HUMAN_score", name, line))
    if not hyps:
        raise UserInputError("no judgments in the file", path=name)
    return ScoredTexts(lps, srcs, hyps, refs, np.asarray(scores), name)


def read_wmt_system_ranking(path: str | Path) -> SystemScores:
    """WMT21 system ranking ``RAW Z n N SYSTEM.ID NAME`` (no header); score = z."""
    name = str(path)
    systems, ids, z, raw = [], [], [], []
    for k, fields in _split_rows(_lines(path), 1, 6, name, "RAW Z n N SYSTEM.ID NAME"):
        if fields[5] in systems:
            raise UserInputError(f"duplicate system {fields[5]!r}", path=name, line=k)
        raw.append(_number(fields[0], "raw score", name, k))
        z.append(_number(fields[1], "z score", name, k))
        ids.append(fields[4])
        systems.append(fields[5])
    if not systems:
        raise UserInputError("no systems in the file", path=name)
    return SystemScores(systems, np.asarray(z), name, "wmt-sys-ranking", ids, np.asarray(raw))


def read_wmt_da_syslevel(path: str | Path, lp: str) -> SystemScores:
    """WMT17/19 ``DA-syslevel.csv`` (``LP HUMAN SYSTEM``) for one language pair."""
    name = str(path)
    lines = _lines(path)
    if not lines or lines[0].split()[:3] != ["LP", "HUMAN", "SYSTEM"]:
        raise UserInputError("expected the header 'LP HUMAN SYSTEM'", path=name, line=1)
    systems, scores = [], []
    for k, ln in enumerate(lines[1:], start=2):
        fields = ln.split()
        if not fields or fields[0] != lp:
            continue
        if len(fields) != 3:
            raise UserInputError(f"expected 3 fields, found {len(fields)}", path=name, line=k)
        if fields[2] in systems:
            raise UserInputError(f"duplicate system {fields[2]!r}", path=name, line=k)
        systems.append(fields[2])
        scores.append(_number(fields[1], "HUMAN score", name, k))
    if not systems:
        raise UserInputError(f"no systems for language pair {lp!r}", path=name)
    return SystemScores(systems, np.asarray(scores), name, "wmt-da-syslevel")


def read_wmt12_rankings(path: str | Path, lp: str) -> RelativeRankings:
    """WMT12 five-way relative rankings of one language pair (``cs-en``, ``en-de``, ...)."""
    name = str(path)
    text = read_text(path)
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise UserInputError("the file is empty", path=name) from None
    col = {h: k for k, h in enumerate(header)}
    need = ["srclang", "trglang", "srcIndex", "judgeId"] + [
        f"system{k}{x}" for k in range(1, 6) for x in ("Id", "rank")
    ]
    missing = [c for c in need if c not in col]
    if missing:
        raise UserInputError(
            f"not a WMT ranking file: no column(s) {', '.join(missing)}", path=name, line=1
        )
    lines, judges, systems, ranks = [], [], [], []
    seen: set[str] = set()
    for k, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise UserInputError(
                f"expected {len(header)} fields, found {len(fields)}", path=name, line=k
            )
        src = WMT12_LANGUAGES.get(fields[col["srclang"]], fields[col["srclang"]])
        tgt = WMT12_LANGUAGES.get(fields[col["trglang"]], fields[col["trglang"]])
        seen.add(f"{src}-{tgt}")
        if f"{src}-{tgt}" != lp:
            continue
        index = _integer(fields[col["srcIndex"]], "srcIndex", name, k)
        if index < 1:
            raise UserInputError(f"srcIndex {index} is below 1 (it is 1-based)", path=name, line=k)
        row = [_integer(fields[col[f"system{j}rank"]], "rank", name, k) for j in range(1, 6)]
        if any(r != -1 and not 1 <= r <= 5 for r in row):
            raise UserInputError(f"ranks must be 1..5 or -1 (blank), got {row}", path=name, line=k)
        names = [fields[col[f"system{j}Id"]].strip() for j in range(1, 6)]
        if any(not n for n in names):
            raise UserInputError("empty system id", path=name, line=k)
        lines.append(index - 1)
        judges.append(fields[col["judgeId"]])
        systems.append(names)
        ranks.append(row)
    if not judges:
        raise UserInputError(
            f"no rankings for {lp!r}; the file has {', '.join(sorted(seen))}", path=name
        )
    return RelativeRankings(
        lp,
        np.asarray(lines, dtype=np.int64),
        judges,
        systems,
        np.asarray(ranks, dtype=np.int64),
        name,
    )


# ----------------------------------------------------------------------------------------
# generic
# ----------------------------------------------------------------------------------------
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
    out = _MatrixBuilder(name)
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
        return _number(value.strip(), "score", name, line)
    if value is None or isinstance(value, bool) or not isinstance(value, int | float):
        raise UserInputError(f"score {value!r} is not a number", path=name, line=line)
    number = cell_float(value)
    if not math.isfinite(number):
        raise UserInputError(
            f"score is {shortened(str(value))}; expected a finite number", path=name, line=line
        )
    return number


def read_mtme_seg_scores(path: str | Path, *, n_segments: int | None = None) -> Judgments:
    """Segment-level human scores of an mt-metrics-eval ``<lp>.<name>.seg.score`` file.

    Each system's block is its segments in text order (``None``: not rated); every block
    must have ``n_segments`` lines (the source's length). When not given and the file sits in
    a test set folder (``human-scores/LP.NAME.seg.score`` beside ``sources/LP.txt``), it is
    the source's line count; otherwise every block must have the same number of lines. Items
    are line numbers from 1. A whole test set folder is read by
    :func:`mtpalette.io.mtme.read_mtme`.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.score")
    >>> _ = open(p, "w").write("A\\t-1.5\\nA\\tNone\\nB\\t0\\nB\\t-2\\n")
    >>> j = read_mtme_seg_scores(p)
    >>> j.systems, j.items, j.scores.tolist()
    (['A', 'B'], [1, 2], [[-1.5, nan], [0.0, -2.0]])
    """
    name = str(path)
    lines = read_score_file(path, level="seg")
    if n_segments is None:
        n_segments = _mtme_source_length(Path(path))
    if not lines.scores:
        raise UserInputError("no judgments in the file", path=name)
    counts = {len(v) for v in lines.scores.values()}
    if n_segments is not None:
        for system, values in lines.scores.items():
            if len(values) != n_segments:
                raise lines.count_error(system, n_segments, "one per segment of the source")
    elif len(counts) != 1:
        raise UserInputError(
            f"systems have different numbers of segments ({', '.join(map(str, sorted(counts)))})",
            path=name,
        )
    n = len(next(iter(lines.scores.values())))
    scores = np.array(list(lines.scores.values()), dtype=np.float64)
    return Judgments(
        list(lines.scores), list(range(1, n + 1)), scores, "mtme-seg", name, item_base=1
    )


def _mtme_source_length(path: Path) -> int | None:
    """The line count of the source beside an MTME human-score file, or None."""
    if path.parent.name != "human-scores":
        return None
    lp = path.name.split(".")[0]
    source = path.parent.parent / "sources" / f"{lp}.txt"
    if not source.is_file():
        source = source.with_suffix(".jsonl")
    return len(read_lines(source, allow_empty=True)) if source.is_file() else None


def read_judgments(
    path: str | Path, fmt: str = "auto", *, lp: str | None = None, id_base: int | None = None
) -> Judgments:
    """Segment-level judgments in any of :data:`FORMATS` (``auto`` guesses from the header).

    Examples
    --------
    >>> from importlib import resources
    >>> p = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen" / "mqm_ted_zhen.tsv.gz"
    >>> j = read_judgments(str(p))
    >>> j.kind, len(j.systems), len(j.items), j.n_rated
    ('mqm', 15, 529, 7935)
    """
    if fmt == "auto":
        fmt = guess_format(path)
    if fmt == "mqm":
        return read_mqm(path)
    if fmt == "mqm-avg":
        return read_mqm_avg(path)
    if fmt == "wmt-da-seg":
        return read_wmt_da_seglevel(path, lp)
    if fmt == "wmt-seg-scores":
        return read_wmt_seg_scores(path)
    if fmt == "generic":
        return read_generic(path, id_base=1 if id_base is None else id_base)
    if fmt == "mtme-seg":
        return read_mtme_seg_scores(path)
    if fmt == "wmt17-testset":
        raise UserInputError(
            "a WMT17 test-set file holds its own texts: read it with read_wmt17_testset",
            path=str(path),
        )
    raise UserInputError(
        f"unknown judgment format {fmt!r}; expected auto or one of {', '.join(FORMATS)}"
    )


def bundled_mqm_ted(lp: str) -> dict[str, Any]:
    """Paths of the bundled WMT21 TED MQM data of ``lp`` (``ende`` or ``zhen``).

    Returns ``judgments`` (the MQM TSV), ``avg`` (the average-score file), ``refs`` (``ref``,
    and ``refB`` for zh-en), ``systems`` (the 13 MT systems' outputs), ``seg_ids`` (MQM's
    seg_id of each line) and ``source``.

    Examples
    --------
    >>> d = bundled_mqm_ted("zhen")
    >>> [p.name for p in d["refs"]], len(d["systems"])
    (['ref.txt', 'refB.txt'], 13)
    """
    from importlib import resources

    if lp not in ("ende", "zhen"):
        raise UserInputError(f"no bundled MQM TED data for {lp!r}; expected ende or zhen")
    root = Path(str(resources.files("mtpalette") / "data" / "mqm_ted" / lp))
    ref_names = ["ref.txt", "refB.txt"] if lp == "zhen" else ["ref.txt"]
    special = {*ref_names, "source.txt", "seg_ids.txt"}
    systems = sorted(p for p in root.iterdir() if p.suffix == ".txt" and p.name not in special)
    return {
        "judgments": root / f"mqm_ted_{lp}.tsv.gz",
        "avg": root / f"mqm_ted_{lp}.avg_seg_scores.tsv.gz",
        "refs": [root / n for n in ref_names],
        "systems": systems,
        "seg_ids": root / "seg_ids.txt",
        "source": root / "source.txt",
    }


def guess_format(path: str | Path) -> str:
    """The format of a judgment file, from its first line."""
    from mtpalette.io.tabular import table_format

    if not str(path).endswith(".gz") and table_format(path) == "parquet":
        return "generic"
    text = read_text(path)
    first = text.split("\n", 1)[0].strip()
    words = first.split()
    cols = [c.strip().lower() for c in first.split("\t")]
    if {"system", "seg_id", "rater", "category", "severity"} <= set(cols):
        return "mqm"
    if words[:3] == ["system", "mqm_avg_score", "seg_id"]:
        return "mqm-avg"
    if words[:5] == ["LP", "DATA", "SYSTEM", "SID", "HUMAN"]:
        return "wmt-da-seg"
    if words[:5] == ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]:
        return "wmt-seg-scores"
    if cols[:5] == ["lp", "source", "translation", "reference", "human_score"]:
        return "wmt17-testset"
    commas = [c.strip().strip('"').lower() for c in first.split(",")]
    if first.startswith("{") or any("system" in c and "score" in c for c in (cols, commas)):
        return "generic"
    if str(path).endswith(".seg.score") and len(cols) == 2:
        return "mtme-seg"
    raise UserInputError(
        "cannot tell the judgment format from the first line; give --format (one of "
        f"{', '.join(FORMATS)})",
        path=str(path),
        line=1,
    )
