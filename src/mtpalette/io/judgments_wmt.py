"""WMT's human judgments: segment DA (``wmt-da-seg``), ``ad-seg-scores``
(``wmt-seg-scores``, system level only), the WMT17 test set with its texts, system rankings and
WMT12's five-way relative rankings; the file layouts are described in
:mod:`mtpalette.io.judgments_read`.

References
----------
Graham et al. (2017), Can machine translation systems be evaluated by the crowd alone (DA,
z-scores). Callison-Burch et al. (2012), Findings of WMT12 (relative rankings).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments, RelativeRankings, ScoredTexts, SystemScores
from mtpalette.io.judgments_parsing import (
    MatrixBuilder,
    integer_field,
    number_field,
    read_text,
    split_rows,
    text_lines,
    tsv_rows,
)
from mtpalette.io.tabular import header_columns

WMT21_SEG_WARNING = (
    "the segment ids (SID) of WMT 'ad-seg-scores' files are not line numbers of the released "
    "texts (on WMT21, metric and DA orderings agree at chance level at any offset), so these "
    "judgments cannot be aligned with translations at segment level; use them at system "
    "level only (system means), or use MQM, WMT17 DA or WMT12 rankings"
)
WMT12_LANGUAGES = {"Czech": "cs", "English": "en", "German": "de", "French": "fr", "Spanish": "es"}


def read_wmt_da_seglevel(path: str | Path, lp: str | None = None) -> Judgments:
    """WMT17 segment DA, ``LP DATA SYSTEM SID HUMAN``; SID is the 1-based output line.

    With several language pairs in the file, ``lp`` is required.
    """
    name = str(path)
    lines = text_lines(path)
    if not lines or lines[0].split()[:5] != ["LP", "DATA", "SYSTEM", "SID", "HUMAN"]:
        raise UserInputError("expected the header 'LP DATA SYSTEM SID HUMAN'", path=name, line=1)
    present = sorted({ln.split()[0] for ln in lines[1:] if ln.split()})
    if lp is None:
        if len(present) != 1:
            raise UserInputError(
                f"the file has several language pairs ({', '.join(present)}); choose one", path=name
            )
        lp = present[0]
    out = MatrixBuilder(name)
    for k, fields in split_rows(lines[1:], 2, 5, name):
        if fields[0] != lp:
            continue
        sid = integer_field(fields[3], "SID", name, k)
        out.add(fields[2], sid, number_field(fields[4], "HUMAN score", name, k), k)
    if not out.values:
        raise UserInputError(
            f"no rows for language pair {lp!r}; the file has {', '.join(present)}", path=name
        )
    return out.build("wmt-da-seg", item_base=1)


def read_wmt_seg_scores(
    path: str | Path, *, score: str = "z", strip_run_ids: bool = True
) -> Judgments:
    """WMT ``ad-seg-scores`` (``SYS SID RAW.SCR Z.SCR N``): usable at system level only.

    ``score`` picks ``z`` (standardised, default) or ``raw``. ``strip_run_ids`` turns
    ``XMU.17`` into ``XMU`` (WMT appends the submission id). The result refuses segment-level
    alignment (:data:`WMT21_SEG_WARNING`).
    """
    name = str(path)
    if score not in ("z", "raw"):
        raise ValueError("score must be 'z' or 'raw'")
    lines = text_lines(path)
    if not lines or lines[0].split()[:5] != ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]:
        raise UserInputError("expected the header 'SYS SID RAW.SCR Z.SCR N'", path=name, line=1)
    out = MatrixBuilder(name)
    for k, fields in split_rows(lines[1:], 2, 5, name):
        system = _strip_run_id(fields[0]) if strip_run_ids else fields[0]
        value = number_field(fields[3] if score == "z" else fields[2], f"{score} score", name, k)
        out.add(system, integer_field(fields[1], "SID", name, k), value, k)
    return out.build("wmt-seg-scores", unaligned=WMT21_SEG_WARNING)


def _strip_run_id(name: str) -> str:
    head, dot, tail = name.rpartition(".")
    return head if dot and tail.isdigit() else name


def read_wmt17_testset(path: str | Path) -> ScoredTexts:
    """WMT17 segment DA test set with its texts: ``LP source translation reference HUMAN_score
    sentBLEU`` (tab-separated, header)."""
    name = str(path)
    header, rows = tsv_rows(read_text(path), name)
    need = ["LP", "source", "translation", "reference", "HUMAN_score"]
    if header[:5] != need:
        raise UserInputError(f"expected the header {' '.join(need)} ...", path=name, line=1)
    lps, srcs, hyps, refs, scores = [], [], [], [], []
    for line, fields in rows:
        if len(fields) < 5:
            raise UserInputError(
                f"expected at least 5 tab-separated fields, found {len(fields)}",
                path=name,
                line=line,
            )
        lps.append(fields[0])
        srcs.append(fields[1])
        hyps.append(fields[2])
        refs.append(fields[3])
        scores.append(number_field(fields[4], "HUMAN_score", name, line))
    if not hyps:
        raise UserInputError("no judgments in the file", path=name)
    return ScoredTexts(lps, srcs, hyps, refs, np.asarray(scores), name)


def read_wmt_system_ranking(path: str | Path) -> SystemScores:
    """WMT21 system ranking ``RAW Z n N SYSTEM.ID NAME`` (no header); score = z."""
    name = str(path)
    systems, ids, z, raw = [], [], [], []
    for k, fields in split_rows(text_lines(path), 1, 6, name, "RAW Z n N SYSTEM.ID NAME"):
        if fields[5] in systems:
            raise UserInputError(f"duplicate system {fields[5]!r}", path=name, line=k)
        raw.append(number_field(fields[0], "raw score", name, k))
        z.append(number_field(fields[1], "z score", name, k))
        ids.append(fields[4])
        systems.append(fields[5])
    if not systems:
        raise UserInputError("no systems in the file", path=name)
    return SystemScores(systems, np.asarray(z), name, "wmt-sys-ranking", ids, np.asarray(raw))


def read_wmt_da_syslevel(path: str | Path, lp: str) -> SystemScores:
    """WMT17/19 ``DA-syslevel.csv`` (``LP HUMAN SYSTEM``) for one language pair."""
    name = str(path)
    lines = text_lines(path)
    if not lines or lines[0].split()[:3] != ["LP", "HUMAN", "SYSTEM"]:
        raise UserInputError("expected the header 'LP HUMAN SYSTEM'", path=name, line=1)
    systems, scores = [], []
    for k, ln in enumerate(lines[1:], start=2):
        fields = ln.split()
        if not fields or fields[0] != lp:
            continue
        if len(fields) != 3:
            raise UserInputError(f"expected 3 fields, found {len(fields)}", path=name, line=k)
        if fields[2] in systems:
            raise UserInputError(f"duplicate system {fields[2]!r}", path=name, line=k)
        systems.append(fields[2])
        scores.append(number_field(fields[1], "HUMAN score", name, k))
    if not systems:
        raise UserInputError(f"no systems for language pair {lp!r}", path=name)
    return SystemScores(systems, np.asarray(scores), name, "wmt-da-syslevel")


def read_wmt12_rankings(path: str | Path, lp: str) -> RelativeRankings:
    """WMT12 five-way relative rankings of one language pair (``cs-en``, ``en-de``, ...)."""
    name = str(path)
    text = read_text(path)
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise UserInputError("the file is empty", path=name) from None
    need = ["srclang", "trglang", "srcIndex", "judgeId"] + [
        f"system{k}{x}" for k in range(1, 6) for x in ("Id", "rank")
    ]
    col = header_columns(header, need, name, "a WMT ranking file")
    lines, judges, systems, ranks = [], [], [], []
    seen: set[str] = set()
    for k, fields in enumerate(reader, start=2):
        if not fields:
            continue
        if len(fields) != len(header):
            raise UserInputError(
                f"expected {len(header)} fields, found {len(fields)}", path=name, line=k
            )
        src = WMT12_LANGUAGES.get(fields[col["srclang"]], fields[col["srclang"]])
        tgt = WMT12_LANGUAGES.get(fields[col["trglang"]], fields[col["trglang"]])
        seen.add(f"{src}-{tgt}")
        if f"{src}-{tgt}" != lp:
            continue
        index = integer_field(fields[col["srcIndex"]], "srcIndex", name, k)
        if index < 1:
            raise UserInputError(f"srcIndex {index} is below 1 (it is 1-based)", path=name, line=k)
        row = [integer_field(fields[col[f"system{j}rank"]], "rank", name, k) for j in range(1, 6)]
        if any(r != -1 and not 1 <= r <= 5 for r in row):
            raise UserInputError(f"ranks must be 1..5 or -1 (blank), got {row}", path=name, line=k)
        names = [fields[col[f"system{j}Id"]].strip() for j in range(1, 6)]
        if any(not n for n in names):
            raise UserInputError("empty system id", path=name, line=k)
        lines.append(index - 1)
        judges.append(fields[col["judgeId"]])
        systems.append(names)
        ranks.append(row)
    if not judges:
        raise UserInputError(
            f"no rankings for {lp!r}; the file has {', '.join(sorted(seen))}", path=name
        )
    return RelativeRankings(
        lp,
        np.asarray(lines, dtype=np.int64),
        judges,
        systems,
        np.asarray(ranks, dtype=np.int64),
        name,
    )
