"""Test sets in mt-metrics-eval's layout, read as its ``EvalSet`` reads them.

google-research/mt-metrics-eval (MTME) ships each test set (``wmt22``, ``wmt24pp``...) as a
folder; :func:`read_mtme` reads one language pair of it into a :class:`MtmeSet`::

    wmt22/
      sources/en-de.txt                    one segment per line (or en-de.jsonl: "source")
      references/en-de.refA.txt            one file per reference (or .jsonl: "target")
      system-outputs/en-de/<system>.txt    one per system; references appear here too
                                           (or <system>.jsonl: "hypothesis")
      documents/en-de.docs                 "domain document" per segment
      human-scores/en-de.mqm.seg.score     [domain] system score; None = not rated
      human-scores/en-de.mqm.seg.rating    system<TAB>{"errors": [...]}[<TAB>rater]
      metric-scores/en-de/BLEU-refA.sys.score   NAME-REF.LEVEL.score, REF: refA, refA.refB,
                                                src (no reference) or all
      metadata/en-de/<system>.jsonl        one JSON object per segment

Which systems are evaluated is decided as MTME's ``GetCorrelations`` decides: every system
output except the reference the metrics use and the references close to it; other
references ("human" systems) only with ``include_refs``; outliers (from the test set's meta
information) only with ``include_outliers``; and only systems with at least one human score
of the chosen name and level. The others are listed in :attr:`MtmeSet.left_out` with the
reason (one line for stderr: :meth:`MtmeSet.left_out_line`).

Where MTME would repair or guess, mtpalette refuses: a human or metric score file whose
block for a system has the wrong number of lines (a short block shifts every later score), a
score file naming a system that has no output, an output or reference of the wrong length, a
missing reference. MTME pads a metric that lacks an evaluated system with zeros; mtpalette
refuses a metric named explicitly and leaves out (with a note) one selected by ``all`` or a
glob.

References
----------
google-research/mt-metrics-eval, ``mt_metrics_eval/data.py`` (``EvalSet``, ``GetCorrelations``)
and README ("File organization and naming convention"), commit
68a481aea1a787392d55af8f76ac8ef40c5f4664.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments, read_mtme_seg_scores
from mtpalette.io.mtme_files import (
    JSONL_FIELDS,
    LEVELS,
    Documents,
    Rating,
    ScoreLines,
    check_name_inside,
    parse_human_filename,
    parse_metric_filename,
    read_docs_file,
    read_domain_score_file,
    read_jsonl_field,
    read_jsonl_objects,
    read_rating_file,
    read_score_file,
    read_text_file,
)
from mtpalette.io.mtme_meta import MetaInfo, human_name_choice, resolve_meta
from mtpalette.io.scorefile import ScoreFile

__all__ = [
    "MtmeSet",
    "StoredMetric",
    "mtme_paths",
    "read_mtme",
    "example_folder",
    "read_mtme_seg_scores",
]


@dataclass
class StoredMetric:
    """A metric's stored scores: ``scores[level][system]`` (one value per item of the level).

    ``name`` is MTME's full name (``BLEU-refA``), ``refs`` the references it used (empty for
    a source-based metric), ``paths[level]`` the file of each level.
    """

    name: str
    basename: str
    refs: frozenset[str]
    scores: dict[str, dict[str, np.ndarray]] = field(default_factory=dict)
    paths: dict[str, str] = field(default_factory=dict)


@dataclass
class MtmeSet:
    """One language pair of an mt-metrics-eval test set folder (see the module docstring).

    Attributes
    ----------
    root, test_set, lp:
        The folder, the name MTME knows it by (the folder's name) and the language pair.
    level, human, ref:
        The level, human score name and reference the system selection was made for.
    meta:
        The meta information (built in for WMT19-WMT25, else from a file or inferred).
    source, refs, outputs:
        Texts as MTME reads them (trailing white space removed, ``None`` for
        ``[No translation supplied]``): the source, every reference by name, every system's
        output by name (the systems left out included).
    systems:
        The systems evaluated, sorted.
    left_out:
        Every other system of ``system-outputs/`` with the reason it was left out.
    human_systems:
        Outputs named like a reference (MTME's ``human_sys_names``).
    docs:
        Documents and domains, or None without ``documents/LP.docs``.
    human_scores:
        ``human_scores[level][name][system]``: every human score file, NaN where ``None``.
    metrics:
        The stored metric scores selected, by full name.
    ratings:
        ``ratings[name][system]``: error-span ratings (with ``read_ratings``).
    metadata:
        ``metadata[system]``: one object per segment, from ``metadata/LP/``.
    notes:
        What was inferred or skipped, one sentence each.
    """

    root: str
    test_set: str
    lp: str
    level: str
    human: str | None
    ref: str
    meta: MetaInfo
    source: list[str | None]
    refs: dict[str, list[str | None]]
    outputs: dict[str, list[str | None]]
    systems: list[str]
    left_out: dict[str, str]
    human_systems: set[str]
    docs: Documents | None
    human_scores: dict[str, dict[str, dict[str, np.ndarray]]]
    metrics: dict[str, StoredMetric]
    ratings: dict[str, dict[str, list[Rating | None]]]
    metadata: dict[str, list[dict]]
    notes: list[str]
    files: dict[str, str] = field(default_factory=dict)

    @property
    def n_segments(self) -> int:
        return len(self.source)

    def items(self, level: str | None = None) -> list[str]:
        """The items of a level, in MTME's order: segments ``1..n``, documents in text order,
        domains sorted, ``["sys"]`` at system level."""
        level = level or self.level
        if level == "seg":
            return [str(i) for i in range(1, self.n_segments + 1)]
        if level == "sys":
            return ["sys"]
        docs = self._docs(level)
        return list(docs.docs if level == "doc" else docs.domains)

    def n_items(self, level: str) -> int:
        return len(self.items(level))

    def _docs(self, level: str) -> Documents:
        if self.docs is None:
            raise UserInputError(
                f"{level}-level scores need documents/{self.lp}.docs, which the folder lacks",
                path=self.root,
            )
        return self.docs

    def human_matrix(self, level: str | None = None, name: str | None = None) -> np.ndarray:
        """``(systems, items)`` human scores of the evaluated systems, NaN where unrated.

        ``name`` defaults to the human score chosen at load time for its level, else the
        standard one of ``level``.
        """
        level = level or self.level
        if name is None:
            name = self.human if level == self.level else self.meta.std_gold.get(level)
        have = self.human_scores.get(level, {})
        if name is None or name not in have:
            raise UserInputError(
                f"no {name or 'standard'} human scores at {level} level; the folder has "
                f"{', '.join(sorted(have)) or 'none'}",
                path=self.root,
            )
        table = have[name]
        n = self.n_items(level)
        return np.array([table.get(s, np.full(n, np.nan)) for s in self.systems]).reshape(
            len(self.systems), n
        )

    def metric_matrix(self, metric: str, level: str | None = None) -> np.ndarray:
        """``(systems, items)`` stored scores of ``metric`` (full name or base name) for the
        evaluated systems."""
        level = level or self.level
        m = self.metric(metric)
        if level not in m.scores:
            raise UserInputError(
                f"metric {m.name} has no {level}-level scores (it has "
                f"{', '.join(sorted(m.scores))})",
                path=self.root,
            )
        return np.array([m.scores[level][s] for s in self.systems]).reshape(
            len(self.systems), self.n_items(level)
        )

    def metric_names(self, level: str | None = None) -> list[str]:
        """Full names of the stored metrics with scores at ``level`` (default: the set's)."""
        level = level or self.level
        return [n for n, m in self.metrics.items() if level in m.scores]

    def metric(self, name: str) -> StoredMetric:
        """A stored metric by full name (``BLEU-refA``) or base name (``BLEU``)."""
        if name in self.metrics:
            return self.metrics[name]
        found = [m for m in self.metrics.values() if m.basename == name]
        if len(found) == 1:
            return found[0]
        if found:
            raise UserInputError(
                f"metric {name!r} is ambiguous: {', '.join(m.name for m in found)}; give the "
                "full name"
            )
        raise UserInputError(
            f"no stored metric {name!r}; read: {', '.join(self.metrics) or 'none'}",
            path=self.root,
        )

    def texts(self, systems: Sequence[str] | None = None) -> list[list[str]]:
        """The evaluated systems' outputs as strings (a missing translation is ``""``)."""
        return [[t or "" for t in self.outputs[s]] for s in systems or self.systems]

    def reference(self, name: str | None = None) -> list[str]:
        """A reference as strings (default: the one in use)."""
        return [t or "" for t in self.refs[name or self.ref]]

    def correlate_inputs(
        self, level: str | None = None
    ) -> tuple[dict[str, list[str]], list[list[str]], dict[str, Any]]:
        """``(systems, refs, human)`` as :func:`mtpalette.correlate` takes them: the evaluated
        systems' outputs, the reference in use, and the chosen human scores (``None`` where
        unrated; one number per system at ``sys`` level)."""
        level = level or self.level
        if level not in ("seg", "sys"):
            raise UserInputError(f"mtpalette.correlate takes seg or sys level, not {level}")
        h = self.human_matrix(level)
        if level == "sys":
            human: dict[str, Any] = {s: float(h[k, 0]) for k, s in enumerate(self.systems)}
        else:
            human = {
                s: [None if np.isnan(v) else float(v) for v in h[k]]
                for k, s in enumerate(self.systems)
            }
        return dict(zip(self.systems, self.texts(), strict=True)), [self.reference()], human

    def stored_scores(self, level: str | None = None) -> dict[str, dict[str, list[float]]]:
        """``{metric: {system: scores}}`` of the stored metrics at ``level`` for the evaluated
        systems, to sit beside metrics mtpalette computes."""
        level = level or self.level
        return {
            name: {s: self.metrics[name].scores[level][s].tolist() for s in self.systems}
            for name in self.metric_names(level)
        }

    def score_file(self, metric: str) -> ScoreFile:
        """A stored metric's segment scores as a :class:`~mtpalette.io.scorefile.ScoreFile`
        (keys ``(system, line, "")``), as ``--scores`` files are read, so that stored and
        computed metrics go through the same steps (``ExternalMetric(name, score_file)``)."""
        m = self.metric(metric)
        if "seg" not in m.scores:
            raise UserInputError(f"metric {m.name} has no segment-level scores", path=self.root)
        out = ScoreFile(m.paths["seg"])
        for s in self.systems:
            for k, value in enumerate(m.scores["seg"][s].tolist(), start=1):
                out.scores[(s, k, "")] = value
        return out

    def judgments(self) -> Judgments:
        """The chosen segment-level human scores of the evaluated systems as
        :class:`~mtpalette.io.judgments.Judgments` (items are line numbers from 1)."""
        if self.level != "seg":
            raise UserInputError(f"judgments are segment-level; this set was read at {self.level}")
        return Judgments(
            list(self.systems),
            list(range(1, self.n_segments + 1)),
            self.human_matrix("seg"),
            "mtme-seg",
            self.files.get("human", self.root),
            item_base=1,
        )

    def left_out_line(self) -> str:
        """One line for stderr: how many systems are evaluated and which were left out, why.

        Examples
        --------
        >>> s = MtmeSet("wmt22", "wmt22", "en-de", "seg", "mqm", "refA", None, [], {}, {},
        ...             ["A", "B"], {"refA": "the reference", "X": "no mqm seg scores"},
        ...             set(), None, {}, {}, {}, {}, [])
        >>> s.left_out_line()[:60]
        'wmt22 en-de: 2 of 4 systems evaluated; left out: refA (the r'
        >>> s.left_out_line()[60:]
        'eference), X (no mqm seg scores)'
        """
        total = len(self.systems) + len(self.left_out)
        head = f"{self.test_set} {self.lp}: {len(self.systems)} of {total} systems evaluated"
        if not self.left_out:
            return head
        parts = [f"{s} ({why})" for s, why in self.left_out.items()]
        return f"{head}; left out: {', '.join(parts)}"


# ----------------------------------------------------------------------------------------
# reading
# ----------------------------------------------------------------------------------------
def _text_files(folder: Path, pattern: str) -> list[Path]:
    return sorted(p for p in folder.glob(pattern) if p.is_file())


def _read_texts(path: Path, kind: str) -> list[str | None]:
    if path.suffix == ".txt":
        return read_text_file(path)
    if path.suffix == ".jsonl":
        return read_jsonl_field(path, JSONL_FIELDS[kind])
    raise UserInputError(f"unsupported {kind} file: expected .txt or .jsonl", path=str(path))


def _check_length(texts: Sequence, n: int, path: Path, what: str, source: Path) -> None:
    if len(texts) != n:
        raise UserInputError(
            f"{what} has {len(texts)} lines, expected {n} (one per line of {source.name})",
            path=str(path),
        )


def _read_source(d: Path, lp: str) -> tuple[list[str | None], Path]:
    check_name_inside("language pair", lp, d)  # every file of the pair is named by it
    for path in (d / "sources" / f"{lp}.txt", d / "sources" / f"{lp}.jsonl"):
        if path.is_file():
            return _read_texts(path, "source"), path
    have = sorted(p.name for p in (d / "sources").glob("*")) if (d / "sources").is_dir() else []
    raise UserInputError(
        f"no source file sources/{lp}.txt or sources/{lp}.jsonl (the folder has "
        f"{', '.join(have) or 'no sources/'}); is {lp!r} a language pair of this test set?",
        path=str(d),
    )


def _read_named(
    named: Iterable[tuple[str, Path]], kind: str, what: str, n: int, src: Path
) -> tuple[dict[str, list[str | None]], dict[str, Path]]:
    """Texts by name (a reference's, a system's); a name given twice and a text of the wrong
    length are errors."""
    texts: dict[str, list[str | None]] = {}
    where: dict[str, Path] = {}
    for name, path in named:
        if name in texts:
            raise UserInputError(
                f"{what} {name!r} twice ({where[name].name} and {path.name})", path=str(path)
            )
        texts[name] = _read_texts(path, kind)
        _check_length(texts[name], n, path, f"{what} {name}", src)
        where[name] = path
    return texts, where


def _ref_name(path: Path) -> str:
    name = path.name.split(".")[-2]
    if "-" in name or name in ("all", "src"):
        raise UserInputError(
            f"invalid reference name {name!r}: names cannot be 'all' or 'src' or hold '-'",
            path=str(path),
        )
    return name


def _read_refs(d: Path, lp: str, n: int, src: Path) -> tuple[dict[str, list], dict[str, Path]]:
    files = [p for p in _text_files(d / "references", f"{lp}.*.*") if p.name.split(".")[0] == lp]
    return _read_named(((_ref_name(p), p) for p in files), "reference", "reference", n, src)


def _read_outputs(d: Path, lp: str, n: int, src: Path) -> tuple[dict[str, list], dict[str, Path]]:
    folder = d / "system-outputs" / lp
    if not folder.is_dir():
        raise UserInputError(f"no folder system-outputs/{lp}", path=str(d))
    named = ((p.name[: -len(p.suffix)], p) for p in _text_files(folder, "*.*"))
    outputs, where = _read_named(named, "output", "system", n, src)
    if not outputs:
        raise UserInputError("no system output", path=str(folder))
    return outputs, where


def _check_systems(lines: ScoreLines, outputs: Mapping[str, Any]) -> None:
    for system, where in lines.lines.items():
        if system not in outputs:
            raise UserInputError(
                f"unknown system {system!r}: no system-outputs file of that name (the folder "
                f"has {len(outputs)} systems: {', '.join(sorted(outputs)[:8])}"
                f"{', ...' if len(outputs) > 8 else ''})",
                path=lines.path,
                line=where[0],
            )


def _expected(level: str, n_seg: int, docs: Documents | None, path: str) -> tuple[int, str]:
    if level == "seg":
        return n_seg, "one per segment of the source"
    if level == "sys":
        return 1, "one per system"
    if docs is None:
        raise UserInputError(f"a {level}-level score file needs documents/LP.docs", path=path)
    if level == "doc":
        return len(docs.docs), "one per document of documents/LP.docs"
    return len(docs.domains), "one per domain"


def _read_scores(
    path: Path,
    level: str,
    n_seg: int,
    docs: Documents | None,
    outputs: Mapping[str, Any],
    *,
    human: bool,
) -> dict[str, np.ndarray]:
    n, what = _expected(level, n_seg, docs, str(path))
    if level == "domain":
        assert docs is not None
        lines = read_domain_score_file(path, list(docs.domains), allow_none=human)
    else:
        lines = read_score_file(path, level=level, allow_none=human)
    _check_systems(lines, outputs)
    for system, values in lines.scores.items():
        if len(values) != n:
            raise lines.count_error(system, n, what)
    return {s: np.asarray(v, dtype=np.float64) for s, v in lines.scores.items()}


def _matches(basename: str, patterns: Sequence[str]) -> bool:
    return any(p == "all" or fnmatch.fnmatchcase(basename, p) for p in patterns)


def _is_glob(pattern: str) -> bool:
    return pattern == "all" or any(c in pattern for c in "*?[")


def _read_metrics(
    d: Path,
    lp: str,
    patterns: Sequence[str],
    ref: str,
    refs: Mapping[str, Any],
    n_seg: int,
    docs: Documents | None,
    outputs: Mapping[str, Any],
    systems: Sequence[str],
    strict: bool,
    notes: list[str],
) -> dict[str, StoredMetric]:
    folder = d / "metric-scores" / lp
    if not patterns:
        return {}
    files = _text_files(folder, "*.score") if folder.is_dir() else []
    found: dict[str, StoredMetric] = {}
    other_refs: set[str] = set()
    for path in files:
        basename, ref_text, level = parse_metric_filename(path.name)
        if ref_text == "all":
            used = frozenset(refs)
        elif ref_text == "src":
            used = frozenset()
        else:
            used = frozenset(ref_text.split("."))
        unknown = used - set(refs)
        if unknown:
            raise UserInputError(
                f"metric file names reference(s) {', '.join(sorted(unknown))}, which the folder "
                f"does not have (references: {', '.join(sorted(refs))})",
                path=str(path),
            )
        if not _matches(basename, patterns):
            continue
        if not used <= {ref}:
            other_refs.add(basename)
            continue
        name = f"{basename}-{ref_text}"
        m = found.setdefault(name, StoredMetric(name, basename, used))
        m.scores[level] = _read_scores(path, level, n_seg, docs, outputs, human=False)
        m.paths[level] = str(path)
    for p in patterns:
        if not _is_glob(p) and not any(m.basename == p for m in found.values()):
            have = sorted({parse_metric_filename(f.name)[0] for f in files})
            hint = (
                f" (it has scores against other references than {ref})" if p in other_refs else ""
            )
            raise UserInputError(
                f"no stored scores of metric {p!r} against {ref} or the source{hint}; "
                f"metric-scores/{lp} has {', '.join(have[:20]) or 'nothing'}"
                f"{', ...' if len(have) > 20 else ''}",
                path=str(folder),
            )
    out = {}
    for name, m in sorted(found.items()):
        missing = sorted({s for table in m.scores.values() for s in systems if s not in table})
        if missing:
            explicit = m.basename in patterns
            if strict or explicit:
                level, path = next(iter(m.paths.items()))
                raise UserInputError(
                    f"metric {name} has no scores for system(s) {', '.join(missing)}, which are "
                    "evaluated (mt-metrics-eval would pad them with zeros)",
                    path=path,
                )
            notes.append(f"metric {name} left out: no scores for {', '.join(missing)}")
            continue
        out[name] = m
    return out


def _select_systems(
    outputs: Mapping[str, Any],
    ref: str,
    meta: MetaInfo,
    human_systems: set[str],
    judged: set[str] | None,
    human_label: str,
    include_refs: bool,
    include_outliers: bool,
) -> tuple[list[str], dict[str, str]]:
    keep, left = [], {}
    for s in sorted(outputs):
        if s == ref:
            left[s] = "the reference in use"
        elif s in meta.close_refs:
            left[s] = f"a reference close to {ref}"
        elif s in human_systems and not include_refs:
            left[s] = "a reference; include it with include_refs"
        elif s in meta.outlier_systems and not include_outliers:
            left[s] = "an outlier; include it with include_outliers"
        elif judged is not None and s not in judged:
            left[s] = f"no {human_label} scores"
        else:
            keep.append(s)
    return keep, left


def _penalty_notes(lp: str, human_scores: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """A warning for MQM scores stored as penalties: MTME folders store them negated (higher
    is better, at most 0), so a file of scores all >= 0 with some > 0 reads upside down."""
    out = []
    for level, by_name in human_scores.items():
        for name, table in by_name.items():
            if not name.startswith("mqm"):
                continue
            values = np.concatenate([np.asarray(v, dtype=np.float64) for v in table.values()])
            values = values[np.isfinite(values)]
            if values.size and values.min() >= 0 and values.max() > 0:
                out.append(
                    f"{lp}.{name}.{level}.score holds MQM scores all >= 0: penalties (higher "
                    "= worse)? MTME folders store them negated (higher = better); as read "
                    "here, every correlation would have the wrong sign"
                )
    return out


def example_folder() -> Path:
    """The mt-metrics-eval test set folder shipped with mtpalette: ``wmt21.tedtalks`` with
    en-de and zh-en, 18 segments each of the WMT21 TED talks MQM data (human scores
    higher-is-better, as MTME ships them), sacrebleu's BLEU, sentBLEU and chrF and
    mtpalette's ROUGE-L stored (see ``NOTICE`` in the package's ``data`` folder).

    Examples
    --------
    >>> example_folder().name, sorted(p.name for p in (example_folder() / "references").iterdir())
    ('wmt21.tedtalks', ['en-de.refA.txt', 'zh-en.refA.txt', 'zh-en.refB.txt'])
    """
    from importlib import resources

    return Path(str(resources.files("mtpalette") / "data" / "mtme" / "wmt21.tedtalks"))


def read_mtme(
    root: str | Path,
    lp: str,
    *,
    human: str | None = None,
    level: str = "seg",
    ref: str | None = None,
    include_outliers: bool = False,
    include_refs: bool = False,
    strict: bool = False,
    metrics: str | Iterable[str] | None = None,
    judged_only: bool = True,
    outliers: Iterable[str] | None = None,
    close_refs: Iterable[str] | None = None,
    std_gold: Mapping[str, str] | None = None,
    read_ratings: bool = False,
    test_set: str | None = None,
) -> MtmeSet:
    """One language pair of an mt-metrics-eval test set folder, read as MTME's ``EvalSet``.

    Parameters
    ----------
    root:
        The test set folder (``.../mt-metrics-eval-v2/wmt22``).
    lp:
        The language pair (``en-de``, ``en-de_DE``...).
    human:
        The human score to select systems by (``mqm``, ``wmt-z``, ``esa-human2``...);
        default: the standard one of ``level``.
    level:
        ``seg``, ``doc``, ``domain`` or ``sys``: the level of ``human``.
    ref:
        The reference the metrics use (default: the standard one); it is never a system.
    include_outliers, include_refs:
        Evaluate the outlier systems, and the other references, too.
    strict:
        Refuse, instead of leaving out, systems without human scores and stored metrics
        lacking an evaluated system.
    metrics:
        Stored metric scores to read: base names (``BLEU``), globs (``COMET*``) or ``all``;
        only their versions against ``ref`` or the source. None reads none.
    judged_only:
        Leave out systems without human scores (MTME's ``GetCorrelations``); False keeps
        them (for scoring), and needs no human score.
    outliers, close_refs, std_gold:
        Meta information overriding the built-in values, ``mtpalette.json`` and inference.
    read_ratings:
        Read the ``.rating`` files (error spans), as MTME's ``read_stored_ratings``.
    test_set:
        The name MTME knows the test set by (default: the folder's name).

    Returns
    -------
    MtmeSet

    Raises
    ------
    UserInputError
        A broken or ambiguous folder: the message names the file, the line and what was
        expected, or lists the choices.

    Examples
    --------
    The bundled example folder (18 segments of the WMT21 TED talks, en-de and zh-en):

    >>> root = example_folder()
    >>> s = read_mtme(root, "zh-en", metrics=["BLEU"])
    >>> s.ref, s.human, len(s.systems), s.metric_matrix("BLEU", "sys").shape
    ('refB', 'mqm', 12, (12, 1))
    >>> s.left_out["refA"]
    'a reference; include it with include_refs'
    """
    if level not in LEVELS:
        raise UserInputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    d = Path(root)
    if not (d / "system-outputs").is_dir():
        raise UserInputError(
            "not an mt-metrics-eval test set folder (no system-outputs/); give e.g. "
            "~/.mt-metrics-eval/mt-metrics-eval-v2/wmt22",
            path=str(d),
        )
    if isinstance(metrics, str):
        metrics = [metrics]
    patterns = list(metrics or [])
    notes: list[str] = []
    source, src_path = _read_source(d, lp)
    n = len(source)
    refs, ref_paths = _read_refs(d, lp, n, src_path)
    outputs, out_paths = _read_outputs(d, lp, n, src_path)
    docs_path = d / "documents" / f"{lp}.docs"
    docs = None
    if docs_path.is_file():
        docs = read_docs_file(docs_path)
        if len(docs.doc_of) != n:
            raise UserInputError(
                f"{len(docs.doc_of)} lines, expected {n} (one per line of {src_path.name})",
                path=str(docs_path),
            )
    else:
        notes.append(f"no documents/{lp}.docs: no document or domain levels")

    # human scores, every file (as EvalSet does)
    human_scores: dict[str, dict[str, dict[str, np.ndarray]]] = {}
    human_files: dict[tuple[str, str], Path] = {}
    for path in _text_files(d / "human-scores", f"{lp}.*.score"):
        file_lp, name, lvl = parse_human_filename(path.name)
        if file_lp != lp:
            continue
        human_scores.setdefault(lvl, {})[name] = _read_scores(
            path, lvl, n, docs, outputs, human=True
        )
        human_files[(lvl, name)] = path

    names_by_level = {lvl: list(v) for lvl, v in human_scores.items()}
    meta = resolve_meta(
        d,
        lp,
        refs=refs,
        human_names=names_by_level,
        std_ref=ref,
        std_gold=std_gold,
        outliers=outliers,
        close_refs=close_refs,
        test_set=test_set,
    )
    notes.extend(meta.notes)
    use_ref = meta.std_ref
    if use_ref not in refs:
        raise UserInputError(
            f"no reference {use_ref!r} for {lp}: expected references/{lp}.{use_ref}.txt (or "
            f".jsonl); the folder has {', '.join(sorted(refs)) or 'no reference'}",
            path=str(d / "references"),
        )
    if use_ref in meta.close_refs:
        raise UserInputError(
            f"reference {use_ref} is listed as close to the standard one (a post-edit of it): "
            f"choose another reference than {', '.join(sorted(meta.close_refs))}",
            path=str(d),
        )
    missing_outliers = sorted(meta.outlier_systems - set(outputs))
    if missing_outliers:
        notes.append(f"outlier(s) {', '.join(missing_outliers)} have no output in this folder")

    notes.extend(_penalty_notes(lp, human_scores))
    have = human_scores.get(level, {})
    chosen = human
    if chosen is None and judged_only:
        chosen = human_name_choice(meta, level, have, d)
    elif chosen is None and meta.std_gold.get(level) in have:
        chosen = meta.std_gold[level]
    judged: set[str] | None = None
    if chosen is not None:
        if chosen not in have:
            raise UserInputError(
                f"no human scores {chosen!r} at {level} level: expected human-scores/"
                f"{lp}.{chosen}.{level}.score; the folder has "
                f"{', '.join(sorted(have)) or 'none'} at that level",
                path=str(d / "human-scores"),
            )
        if judged_only:
            judged = {s for s, v in have[chosen].items() if not np.isnan(v).all()}
    human_systems = set(outputs) & set(refs)
    systems, left_out = _select_systems(
        outputs,
        use_ref,
        meta,
        human_systems,
        judged,
        f"{chosen} {level}",
        include_refs,
        include_outliers,
    )
    unjudged = [s for s, why in left_out.items() if why.startswith("no ")]
    if strict and unjudged:
        path = human_files[(level, str(chosen))]
        raise UserInputError(
            f"no judgments for system(s) {', '.join(unjudged)} (strict: mt-metrics-eval would "
            "leave them out)",
            path=str(path),
        )
    if not systems:
        raise UserInputError(
            f"no system left to evaluate in {lp}: "
            + "; ".join(f"{s}: {why}" for s, why in left_out.items()),
            path=str(d),
        )

    ratings: dict[str, dict[str, list[Rating | None]]] = {}
    if read_ratings:
        for path in _text_files(d / "human-scores", f"{lp}.*.rating"):
            file_lp, name, lvl = parse_human_filename(path.name, rating=True)
            if file_lp != lp:
                continue
            if lvl != "seg":
                raise UserInputError("rating files are segment-level", path=str(path))
            table = read_rating_file(path, name)
            for system, values in table.items():
                if system not in outputs:
                    raise UserInputError(f"unknown system {system!r}", path=str(path))
                if len(values) != n:
                    raise UserInputError(
                        f"system {system!r} has {len(values)} ratings, expected {n} (one per "
                        "segment)",
                        path=str(path),
                    )
            ratings[name] = table

    stored = _read_metrics(d, lp, patterns, use_ref, refs, n, docs, outputs, systems, strict, notes)

    metadata: dict[str, list[dict]] = {}
    for path in _text_files(d / "metadata" / lp, "*.jsonl"):
        metadata[path.name[: -len(".jsonl")]] = read_jsonl_objects(path)

    files = {"source": str(src_path), "ref": str(ref_paths[use_ref])}
    if chosen is not None:
        files["human"] = str(human_files[(level, chosen)])
    return MtmeSet(
        str(d),
        test_set or d.name,
        lp,
        level,
        chosen,
        use_ref,
        meta,
        source,
        refs,
        outputs,
        systems,
        left_out,
        human_systems,
        docs,
        human_scores,
        stored,
        ratings,
        metadata,
        notes,
        files | {f"output:{s}": str(p) for s, p in out_paths.items()},
    )


# ----------------------------------------------------------------------------------------
# the files of one language pair (used by the command line)
# ----------------------------------------------------------------------------------------
def mtme_paths(root: str | Path, lp: str | None, human: str | None, ref: str) -> dict[str, Any]:
    """The files of one language pair of an mt-metrics-eval test set folder.

    Returns ``judgments`` (``human-scores/<lp>.<human>.seg.score``; None when ``human`` is
    None), ``refs`` (``[references/<lp>.<ref>.txt]``), ``systems`` (the outputs of
    ``system-outputs/<lp>/`` except the reference itself), ``source`` (or None).
    """
    root = Path(root)
    if lp is None:
        raise UserInputError("--mtme needs the language pair: --lp en-de")
    if not (root / "system-outputs").is_dir():
        raise UserInputError(
            "not an mt-metrics-eval test set folder (no system-outputs/); give e.g. "
            "~/.mt-metrics-eval/mt-metrics-eval-v2/wmt22",
            path=str(root),
        )
    judgments = None if human is None else root / "human-scores" / f"{lp}.{human}.seg.score"
    reference = root / "references" / f"{lp}.{ref}.txt"
    for path, what in ((judgments, f"--human {human}"), (reference, f"--mtme-ref {ref}")):
        if path is not None and not path.is_file():
            have = sorted(p.name for p in path.parent.glob(f"{lp}.*"))
            raise UserInputError(
                f"no such file for {what}; the folder has: {', '.join(have) or 'nothing'}",
                path=str(path),
            )
    outputs = root / "system-outputs" / lp
    systems = sorted(p for p in outputs.glob("*.txt") if p.stem != ref)
    if not systems:
        raise UserInputError("no system output", path=str(outputs))
    source = root / "sources" / f"{lp}.txt"
    return {
        "judgments": judgments,
        "refs": [reference],
        "systems": systems,
        "source": source if source.is_file() else None,
    }
