"""WMT25's automatic scores: ``automatic_scores/<system>.jsonl``, one file per system.

The files of the wmt-conference/wmt25-general-mt repository (``data/automatic_scores``), from
which the organisers' preliminary ranking (AutoRank) was computed. A file is named by its
system (the file's stem) and holds one JSON object per line, one per document::

    {"language_pair": "en-cs_CZ", "domain": "news", "document_id": "news_1",
     "metric_scores": {"chrF++": [51.2, 48.0], "XCOMET-XL": [0.91, null]}}

``metric_scores`` maps each metric to the document's paragraph scores, one per paragraph in
order; ``null`` is a paragraph the metric could not score. Every metric of a document has
the same number of paragraphs.

:func:`read_wmt25_scores` reads a folder of such files into :class:`Wmt25Scores`;
:meth:`Wmt25Scores.system_scores` gives each system's score on a language pair the way WMT25
computed it: the mean of every scored paragraph of every document (paragraphs pooled, not a
mean of document means). A line that is not a JSON object, a missing or mistyped field, a
score that is not a finite number or ``null``, metrics of different lengths in one document,
and a document given twice are refused, naming the file and the line.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import loads

#: the fields of a line, with the type each must have
FIELDS = {"language_pair": str, "domain": str, "document_id": str, "metric_scores": dict}


@dataclass(frozen=True)
class ScoredDocument:
    """One line: a document's paragraph scores per metric (``None``: not scored), and where
    it was read (``line``, 1-based)."""

    language_pair: str
    domain: str
    document_id: str
    metric_scores: dict[str, list[float | None]]
    line: int = 0

    @property
    def n_paragraphs(self) -> int:
        return len(next(iter(self.metric_scores.values()), []))


@dataclass(frozen=True)
class Wmt25Scores:
    """Every system's scored documents (``documents[system]``, in file order) and the file
    each system was read from."""

    documents: dict[str, list[ScoredDocument]]
    files: dict[str, str] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        return list(self.documents)

    def language_pairs(self) -> list[str]:
        """The language pairs of the files, in order of first appearance."""
        seen = (d.language_pair for docs in self.documents.values() for d in docs)
        return list(dict.fromkeys(seen))

    def metrics(self, lp: str) -> list[str]:
        """The metrics any system has on ``lp``, in order of first appearance."""
        seen = (m for docs in self.documents.values() for d in docs if d.language_pair == lp
                for m in d.metric_scores)  # fmt: skip
        return list(dict.fromkeys(seen))

    def system_scores(
        self, lp: str, *, domain: str | None = None, systems: Iterable[str] | None = None
    ) -> tuple[dict[str, dict[str, float]], list[str]]:
        """``({metric: {system: score}}, notes)`` on ``lp`` (and ``domain`` if given): each
        system's mean over every scored paragraph of its documents (WMT25's system score).

        Systems without a document on ``lp`` are left out; ``systems`` keeps only those
        named. A metric a system has on some of its documents but not all, or on none of its
        paragraphs, is refused (naming the file and the document); paragraphs without a
        score are left out of the mean, and a note counts them.

        Examples
        --------
        >>> doc = ScoredDocument("en-de", "news", "d1", {"m": [1.0, None, 3.0]}, 1)
        >>> Wmt25Scores({"A": [doc]}).system_scores("en-de")
        ({'m': {'A': 2.0}}, ['A: 1 of 3 paragraph(s) without a m score left out of its mean'])
        """
        keep = None if systems is None else set(systems)
        out: dict[str, dict[str, float]] = {}
        notes: list[str] = []
        for system, docs in self.documents.items():
            if keep is not None and system not in keep:
                continue
            mine = [d for d in docs if d.language_pair == lp
                    and (domain is None or d.domain == domain)]  # fmt: skip
            if not mine:
                continue
            for metric in dict.fromkeys(m for d in mine for m in d.metric_scores):
                lacking = next((d for d in mine if metric not in d.metric_scores), None)
                if lacking is not None:
                    raise UserInputError(
                        f"system {system!r} has {metric} scores on some {lp} documents but "
                        f"not on {lacking.document_id!r}: a system score over part of the "
                        "test set would not be comparable",
                        path=self.files.get(system), line=lacking.line,
                    )  # fmt: skip
                values = [v for d in mine for v in d.metric_scores[metric]]
                scored = [v for v in values if v is not None]
                if not scored:
                    raise UserInputError(
                        f"system {system!r} has no {metric} score on any {lp} paragraph",
                        path=self.files.get(system),
                    )
                if len(scored) < len(values):
                    gap = len(values) - len(scored)
                    notes.append(f"{system}: {gap} of {len(values)} paragraph(s) without a "
                                 f"{metric} score left out of its mean")  # fmt: skip
                out.setdefault(metric, {})[system] = math.fsum(scored) / len(scored)
        return out, notes


def read_wmt25_scores(directory: str | Path) -> Wmt25Scores:
    """Read every ``*.jsonl`` file of ``directory`` (WMT25's ``automatic_scores``), one
    system per file, named by the file's stem.

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "SysA.jsonl").write_text('{"language_pair": "en-de", "domain": "news", '
    ...     '"document_id": "d1", "metric_scores": {"chrF++": [50.0, 70.0]}}\\n')
    >>> s = read_wmt25_scores(d)
    >>> s.systems, s.system_scores("en-de")[0]
    (['SysA'], {'chrF++': {'SysA': 60.0}})
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise UserInputError("expected a folder of WMT25 automatic_scores/*.jsonl files",
                             path=str(folder))  # fmt: skip
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        raise UserInputError("no *.jsonl file (one per system, WMT25's automatic_scores)",
                             path=str(folder))  # fmt: skip
    return Wmt25Scores({f.stem: read_wmt25_score_file(f) for f in files},
                       {f.stem: str(f) for f in files})  # fmt: skip


