"""Rebuild the WMT21 TED MQM texts and ratings (google/wmt-mqm-human-evaluation, ``ted/``) in
the layout mtpalette's judgment options read, from the shared data.

Reads ``SHARED/mqm/ted/{ende,zhen}`` (``SHARED``: ``--shared DIR``, else
``$MTPALETTE_SHARED_DATA``, else ``../shared/data`` next to the repository) and writes, under
``OUT``:

* ``<lp>/seg_ids.txt``: MQM's ``seg_id`` of each line (the annotated segments, a subset);
* ``<lp>/source.txt`` and ``<lp>/<system>.txt``: one segment per line, in ``seg_id`` order,
  the translation with MQM's ``<v>...</v>`` error-span marks removed; the human references
  appear as the systems ``ref`` (and ``refB`` for zh-en);
* ``<lp>/mqm_ted_<lp>.tsv.gz`` and ``<lp>/mqm_ted_<lp>.avg_seg_scores.tsv.gz``: the original
  annotation files, compressed, for the human-judgment loaders.

The data is not part of mtpalette (it shipped in ``src/mtpalette/data/mqm_ted`` until issue
56; the output is byte for byte what was there); the work is the package's
(:func:`mtpalette.io.mqm_ted.extract_mqm_ted`, which ``mtpalette data --shared`` runs too).
The tests build it into a cache outside git (``tests/real_data.py``); a user runs, for the
README's real-data examples::

    python scripts/extract_mqm_ted.py --out mydata/mqm_ted
    mtpalette correlate --judgments mydata/mqm_ted/zhen/mqm_ted_zhen.tsv.gz \\
        --refs mydata/mqm_ted/zhen/ref.txt mydata/mqm_ted/zhen/refB.txt \\
        --systems-dir mydata/mqm_ted/zhen -m bleu chrf
"""

from __future__ import annotations

import gzip
from pathlib import Path

from mtpalette.io.mqm_ted import extract_mqm_ted


def main(shared: Path, out: Path) -> None:
    """Write the TED MQM folders (:func:`mtpalette.io.mqm_ted.extract_mqm_ted`, which
    ``mtpalette data --shared DIR --copy OUT`` runs too) and say what was written."""
    for lp, dst in extract_mqm_ted(shared, out).items():
        segs = len((dst / "seg_ids.txt").read_text(encoding="utf-8").split())
        systems = len(list(dst.glob("*.txt"))) - 2  # but seg_ids.txt and source.txt
        print(f"{lp}: {segs} segments, {systems} systems -> {dst}")


def mqm_avg_matrix(
    root: Path, lp: str, systems: list[str], segments: int | None = None
) -> list[list[float | None]]:
    """The average MQM scores of ``systems`` (rows) on the first ``segments`` annotated
    segments (columns; all by default) of ``root/lp``, a folder :func:`main` wrote; ``None``
    where unrated. The tests and benchmarks rebuild their human score matrices with it."""
    folder = root / lp
    seg_ids = [int(x) for x in (folder / "seg_ids.txt").read_text(encoding="utf-8").split()]
    avg: dict[tuple[str, int], float | None] = {}
    with gzip.open(folder / f"mqm_ted_{lp}.avg_seg_scores.tsv.gz", "rt", encoding="utf-8") as f:
        for line in f.read().splitlines()[1:]:
            system, rest = line.split("\t")
            score, seg = rest.split(" ")
            avg[(system, int(seg))] = None if score == "None" else float(score)
    return [[avg[(system, k)] for k in seg_ids[:segments]] for system in systems]


if __name__ == "__main__":
    import argparse
    import os

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the folder to write")
    parser.add_argument("--shared", type=Path, default=None, help="the shared data folder")
    args = parser.parse_args()
    env = os.environ.get("MTPALETTE_SHARED_DATA")
    default = Path(env) if env else Path(__file__).resolve().parents[2] / "shared" / "data"
    main(args.shared or default, args.out)
