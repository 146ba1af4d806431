"""Error spans: the one data object every span format is read into (issue 57).

A :class:`Span` is a half-open range ``[start, end)`` of character offsets (Python string
indices, code points) into one segment's text, with a severity from one small vocabulary
(:data:`SEVERITIES`). A :class:`SpanRow` is one segment as one annotator (or one span
predictor) saw it: its key (language pair, MT system, document, segment), its text when the
format carries it, and its spans. A :class:`SpanSet` is the rows of one file, with where each
came from (the file and the line), so that a later mismatch can name both.

Offsets
-------
Every reader converts its format's offsets to ``[start, end)`` (the table in ``docs/spans.md``
says how for each); ``start == end`` is an insertion point (something is missing *here*, as the
WMT23 QE files mark it). A span is checked against its text where the text is known: it must
lie inside the text and not start after it ends (:func:`checked_span`). With ``clip=True`` the
organisers' behaviour is taken instead: an end past the text is cut back to the text's length,
a start after its end leaves the span out (the organisers' scorers count no character for
it), and an unknown severity becomes ``undecided`` (which the WMT25 scorer skips).

Severities
----------
``minor``, ``major``, ``critical`` are the grades; ``undecided`` is ESA's "not sure" mark, and
``omission`` is a kind: an error with no place in the text (Appraise's and Pearmut's
``"missing"`` spans, WMT25's ``missing`` indices, WMT26's ``omission`` field). An omission is
stored as ``Span(0, 0, "omission", category=GRADE)``: its offsets mean nothing, and
``category`` holds the grade the format gave it (``minor``/``major``) when the format gives no
category of its own. Scorers leave omissions and ``undecided`` spans out, as WMT25's does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mtpalette.errors import UserInputError

#: the severity vocabulary: three grades, ESA's "undecided" and the "omission" kind
SEVERITIES: tuple[str, ...] = ("minor", "major", "critical", "undecided", "omission")
#: the sides a span may mark
SIDES: tuple[str, ...] = ("target", "source")
#: other spellings of the vocabulary, lower case (MQM writes ``Major``; COMET ``critical``)
SEVERITY_ALIASES: dict[str, str] = {
    **{s: s for s in SEVERITIES},
    "missing": "omission",
}

Key = tuple[str | None, str, str | None, Any]


def normalise_severity(text: Any, *, path: str, line: int | None, clip: bool = False) -> str:
    """``text`` as a severity of :data:`SEVERITIES` (case and surrounding spaces ignored).

    An unknown severity is refused naming the file and the line, or with ``clip=True``
    becomes ``undecided`` (left out by the scorers, as the WMT25 scorer leaves out
    ``undecided``).

    Examples
    --------
    >>> normalise_severity(" Major", path="a.tsv", line=3)
    'major'
    >>> normalise_severity("Neutral", path="a.tsv", line=3, clip=True)
    'undecided'
    >>> normalise_severity("Neutral", path="a.tsv", line=3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: a.tsv:3: unknown severity 'Neutral'; expected one of ...
    """
    if isinstance(text, str) and text in SEVERITY_ALIASES:  # written as the vocabulary is
        return SEVERITY_ALIASES[text]
    key = text.strip().lower() if isinstance(text, str) else None
    if key in SEVERITY_ALIASES:
        return SEVERITY_ALIASES[key]
    if clip:
        return "undecided"
    raise UserInputError(
        f"unknown severity {text!r}; expected one of {', '.join(SEVERITIES)} "
        "(or --clip to read it as undecided)",
        path=path,
        line=line,
    )


@dataclass(frozen=True)
class Span:
    """One marked error: characters ``[start, end)`` of the segment's text.

    Parameters
    ----------
    start, end:
        Half-open code-point offsets; ``start == end`` is an insertion point. For an
        omission (``severity == "omission"``) both are 0 and mean nothing.
    severity:
        One of :data:`SEVERITIES`.
    category:
        The error category where the format has one (MQM's ``Accuracy/Mistranslation``); for
        an omission, the grade the format gave it if it gives no category.
    side:
        ``target`` (the translation) or ``source`` (MQM and MTME source errors).
    confidence:
        A predictor's confidence in the span (xCOMET), if given.

    Examples
    --------
    >>> s = Span(4, 9, "major")
    >>> s.length, s.is_omission, "Ich bin hier"[s.start:s.end]
    (5, False, 'bin h')
    """

    start: int
    end: int
    severity: str
    category: str | None = None
    side: str = "target"
    confidence: float | None = None

    @property
    def length(self) -> int:
        """The number of characters covered (0 for an insertion point or an omission)."""
        return self.end - self.start

    @property
    def is_omission(self) -> bool:
        """True for an error with no place in the text."""
        return self.severity == "omission"

    def to_dict(self) -> dict[str, Any]:
        """The span's fields by name."""
        return {
            "start": self.start,
            "end": self.end,
            "severity": self.severity,
            "category": self.category,
            "side": self.side,
            "confidence": self.confidence,
        }


def omission(grade: str | None = None, category: str | None = None) -> Span:
    """The span of an error with no place in the text: ``category`` or else ``grade`` kept.

    Examples
    --------
    >>> omission("major")
    Span(start=0, end=0, severity='omission', category='major', side='target', confidence=None)
    """
    return Span(0, 0, "omission", category if category is not None else grade)


def checked_span(
    span: Span, text: str | None, *, clip: bool, path: str, line: int | None
) -> Span | None:
    """``span`` checked against ``text`` (None: only the offsets' order is checked).

    A start below 0, a start after the end, or an end past the text's length is refused
    naming the file and the line; with ``clip=True`` the span is cut to the text (a start
    below 0 becomes 0, an end past the text its length) and one that starts after it ends
    is left out (None), as the organisers' scorers count no character for it. Omissions are
    not checked. The side is checked too.

    Examples
    --------
    >>> checked_span(Span(2, 9, "minor"), "abcde", clip=True, path="p.tsv", line=2)
    Span(start=2, end=5, severity='minor', category=None, side='target', confidence=None)
    >>> checked_span(Span(2, 9, "minor"), "abcde", clip=False, path="p.tsv", line=2)
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: p.tsv:2: span [2, 9) leaves its text of 5 characters ...
    """
    if span.side not in SIDES:
        raise UserInputError(
            f"unknown side {span.side!r}; expected one of {', '.join(SIDES)}", path=path, line=line
        )
    if span.is_omission:
        return span
    start, end = span.start, span.end
    if start > end:
        if clip:
            return None
        raise UserInputError(
            f"span [{start}, {end}) starts after it ends (or --clip to leave it out)",
            path=path,
            line=line,
        )
    limit = len(text) if text is not None else None
    if start < 0 or (limit is not None and end > limit):
        if not clip:
            size = f" of {limit} characters" if limit is not None else ""
            raise UserInputError(
                f"span [{start}, {end}) leaves its text{size} (or --clip to cut it to the text)",
                path=path,
                line=line,
            )
        start = max(start, 0)
        end = max(end, start) if limit is None else min(max(end, start), limit)
        start = min(start, end)
    if (start, end) == (span.start, span.end):
        return span
    return replace(span, start=start, end=end)


def checked_spans(
    spans: Iterable[Span], text: str | None, *, clip: bool, path: str, line: int | None
) -> tuple[Span, ...]:
    """Every span of ``spans`` through :func:`checked_span` (those left out dropped).

    Examples
    --------
    >>> checked_spans([Span(3, 1, "minor"), Span(0, 1, "major")], "ab", clip=True,
    ...               path="p", line=1)
    (Span(start=0, end=1, severity='major', category=None, side='target', confidence=None),)
    """
    out = []
    for s in spans:
        checked = checked_span(s, text, clip=clip, path=path, line=line)
        if checked is not None:
            out.append(checked)
    return tuple(out)


@dataclass(frozen=True)
class SpanRow:
    """One segment's spans as one annotator or predictor marked them.

    Examples
    --------
    >>> r = SpanRow("en-de", "sysA", "doc1", 3, "Hallo Welt", (Span(6, 10, "minor"),))
    >>> r.key(), r.marked()
    (('en-de', 'sysA', 'doc1', 3), ['Welt'])
    """

    lp: str | None
    system: str
    doc: str | None
    segment: Any
    text: str | None
    spans: tuple[Span, ...]
    score: float | None = None
    annotator: str | None = None
    domain: str | None = None
    error_free: bool | None = None

    def key(self) -> Key:
        """``(lp, system, doc, segment)``: what a gold row and a predicted row share."""
        return (self.lp, self.system, self.doc, self.segment)

    def marked(self) -> list[str]:
        """The marked text of each target span (needs the text; omissions give ``""``)."""
        if self.text is None:
            return []
        return [self.text[s.start : s.end] for s in self.spans if s.side == "target"]


@dataclass(frozen=True)
class SpanSet:
    """The span rows read from one file, with where each came from.

    Parameters
    ----------
    rows:
        The rows, in the file's order.
    path:
        The file they were read from.
    format:
        The format's name (a key of ``mtpalette.io.spans_read.FORMATS``).
    lines:
        The 1-based line of each row in ``path`` (None where a row has no one line, as in
        a JSON document).

    Examples
    --------
    >>> rows = [SpanRow("en-de", s, "d", 0, "ab", (Span(0, 1, "minor"),), annotator=a)
    ...         for s, a in [("A", "r1"), ("B", "r1"), ("A", "r2")]]
    >>> ss = SpanSet(tuple(rows), "x.jsonl", "generic-jsonl", (1, 2, 3))
    >>> len(ss), ss.systems(), ss.annotators(), len(ss.by_key()[("en-de", "A", "d", 0)])
    (3, ['A', 'B'], ['r1', 'r2'], 2)
    >>> [r.system for r in ss.filter(system="A", annotator="r2")]
    ['A']
    """

    rows: tuple[SpanRow, ...]
    path: str
    format: str
    lines: tuple[int | None, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.lines:
            object.__setattr__(self, "lines", (None,) * len(self.rows))
        if len(self.lines) != len(self.rows):
            raise ValueError(f"{len(self.rows)} rows but {len(self.lines)} line numbers")

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[SpanRow]:
        return iter(self.rows)

    def keys(self) -> list[Key]:
        """Each row's key, in order (a key repeats when several annotators rated it)."""
        return [r.key() for r in self.rows]

    def by_key(self) -> dict[Key, list[SpanRow]]:
        """The rows of each key (several where several annotators rated one segment)."""
        out: dict[Key, list[SpanRow]] = {}
        for r in self.rows:
            out.setdefault(r.key(), []).append(r)
        return out

    def located(self) -> Iterator[tuple[SpanRow, int | None]]:
        """Each row with its line in :attr:`path`."""
        return zip(self.rows, self.lines, strict=True)

    def lps(self) -> list[str | None]:
        """The language pairs, in order of first appearance."""
        return list(dict.fromkeys(r.lp for r in self.rows))

    def systems(self) -> list[str]:
        """The MT systems, in order of first appearance."""
        return list(dict.fromkeys(r.system for r in self.rows))

    def annotators(self) -> list[str | None]:
        """The annotators (or predictors), in order of first appearance."""
        return list(dict.fromkeys(r.annotator for r in self.rows))

    def filter(
        self,
        *,
        lp: str | None = None,
        system: str | None = None,
        annotator: str | None = None,
    ) -> SpanSet:
        """The rows of one language pair, system and/or annotator (None: any)."""
        keep = [
            (r, ln)
            for r, ln in self.located()
            if (lp is None or r.lp == lp)
            and (system is None or r.system == system)
            and (annotator is None or r.annotator == annotator)
        ]
        return SpanSet(
            tuple(r for r, _ in keep), self.path, self.format, tuple(ln for _, ln in keep)
        )

    def n_spans(self) -> dict[str, int]:
        """The number of spans of each severity (every side), in :data:`SEVERITIES` order."""
        counts = dict.fromkeys(SEVERITIES, 0)
        for r in self.rows:
            for s in r.spans:
                counts[s.severity] += 1
        return counts

    def to_pandas(self) -> Any:
        """One row per span (a segment without spans gives one row with empty span columns):
        ``lp system doc segment annotator domain score error_free start end severity
        category side confidence text line``.

        Examples
        --------
        >>> ss = SpanSet((SpanRow("en-de", "A", "d", 0, "ab", (Span(0, 1, "minor"),)),
        ...               SpanRow("en-de", "A", "d", 1, "cd", ())), "x", "generic-tsv")
        >>> df = ss.to_pandas()
        >>> df["segment"].tolist(), df["end"].tolist()[0], df["severity"].isna().tolist()
        ([0, 1], 1, [False, True])
        """
        import pandas as pd

        df = pd.DataFrame(self.records(), columns=list(RECORD_COLUMNS))
        return df.astype({"start": "Int64", "end": "Int64"})

    def records(self) -> list[dict[str, Any]]:
        """The rows of :meth:`to_pandas` as dicts."""
        out = []
        empty = dict.fromkeys(("start", "end", "severity", "category", "side", "confidence"))
        for r, line in self.located():
            head = {
                "lp": r.lp,
                "system": r.system,
                "doc": r.doc,
                "segment": r.segment,
                "annotator": r.annotator,
                "domain": r.domain,
                "score": r.score,
                "error_free": r.error_free,
            }
            tail = {"text": r.text, "line": line}
            for s in r.spans or (None,):
                out.append({**head, **(s.to_dict() if s else empty), **tail})
        return out


#: the columns of :meth:`SpanSet.to_pandas`
RECORD_COLUMNS = (
    "lp", "system", "doc", "segment", "annotator", "domain", "score", "error_free",
    "start", "end", "severity", "category", "side", "confidence", "text", "line",
)  # fmt: skip


def check_texts_agree(gold: SpanSet, pred: SpanSet) -> int:
    """Check that where both ``gold`` and ``pred`` carry a segment's text, they agree.

    Every offset of a span depends on the text: a prediction made on a different text
    (another tokenisation, stripped spaces, a newline written as ``\\n``) cannot be scored
    against the gold. The first disagreement is refused naming both files and lines and
    the first character where they differ.

    Returns
    -------
    int
        The number of keys whose texts were compared.

    Examples
    --------
    >>> g = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo Welt", ()),), "gold.tsv", "x", (2,))
    >>> p = SpanSet((SpanRow("en-de", "A", "d", 0, "Hallo  Welt", ()),), "pred.tsv", "x", (7,))
    >>> check_texts_agree(g, g)
    1
    >>> check_texts_agree(g, p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: pred.tsv:7: the text of en-de/A/d/0 differs from gold.tsv:2 ...
    """
    texts: dict[Key, tuple[str, int | None]] = {}
    for r, line in gold.located():
        if r.text is not None:
            texts.setdefault(r.key(), (r.text, line))
    compared = set()
    for r, line in pred.located():
        if r.text is None or r.key() not in texts:
            continue
        text, gline = texts[r.key()]
        compared.add(r.key())
        if r.text != text:
            k = next(
                (i for i, (a, b) in enumerate(zip(text, r.text, strict=False)) if a != b),
                min(len(text), len(r.text)),
            )
            where = f"{gold.path}:{gline}" if gline is not None else gold.path
            key = "/".join(str(x) for x in r.key())
            raise UserInputError(
                f"the text of {key} differs from {where} at character {k} "
                f"({text[k : k + 4]!r} against {r.text[k : k + 4]!r}); every offset would shift, "
                "so it is not scored",
                path=pred.path,
                line=line,
            )
    return len(compared)


def trimmed(spans: SpanSet) -> SpanSet:
    """``spans`` with white space taken off both ends of every target span whose row has its
    text (a span of white space only is kept as it is).

    xCOMET's spans begin at their first subword's offset, which for a word-initial subword
    includes the space before the word; WMT's scorers count that space as a marked character.
    This is the explicit, opt-in way to compare without it.

    Examples
    --------
    >>> ss = SpanSet((SpanRow(None, "A", None, 0, "Ich bin da", (Span(3, 8, "minor"),
    ...                                                           Span(3, 4, "major"))),), "x", "y")
    >>> [(s.start, s.end) for s in trimmed(ss).rows[0].spans]
    [(4, 7), (3, 4)]
    """
    rows = []
    for r in spans.rows:
        if r.text is None:
            rows.append(r)
            continue
        new = []
        for s in r.spans:
            piece = r.text[s.start : s.end]
            if s.side != "target" or s.is_omission or not piece.strip():
                new.append(s)
                continue
            start = s.start + len(piece) - len(piece.lstrip())
            new.append(replace(s, start=start, end=s.start + len(piece.rstrip())))
        rows.append(replace(r, spans=tuple(new)))
    return replace(spans, rows=tuple(rows))


def span_set(rows: Sequence[tuple[SpanRow, int | None]], path: str, fmt: str) -> SpanSet:
    """A :class:`SpanSet` from ``(row, line)`` pairs; an empty file is refused.

    Examples
    --------
    >>> span_set([(SpanRow(None, "A", None, 0, None, ()), 1)], "f", "x").lines
    (1,)
    """
    if not rows:
        raise UserInputError("no segments in the file", path=path)
    return SpanSet(tuple(r for r, _ in rows), path, fmt, tuple(ln for _, ln in rows))


def spans_of(mapping: Mapping[str, Any]) -> Span:
    """A span from a dict of :meth:`Span.to_dict` (the generic JSONL's spans).

    Examples
    --------
    >>> spans_of({"start": 1, "end": 2, "severity": "minor"})
    Span(start=1, end=2, severity='minor', category=None, side='target', confidence=None)
    """
    return Span(
        mapping["start"],
        mapping["end"],
        mapping["severity"],
        mapping.get("category"),
        mapping.get("side") or "target",
        mapping.get("confidence"),
    )
