"""External metrics of a run: scores read from files (``--scores``) and written for them
(``--export-scores``).

``--scores NAME=PATH[,higher=no][,layout=mtme]`` adds a metric read from a score file (see
:mod:`mtpalette.io.scorefile`). With ``layout=mtme`` the path holds ``{ref}``, replaced by each
reference's name to find its mt-metrics-eval ``.seg.score`` file.

``--export-scores DIR`` writes each built-in metric's scores there in the mtpalette layout
(``DIR/<metric>.tsv``), ready to be read back with ``--scores``. Scores stored there already
are never replaced without ``--overwrite`` (:func:`check_exports`, before any work).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.mtme_files import check_name_inside
from mtpalette.io.scorefile import read_score_option, write_scores
from mtpalette.metaeval.external import ExternalMetric
from mtpalette.metrics.base import Metric
from mtpalette.metrics.domains import YesNo


def parse_scores(values: Sequence[str] | None, ref_names: Sequence[str], *,
                 levels: Sequence[str] = ("seg",)) -> list[ExternalMetric]:  # fmt: skip
    """The external metrics named by ``--scores`` values, each file of one of the ``levels``
    the run takes (``seg``; ``correlate --level system`` also takes ``sys`` files, a system
    score per system).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "c.tsv")
    >>> _ = open(p, "w").write("system\\tsegment\\tscore\\nA\\t1\\t0.5\\n")
    >>> [m] = parse_scores([f"comet={p},higher=yes"], ["ref"])
    >>> m.label, m.higher_is_better
    ('comet', True)
    """
    out = []
    for value in values or []:
        name, path, higher, options = scores_option(value, ("mtpalette", "mtme"))
        source = read_score_option(path, ref_names, layout=options.get("layout"))
        if source.level not in levels:
            more = ("; a .sys.score file is read by correlate --level system" if
                    source.level == "sys" else "")  # fmt: skip
            raise UserInputError(
                f"--scores {value!r}: {source.level}-level scores; this run compares segment "
                f"scores (give the .seg.score file){more}"
            )
        out.append(ExternalMetric(name, source, higher_is_better=higher))
    labels = [m.label for m in out]
    if len(set(labels)) != len(labels):
        raise UserInputError("two --scores share a name")
    return out


def scores_option(value: str, layouts: Sequence[str]) -> tuple[str, str, bool, dict[str, str]]:
    """``(name, path, higher_is_better, options)`` of one ``--scores NAME=PATH[,higher=no]
    [,layout=L]`` value (``layout`` one of ``layouts``).

    Examples
    --------
    >>> scores_option("comet=c.json,layout=comet", ("comet", "metricx"))
    ('comet', 'c.json', True, {'layout': 'comet'})
    """
    name, eq, rest = value.partition("=")
    if not eq or not name.strip() or not rest:
        raise UserInputError(f"--scores {value!r}: expected NAME=PATH[,higher=no]")
    parts = rest.split(",")
    path, options = parts[0], {}
    for part in parts[1:]:
        key, eq2, val = part.partition("=")
        if not eq2 or key not in ("higher", "layout"):
            raise UserInputError(
                f"--scores {value!r}: unknown option {part!r}; expected higher=yes|no or "
                f"layout={'|'.join(layouts)}"
            )
        options[key] = val
    if "layout" in options and options["layout"] not in layouts:
        raise UserInputError(
            f"--scores {value!r}: unknown layout {options['layout']!r}; expected "
            f"{', '.join(layouts)}"
        )
    try:
        higher = YesNo().parse(options.get("higher", "yes"))
    except ValueError as exc:
        raise UserInputError(f"--scores {value!r}: higher: {exc}") from None
    return name.strip(), path, higher, options


def file_stem(spec: str) -> str:
    """A file name for a metric spec: ``rouge-w:1.2`` -> ``rouge-w_1.2``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "metric"


def check_exports(
    directory: Path | None,
    metrics: Sequence[Metric],
    *,
    mtme_lp: str | None = None,
    overwrite: bool = False,
) -> None:
    """Refuse an export that would replace stored scores without ``overwrite``: a file
    ``DIR/<metric>.tsv``, or with ``mtme_lp`` any ``DIR/metric-scores/LP/<metric>-*.score``;
    ``DIR`` must be a folder (new or existing) and ``mtme_lp`` stay inside it.

    Examples
    --------
    >>> import tempfile
    >>> from mtpalette.metrics import parse_specs
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = (d / "chrf.tsv").write_text("system\\tsegment\\tscore\\n")
    >>> check_exports(d, parse_specs(["chrf"]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: .../chrf.tsv: stored scores are there already; add ...
    >>> check_exports(d, parse_specs(["chrf"]), overwrite=True)
    """
    if directory is None:
        return
    if directory.exists() and not directory.is_dir():
        raise UserInputError(
            "--export-scores is a file; expected a folder (new or existing)", path=str(directory)
        )
    if mtme_lp is not None:
        check_name_inside("--export-mtme: the language pair", mtme_lp, directory)
    if overwrite or not directory.is_dir():
        return
    for m in metrics:
        if isinstance(m, ExternalMetric):
            continue
        stem = file_stem(m.spec)
        if mtme_lp is None:
            stored = [directory / f"{stem}.tsv"]
        else:
            stored = sorted((directory / "metric-scores" / mtme_lp).glob(f"{stem}-*.score"))
        for path in stored:
            if path.exists():
                raise UserInputError(
                    "stored scores are there already; add --overwrite to replace them",
                    path=str(path),
                )


def export_all(
    directory: Path,
    metrics: Sequence[Metric],
    rows: Callable[[Metric], Iterable[tuple[str, int, str, float]]],
) -> list[Path]:
    """Write ``rows(metric)`` of every built-in metric to ``directory/<metric>.tsv``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for m in metrics:
        if isinstance(m, ExternalMetric):
            continue
        path = directory / f"{file_stem(m.spec)}.tsv"
        write_scores(path, rows(m))
        written.append(path)
    return written
