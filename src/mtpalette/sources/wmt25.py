"""WMT25/26 test sets and system outputs, scored per paragraph, per document or per system.

:class:`Wmt25Inputs` says what to read (the test-set file, the system outputs, the set, the
language pair, the references) and how (the level, the system score, what to do with a
paragraph mismatch, HTML); :meth:`Wmt25Inputs.load` reads it into a :class:`Wmt25Pair`, whose
:meth:`~Wmt25Pair.segments` are what ``score`` scores (system outputs, reference streams,
sources: the same objects every other input of ``score`` becomes), and
:func:`system_scores` turns the scores into the system scores asked for, named in each
signature. :func:`score_wmt25` does all three.

* **Levels.** ``paragraph``: each paragraph is a segment. ``document``: each document is a
  segment, its paragraphs joined with a blank line (the document's text as the file holds
  it; :data:`~mtpalette.text.paragraphs.DOCUMENT_JOINER`). ``system``: paragraphs are the
  segments, and only system scores are shown (no segment rows).
* **System score.** ``corpus``: the metric's corpus score over the level's segments (BLEU's
  and chrF's statistics summed, as sacrebleu's corpus score); ``mean``: the mean of the
  segment scores, WMT25's system score at paragraph level (their automatic scores are
  per-paragraph scores, averaged over every paragraph of the language pair). The signature
  says which: ``unit:paragraph|sys:corpus``, ``unit:document|sys:mean``...
* **Paragraph mismatch** (a system whose document has another paragraph count than the
  source; a missing or untranslated document counts too). ``refuse`` (default): an error
  naming every such (system, document, counts). ``drop``: the system is left out of the
  language pair, with a note, as WMT25's builder of the metrics task's test set did
  (wmt-conference/wmt25-mteval ``scripts/testset/testset_jsonl_to_tsv_task1.py``; WMT25's
  automatic-scoring script dropped such a system from every pair). ``align``: WMT26's
  merge/split rule (:func:`~mtpalette.text.paragraphs.align_paragraphs`); a document it
  cannot align (or a missing one) drops the system from the pair, with a note. At document
  level, paragraph counts do not matter and only missing documents are reported.
* **HTML.** Hypotheses are scored as written, tags included, unless ``strip_html``; a note
  says which when a hypothesis holds tags.

Examples
--------
>>> from mtpalette.io.wmt25 import sample_folder
>>> s = sample_folder()
>>> out = score_wmt25(s / "testset.jsonl", [s / "systems"], ["chrf"], lp="en-de_DE",
...                   set_id="general", paragraph_mismatch="align", note=lambda text: None)
>>> {k: round(v.corpus[0].value, 2) for k, v in out.items()}
{'Lumen': 83.9, 'Quill': 56.19, 'Tessera': 94.15}
>>> str(out["Lumen"].corpus[0].signature).split("|")[-3:-1]
['unit:paragraph', 'sys:corpus']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette.description import Description
from mtpalette.errors import UserInputError, repeated
from mtpalette.feedback import note_on_stderr
from mtpalette.flags import choice, flag
from mtpalette.records import Record

if TYPE_CHECKING:  # the readers and paragraph rules are imported by the work that needs them,
    # so that a score run's description costs nothing where no WMT25 file is named
    from mtpalette.io.wmt25 import DocumentSet, SourceDocument

LEVELS = ("paragraph", "document", "system")
SYSTEM_SCORES = ("corpus", "mean")
MISMATCH = ("refuse", "drop", "align")


def _count(n: int, noun: str) -> str:
    """``n noun``, plural when ``n`` is not 1.

    Examples
    --------
    >>> _count(1, "paragraph"), _count(3, "document")
    ('1 paragraph', '3 documents')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class ParagraphMismatch(Record):
    """A system's document whose paragraph count is not the source's (``output`` 0: the
    document is missing or untranslated)."""

    system: str
    doc_id: str
    source: int
    output: int

    def __str__(self) -> str:
        got = "missing" if self.output == 0 else _count(self.output, "paragraph")
        return f"{self.system}: {self.doc_id} ({got}, the source has {self.source})"


