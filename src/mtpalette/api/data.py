"""The real data shipped with mtpalette, by name: where it is, what it holds, and a copy of it
in a folder of one's own (for the README's and the documentation's examples).

Examples
--------
>>> sorted(bundled_data())
['mqm_ted_ende', 'mqm_ted_zhen', 'wmt21.tedtalks']
>>> bundled_data()["wmt21.tedtalks"].path.name
'wmt21.tedtalks'
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
    """Every bundled data set by name (see the package's ``data/NOTICE`` for sources and
    licences)."""
    from mtpalette.io.judgments_mqm import bundled_mqm_ted
    from mtpalette.io.mtme import example_folder

    out = {}
    for lp, pair in (("zhen", "zh-en"), ("ende", "en-de")):
        root = bundled_mqm_ted(lp)["judgments"].parent
        refs = "ref.txt, refB.txt" if lp == "zhen" else "ref.txt"
        out[f"mqm_ted_{lp}"] = BundledSet(
            f"mqm_ted_{lp}",
            root,
            f"WMT21 TED talks {pair}, 529 segments: 13 systems' outputs (<system>.txt), "
            f"references {refs}, source.txt, expert MQM ratings (mqm_ted_{lp}.tsv.gz)",
        )
    out["wmt21.tedtalks"] = BundledSet(
        "wmt21.tedtalks",
        example_folder(),
        "an mt-metrics-eval test set folder (en-de, zh-en; 18 segments each; MQM scores "
        "and stored BLEU, sentBLEU, chrF, ROUGE-L): --mtme wmt21.tedtalks --lp zh-en",
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
