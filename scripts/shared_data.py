"""Where the scripts find the shared data sets (not part of the package).

``$MTPALETTE_SHARED_DATA`` when set, else ``../shared/data`` next to the repository; never an
absolute path of one machine. ``bench/common.py`` finds it the same way; ``tests/real_data.py``
uses :func:`mqm_ted_root` and :func:`mqm_ted` (the real WMT21 TED MQM folders, which the package
no longer ships: its ``--bundled`` data is the project's invented example) and
:func:`wmt24_rank_root` (the WMT24 ESA ratings as the ranking tests read them).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path

#: the repository root (this file is scripts/shared_data.py)
REPO = Path(__file__).resolve().parents[1]


def shared_data() -> Path:
    """The shared data folder (it may be absent: callers skip with a message).

    Examples
    --------
    >>> shared_data().name == "data" or "MTPALETTE_SHARED_DATA" in os.environ
    True
    """
    env = os.environ.get("MTPALETTE_SHARED_DATA")
    return Path(env) if env else REPO.parent / "shared" / "data"


def mqm_ted_root(shared: Path | None = None) -> Path:
    """The WMT21 TED MQM texts and ratings (``ende/``, ``zhen/``) as ``extract_mqm_ted.py``
    writes them from ``shared/mqm/ted``, built once per version of that script (and of
    :mod:`mtpalette.io.mqm_ted`, which does the work) into a cache in
    the temporary folder (outside git); SystemExit when the shared data lacks them.

    Examples
    --------
    >>> root = mqm_ted_root() if (shared_data() / "mqm" / "ted").is_dir() else None
    >>> root is None or sorted(p.name for p in root.iterdir()) == ["ende", "zhen"]
    True
    """
    shared = shared_data() if shared is None else shared
    if not (shared / "mqm" / "ted").is_dir():
        raise SystemExit(f"{shared}/mqm/ted is absent (set MTPALETTE_SHARED_DATA)")
    script = REPO / "scripts" / "extract_mqm_ted.py"
    package = REPO / "src" / "mtpalette" / "io" / "mqm_ted.py"  # the work the script calls
    key = hashlib.sha256(script.read_bytes() + package.read_bytes()
                         + str(shared).encode()).hexdigest()[:16]  # fmt: skip
    cache = Path(tempfile.gettempdir()) / f"mtpalette-real-data-{os.getuid()}"
    target = cache / f"mqm_ted-{key}"
    if not target.is_dir():
        cache.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".mqm_ted-"))
        spec = importlib.util.spec_from_file_location("_extract_mqm_ted", script)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main(shared, tmp)
        try:
            tmp.rename(target)
        except OSError:  # another process made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def mqm_ted(lp: str, root: Path | None = None) -> dict:
    """Paths of the real WMT21 TED MQM data of ``lp`` (``ende`` or ``zhen``) in ``root``
    (default :func:`mqm_ted_root`): ``root``, ``judgments``, ``avg``, ``refs`` (``ref``, and
    ``refB`` for zh-en), ``systems`` (13), ``seg_ids`` and ``source``, the keys that
    ``mtpalette.io.judgments_mqm.bundled_mqm_ted`` gives for the example data."""
    folder = (mqm_ted_root() if root is None else root) / lp
    ref_names = ["ref.txt", "refB.txt"] if lp == "zhen" else ["ref.txt"]
    special = {*ref_names, "source.txt", "seg_ids.txt"}
    return {
        "root": folder,
        "judgments": folder / f"mqm_ted_{lp}.tsv.gz",
        "avg": folder / f"mqm_ted_{lp}.avg_seg_scores.tsv.gz",
        "refs": [folder / n for n in ref_names],
        "systems": sorted(p for p in folder.glob("*.txt") if p.name not in special),
        "seg_ids": folder / "seg_ids.txt",
        "source": folder / "source.txt",
    }


#: the WMT24 ESA waves in the shared data (``wmt24/humeval``)
ESA_WAVES = ("esa_generalMT2024_wave2.en-cs_en-ja.csv", "esa_generalMT2024_wave3.en-cs_en-ja.csv")


def wmt24_rank_root(shared: Path | None = None) -> Path:
    """The WMT24 ESA ratings of en-cs and en-ja as the ranking tests and benchmarks read them
    (``<lp>.tsv.gz``: ``system domain doc item score``, by system then item), built once into a
    cache outside git from ``shared/wmt24``: the waves read by mtpalette's Appraise ESA reader
    (:func:`mtpalette.io.spans_read.read_spans`, the organisers' filters: ``BAD`` rows,
    ``#bad``/``#dup``/``#incomplete`` documents and tutorials left out, an annotator's latest
    rating of an item kept), each item's domain and document from ``txt/documents/<lp>.docs``
    (line ``segment_id``, line 0 being the canary), items numbered from 0. The rows equal, byte
    for byte, those the organisers' ``humeval/tools.load_data`` kept (``scripts/
    wmt24_rank_golden.py``, whose golden values the tests check); SystemExit when the shared
    data lacks them.
    """
    import gzip

    shared = shared_data() if shared is None else shared
    folder = shared / "wmt24"
    waves = [folder / "humeval" / name for name in ESA_WAVES]
    if not all(w.is_file() for w in waves):
        raise SystemExit(f"{folder}/humeval lacks the WMT24 ESA waves (set MTPALETTE_SHARED_DATA)")
    reader = REPO / "src" / "mtpalette" / "io" / "spans_formats.py"  # the ESA reader
    key = hashlib.sha256(Path(__file__).read_bytes() + reader.read_bytes()
                         + str(shared).encode()).hexdigest()[:16]  # fmt: skip
    cache = Path(tempfile.gettempdir()) / f"mtpalette-real-data-{os.getuid()}"
    target = cache / f"wmt24_rank-{key}"
    if target.is_dir():
        return target
    from mtpalette.io.spans_read import read_spans

    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".wmt24_rank-"))
    rows: dict[str, list] = {}
    for wave in waves:
        for r in read_spans(wave):
            rows.setdefault(r.lp, []).append(r)
    for lp, kept in rows.items():
        docs = (folder / "txt" / "documents" / f"{lp}.docs").read_text(encoding="utf-8")
        docs = docs.splitlines()
        lines = ["system\tdomain\tdoc\titem\tscore\n"]
        for r in sorted(kept, key=lambda r: (r.system, r.segment)):
            domain, doc = docs[r.segment].split("\t")
            score = float(r.score)
            text = str(int(score)) if score.is_integer() else repr(score)
            lines.append(f"{r.system}\t{domain}\t{doc}\t{r.segment - 1}\t{text}\n")
        with gzip.GzipFile(tmp / f"{lp}.tsv.gz", "wb", mtime=0) as fh:
            fh.write("".join(lines).encode("utf-8"))
    try:
        tmp.rename(target)
    except OSError:  # another process made it first
        shutil.rmtree(tmp, ignore_errors=True)
    return target