@dataclass(frozen=True)
class Wmt25Pair:
    """One language pair's documents, references and system outputs, paragraph by paragraph.

    ``sources[d]``, ``references[name][d]`` and ``systems[name][d]`` are document ``d``'s
    paragraphs (documents in test-set order); ``mismatches`` every mismatch found (aligned
    or dropped ones too), ``dropped`` the systems left out, ``notes`` what the user is told.
    """

    lp: str
    doc_ids: list[str]
    sources: list[list[str]]
    references: dict[str, list[list[str]]]
    systems: dict[str, list[list[str]]]
    mismatches: list[ParagraphMismatch] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def segments(self, level: str = "paragraph"
                 ) -> tuple[dict[str, list[str]], list[list[str]], list[str]]:  # fmt: skip
        """``({system: segments}, reference streams, sources)`` at ``level`` (paragraphs, or
        documents joined with a blank line).

        Examples
        --------
        >>> p = Wmt25Pair("a-b", ["d"], [["A.", "B."]], {"refA": [["X.", "Y."]]},
        ...               {"S": [["x.", "y."]]})
        >>> p.segments("document")
        ({'S': ['x.\\n\\ny.']}, [['X.\\n\\nY.']], ['A.\\n\\nB.'])
        >>> p.segments("paragraph")[1]
        [['X.', 'Y.']]
        """
        if level == "document":

            def unit(docs):
                from mtpalette.text.paragraphs import join_paragraphs

                return [join_paragraphs(d) for d in docs]
        else:

            def unit(docs):
                return [p for d in docs for p in d]

        systems = {name: unit(docs) for name, docs in self.systems.items()}
        return systems, [unit(docs) for docs in self.references.values()], unit(self.sources)

    def units(self, level: str = "paragraph") -> list[tuple[str, int]]:
        """``(doc_id, paragraph index)`` of every segment (index 0 at document level)."""
        if level == "document":
            return [(d, 0) for d in self.doc_ids]
        return [(d, k) for d, src in zip(self.doc_ids, self.sources, strict=True)
                for k in range(len(src))]  # fmt: skip


#: the help section of the WMT25/26 options
PANEL = "Inputs: WMT25/26 files"


