"""The example data shipped with mtpalette, by name: where it is, what it holds, and a copy of
it in a folder of one's own (for the README's and the documentation's examples).

The example data is invented by the project (``scripts/make_demo_data.py``; see
``data/example/README.md``): texts from a small grammar, "systems" made by seeded errors and
MQM-like ratings derived from those errors. No real data is shipped: the real WMT21 TED MQM
data is set up from its public files by :func:`copy_shared` (``mtpalette data --shared DIR
--copy OUT``; README, "Real data").

Examples
--------
>>> sorted(bundled_data())
['example_ende', 'example_zhen', 'mtpalette.example', 'spans_example', 'wmt25_sample']
>>> bundled_data()["mtpalette.example"].path.name
'mtpalette.example'
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from mtpalette.errors import UserInputError


@dataclass(frozen=True)
class BundledSet:
    """A bundled data set: its folder and one line on what it is."""

    name: str
    path: Path
    about: str


def bundled_data() -> dict[str, BundledSet]:
    """Every bundled data set by name: the project's invented example data (see the package's
    ``data/example/README.md``, ``data/spans_example`` and ``data/wmt25_sample``)."""
    from mtpalette.io.judgments_mqm import bundled_mqm_ted
    from mtpalette.io.mtme import example_folder
    from mtpalette.io.wmt25 import sample_folder
    from mtpalette.sources.spans import example_folder as spans_folder

    out = {}
    for lp, pair in (("zhen", "zh-en"), ("ende", "en-de")):
        paths = bundled_mqm_ted(lp)
        refs = ", ".join(p.name for p in paths["refs"])
        out[f"example_{lp}"] = BundledSet(
            f"example_{lp}",
            paths["judgments"].parent,
            f"invented example {pair} (written by mtpalette, not real data), 60 segments: "
            f"{len(paths['systems'])} systems' outputs (<system>.txt), references {refs}, "
            f"source.txt, MQM-style ratings derived from their errors ({paths['judgments'].name})",
        )
    out["mtpalette.example"] = BundledSet(
        "mtpalette.example",
        example_folder(),
        "the same invented data as an mt-metrics-eval test set folder (en-de, zh-en; "
        "stored mtpalette BLEU, chrF, ROUGE-L): --mtme mtpalette.example --lp zh-en",
    )
    out["spans_example"] = BundledSet(
        "spans_example",
        spans_folder(),
        "invented error spans (en-cs, en-de): a gold annotator, a second human, two span "
        "predictors and a tuning split, generic JSONL: mtpalette spans / errorfree",
    )
    out["wmt25_sample"] = BundledSet(
        "wmt25_sample",
        sample_folder(),
        "an invented test set and 3 systems in WMT25's JSONL (paragraphs, documents): "
        "score --wmt25-testset wmt25_sample/testset.jsonl --wmt25-systems wmt25_sample/systems",
    )
    return out


def copy_bundled(destination: str | Path) -> dict[str, Path]:
    """Copy every bundled set into ``destination`` (made if missing), one folder each, named
    as :func:`bundled_data` names them; an existing folder of that name is refused, never
    overwritten."""
    dest = Path(destination)
    if dest.exists() and not dest.is_dir():
        raise UserInputError("is a file; expected a folder (new or existing)", path=str(dest))
    sets = bundled_data()
    clash = [name for name in sets if (dest / name).exists()]
    if clash:
        raise UserInputError(
            f"{', '.join(clash)} already there; copy into another folder", path=str(dest)
        )
    try:
        dest.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, a read-only folder
        raise UserInputError(f"cannot make the folder: {exc.strerror}", path=str(dest)) from None
    out = {}
    for name, data in sets.items():
        shutil.copytree(data.path, dest / name)
        out[name] = dest / name
    return out


def copy_shared(shared: str | Path, destination: str | Path) -> dict[str, BundledSet]:
    """Set up the real data of a shared data folder (``shared``: one holding
    ``mqm/ted``, google/wmt-mqm-human-evaluation's WMT21 TED MQM files) under
    ``destination/mqm_ted`` in the layout of the README's real-data examples
    (:func:`mtpalette.io.mqm_ted.extract_mqm_ted`); an existing ``mqm_ted`` is refused, never
    overwritten. Returns the sets written, by name (``mqm_ted_zhen``, ``mqm_ted_ende``)."""
    from mtpalette.io.mqm_ted import extract_mqm_ted

    target = Path(destination) / "mqm_ted"
    check_shared(shared, destination)
    source = Path(shared) / "mqm" / "ted"
    written = extract_mqm_ted(shared, target)
    pairs = {"zhen": "zh-en", "ende": "en-de"}
    return {
        f"mqm_ted_{lp}": BundledSet(
            f"mqm_ted_{lp}", folder,
            f"real WMT21 TED MQM {pairs[lp]} (google/wmt-mqm-human-evaluation, Apache-2.0; "
            f"from {source / lp}): systems' outputs, ref.txt, source.txt, seg_ids.txt, "
            f"mqm_ted_{lp}.tsv.gz",
        )  # fmt: skip
        for lp, folder in written.items()
    }


def check_shared(shared: str | Path, destination: str | Path) -> None:
    """Refuse before anything is written: a shared folder without the TED MQM files, or a
    destination that has ``mqm_ted`` already."""
    from mtpalette.io.mqm_ted import check_shared as check_files

    check_files(shared)
    target = Path(destination) / "mqm_ted"
    if target.exists():
        raise UserInputError("already there; copy into another folder", path=str(target))
