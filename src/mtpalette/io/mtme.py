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

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_mtme import read_mtme_seg_scores
from mtpalette.io.mtme_files import (
    LEVELS,
    Documents,
    Rating,
    parse_human_filename,
    read_docs_file,
    read_jsonl_objects,
    read_rating_file,
)
from mtpalette.io.mtme_meta import MetaInfo, human_name_choice, resolve_meta
from mtpalette.io.mtme_read import (
    _read_metrics,
    _read_outputs,
    _read_refs,
    _read_scores,
    _read_source,
    _text_files,
)
from mtpalette.io.mtme_set import MtmeSet, StoredMetric

__all__ = [
    "MtmeSet",
    "StoredMetric",
    "mtme_paths",
    "read_mtme",
    "example_folder",
    "read_mtme_seg_scores",
]


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
    """The mt-metrics-eval test set folder shipped with mtpalette: ``mtpalette.example``, en-de
    and zh-en, 60 segments each of the project's invented example data (``data/example``,
    written by ``scripts/make_demo_data.py``; not real ratings), with MQM-like human scores
    (higher is better, as MTME ships them), mtpalette's BLEU, chrF and ROUGE-L stored, and
    ``mtpalette.json`` naming the standard reference and human score.

    Examples
    --------
    >>> example_folder().name, sorted(p.name for p in (example_folder() / "references").iterdir())
    ('mtpalette.example', ['en-de.refA.txt', 'zh-en.refA.txt', 'zh-en.refB.txt'])
    """
    from importlib import resources

    return Path(
        str(resources.files("mtpalette") / "data" / "example" / "mtme" / "mtpalette.example")
    )


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
    The bundled example folder (invented by the project, 60 segments of en-de and zh-en):

    >>> root = example_folder()
    >>> s = read_mtme(root, "zh-en", metrics=["BLEU"])
    >>> s.ref, s.human, len(s.systems), s.metric_matrix("BLEU", "sys").shape
    ('refA', 'mqm', 8, (8, 1))
    >>> s.left_out["refB"]
    'a reference; include it with include_refs'
    """
    d = _check_folder(root, level)
    if isinstance(metrics, str):
        metrics = [metrics]
    patterns = list(metrics or [])
    notes: list[str] = []
    source, src_path = _read_source(d, lp)
    n = len(source)
    refs, ref_paths = _read_refs(d, lp, n, src_path)
    outputs, out_paths = _read_outputs(d, lp, n, src_path)
    docs = _read_documents(d, lp, n, src_path, notes)
    human_scores, human_files = _read_human_scores(d, lp, n, docs, outputs)
    names_by_level = {lvl: list(v) for lvl, v in human_scores.items()}
    meta = resolve_meta(d, lp, refs=refs, human_names=names_by_level, std_ref=ref,
                        std_gold=std_gold, outliers=outliers, close_refs=close_refs,
                        test_set=test_set)  # fmt: skip
    notes.extend(meta.notes)
    use_ref = _check_reference(d, lp, meta, refs)
    notes.extend(_missing_outlier_notes(meta, outputs))
    notes.extend(_penalty_notes(lp, human_scores))

    human_systems = set(outputs) & set(refs)
    chosen, judged = _choose_human(d, lp, level, human, human_scores, meta, judged_only)
    label = f"{chosen} {level}"
    systems, left_out = _select_systems(outputs, use_ref, meta, human_systems, judged, label,
                                        include_refs, include_outliers)  # fmt: skip
    _check_selection(d, lp, systems, left_out, strict, human_files, (level, str(chosen)))

    ratings = _read_ratings(d, lp, n, outputs) if read_ratings else {}
    stored = _read_metrics(d, lp, patterns, use_ref, refs, n, docs, outputs, systems, strict, notes)
    metadata = _read_metadata(d, lp)
    files = {"source": str(src_path), "ref": str(ref_paths[use_ref])}
    if chosen is not None:
        files["human"] = str(human_files[(level, chosen)])
    files |= {f"output:{s}": str(p) for s, p in out_paths.items()}
    return MtmeSet(str(d), test_set or d.name, lp, level, chosen, use_ref, meta, source, refs,
                   outputs, systems, left_out, human_systems, docs, human_scores, stored, ratings,
                   metadata, notes, files)  # fmt: skip


# the steps of read_mtme, in the order it takes them
def _check_folder(root: str | Path, level: str) -> Path:
    """The folder, once ``level`` is known and the folder has ``system-outputs/``."""
    if level not in LEVELS:
        raise UserInputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
    d = Path(root)
    if not (d / "system-outputs").is_dir():
        raise UserInputError(
            "not an mt-metrics-eval test set folder (no system-outputs/); give e.g. "
            "~/.mt-metrics-eval/mt-metrics-eval-v2/wmt22",
            path=str(d),
        )
    return d


def _read_documents(d: Path, lp: str, n: int, src_path: Path, notes: list[str]) -> Documents | None:
    """``documents/<lp>.docs``, one line per segment, or None (with a note)."""
    docs_path = d / "documents" / f"{lp}.docs"
    if not docs_path.is_file():
        notes.append(f"no documents/{lp}.docs: no document or domain levels")
        return None
    docs = read_docs_file(docs_path)
    if len(docs.doc_of) != n:
        raise UserInputError(
            f"{len(docs.doc_of)} lines, expected {n} (one per line of {src_path.name})",
            path=str(docs_path),
        )
    return docs


def _read_human_scores(
    d: Path, lp: str, n: int, docs: Documents | None, outputs: Mapping[str, Any]
) -> tuple[dict[str, dict[str, dict[str, np.ndarray]]], dict[tuple[str, str], Path]]:
    """Every human score file of ``lp`` (as EvalSet does): the scores by level and name, and
    the file of each ``(level, name)``."""
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
    return human_scores, human_files


def _check_reference(d: Path, lp: str, meta: MetaInfo, refs: Mapping[str, Any]) -> str:
    """The reference the metrics use: one the folder has, not close to the standard one."""
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
    return use_ref


def _missing_outlier_notes(meta: MetaInfo, outputs: Mapping[str, Any]) -> list[str]:
    """A note naming the outliers of the meta information that have no output here."""
    missing_outliers = sorted(meta.outlier_systems - set(outputs))
    if missing_outliers:
        return [f"outlier(s) {', '.join(missing_outliers)} have no output in this folder"]
    return []


def _choose_human(
    d: Path,
    lp: str,
    level: str,
    human: str | None,
    human_scores: Mapping[str, Mapping[str, Mapping[str, np.ndarray]]],
    meta: MetaInfo,
    judged_only: bool,
) -> tuple[str | None, set[str] | None]:
    """The human score at ``level`` systems are selected by, and the systems it judges
    (None: every system, when ``judged_only`` is False)."""
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
    return chosen, judged


def _check_selection(
    d: Path,
    lp: str,
    systems: list[str],
    left_out: Mapping[str, str],
    strict: bool,
    human_files: Mapping[tuple[str, str], Path],
    chosen_file: tuple[str, str],
) -> None:
    """Refuse unjudged systems when ``strict``, and a selection that leaves no system."""
    unjudged = [s for s, why in left_out.items() if why.startswith("no ")]
    if strict and unjudged:
        path = human_files[chosen_file]
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


def _read_ratings(
    d: Path, lp: str, n: int, outputs: Mapping[str, Any]
) -> dict[str, dict[str, list[Rating | None]]]:
    """The ``.rating`` files of ``lp`` (error spans), by human score name."""
    ratings: dict[str, dict[str, list[Rating | None]]] = {}
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
                    f"system {system!r} has {len(values)} ratings, expected {n} (one per segment)",
                    path=str(path),
                )
        ratings[name] = table
    return ratings


def _read_metadata(d: Path, lp: str) -> dict[str, list[dict]]:
    """``metadata/<lp>/<system>.jsonl``: one JSON object per segment, by system."""
    metadata: dict[str, list[dict]] = {}
    for path in _text_files(d / "metadata" / lp, "*.jsonl"):
        metadata[path.name[: -len(".jsonl")]] = read_jsonl_objects(path)
    return metadata


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