def read_wmt25_score_file(path: str | Path) -> list[ScoredDocument]:
    """The documents of one system's file, in file order (blank lines are skipped)."""
    where = str(path)
    docs: list[ScoredDocument] = []
    seen: dict[tuple[str, str], int] = {}
    with open(path, encoding="utf-8") as fh:
        for n, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            try:
                row = loads(text, path=where, line=n)
            except json.JSONDecodeError as exc:
                why = f"not JSON ({exc.msg}, column {exc.colno}); expected a document's scores"
                raise UserInputError(why, path=where, line=n) from None
            doc = _document(row, where, n)
            key = (doc.language_pair, doc.document_id)
            if key in seen:
                raise UserInputError(
                    f"document {doc.document_id!r} of {doc.language_pair} given twice (first "
                    f"on line {seen[key]})", path=where, line=n,
                )  # fmt: skip
            seen[key] = n
            docs.append(doc)
    return docs


def _document(row: object, where: str, n: int) -> ScoredDocument:
    if not isinstance(row, dict):
        raise UserInputError("expected a JSON object per line", path=where, line=n)
    for name, kind in FIELDS.items():
        if name not in row:
            raise UserInputError(f"missing field {name!r} (expected {', '.join(FIELDS)})",
                                 path=where, line=n)  # fmt: skip
        if not isinstance(row[name], kind):
            raise UserInputError(f"field {name!r} must be a {kind.__name__} (got "
                                 f"{type(row[name]).__name__})", path=where, line=n)  # fmt: skip
    scores = {str(m): _paragraph_scores(m, v, where, n) for m, v in row["metric_scores"].items()}
    lengths = {m: len(v) for m, v in scores.items()}
    if len(set(lengths.values())) > 1:
        listed = ", ".join(f"{m}: {k}" for m, k in lengths.items())
        raise UserInputError(f"document {row['document_id']!r}: the metrics score different "
                             f"numbers of paragraphs ({listed})", path=where, line=n)  # fmt: skip
    return ScoredDocument(row["language_pair"], row["domain"], row["document_id"], scores, n)


def _paragraph_scores(metric: str, values: object, where: str, n: int) -> list[float | None]:
    if not isinstance(values, list):
        raise UserInputError(f"metric {metric!r}: expected a list of paragraph scores",
                             path=where, line=n)  # fmt: skip
    out: list[float | None] = []
    for k, v in enumerate(values, start=1):
        if v is None:
            out.append(None)
        elif isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise UserInputError(f"metric {metric!r}, paragraph {k}: {v!r} is not a finite "
                                 "number or null", path=where, line=n)  # fmt: skip
        else:
            out.append(float(v))
    return out


def supported_systems(metadata: Mapping[str, object], lp: str, *, path: str = "") -> set[str]:
    """The systems WMT25's metadata file (``systems_metadata*.json``) lists for ``lp`` under
    ``supported_lps`` (any value: the organisers' filter is the key).

    Examples
    --------
    >>> supported_systems({"A": {"supported_lps": {"en-de": "supported"}},
    ...                    "B": {"supported_lps": {"en-cs": "unsupported"}}}, "en-de")
    {'A'}
    """
    out = set()
    for system, meta in metadata.items():
        lps = meta.get("supported_lps") if isinstance(meta, dict) else None
        if not isinstance(lps, dict):
            raise UserInputError(f"system {system!r}: expected an object with 'supported_lps' "
                                 "(WMT25's systems metadata)", path=path or None)  # fmt: skip
        if lp in lps:
            out.add(system)
    return out
