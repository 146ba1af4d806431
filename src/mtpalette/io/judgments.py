"""Human judgments of translations, as the readers return them: the containers.

Segment-level scores load into :class:`Judgments`, a ``(systems, items)`` matrix with NaN
where a translation was not rated, oriented so that **higher is better** (MQM scores are minus
the weighted error count). Items keep the ids of the file; :meth:`Judgments.line_indices`
maps them to lines of the texts and refuses when the file's ids are not line numbers.

The other formats' judgments: :class:`ScoredTexts` (judged translations with their texts),
:class:`SystemScores` (system level), :class:`RelativeRankings` and its
:class:`PreferencePairs`. The readers: :func:`mtpalette.io.judgments_read.read_judgments`
(any segment-level format, the formats listed there) and one module per family of formats,
:mod:`mtpalette.io.judgments_mqm`, :mod:`mtpalette.io.judgments_wmt`,
:mod:`mtpalette.io.judgments_generic` and :mod:`mtpalette.io.judgments_mtme`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgment_formats import FORMATS  # noqa: F401  (importable here, as promised)


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
        if seg_ids is not None and id_base is not None:  # one would be dropped, unseen
            raise UserInputError(
                f"give --seg-ids (the id of each line) or --id-base (ids are line numbers from "
                f"{id_base}), not both")  # fmt: skip
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
