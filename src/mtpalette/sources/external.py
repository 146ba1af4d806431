"""External metrics of a run: scores read from files (``--scores``) and written for them
(``--export-scores``).

``--scores NAME=PATH[,higher=no][,layout=mtme]`` adds a metric read from a score file (see
:mod:`mtpalette.io.scorefile`). With ``layout=mtme`` the path holds ``{ref}``, replaced by each
reference's name to find its mt-metrics-eval ``.seg.score`` file.

``--export-scores DIR`` writes each built-in metric's scores there in the mtpalette layout
(``DIR/<metric>.tsv``), ready to be read back with ``--scores``; with ``--export-mtme LP``, in
mt-metrics-eval's (``DIR/metric-scores/LP/<metric>-REF.LEVEL.score``, written by
:mod:`mtpalette.io.mtme_write`). Scores stored there already are never replaced without
``--overwrite`` (:func:`check_exports`, before any work).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.io.mtme_files import check_name_inside
from mtpalette.io.scorefile import read_score_option, write_scores
from mtpalette.metaeval.external import (
    ExternalMetric,
    export_segment_scores,
    file_nrefs,
    reference_names,
)
from mtpalette.metrics.base import Metric
from mtpalette.metrics.domains import YesNo


def parse_scores(values: Sequence[str] | None, ref_names: Sequence[str], *,
                 levels: Sequence[str] = ("seg",), feedback: Feedback | None = None,
                 beside: Sequence[Metric] = ()) -> list[ExternalMetric]:  # fmt: skip
    """The external metrics named by ``--scores`` values, each file of one of the ``levels``
    the run takes (``seg``; ``correlate --level system`` also takes ``sys`` files, a system
    score per system). A file whose name says it was computed with another number of
    references than the run's is read with a warning naming both counts
    (:func:`check_nrefs`; ``feedback``'s, standard error without one). A name that another
    ``--scores`` or a metric ``beside`` them has is refused (:func:`distinct_names`).

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
        check_nrefs(name, source, len(ref_names), feedback or Feedback())
        out.append(ExternalMetric(name, source, higher_is_better=higher))
    distinct_names([*beside, *out])
    return out


def distinct_names(metrics: Sequence[Metric], baselines: Sequence[Metric] = ()) -> None:
    """Refuse two metrics of a run under one name (an ``-m`` spec, a score file, a length
    baseline): its tables, signatures and records are keyed by name, so one would take the
    other's place without a word.

    Examples
    --------
    >>> from mtpalette.metrics import parse_specs
    >>> distinct_names(parse_specs(["chrf", "bleu"]))
    >>> distinct_names(parse_specs(["chrf"]), baselines=parse_specs(["chrf"]))
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: two metrics of the run are named 'chrf' (-m chrf and ...)
    """
    first: dict[str, str] = {}
    for m in [*metrics, *baselines]:
        origin = f"-m {m.spec}"
        if isinstance(m, ExternalMetric):
            origin = f"the score file {m.source.path}"
        elif any(m is b for b in baselines):
            origin = f"the length baseline {m.spec}"
        if m.spec in first:
            raise UserInputError(
                f"two metrics of the run are named {m.spec!r} ({first[m.spec]} and {origin}): "
                "leave one out, or give the score file another name (--scores OTHER=FILE)"
            )
        first[m.spec] = origin


def check_nrefs(name: str, source: Any, n_refs: int, feedback: Feedback) -> str | None:
    """Warn when a score file was computed with another number of references than the
    run's ``n_refs``, as its MTME name says (``NAME-refA.refB``: 2; the signature's
    ``nrefs``): a file of held-out rows has one fewer than the run, a source-only file
    (``NAME-src``) none, and a name that does not say (``nrefs:file``) is not checked.
    Returns the warning (None without one).

    Examples
    --------
    >>> from mtpalette.io.scorefile import ScoreFile
    >>> f = ScoreFile("COMET-refA.refB.seg.score", {("A", 1, ""): 0.5})
    >>> print(check_nrefs("comet", f, 1, Feedback()))  # doctest: +ELLIPSIS
    --scores comet: COMET-refA.refB.seg.score was computed with 2 references ...this run has 1...
    >>> check_nrefs("comet", f, 2, Feedback()) is None
    True
    """
    found = file_nrefs(source.path)
    if not isinstance(found, int) or found == 0:
        return None
    heldout = any(key[2] for key in source.scores)
    expected = n_refs - 1 if heldout else n_refs
    if found == expected:
        return None
    text = (
        f"--scores {name}: {source.path} was computed with {found} reference"
        f"{'s' if found != 1 else ''} (its name says; signature nrefs:{found}), this run has "
        f"{n_refs}{' (its held-out rows: ' + str(expected) + ' each)' if heldout else ''}: "
        "its scores are not on the run's references"
    )
    feedback.warn(text)
    return text


def scores_option(value: str, layouts: Sequence[str]) -> tuple[str, str, bool, dict[str, str]]:
    """``(name, path, higher_is_better, options)`` of one ``--scores NAME=PATH[,higher=no]
    [,layout=L]`` value (``layout`` one of ``layouts``).

    Examples
    --------
    >>> scores_option("comet=c.json,layout=comet", ("comet", "metricx"))
    ('comet', 'c.json', True, {'layout': 'comet'})
    >>> scores_option("c=f,higher=no,higher=no", ())
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --scores 'c=f,higher=no,higher=no': higher given twice
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
        if key in options:  # the last value would win, unseen (higher=no,higher=yes)
            raise UserInputError(f"--scores {value!r}: {key} given twice")
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


def file_stem(spec: str, *, mtme: bool = False) -> str:
    """A file name for a metric spec: ``rouge-w:1.2`` -> ``rouge-w_1.2``; ``mtme``: for
    mt-metrics-eval's layout, whose names hold no dot (``rouge-w_1_2``)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "metric"
    return stem.replace(".", "_") if mtme else stem


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
    check_export_layout(directory, mtme_lp)
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
        stem = file_stem(m.spec, mtme=mtme_lp is not None)
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


def check_export_layout(export_scores: Path | None, export_mtme: str | None) -> None:
    """``--export-mtme LP`` names the layout of ``--export-scores DIR``: refused without it.

    Examples
    --------
    >>> check_export_layout(None, "zh-en")
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: --export-mtme LP names the layout of --export-scores DIR
    """
    if export_mtme is not None and export_scores is None:
        raise UserInputError("--export-mtme LP names the layout of --export-scores DIR")


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


def export_orange(directory: Path, metrics: Sequence[Metric], lists: Any, *,
                  mtme_lp: str | None = None) -> list[Path]:  # fmt: skip
    """Every built-in metric's scores of an ORANGE run's candidate ``lists`` written to
    ``directory``: the mtpalette layout, or with ``mtme_lp`` mt-metrics-eval's (stored files
    replaced: :func:`check_exports` refused them before any work without ``--overwrite``)."""
    from mtpalette.metaeval.external import export_orange_scores

    rows = lambda m: export_orange_scores(lists, m)  # noqa: E731
    if mtme_lp is None:
        return export_all(directory, metrics, rows)
    from mtpalette.io.mtme_write import write_mtme_rows

    names = reference_names(lists, lists.n_refs)
    return [
        path
        for m in metrics
        if not isinstance(m, ExternalMetric)
        for path in write_mtme_rows(directory, mtme_lp, file_stem(m.spec, mtme=True), rows(m),
                                    names, overwrite=True)  # fmt: skip
    ]


def export_judged(
    directory: Path,
    data: Any,
    metrics: Sequence[Metric],
    *,
    mtme_lp: str | None = None,
    mtme_set: Any = None,
    ref_names: Sequence[str] | None = None,
    tokenize: str = "13a",
    lowercase: bool = False,
    computed: Mapping[str, Any] | None = None,
) -> list[Path]:
    """``correlate --export-scores``: every built-in metric's scores of the rated translations
    of ``data`` (a :class:`~mtpalette.metaeval.segments.SegmentData`) in the mtpalette layout;
    with ``mtme_lp``, in mt-metrics-eval's, as a folder stores a metric and ``wmt`` and
    ``correlate --mtme`` compute one (:func:`~mtpalette.sources.folders.oriented_scores`): the
    sentence score of every segment (``NAME-REF.seg.score``) and the corpus score of all
    segments (``NAME-REF.sys.score``) of each system, against the references used (those of
    ``ref_names``, or the one ``mtme_set``, the folder's pair, uses), error metrics negated
    (MTME takes higher as better). From a folder, every output of the pair but that reference
    (judged or not, other references too: ``wmt`` may evaluate them); other judged texts must
    be every line of their outputs. ``computed``: the run's scores of the folder's systems on
    all segments (:func:`~mtpalette.sources.system_scores.folder_scores`), taken as they are:
    only the outputs it lacks are scored here, so no text is scored twice."""
    if mtme_lp is None:
        return export_all(directory, metrics, lambda m: export_segment_scores(data, m))
    from mtpalette.io.mtme_write import write_mtme_scores
    from mtpalette.io.scorefile import mtme_ref_name
    from mtpalette.sources.folders import oriented_scores, oriented_view

    specs = [m.spec for m in metrics if not isinstance(m, ExternalMetric)]
    if not specs:
        return []
    if mtme_set is not None:  # every output but the reference in use, as MTME stores a metric
        systems = [s for s in mtme_set.outputs if s != mtme_set.ref]
        outputs = dict(zip(systems, mtme_set.texts(systems), strict=True))
        refs, names, srcs = [mtme_set.reference()], [mtme_set.ref], None
    else:
        outputs, refs, srcs = _every_line(data)
        names = [mtme_ref_name(r) for r in reference_names(ref_names, len(refs))]
    text = dict(tokenize=tokenize, lowercase=lowercase)
    if computed is not None and mtme_set is not None:  # the judged systems scored already
        from mtpalette.sources.scoring import score_systems

        first = next(iter(computed.values()))
        scored = {s: computed[s] for s in outputs if s in computed}
        rest = {s: texts for s, texts in outputs.items() if s not in scored}
        if rest:  # the same metrics under the same names (as the run typed them)
            scored |= score_systems(rest, refs, first.names, progress=False, **text)
        view, _ = oriented_view(scored, list(outputs))
        canonical = dict(zip(first.names, first.specs, strict=True))  # the files' names
        scores = {canonical[name]: levels for name, levels in view.items()}
    else:
        scores, _ = oriented_scores(outputs, refs, specs, srcs=srcs, **text)
    written = []
    for spec, levels in scores.items():
        tables = {level: dict(zip(outputs, levels[level], strict=True)) for level in ("seg", "sys")}
        # stored files are replaced only with --overwrite (check_exports)
        written += write_mtme_scores(
            directory, mtme_lp, file_stem(spec, mtme=True), tables, ref=names, overwrite=True
        )
    return written


def _every_line(data: Any) -> tuple[dict[str, list[str]], list[list[str]], list[str] | None]:
    """The outputs, references and sources of judged texts when they hold every line of the
    output files (an MTME score file has a score per line), else refused."""
    n = data.info.get("n_lines", data.n_items)
    lines = data.info.get("lines")
    if data.n_items != n or (lines is not None and list(lines) != list(range(n))):
        raise UserInputError(
            f"--export-mtme: the run keeps {data.n_items} of the {n} lines of the outputs (those "
            "judged, or --max-items); mt-metrics-eval's score files hold every line: leave out "
            "--export-mtme (the mtpalette layout keeps the rated translations)"
        )
    outputs = {s: list(data.hyps[k]) for k, s in enumerate(data.systems)}
    return outputs, [list(r) for r in data.refs], data.srcs