@dataclass
class Wmt25Inputs(Description):
    """What to read of WMT25/26 files and how to score it (see the module docstring).

    Examples
    --------
    >>> Wmt25Inputs("t.jsonl", ["systems/"], lp="en-de_DE", level="page").validate()
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --level must be one of paragraph, document, system...
    """

    kind = "wmt25-inputs"
    wmt25_testset: str | Path | None = flag(
        "--wmt25-testset", panel=PANEL, cli=Path | None,
        help="A WMT25/26 test set (JSONL of documents; with --wmt25-systems and --lp).",
    ).field(None)  # fmt: skip
    wmt25_systems: list[str | Path] | None = flag(
        "--wmt25-systems", panel=PANEL, cli=list[Path] | None,
        help="System outputs (JSONL, one per system) or folders of them.",
    ).field(None)  # fmt: skip
    lp: str | None = None
    set_id: str | None = flag(
        "--set-id", panel=PANEL,
        help="The set of the test set (collection_id; WMT25's official one is 'general').",
    ).field(None)  # fmt: skip
    wmt25_ref: list[str] | None = flag(
        "--wmt25-ref", panel=PANEL,
        help="References by name (default: every one all documents of the pair have).",
    ).field(None)  # fmt: skip
    level: str = flag(
        "--level", panel=PANEL, cli=choice(*LEVELS), parse=str, choices=LEVELS,
        help="The segment: paragraph, document (paragraphs joined), system (no segment rows).",
    ).field("paragraph")  # fmt: skip
    system_score: str = flag(
        "--system-score", panel=PANEL, cli=choice(*SYSTEM_SCORES), parse=str, choices=SYSTEM_SCORES,
        help="corpus: the corpus score; mean: the mean of segment scores (WMT25's).",
    ).field("corpus")  # fmt: skip
    paragraph_mismatch: str = flag(
        "--paragraph-mismatch", panel=PANEL, cli=choice(*MISMATCH), parse=str, choices=MISMATCH,
        help="Another paragraph count than the source: refuse, drop the system, align (WMT26).",
    ).field("refuse")  # fmt: skip
    strip_html: bool = flag(
        "--strip-html", panel=PANEL, help="Remove HTML tags from hypotheses."
    ).field(False)

    def validate(self) -> None:
        super().validate()  # the options' choices
        if self.wmt25_testset is None:
            raise UserInputError(
                "--wmt25-systems, --set-id, --wmt25-ref, --level, --system-score, "
                "--paragraph-mismatch and --strip-html need the test set: --wmt25-testset FILE"
            )
        if not self.wmt25_systems:
            raise UserInputError("--wmt25-testset needs system outputs: --wmt25-systems DIR|FILE")
        if self.lp is None:
            raise UserInputError("--wmt25-testset needs the language pair: --lp (e.g. en-cs_CZ)")

    def check(self, *, sentence: bool = False, resampling: bool = False) -> None:
        """Refuse what the run cannot give: segment rows at system level, and tests or
        intervals of a mean system score (they resample corpus scores)."""
        self.validate()
        if sentence and self.level == "system":
            raise UserInputError("--level system gives system scores only; drop --sentence "
                                 "or choose --level paragraph or document")  # fmt: skip
        if resampling and self.system_score == "mean":
            raise UserInputError(
                "--paired-bs, --paired-ar and --confidence resample corpus scores; with them "
                "use --system-score corpus"
            )

    def aggregate(self, scored: Mapping):
        """:func:`system_scores` of ``scored`` at this run's level and system score."""
        return system_scores(scored, level=self.level, system_score=self.system_score)

    def load(self, note: Callable[[str], None] = note_on_stderr) -> Wmt25Pair:
        """Read the files into the language pair's :class:`Wmt25Pair` (notes to ``note``)."""
        from mtpalette.io.wmt25 import read_system_outputs, read_testset

        self.validate()
        testset = read_testset(self.wmt25_testset, set_id=self.set_id)
        docs = testset.pair(self.lp)
        names = _reference_names(testset, docs, self.wmt25_ref)
        level = "document" if self.level == "document" else "paragraph"
        refs = {name: [_ref_paragraphs(testset, d, name, level) for d in docs] for name in names}
        outputs = read_system_outputs(self.wmt25_systems, testset)
        pair = _systems(docs, outputs, self.paragraph_mismatch, level)
        pair = dataclasses.replace(pair, lp=self.lp, references=refs)
        kinds = ", ".join(f"{n} ({docs[0].refs[n].kind})" for n in names)
        size = f"{len(docs)} documents, {sum(map(len, pair.sources))} paragraphs"
        pair.notes.insert(0, f"{self.lp}: {size}; references {kinds}")
        if level == "document" and self.paragraph_mismatch != "refuse":
            pair.notes.append(f"--paragraph-mismatch {self.paragraph_mismatch} does nothing at "
                              "document level: a document is scored whole, whatever its "
                              "paragraph count")  # fmt: skip
        pair = _html(pair, strip=self.strip_html)
        for line in pair.notes:
            note(line)
        return pair


def _reference_names(testset: DocumentSet, docs: list[SourceDocument],
                     wanted: list[str] | None) -> list[str]:  # fmt: skip
    """The references to score against: those named, or every one all documents have."""
    have = [set(d.refs) for d in docs]
    common = [n for n in docs[0].refs if all(n in h for h in have)]
    if wanted is None:
        if not common:
            raise UserInputError(
                f"no reference that every document of {docs[0].language_pair} has (a "
                "reference-based metric needs one per segment)",
                path=testset.path,
            )
        return common
    twice = repeated(wanted)
    if twice:
        raise UserInputError(f"--wmt25-ref {', '.join(twice)} is given twice; name each "
                             "reference once (two copies are not two references)")  # fmt: skip
    for name in wanted:
        lacking = [d for d, h in zip(docs, have, strict=True) if name not in h]
        if lacking:
            raise UserInputError(
                f"document {lacking[0].doc_id!r} has no reference {name!r} (nor "
                f"{len(lacking) - 1} other documents of the pair)",
                path=testset.path,
                line=lacking[0].line,
            )
    return list(wanted)


