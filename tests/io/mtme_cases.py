"""Small mt-metrics-eval folders, each a case of MTME's reading rules; built by the tests and by
``scripts/mtme_folder.py small`` (which runs MTME itself on them for
``tests/data/mtme_folder/small_golden.json``). Standard library only: the script runs in
MTME's environment, without mtpalette.

Texts are real: the first three segments of the WMT21 TED zh-en MQM data
(google/wmt-mqm-human-evaluation, ``ted/zhen``), read from the shared data folder
(``$MTPALETTE_SHARED_DATA``, else ``../shared/data`` next to the repository) and never kept in
the repository; a test using them skips where that folder is absent. Human scores are made up
for the cases and say so.
"""

from __future__ import annotations

import csv
import functools
import json
import os
import re
from pathlib import Path

SHARED = Path(
    os.environ.get("MTPALETTE_SHARED_DATA")
    or Path(__file__).resolve().parents[3] / "shared" / "data"
)
TSV = SHARED / "mqm" / "ted" / "zhen" / "mqm_ted_zhen.tsv"
N = 3
SYSTEMS = ("Online-W", "SMU", "MiSS")
DOCS = ("ted talk.2", "ted talk.2", "news talk.5")


@functools.cache
def _texts() -> dict[str, list[str]]:
    """The first ``N`` segments (in seg_id order) of every system and the source, as
    ``scripts/extract_mqm_ted.py`` writes them (MQM's ``<v>`` marks removed)."""
    if not TSV.is_file():
        reason = f"the WMT21 TED MQM data is not at {TSV} (shared data absent)"
        try:
            import pytest  # noqa: PLC0415
        except ImportError:
            raise SystemExit(reason) from None
        pytest.skip(reason)
    by_system: dict[str, dict[int, str]] = {"source": {}}
    with open(TSV, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            seg = int(row["seg_id"])
            target = re.sub(r"</?v>", "", row["target"]).replace("\n", " ")
            by_system.setdefault(row["system"], {}).setdefault(seg, target)
            by_system["source"].setdefault(seg, row["source"])
    first = sorted(by_system["source"])[:N]
    return {name: [segs[k] for k in first] for name, segs in by_system.items()}


def bundled(name: str) -> list[str]:
    """The first ``N`` lines of ``name`` (a system, ``ref``, ``refB`` or ``source``)."""
    return list(_texts()[name])


def write(path: Path, lines) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8")
    return path


def make_folder(
    parent: Path,
    name: str = "myset",
    lp: str = "zh-en",
    *,
    refs=("refA",),
    systems=SYSTEMS,
    human: dict | None = None,
    docs=DOCS,
) -> Path:
    """A test set folder ``parent/name`` with the bundled texts; ``human`` maps file names
    (``mqm.seg``) to ``{system: [scores]}`` (``{system: {domain: score}}`` at domain level)."""
    root = parent / name
    write(root / "sources" / f"{lp}.txt", bundled("source"))
    texts = {"refA": bundled("ref"), "refB": bundled("refB")}
    for ref in refs:
        write(root / "references" / f"{lp}.{ref}.txt", texts.get(ref, bundled("ref")))
        write(root / "system-outputs" / lp / f"{ref}.txt", texts.get(ref, bundled("ref")))
    for s in systems:
        write(root / "system-outputs" / lp / f"{s}.txt", bundled(s))
    if docs is not None:
        write(root / "documents" / f"{lp}.docs", docs)
    for fname, table in (human or {}).items():
        lines = []
        for s, values in table.items():
            if isinstance(values, dict):
                lines += [f"{d} {s} {v}" for d, v in values.items()]
            else:
                lines += [f"{s}\t{v}" for v in values]
        write(root / "human-scores" / f"{lp}.{fname}.score", lines)
    return root


def write_id_metric(root: Path, lp: str, levels=("seg",)) -> list[str]:
    """A source-based metric ``id-src`` whose score is each system's index in the sorted
    outputs: the systems MTME keeps can be read off its Correlation objects."""
    names = sorted(p.name.rsplit(".", 1)[0] for p in (root / "system-outputs" / lp).iterdir())
    n = {"seg": N, "sys": 1, "doc": len(dict.fromkeys(d.split()[1] for d in DOCS))}
    for level in levels:
        lines = [f"{s}\t{k}" for k, s in enumerate(names) for _ in range(n[level])]
        write(root / "metric-scores" / lp / f"id-src.{level}.score", lines)
    return names


MQM = {"mqm.seg": {"Online-W": [-1, "None", -5], "SMU": [0, -2, -1], "refA": [0, 0, "None"]}}
SPAN = {"errors": [{"start": 0, "end": 5, "category": "accuracy", "severity": "major"}]}


def build_jsonl(parent: Path) -> Path:
    """WMT24++'s layout: JSON Lines sources, references and outputs (no human scores)."""
    lp = "en-de_DE"
    root = parent / "wmt24pp"
    src = bundled("source")
    write(root / "sources" / f"{lp}.jsonl", [json.dumps({"source": x}) for x in src])
    for name, text in (("refA", bundled("ref")), ("posteditB", bundled("refB"))):
        write(root / "references" / f"{lp}.{name}.jsonl", [json.dumps({"target": x}) for x in text])
    for s in ("SMU", "MiSS"):
        write(
            root / "system-outputs" / lp / f"{s}.jsonl",
            [
                json.dumps({"hypothesis": x, "source": y})
                for x, y in zip(bundled(s), src, strict=True)
            ],
        )
    write(root / "documents" / f"{lp}.docs", DOCS)
    return root


#: name -> (builder arguments, language pair, MTME configurations: (level, main ref, gold,
#: include_human, include_outliers, close refs)); ``info`` is the MetaInfo a folder MTME
#: does not know needs (std_ref, std_gold)
CASES: dict[str, dict] = {
    "unjudged": {
        "folder": {"human": MQM},
        "lp": "zh-en",
        "info": ("refA", {"seg": "mqm"}),
        "configs": [
            ("seg", "refA", "std", False, False, []),
            ("seg", "refA", "std", True, False, []),
        ],
    },
    "all_none": {
        "folder": {"human": {"mqm.seg": {**MQM["mqm.seg"], "MiSS": ["None"] * N}}},
        "lp": "zh-en",
        "info": ("refA", {"seg": "mqm"}),
        "configs": [("seg", "refA", "std", False, False, [])],
    },
    "refs": {
        "folder": {
            "refs": ("refA", "refB"),
            "human": {"mqm.seg": {**MQM["mqm.seg"], "refB": [-1, -1, 0]}},
        },
        "lp": "zh-en",
        "info": ("refA", {"seg": "mqm"}),
        "configs": [
            ("seg", "refA", "std", False, False, []),
            ("seg", "refA", "std", True, False, []),
            ("seg", "refA", "std", True, False, ["refB"]),
            ("seg", "refB", "std", True, False, []),
        ],
    },
    "outlier": {
        "folder": {
            "name": "wmt24",
            "lp": "en-es",
            "systems": ("Online-W", "SMU", "MiSS"),
            "human": {
                "mqm.seg": {"MiSS": [-9, -9, -9], "SMU": [0, -2, -1], "Online-W": [-1, -1, -1]},
                # MTME checks that the standard scores of every level exist
                "mqm.sys": {"MiSS": [-9], "SMU": [-1], "Online-W": [-1]},
                "mqm.domain": {"MiSS": {"ted": -9}, "SMU": {"ted": -1}, "Online-W": {"news": -1}},
            },
            "rename": {"MiSS": "MSLC"},
        },
        "lp": "en-es",
        "info": None,
        "configs": [
            ("seg", "refA", "std", False, False, []),
            ("seg", "refA", "std", False, True, []),
        ],
    },
    "human12": {
        "folder": {
            "name": "wmt25",
            "lp": "en-cs_CZ",
            "human": {
                "esa-human1.seg": {"SMU": [80, 70, 60], "Online-W": [50, 40, 90]},
                "esa-human1.sys": {"SMU": [70], "Online-W": [60]},
                "esa-human1.domain": {"SMU": {"ted": 75, "news": 60}, "Online-W": {"ted": 45}},
                "esa-human2.seg": {"SMU": [75, "None", 65], "MiSS": [10, 20, 30]},
            },
        },
        "lp": "en-cs_CZ",
        "info": None,
        "configs": [
            ("seg", "refA", "std", False, False, []),
            ("seg", "refA", "esa-human2", False, False, []),
        ],
    },
    "levels": {
        "folder": {
            "human": {
                **MQM,
                "mqm.doc": {"SMU": [-1, -2], "Online-W": [-3, "None"]},
                "mqm.domain": {"SMU": {"ted": -1, "news": -2}, "Online-W": {"news": -4}},
                "mqm.sys": {"SMU": [-1.5], "Online-W": [-3]},
            }
        },
        "lp": "zh-en",
        "info": ("refA", {"seg": "mqm", "doc": "mqm", "sys": "mqm", "domain": "mqm"}),
        "configs": [
            ("seg", "refA", "std", False, False, []),
            ("doc", "refA", "std", False, False, []),
            ("sys", "refA", "std", True, False, []),
        ],
    },
}


def build_case(parent: Path, name: str) -> Path:
    """Build case ``name`` under ``parent`` (ratings added to ``unjudged``)."""
    spec = dict(CASES[name]["folder"])
    rename = spec.pop("rename", {})
    root = make_folder(parent, **spec)
    lp = CASES[name]["lp"]
    for old, new in rename.items():
        (root / "system-outputs" / lp / f"{old}.txt").rename(
            root / "system-outputs" / lp / f"{new}.txt"
        )
        for path in (root / "human-scores").glob("*.score"):
            lines = path.read_text(encoding="utf-8").splitlines()
            write(path, ["\t".join(new if t == old else t for t in x.split()) for x in lines])
    if name == "unjudged":
        lines = [f"SMU\t{json.dumps(SPAN)}\trater1", 'SMU\t{"errors": []}', "SMU\tNone"]
        write(root / "human-scores" / f"{lp}.mqm.merged.seg.rating", lines)
    return root
