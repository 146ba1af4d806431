"""The WMT21 TED MQM data (google/wmt-mqm-human-evaluation, ``ted/``) set up from its public
files in the layout mtpalette's judgment options read.

``extract_mqm_ted(shared, out)`` reads ``shared/mqm/ted/{ende,zhen}/mqm_ted_<lp>.tsv`` (and the
``.avg_seg_scores.tsv`` beside it) and writes, under ``out/<lp>/``:

* ``seg_ids.txt``: MQM's ``seg_id`` of each line (the annotated segments, a subset);
* ``source.txt`` and ``<system>.txt``: one segment per line, in ``seg_id`` order, the
  translation with MQM's ``<v>...</v>`` error-span marks removed; the human references appear
  as the systems ``ref`` (and ``refB`` for zh-en);
* ``mqm_ted_<lp>.tsv.gz`` and ``mqm_ted_<lp>.avg_seg_scores.tsv.gz``: the annotation files,
  compressed, for the human-judgment loaders.

The data is not shipped with mtpalette; ``mtpalette data --shared DIR --copy OUT`` and
``scripts/extract_mqm_ted.py`` call this.
"""

from __future__ import annotations

import csv
import gzip
import re
import shutil
from pathlib import Path

from mtpalette.errors import UserInputError

_SPAN = re.compile(r"</?v>")
#: the language pairs of the TED MQM data
PAIRS = ("ende", "zhen")


def extract_mqm_ted(shared: str | Path, out: str | Path) -> dict[str, Path]:
    """Write the TED MQM texts and ratings of ``shared`` (a shared data folder holding
    ``mqm/ted``) under ``out``; returns each pair's folder. A missing file, a segment with two
    different translations of one system, or a system lacking segments is refused, naming
    the file.

    Examples
    --------
    >>> extract_mqm_ted("/nowhere", "/tmp/x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: /nowhere/mqm/ted/ende/mqm_ted_ende.tsv: file not found; ...
    """
    check_shared(shared)
    return {lp: _extract_pair(Path(shared) / "mqm" / "ted" / lp, Path(out) / lp, lp)
            for lp in PAIRS}  # fmt: skip


def check_shared(shared: str | Path) -> None:
    """Refuse a shared data folder without the TED MQM files, naming the first one missing."""
    for lp in PAIRS:
        src = Path(shared) / "mqm" / "ted" / lp
        for name in (f"mqm_ted_{lp}.tsv", f"mqm_ted_{lp}.avg_seg_scores.tsv"):
            if not (src / name).is_file():
                raise UserInputError(
                    "file not found; expected the WMT21 TED MQM data of google/wmt-mqm-human-"
                    "evaluation (ted/) under DIR/mqm/ted",
                    path=str(src / name),
                )


def _extract_pair(src: Path, dst: Path, lp: str) -> Path:
    dst.mkdir(parents=True, exist_ok=True)
    texts: dict[str, dict[int, str]] = {}
    sources: dict[int, str] = {}
    path = src / f"mqm_ted_{lp}.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
        for row in reader:
            seg = int(row["seg_id"])
            target = _SPAN.sub("", row["target"])
            seen = texts.setdefault(row["system"], {}).setdefault(seg, target)
            if seen != target:
                raise UserInputError(
                    f"{row['system']} segment {seg} has two different targets",
                    path=str(path), line=reader.line_num,
                )  # fmt: skip
            sources.setdefault(seg, row["source"])
    segs = sorted(sources)
    (dst / "seg_ids.txt").write_text("".join(f"{s}\n" for s in segs), encoding="utf-8")
    (dst / "source.txt").write_text("".join(sources[s] + "\n" for s in segs), encoding="utf-8")
    for system, by_seg in sorted(texts.items()):
        if sorted(by_seg) != segs:
            raise UserInputError(f"{system} lacks some segments", path=str(path))
        lines = "".join(by_seg[s].replace("\n", " ") + "\n" for s in segs)
        (dst / f"{system}.txt").write_text(lines, encoding="utf-8")
    for name in (f"mqm_ted_{lp}.tsv", f"mqm_ted_{lp}.avg_seg_scores.tsv"):
        with (
            open(src / name, "rb") as fin,
            gzip.GzipFile(dst / f"{name}.gz", "wb", mtime=0) as fout,
        ):
            shutil.copyfileobj(fin, fout)
    return dst
