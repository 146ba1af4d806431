"""WMT25/26 general-task files: the test set and the system outputs, both JSON Lines of whole
documents.

The test set (``wmt25-genmt.jsonl``, ``wmt26-genmt.jsonl`` of wmt-conference/wmt25-general-mt
and wmt26-general-mt) has one document per line::

    {"doc_id": "en-xx_#_news_#_story1", "collection_id": "general", "domain": "news",
     "src_lang": "en", "tgt_lang": "xx", "src_text": "First paragraph.\\n\\nSecond.",
     "refs": {"refA": {"ref": "Erster Absatz.\\n\\nZweiter."}}}

Paragraphs are separated by a blank line (:mod:`mtpalette.text.paragraphs`). Other fields
(``video``, ``screenshot``, ``prompt_instruction``...) are kept as they are, unread.

* **The set.** WMT25 names it in ``collection_id`` (``general`` is the official set;
  ``testsuites`` are the test suites, left out of the automatic ranking); a ``set_id`` field
  is read the same way; without either, a WMT26 ``doc_id``
  (``set_###_domain_###_src_###_tgt_###_id``) gives it as its first part. A file holding
  several sets is read only with one chosen (``set_id=``): scoring them together would pool
  test suites with the test set, so it is refused, naming the sets.
* **References** (``refs``, ``{}`` or absent when a document has none) are kept by name with
  their kind: an entry's own ``kind`` or ``type`` field when it has one, else from its name
  (``...PE`` a post-edit, ``...synth...`` synthetic, any other human), as
  :class:`Reference`.

A system output (``data/systems/<system>.jsonl``) has one translated document per line,
``{"doc_id": ..., "hypothesis": ..., "metadata": {...}}``; the system is the file's stem. A
``null`` hypothesis is a document left untranslated (the organisers skip it). An output for
a document of another set than the one read is left out (counted in
:attr:`SystemOutput.other_set`); one for a document the test set does not hold is refused.

Every mistake is a :class:`~mtpalette.errors.UserInputError` naming the file and the line: a
line that is not a JSON object, a missing or mistyped field, a ``doc_id`` twice (naming the
first line), a system output for an unknown document.

Examples
--------
>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> doc = {"doc_id": "d1", "collection_id": "general", "domain": "news", "src_lang": "en",
...        "tgt_lang": "de", "src_text": "A.\\n\\nB.", "refs": {"refA": {"ref": "X.\\n\\nY."}}}
>>> write_jsonl(folder / "test.jsonl", [doc])
>>> ts = read_testset(folder / "test.jsonl")
>>> ts.language_pairs(), ts.documents["d1"].refs["refA"].kind
(['en-de'], 'human')
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.io.jsonfile import json_type, loads
from mtpalette.text.paragraphs import split_paragraphs

#: the fields every test-set line needs, with their type
TESTSET_FIELDS = {"doc_id": str, "domain": str, "src_lang": str, "tgt_lang": str, "src_text": str}
#: the fields that name a document's set, in the order they are looked for
SET_FIELDS = ("collection_id", "set_id")
#: what separates the parts of a WMT26 doc_id
WMT26_SEPARATOR = "_###_"
#: reference kinds
KINDS = ("human", "post-edit", "synthetic")


@dataclass(frozen=True)
class Reference:
    """A reference translation of a document: its name (``refA``), text and kind
    (``human``, ``post-edit``, ``synthetic``, or the kind the file names)."""

    name: str
    text: str
    kind: str = "human"

    @property
    def paragraphs(self) -> list[str]:
        return split_paragraphs(self.text)


@dataclass(frozen=True)
class SourceDocument:
    """One document of the test set and the line it was read from (1-based)."""

    doc_id: str
    domain: str
    src_lang: str
    tgt_lang: str
    src_text: str
    refs: dict[str, Reference] = field(default_factory=dict)
    set_id: str | None = None
    line: int = field(default=0, compare=False)
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def language_pair(self) -> str:
        """``src_lang-tgt_lang`` as the file writes them (``en-cs_CZ``, ``eng_Latn-isl_Latn``)."""
        return f"{self.src_lang}-{self.tgt_lang}"

    @property
    def paragraphs(self) -> list[str]:
        """The source's paragraphs."""
        return split_paragraphs(self.src_text)


