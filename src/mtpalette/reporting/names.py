"""Names the report and the runs give things, taken from the data: references (``ref``,
``refB``; ``A``, ``B`` of WMT's files), report labels of references (A, B, ...) and data sets
(the bundled set, a test set's name, or the first folder that is not a generic one such as
``references``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: folder names that say nothing about the data (a label goes one folder up)
_GENERIC_FOLDERS = {
    "references", "reference", "refs", "ref", "data", "txt", "text", "outputs", "output",
    "system-outputs", "systems", "hyps", "hypotheses", "tmp", "temp", "",
}  # fmt: skip


def reference_names(paths: Sequence[str]) -> list[str]:
    """Names of the references from their files: the stems without the dotted parts they all
    share (``newstest2021.de-en.ref.A.en`` and ``...ref.B.en`` are ``A`` and ``B``), else the
    stems (``ref``, ``refB``).

    Examples
    --------
    >>> reference_names(["/d/ref.txt", "/d/refB.txt"])
    ['ref', 'refB']
    >>> reference_names(["t/newstest2021.de-en.ref.A.en", "t/newstest2021.de-en.ref.B.en"])
    ['A', 'B']
    """
    names = [Path(str(p)).name for p in paths]
    parts = [n.split(".") for n in names]
    if len(parts) > 1 and len({len(p) for p in parts}) == 1:
        keep = [k for k in range(len(parts[0])) if len({p[k] for p in parts}) > 1]
        short = [".".join(p[k] for k in keep) for p in parts]
        if keep and len(set(short)) == len(short):
            return short
    stems = [Path(n).stem for n in names]
    return stems if len(set(stems)) == len(stems) else names


def ref_label(k: int) -> str:
    """The name of reference ``k`` in the report: A, B, ..., Z, R27, ...

    Examples
    --------
    >>> ref_label(0), ref_label(1), ref_label(26)
    ('A', 'B', 'R27')
    """
    return chr(ord("A") + k) if k < 26 else f"R{k + 1}"


#: where the package's example data (invented by the project) lies, in a path
_EXAMPLE = "mtpalette/data/example/"


def dataset_label(run: dict[str, Any], path: Path | None) -> str:
    """A short name of a run's data set: the bundled set, or the folder of its first
    reference (or judgments) file, else the run file's folder.

    Examples
    --------
    >>> dataset_label({"inputs": {"refs": [{"path": "/d/wmt21/zhen/ref.txt"}]}}, None)
    'zhen'
    >>> dataset_label({"inputs": {"bundled": "zhen"}}, None)
    'zhen, invented example'
    >>> ref = "/x/mtpalette/data/example/mqm/zhen/ref.txt"
    >>> dataset_label({"inputs": {"refs": [{"path": ref}]}}, None)
    'zhen, invented example'
    >>> ref = "/d/wmt21/txt/references/newstest2021.de-en.ref.A.en"
    >>> dataset_label({"inputs": {"refs": [{"path": ref}]}}, None)
    'newstest2021 de-en'
    >>> dataset_label({"inputs": {"refs": [{"path": "/d/wmt21/references/ref.txt"}]}}, None)
    'wmt21'
    """
    ins = run.get("inputs") or {}
    if ins.get("bundled"):  # the package's example data, which the project invented
        return f"{ins['bundled']}, invented example"
    for key in ("refs", "judgments"):
        value = ins.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = value[0]
        if isinstance(value, dict) and value.get("path"):
            p = Path(value["path"])
            found = _TESTSET.search(p.name)
            if found:  # WMT's naming: newstest2021.de-en.ref.A.en
                return f"{found.group(1)} {found.group(2)}"
            invented = ", invented example" if _EXAMPLE in p.as_posix() else ""
            for folder in p.parents:
                if folder.name.lower() not in _GENERIC_FOLDERS:
                    return folder.name + invented
            return p.stem + invented
    return path.parent.name if path is not None else "run"


def ref_paths(run: dict[str, Any]) -> list[str]:
    # file records, or the reference names of an mt-metrics-eval folder (--mtme)
    refs = (run.get("inputs") or {}).get("refs") or []
    return [r["path"] if isinstance(r, dict) else str(r) for r in refs]


def agreement_named(agreement: dict[str, Any] | None, ref_paths: Sequence[str]):
    """The reference agreement with the references named from the data (``ref``, ``refB``)
    where a run recorded their file names (``ref.txt``).

    Examples
    --------
    >>> ag = {"references": ["ref.txt", "refB.txt"], "warnings": [],
    ...       "rows": [{"reference": "ref.txt", "against": ["refB.txt"]}]}
    >>> agreement_named(ag, ["/d/ref.txt", "/d/refB.txt"])["rows"]
    [{'reference': 'ref', 'against': ['refB']}]
    """
    if not agreement or not ref_paths:
        return agreement
    names = dict(zip([Path(p).name for p in ref_paths], reference_names(ref_paths), strict=True))
    rows = [
        {**r, "reference": names.get(r["reference"], r["reference"]),
         "against": [names.get(a, a) for a in r.get("against", [])]}
        for r in agreement.get("rows", [])
    ]  # fmt: skip
    refs = [names.get(n, n) for n in agreement.get("references", [])]
    return {**agreement, "rows": rows, "references": refs}


def run_title(run: dict[str, Any], human_name: str = "human") -> str:
    """What a run is, in words, for its section's title and the menu.

    Examples
    --------
    >>> run_title({"kind": "correlate", "settings": {"level": "segment,system"}}, "MQM")
    'correlation with MQM, segment and system level'
    >>> run_title({"kind": "orange", "settings": {"oracle": "leave-one-out"},
    ...            "inputs": {"candidates": {"kind": "nbest"}}})
    'ORANGE of n-best lists, leave-one-out'
    """
    kind = run.get("kind", "")
    settings = run.get("settings") or {}
    if kind == "correlate":
        levels = [x for x in str(settings.get("level", "segment")).split(",") if x]
        return f"correlation with {human_name}, {' and '.join(levels)} level"
    if kind == "orange":
        lists = ((run.get("inputs") or {}).get("candidates") or {}).get("kind")
        what = {"nbest": "n-best lists", "systems": "system outputs"}.get(lists, "candidates")
        return f"ORANGE of {what}, {settings.get('oracle', 'leave-one-out')}"
    titles = {
        "audit": "audit of ORANGE's premise",
        "rank": "systems ranked, every pair tested",
        "analyze": "where systems differ (compare-mt's analyses)",
        "spans": "error-span annotators against gold spans",
    }
    return titles.get(kind, kind)


_TESTSET = re.compile(r"^([A-Za-z]+\d{2,4})\.([a-z]{2,3}-[a-z]{2,3})\.")