def _ref_paragraphs(testset: DocumentSet, doc: SourceDocument, name: str, level: str
                    ) -> list[str]:  # fmt: skip
    paragraphs = doc.refs[name].paragraphs
    if level == "paragraph" and len(paragraphs) != len(doc.paragraphs):
        raise UserInputError(
            f"reference {name!r} of {doc.doc_id!r} has {_count(len(paragraphs), 'paragraph')}, the "
            f"source {len(doc.paragraphs)}: it cannot be scored per paragraph (--level "
            "document can)",
            path=testset.path,
            line=doc.line,
        )
    return paragraphs


def _systems(docs: list[SourceDocument], outputs: Mapping, mode: str, level: str) -> Wmt25Pair:
    """Each system's paragraphs for ``docs``, the mismatches handled by ``mode``."""
    from mtpalette.text.paragraphs import align_paragraphs, split_paragraphs

    sources = [d.paragraphs for d in docs]
    systems, mismatches, dropped, notes = {}, [], [], []
    for name, output in outputs.items():
        translated = [output.documents.get(d.doc_id) for d in docs]
        if all(t is None or t.hypothesis is None for t in translated):
            continue  # the system did not translate this pair
        found, bad = [], []
        for doc, src, out in zip(docs, sources, translated, strict=True):
            missing = out is None or out.hypothesis is None
            paragraphs = [] if missing else split_paragraphs(out.hypothesis)
            if paragraphs and (level == "document" or len(paragraphs) == len(src)):
                found.append(paragraphs)
                continue
            bad.append(ParagraphMismatch(name, doc.doc_id, len(src), len(paragraphs)))
            aligned = align_paragraphs(src, paragraphs) if mode == "align" and paragraphs else None
            found.append(aligned)
        mismatches += bad
        if not bad:
            systems[name] = found
        elif mode == "refuse":
            continue
        elif mode == "align" and all(p is not None for p in found):
            systems[name] = found
            aligned = _count(len(bad), "document")
            notes.append(f"{name}: {aligned} aligned by WMT26's merge/split rule: "
                         + "; ".join(map(str, bad)))  # fmt: skip
        else:
            dropped.append(name)
            notes.append(f"{name} left out of the pair: " + "; ".join(map(str, bad)))
    if mode == "refuse" and mismatches:
        raise UserInputError(
            f"{_count(len(mismatches), 'document')} of {docs[0].language_pair}: another paragraph "
            "count than the source (or missing): "
            + "; ".join(map(str, mismatches))
            + " (--paragraph-mismatch drop leaves such systems out, align aligns them)"
        )
    if not systems:
        raise UserInputError(f"no system output for {docs[0].language_pair} left to score")
    return Wmt25Pair("", [d.doc_id for d in docs], sources, {}, systems, mismatches,
                     dropped, notes)  # fmt: skip


def _html(pair: Wmt25Pair, *, strip: bool) -> Wmt25Pair:
    """The pair with HTML tags stripped from the hypotheses (``strip``), and a note saying
    what was done when any hypothesis holds tags."""
    from mtpalette.text.paragraphs import has_html, strip_html

    tagged = [n for n, docs in pair.systems.items() if any(has_html(p) for d in docs for p in d)]
    if not tagged:
        return pair
    if not strip:
        pair.notes.append(f"HTML tags kept and scored as text in {', '.join(tagged)} "
                          "(--strip-html removes them)")  # fmt: skip
        return pair
    systems = {n: [[strip_html(p) for p in d] for d in docs] for n, docs in pair.systems.items()}
    pair.notes.append(f"HTML tags stripped from {', '.join(tagged)} before scoring")
    return dataclasses.replace(pair, systems=systems)