@dataclass(frozen=True)
class DocumentSet:
    """The documents of one set of a test-set file, by ``doc_id`` in file order;
    ``other_ids``: the documents of the file's other sets (outputs for them are left out)."""

    path: str
    documents: dict[str, SourceDocument]
    set_id: str | None = None
    other_ids: frozenset[str] = frozenset()

    def language_pairs(self) -> list[str]:
        """The language pairs, in order of first appearance."""
        return list(dict.fromkeys(d.language_pair for d in self.documents.values()))

    def pair(self, lp: str) -> list[SourceDocument]:
        """The documents of language pair ``lp``, in file order.

        Raises
        ------
        UserInputError
            ``lp`` is not in the set (naming the pairs it has).
        """
        docs = [d for d in self.documents.values() if d.language_pair == lp]
        if not docs:
            raise UserInputError(
                f"no document of language pair {lp!r}; the set has "
                f"{', '.join(self.language_pairs()) or 'none'}",
                path=self.path,
            )
        return docs


@dataclass(frozen=True)
class SystemDocument:
    """One translated document: ``hypothesis`` None when the system left it untranslated."""

    doc_id: str
    hypothesis: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class SystemOutput:
    """A system's translated documents of the set read, by ``doc_id``; ``other_set``: how
    many of its lines were for documents of another set of the test-set file."""

    name: str
    path: str
    documents: dict[str, SystemDocument]
    other_set: int = 0


