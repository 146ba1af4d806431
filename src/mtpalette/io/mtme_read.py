"""Reading the parts of one language pair of an mt-metrics-eval test set folder, each checked
against the others: the source, references and system outputs (one line per segment of the
source), score files (a block per system of the right length, only systems with an output)
and stored metric scores (against the reference in use or the source).
:func:`mtpalette.io.mtme.read_mtme` assembles them; :mod:`mtpalette.io.mtme_files` parses the
single files.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.mtme_files import (
    JSONL_FIELDS,
    Documents,
    ScoreLines,
    check_name_inside,
    parse_metric_filename,
    read_domain_score_file,
    read_jsonl_field,
    read_score_file,
    read_text_file,
)
from mtpalette.io.mtme_set import StoredMetric


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