def system_scores(scored: Mapping, *, level: str = "paragraph", system_score: str = "corpus"):
    """``scored`` (``score_systems`` on a pair's segments) with each system score as asked:
    the corpus score, or the mean of the segment scores (its details dropped); the unit and
    the choice named in every signature (``unit:paragraph|sys:mean``).

    Examples
    --------
    >>> from mtpalette.sources.scoring import score_systems
    >>> out = score_systems({"A": ["a b", "c d"]}, [["a b", "c e"]], ["wer"])
    >>> s = system_scores(out, system_score="mean")["A"].corpus[0]
    >>> float(s.value), str(s.signature).split("|")[-3:-1]
    (0.25, ['unit:paragraph', 'sys:mean'])
    """
    from mtpalette.sources.scoring import Scores, SystemScores

    unit = "document" if level == "document" else "paragraph"
    out = SystemScores()
    for name, scores in scored.items():
        corpus = []
        for score in scores.corpus:
            sig = score.signature.with_fields(unit=unit, sys=system_score)
            if system_score == "mean":
                value = float(scores.sentence[score.metric].mean())
                score = dataclasses.replace(score, value=value, details={})
            corpus.append(dataclasses.replace(score, signature=sig))
        out[name] = Scores(corpus, scores.sentence, scores.stats, scores.n_segments,
                           scores.n_refs)  # fmt: skip
    return out


def score_wmt25(
    testset: str | Path,
    systems: Sequence[str | Path],
    metrics: Sequence[str] | str,
    *,
    lp: str,
    set_id: str | None = None,
    refs: list[str] | None = None,
    level: str = "paragraph",
    system_score: str = "corpus",
    paragraph_mismatch: str = "refuse",
    strip_html: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    note: Callable[[str], None] = note_on_stderr,
):
    """Score the systems of one language pair of WMT25/26 files.

    Parameters
    ----------
    testset:
        The test-set JSON Lines file.
    systems:
        System-output files, or folders of them (``*.jsonl``; a system is a file's stem).
    metrics:
        Metric specs (``bleu``, ``chrf``, ``chrf++``...).
    lp:
        The language pair as the file writes it (``en-cs_CZ``).
    set_id, refs, level, system_score, paragraph_mismatch, strip_html:
        As :class:`Wmt25Inputs` (the module docstring says what each does).
    tokenize, lowercase:
        As :func:`~mtpalette.sources.scoring.score_systems`.
    note:
        Where notes go (standard error by default).

    Returns
    -------
    SystemScores
        System name to its :class:`~mtpalette.sources.scoring.Scores` (``sentence``: the
        segment scores at the level; ``corpus``: the system scores asked for).

    Raises
    ------
    UserInputError
        Damaged files (naming file and line), an unknown pair or set, a paragraph mismatch
        under ``refuse`` (naming every document).

    Examples
    --------
    >>> from mtpalette.io.wmt25 import sample_folder
    >>> s = sample_folder()
    >>> out = score_wmt25(s / "testset.jsonl", [s / "systems"], "bleu", lp="cs-uk_UA",
    ...                   set_id="general", system_score="mean", paragraph_mismatch="drop",
    ...                   note=print)
    cs-uk_UA: 3 documents, 5 paragraphs; references refPE (post-edit)
    Tessera left out of the pair: Tessera: cs-uk_UA_#_news_#_tram (1 paragraph, the source has 2)
    >>> list(out)
    ['Lumen', 'Quill']
    """
    from mtpalette.sources.scoring import score_systems

    inputs = Wmt25Inputs(testset, list(systems), lp, set_id, refs, level, system_score,
                         paragraph_mismatch, strip_html)  # fmt: skip
    pair = inputs.load(note)
    hyps, ref_streams, srcs = pair.segments(level)
    scored = score_systems(hyps, ref_streams, metrics, tokenize=tokenize, lowercase=lowercase,
                           srcs=srcs, progress=False)  # fmt: skip
    return system_scores(scored, level=level, system_score=system_score)