def _rows(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line, object)`` of every non-blank line of a JSON Lines file."""
    name = str(path)
    try:
        fh = open(path, encoding="utf-8")  # noqa: SIM115 - closed below
    except OSError as exc:
        raise UserInputError(f"cannot read the file: {exc.strerror}", path=name) from None
    with fh:
        try:
            for n, text in enumerate(fh, 1):
                if not text.strip():
                    continue
                try:
                    row = loads(text, path=name, line=n, kind="field")
                except json.JSONDecodeError as exc:
                    raise UserInputError(
                        f"not valid JSON ({exc.msg}); expected one JSON object per line",
                        path=name,
                        line=n,
                    ) from None
                if not isinstance(row, dict):
                    raise UserInputError(
                        f"expected a JSON object, found {type(row).__name__}", path=name, line=n
                    )
                yield n, row
        except UnicodeDecodeError:
            raise UserInputError("not UTF-8 text", path=name) from None


def _field(row: dict, key: str, kind: type, where: tuple[str, int], *, optional=False) -> Any:
    """``row[key]``, checked to be a ``kind``; None when absent and ``optional``."""
    if key not in row:
        if optional:
            return None
        raise UserInputError(f"missing field {key!r}", path=where[0], line=where[1])
    value = row[key]
    if not isinstance(value, kind):
        raise UserInputError(
            f"field {key!r} must be {_TYPE_NAMES[kind]}, found {json_type(value)}",
            path=where[0],
            line=where[1],
        )
    return value


_TYPE_NAMES = {str: "a string", dict: "an object", list: "a list"}


def reference_kind(name: str) -> str:
    """The kind of a reference that does not state it, from its name.

    Examples
    --------
    >>> [reference_kind(n) for n in ("refA", "refPE", "refB-PE", "synthA", "refSynth")]
    ['human', 'post-edit', 'post-edit', 'synthetic', 'synthetic']
    """
    if "synth" in name.lower():
        return "synthetic"
    if name.upper().endswith("PE"):
        return "post-edit"
    return "human"


def _references(row: dict, where: tuple[str, int]) -> dict[str, Reference]:
    refs = _field(row, "refs", dict, where, optional=True) or {}
    out = {}
    for name, entry in refs.items():
        if isinstance(entry, str):
            out[name] = Reference(name, entry, reference_kind(name))
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("ref"), str):
            raise UserInputError(
                f"reference {name!r} must be an object with a string 'ref' (or a string), "
                f"found {json_type(entry)}",
                path=where[0],
                line=where[1],
            )
        kind = entry.get("kind", entry.get("type"))
        if kind is not None and not isinstance(kind, str):
            raise UserInputError(
                f"reference {name!r}: its kind must be a string", path=where[0], line=where[1]
            )
        out[name] = Reference(name, entry["ref"], kind or reference_kind(name))
    return out


def document_set(row: dict, where: tuple[str, int]) -> str | None:
    """The set a test-set line belongs to (``collection_id``, ``set_id``, or a WMT26
    ``doc_id``'s first part); None when nothing names it.

    Examples
    --------
    >>> document_set({"collection_id": "general"}, ("t", 1))
    'general'
    >>> document_set({"doc_id": "WMT26_###_news_###_eng_Latn_###_isl_Latn_###_x"}, ("t", 1))
    'WMT26'
    >>> document_set({"doc_id": "en-is_IS_#_news_#_x"}, ("t", 1)) is None
    True
    """
    for key in SET_FIELDS:
        if key in row:
            return _field(row, key, str, where)
    parts = str(row.get("doc_id", "")).split(WMT26_SEPARATOR)
    return parts[0] if len(parts) >= 5 else None


def read_testset(path: str | Path, *, set_id: str | None = None) -> DocumentSet:
    """The documents of a WMT25/26 test-set file (one set: ``set_id``, or the only one).

    Parameters
    ----------
    path:
        The JSON Lines file.
    set_id:
        The set to read (``general`` for WMT25's official test set); needed when the file
        holds several.

    Raises
    ------
    UserInputError
        A damaged line, a missing or mistyped field, a ``doc_id`` twice (naming the first
        line), several sets and no ``set_id`` (naming them), an unknown ``set_id``.

    Examples
    --------
    >>> from mtpalette.io.wmt25 import sample_folder
    >>> ts = read_testset(sample_folder() / "testset.jsonl", set_id="general")
    >>> ts.language_pairs(), len(ts.documents)
    (['en-de_DE', 'cs-uk_UA'], 6)
    """
    name = str(path)
    docs: dict[str, SourceDocument] = {}
    first: dict[str, int] = {}
    for n, row in _rows(path):
        where = (name, n)
        values = {key: _field(row, key, kind, where) for key, kind in TESTSET_FIELDS.items()}
        if values["doc_id"] in first:
            raise UserInputError(
                f"doc_id {values['doc_id']!r} again (first on line {first[values['doc_id']]}); "
                "give each document once",
                path=name,
                line=n,
            )
        first[values["doc_id"]] = n
        known = {*TESTSET_FIELDS, *SET_FIELDS, "refs"}
        docs[values["doc_id"]] = SourceDocument(
            **values,
            refs=_references(row, where),
            set_id=document_set(row, where),
            line=n,
            extra={k: v for k, v in row.items() if k not in known},
        )
    return _one_set(name, docs, set_id)


def _one_set(name: str, docs: dict[str, SourceDocument], set_id: str | None) -> DocumentSet:
    sets = Counter(d.set_id for d in docs.values())
    if set_id is None:
        if len(sets) > 1:
            listed = ", ".join(f"{s} ({k} documents)" for s, k in sets.items())
            raise UserInputError(
                f"the file holds several sets: {listed}; choose one with --set-id "
                "(set_id=; WMT25's official test set is 'general')",
                path=name,
            )
        return DocumentSet(name, docs, next(iter(sets), None))
    if set_id not in sets:
        have = ", ".join(str(s) for s in sets) or "no document"
        raise UserInputError(f"no document of set {set_id!r}; the file has {have}", path=name)
    kept = {k: d for k, d in docs.items() if d.set_id == set_id}
    others = frozenset(k for k in docs if k not in kept)
    return DocumentSet(name, kept, set_id, others)


def read_system_output(path: str | Path, testset: DocumentSet, *, name: str | None = None
                       ) -> SystemOutput:  # fmt: skip
    """A system's output file, checked against ``testset``; the system is ``name`` or the
    file's stem.

    Raises
    ------
    UserInputError
        A damaged line, a missing or mistyped field, a ``doc_id`` twice, a document the test
        set does not hold (each naming the file and line).

    Examples
    --------
    >>> from mtpalette.io.wmt25 import sample_folder
    >>> ts = read_testset(sample_folder() / "testset.jsonl", set_id="general")
    >>> out = read_system_output(sample_folder() / "systems" / "Lumen.jsonl", ts)
    >>> out.name, len(out.documents), out.other_set
    ('Lumen', 6, 1)
    """
    file = str(path)
    docs: dict[str, SystemDocument] = {}
    other = 0
    for n, row in _rows(path):
        where = (file, n)
        doc_id = _field(row, "doc_id", str, where)
        if "hypothesis" not in row:
            raise UserInputError("missing field 'hypothesis'", path=file, line=n)
        hyp = row["hypothesis"]
        if hyp is not None and not isinstance(hyp, str):
            raise UserInputError(
                f"field 'hypothesis' must be a string or null, found {json_type(hyp)}",
                path=file,
                line=n,
            )
        metadata = _field(row, "metadata", dict, where, optional=True) or {}
        if doc_id in docs:
            raise UserInputError(
                f"doc_id {doc_id!r} again (first on line {docs[doc_id].line})", path=file, line=n
            )
        if doc_id not in testset.documents:
            if doc_id in testset.other_ids:
                other += 1
                continue
            raise UserInputError(
                f"an output for document {doc_id!r}, which the test set ({testset.path}) "
                "does not hold",
                path=file,
                line=n,
            )
        docs[doc_id] = SystemDocument(doc_id, hyp, metadata, n)
    return SystemOutput(name or Path(path).stem, file, docs, other)


def system_files(paths: Iterable[str | Path]) -> list[Path]:
    """The system-output files of ``paths``: each file as given, each folder's ``*.jsonl``
    in name order.

    Raises
    ------
    UserInputError
        A path that does not exist, a folder without ``.jsonl`` files, two files of one
        system name.
    """
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(p.glob("*.jsonl"))
            if not found:
                raise UserInputError("no .jsonl system output in the folder", path=str(p))
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise UserInputError("no such file or folder", path=str(p))
    stems = Counter(f.stem for f in files)
    twice = sorted(s for s, k in stems.items() if k > 1)
    if twice:
        raise UserInputError(f"two files of the same system: {', '.join(twice)}")
    return files


def read_system_outputs(
    paths: Iterable[str | Path], testset: DocumentSet
) -> dict[str, SystemOutput]:
    """Every system output of ``paths`` (files or folders, :func:`system_files`) by name."""
    return {f.stem: read_system_output(f, testset) for f in system_files(paths)}


def source_row(doc: SourceDocument) -> dict[str, Any]:
    """A test-set document as a line of the file (its set as ``collection_id``)."""
    row: dict[str, Any] = {"doc_id": doc.doc_id}
    if doc.set_id is not None and not doc.doc_id.startswith(f"{doc.set_id}{WMT26_SEPARATOR}"):
        row["collection_id"] = doc.set_id
    row |= {"domain": doc.domain, "src_lang": doc.src_lang, "tgt_lang": doc.tgt_lang,
            "src_text": doc.src_text}  # fmt: skip
    row |= doc.extra
    row["refs"] = {
        r.name: {"ref": r.text} | ({} if r.kind == reference_kind(r.name) else {"kind": r.kind})
        for r in doc.refs.values()
    }
    return row


def system_row(doc: SystemDocument) -> dict[str, Any]:
    """A translated document as a line of a system-output file."""
    return {"doc_id": doc.doc_id, "hypothesis": doc.hypothesis, "metadata": doc.metadata}


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    """Write ``rows`` as JSON Lines (UTF-8, non-ASCII kept), as the organisers' files are."""
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")


def sample_folder() -> Path:
    """The WMT25-format sample shipped with mtpalette (written by the project: invented
    texts; ``testset.jsonl`` and ``systems/``), for the documentation and the tests.

    Examples
    --------
    >>> sorted(p.name for p in (sample_folder() / "systems").iterdir())
    ['Lumen.jsonl', 'Quill.jsonl', 'Tessera.jsonl']
    """
    from importlib import resources

    return Path(str(resources.files("mtpalette") / "data" / "wmt25_sample"))
