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


def dataset_label(run: dict[str, Any], path: Path | None) -> str:
    """A short name of a run's data set: the bundled set, or the folder of its first
    reference (or judgments) file, else the run file's folder.

    Examples
    --------
    >>> dataset_label({"inputs": {"refs": [{"path": "/d/wmt21/zhen/ref.txt"}]}}, None)
    'zhen'
    >>> ref = "/d/wmt21/txt/references/newstest2021.de-en.ref.A.en"
    >>> dataset_label({"inputs": {"refs": [{"path": ref}]}}, None)
    'newstest2021 de-en'
    >>> dataset_label({"inputs": {"refs": [{"path": "/d/wmt21/references/ref.txt"}]}}, None)
    'wmt21'
    """
    ins = run.get("inputs") or {}
    if ins.get("bundled"):
        return str(ins["bundled"])
    for key in ("refs", "judgments"):
        value = ins.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = value[0]
        if isinstance(value, dict) and value.get("path"):
            p = Path(value["path"])
            found = _TESTSET.search(p.name)
            if found:  # WMT's naming: newstest2021.de-en.ref.A.en
                return f"{found.group(1)} {found.group(2)}"
            for folder in p.parents:
                if folder.name.lower() not in _GENERIC_FOLDERS:
                    return folder.name
            return p.stem
    return path.parent.name if path is not None else "run"


_TESTSET = re.compile(r"^([A-Za-z]+\d{2,4})\.([a-z]{2,3}-[a-z]{2,3})\.")
