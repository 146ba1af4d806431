"""Reading human judgments of translations in any format: MQM, WMT direct assessment,
rankings, generic files (:func:`read_judgments`, the format guessed by :func:`guess_format`),
into the containers of :mod:`mtpalette.io.judgments`.

Formats
-------
``mqm``
    Google's MQM TSV (``system doc doc_id seg_id rater source target category severity
    [comment]``), one row per error (``No-error`` rows for clean segments), optionally
    gzip-compressed. Segment score = minus the sum of the error weights of a rater, averaged
    over the segment's raters. Default weights (Freitag et al. 2021; mt-metrics-eval's
    ``score_mqm``): Major 5, Minor 1, Neutral 0, Minor Fluency/Punctuation 0.1,
    Non-translation 25 (either severity); the most specific ``severity[/category[/sub]]``
    entry applies; an unknown severity is an error.
``mqm-avg``
    ``system mqm_avg_score seg_id`` (whitespace-separated, header line; ``None`` = unrated).
``wmt-da-seg``
    WMT17 ``DA-seglevel.csv``: ``LP DATA SYSTEM SID HUMAN``; SID is the 1-based line of the
    system's output file (verified on WMT17), so it aligns with texts.
``wmt-seg-scores``
    WMT ``ad-seg-scores-*.csv``: ``SYS SID RAW.SCR Z.SCR N``. Its SIDs are **not** line
    numbers of the released WMT21 texts (measured: metric and DA agree at chance level at
    any offset), so these judgments can be averaged per system but never aligned with texts:
    :meth:`Judgments.line_indices` raises.
``wmt17-testset``
    WMT17 ``testset_<lp>.tsv``: ``LP source translation reference HUMAN_score sentBLEU``, the
    texts inside the file (:class:`ScoredTexts`).
``wmt-sys-ranking``
    WMT21 ``ad-sys-ranking-*-z-names.csv``: ``RAW Z n N SYSTEM.ID NAME`` (no header);
    WMT17/19 ``DA-syslevel.csv``: ``LP HUMAN SYSTEM`` (:class:`SystemScores`).
``wmt12-rr``
    WMT12 ``wmt12.RNK_results.csv``: five-way relative rankings, rank 1 best, ties allowed,
    -1 blank; ``srcIndex`` is the 1-based line (:class:`RelativeRankings`).
``generic``
    TSV with a header naming ``system``, ``segment`` (or ``seg_id``) and ``score`` columns,
    or JSONL objects with those keys. ``segment`` is the 1-based line number of the system's
    output by default (``id_base``).

Every error names the file and the line; NaN or missing scores and duplicated
(system, segment) pairs are errors.

References
----------
Freitag et al. (2021), Experts, Errors, and Context (MQM weights). google/wmt-mqm-human-
evaluation (file formats). Graham et al. (2017), Can machine translation systems be evaluated
by the crowd alone (DA, z-scores). Callison-Burch et al. (2012), Findings of WMT12 (relative
rankings). google-research/mt-metrics-eval ``converters/score_mqm.py`` (weights).
"""

from __future__ import annotations

from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.judgment_formats import FORMATS
from mtpalette.io.judgments import Judgments
from mtpalette.io.judgments_generic import read_generic
from mtpalette.io.judgments_mqm import read_mqm, read_mqm_avg
from mtpalette.io.judgments_mtme import read_mtme_seg_scores
from mtpalette.io.judgments_parsing import read_text
from mtpalette.io.judgments_wmt import read_wmt_da_seglevel, read_wmt_seg_scores


def read_judgments(
    path: str | Path, fmt: str = "auto", *, lp: str | None = None, id_base: int | None = None
) -> Judgments:
    """Segment-level judgments in any of :data:`FORMATS` (``auto`` guesses from the header).

    Examples
    --------
    The bundled example's MQM-style file (invented by the project):

    >>> from mtpalette.io.judgments_mqm import bundled_mqm_ted
    >>> j = read_judgments(str(bundled_mqm_ted("zhen")["judgments"]))
    >>> j.kind, len(j.systems), len(j.items), j.n_rated
    ('mqm', 10, 60, 600)
    """
    if fmt == "auto":
        fmt = guess_format(path)
    if fmt == "mqm":
        return read_mqm(path)
    if fmt == "mqm-avg":
        return read_mqm_avg(path)
    if fmt == "wmt-da-seg":
        return read_wmt_da_seglevel(path, lp)
    if fmt == "wmt-seg-scores":
        return read_wmt_seg_scores(path)
    if fmt == "generic":
        return read_generic(path, id_base=1 if id_base is None else id_base)
    if fmt == "mtme-seg":
        return read_mtme_seg_scores(path)
    if fmt == "wmt17-testset":
        raise UserInputError(
            "a WMT17 test-set file holds its own texts: read it with read_wmt17_testset",
            path=str(path),
        )
    raise UserInputError(
        f"unknown judgment format {fmt!r}; expected auto or one of {', '.join(FORMATS)}"
    )


def guess_format(path: str | Path) -> str:
    """The format of a judgment file, from its first line."""
    from mtpalette.io.tabular import table_format

    if not str(path).endswith(".gz") and table_format(path) == "parquet":
        return "generic"
    text = read_text(path)
    first = text.split("\n", 1)[0].strip()
    words = first.split()
    cols = [c.strip().lower() for c in first.split("\t")]
    if {"system", "seg_id", "rater", "category", "severity"} <= set(cols):
        return "mqm"
    if words[:3] == ["system", "mqm_avg_score", "seg_id"]:
        return "mqm-avg"
    if words[:5] == ["LP", "DATA", "SYSTEM", "SID", "HUMAN"]:
        return "wmt-da-seg"
    if words[:5] == ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]:
        return "wmt-seg-scores"
    if cols[:5] == ["lp", "source", "translation", "reference", "human_score"]:
        return "wmt17-testset"
    commas = [c.strip().strip('"').lower() for c in first.split(",")]
    if first.startswith("{") or any("system" in c and "score" in c for c in (cols, commas)):
        return "generic"
    if str(path).endswith(".seg.score") and len(cols) == 2:
        return "mtme-seg"
    raise UserInputError(
        "cannot tell the judgment format from the first line; give --format (one of "
        f"{', '.join(FORMATS)})",
        path=str(path),
        line=1,
    )
