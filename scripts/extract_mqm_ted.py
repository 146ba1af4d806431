"""Build the bundled demo data from google/wmt-mqm-human-evaluation (TED talks, WMT21).

Reads ``../shared/data/mqm/ted/{ende,zhen}`` and writes, under ``src/mtpalette/data/mqm_ted``:

* ``<lp>/seg_ids.txt``: MQM's ``seg_id`` of each line (the annotated segments, a subset);
* ``<lp>/source.txt`` and ``<lp>/<system>.txt``: one segment per line, in ``seg_id`` order,
  the translation with MQM's ``<v>...</v>`` error-span marks removed; the human references
  appear as the systems ``ref`` (and ``refB`` for zh-en);
* ``<lp>/mqm_ted_<lp>.tsv.gz`` and ``<lp>/mqm_ted_<lp>.avg_seg_scores.tsv.gz``: the original
  annotation files, compressed, for the human-judgment loaders.

Usage: python scripts/extract_mqm_ted.py [SHARED_DATA_DIR]
"""

from __future__ import annotations

import csv
import gzip
import re
import shutil
import sys
from pathlib import Path

SPAN = re.compile(r"</?v>")


def main(shared: Path, out: Path) -> None:
    for lp in ("ende", "zhen"):
        src = shared / "mqm" / "ted" / lp
        dst = out / lp
        dst.mkdir(parents=True, exist_ok=True)
        texts: dict[str, dict[int, str]] = {}
        sources: dict[int, str] = {}
        with open(src / f"mqm_ted_{lp}.tsv", encoding="utf-8", newline="") as f:
            reader = csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE)
            for row in reader:
                seg = int(row["seg_id"])
                target = SPAN.sub("", row["target"])
                seen = texts.setdefault(row["system"], {}).setdefault(seg, target)
                if seen != target:
                    raise SystemExit(f"{row['system']} segment {seg} has two different targets")
                sources.setdefault(seg, row["source"])
        segs = sorted(sources)
        (dst / "seg_ids.txt").write_text("".join(f"{s}\n" for s in segs), encoding="utf-8")
        (dst / "source.txt").write_text("".join(sources[s] + "\n" for s in segs), encoding="utf-8")
        for system, by_seg in sorted(texts.items()):
            if sorted(by_seg) != segs:
                raise SystemExit(f"{lp}: {system} lacks some segments")
            lines = "".join(by_seg[s].replace("\n", " ") + "\n" for s in segs)
            (dst / f"{system}.txt").write_text(lines, encoding="utf-8")
        for name in (f"mqm_ted_{lp}.tsv", f"mqm_ted_{lp}.avg_seg_scores.tsv"):
            with (
                open(src / name, "rb") as fin,
                gzip.GzipFile(dst / f"{name}.gz", "wb", mtime=0) as fout,
            ):
                shutil.copyfileobj(fin, fout)
        print(f"{lp}: {len(segs)} segments, {len(texts)} systems -> {dst}")


if __name__ == "__main__":
    shared = (
        Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[2] / "shared" / "data"
    )
    main(shared, Path(__file__).parents[1] / "src" / "mtpalette" / "data" / "mqm_ted")
