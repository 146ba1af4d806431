"""Writing a metric's scores into an mt-metrics-eval test set folder, in MTME's layout
(``metric-scores/LP/NAME-REF.LEVEL.score``), never destroying what the folder stores: a stored
file is replaced only when asked, names stay inside the folder, and the systems and segment
counts must agree with the folder's outputs (:mod:`mtpalette.io.mtme` reads the folders)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.mtme_files import (
    LEVELS,
    check_name_inside,
    make_metric_name,
    write_score_file,
)
from mtpalette.io.plain import read_lines
from mtpalette.io.scorefile import mtme_ref_name


def write_mtme_scores(
    root: str | Path,
    lp: str,
    metric_name: str,
    scores_by_level: Mapping[str, Mapping[str, Any]],
    *,
    ref: str | Sequence[str] = "refA",
    overwrite: bool = False,
) -> list[Path]:
    """Write a metric's scores into a test set folder in MTME's layout.

    A stored score file is never replaced unless ``overwrite``; the language pair and the
    metric name must stay inside the folder (no path separator, no ``..``); where the folder
    has the pair's system outputs, every system written must be one of them, and segment
    scores must cover every segment (a short list would block every later ``all``).

    Parameters
    ----------
    root, lp:
        The test set folder and language pair; files go to ``root/metric-scores/lp/``.
    metric_name:
        The base name (``chrF``, ``mtpalette-bleus4``); dashes are allowed, white space and
        dots are not.
    scores_by_level:
        ``{level: {system: scores}}``: ``seg`` and ``doc`` a sequence per system (segments,
        documents in order), ``sys`` a number (or a one-element sequence), ``domain`` a
        ``{domain: score}`` mapping (written in sorted domain order, as MTME orders domains).
    ref:
        The reference(s) used: a name, several names, ``"src"`` (none) or ``"all"``.

    Returns
    -------
    list of Path
        The files written (``NAME-REF.LEVEL.score``).

    Examples
    --------
    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> [p.name for p in write_mtme_scores(root, "en-de", "chrF", {"sys": {"A": 51.2}})]
    ['chrF-refA.sys.score']
    """
    if not metric_name or any(c.isspace() for c in metric_name) or "." in metric_name:
        raise UserInputError(f"metric name {metric_name!r}: no white space or dots allowed")
    names = [ref] if isinstance(ref, str) else list(ref)
    refs = [] if names == ["src"] else names
    for r in refs:
        if not r or "-" in r or "." in r or (r in ("src", "all") and len(refs) > 1):
            raise UserInputError(f"reference name {r!r}: MTME names hold no '-' or '.'")
    full = make_metric_name(metric_name, refs)
    for what, name in (("language pair", lp), ("metric name", metric_name)):
        check_name_inside(what, name, root)
    for r in refs:
        check_name_inside("reference name", r, root)
    for level, table in scores_by_level.items():
        for system in table:  # a score file's line is "system<TAB>score"
            if not isinstance(system, str) or not system or any(c.isspace() for c in system):
                raise UserInputError(
                    f"{full}.{level}: system name {system!r}: expected a name without white "
                    "space (MTME's score files separate it from the score by a tab)",
                    path=str(root),
                )
    _check_against_outputs(Path(root), lp, full, scores_by_level)
    folder = Path(root) / "metric-scores" / lp
    paths = {level: folder / f"{full}.{level}.score" for level in scores_by_level}
    for level, path in paths.items():
        if level not in LEVELS:
            raise UserInputError(f"unknown level {level!r}; expected one of {', '.join(LEVELS)}")
        if path.exists() and not overwrite:
            raise UserInputError(
                "a stored score file is there already; pass overwrite=True to replace it",
                path=str(path),
            )
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for level, table in scores_by_level.items():
        path = paths[level]
        if level == "domain":
            domains = sorted({d for per in table.values() for d in per})
            rows = {}
            for system, per in table.items():
                if set(per) != set(domains):
                    raise UserInputError(
                        f"system {system!r} lacks domain(s) "
                        f"{', '.join(sorted(set(domains) - set(per)))}"
                    )
                rows[system] = [per[d] for d in domains]
            write_score_file(path, rows, domains=domains)
        else:
            rows = {
                s: list(np.atleast_1d(np.asarray(v, dtype=np.float64))) for s, v in table.items()
            }
            if level == "sys" and any(len(v) != 1 for v in rows.values()):
                raise UserInputError("system-level scores: one number per system")
            if any(np.isnan(v).any() for v in rows.values()):
                raise UserInputError(f"{full}.{level}: a NaN score (MTME metric files have none)")
            write_score_file(path, rows)
        written.append(path)
    return written


def _check_against_outputs(root: Path, lp: str, full: str, scores_by_level) -> None:
    """Where ``root`` has the pair's outputs and source: systems must be known, segment
    scores one per segment."""
    outputs = root / "system-outputs" / lp
    source = root / "sources" / f"{lp}.txt"
    if not outputs.is_dir():
        return
    known = {p.name.rsplit(".", 1)[0] for p in outputs.iterdir() if p.is_file()}
    n_seg = len(read_lines(source, allow_empty=True)) if source.is_file() else None
    for level, table in scores_by_level.items():
        unknown = sorted(set(table) - known)
        if unknown:
            raise UserInputError(
                f"{full}.{level}: system(s) {', '.join(unknown[:5])} have no output in "
                f"system-outputs/{lp}/",
                path=str(root),
            )
        if level == "seg" and n_seg is not None:
            for system, values in table.items():
                if len(np.atleast_1d(values)) != n_seg:
                    raise UserInputError(
                        f"{full}.seg: system {system!r} has {len(np.atleast_1d(values))} "
                        f"scores for {n_seg} segments",
                        path=str(root),
                    )


def write_mtme_rows(
    root: str | Path,
    lp: str,
    metric_name: str,
    rows: Iterable[tuple[str, int, str, float]],
    ref_names: Sequence[str],
    *,
    overwrite: bool = False,
) -> list[Path]:
    """Segment scores in mtpalette's score-file rows ``(system, segment, heldout, score)``
    (what ``--export-scores`` writes) written into MTME's layout, one file per set of
    references used: a row scored against references ``R`` minus its ``heldout`` (minus the
    system itself when it is a reference) goes to ``NAME-<those refs>.seg.score``.

    Examples
    --------
    >>> import tempfile
    >>> rows = [("A", 1, "", 0.5), ("A", 2, "", 0.25)]
    >>> [p.name for p in write_mtme_rows(tempfile.mkdtemp(), "en-de", "m", rows, ["en-de.refA"])]
    ['m-refA.seg.score']
    """
    names = {r: mtme_ref_name(r) for r in ref_names}
    groups: dict[tuple[str, ...], dict[str, dict[int, float]]] = {}
    for system, segment, heldout, score in rows:
        if heldout and heldout not in names:
            raise UserInputError(f"held-out reference {heldout!r} is not one of {list(names)}")
        used = tuple(names[r] for r in ref_names if r not in (heldout, system))
        if not used:
            raise UserInputError(f"system {system!r}: no reference left to score against")
        table = groups.setdefault(used, {}).setdefault(names.get(system, system), {})
        if segment in table:
            raise UserInputError(f"two scores of system {system!r}, segment {segment}")
        table[segment] = float(score)
    written = []
    for used, by_system in groups.items():
        seg = {}
        for system, scores in by_system.items():
            if sorted(scores) != list(range(1, len(scores) + 1)):
                raise UserInputError(
                    f"system {system!r} has scores for {len(scores)} segments, not lines "
                    f"1..{len(scores)}: MTME files need every segment"
                )
            seg[system] = [scores[k] for k in range(1, len(scores) + 1)]
        written += write_mtme_scores(
            root, lp, metric_name, {"seg": seg}, ref=list(used), overwrite=overwrite
        )
    return written
