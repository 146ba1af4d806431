"""Data in mt-metrics-eval's layout (google-research/mt-metrics-eval, its ``mt-metrics-eval-v2``
folders), so that its users point mtpalette at the data they already have::

    wmt22/
      human-scores/en-de.mqm.seg.score     system<TAB>score, each system's segments in order
      references/en-de.refA.txt            one segment per line
      sources/en-de.txt
      system-outputs/en-de/<system>.txt    one file per system (human translations included)

A ``.seg.score`` file lists, for every system, one line per segment of the test set in text
order (``None`` where the segment was not rated), so a system's ``i``-th line is the judgment
of line ``i`` of every text file: the ids are line numbers. System outputs named like a
reference (``refA.txt``) are the reference itself and are left out of the systems; other
human translations stay, as in mt-metrics-eval with ``include_human``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError, shortened
from mtpalette.io.plain import read_lines


def read_mtme_seg_scores(path: str | Path):
    """Segment-level human scores of an mt-metrics-eval ``<lp>.<name>.seg.score`` file.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.score")
    >>> _ = open(p, "w").write("A\\t-1.5\\nA\\tNone\\nB\\t0\\nB\\t-2\\n")
    >>> j = read_mtme_seg_scores(p)
    >>> j.systems, j.items, j.scores.tolist()
    (['A', 'B'], [1, 2], [[-1.5, nan], [0.0, -2.0]])
    """
    from mtpalette.io.judgments import Judgments

    name = str(path)
    rows: dict[str, list[float]] = {}
    for line, text in enumerate(read_lines(path), start=1):
        fields = text.split("\t")
        if len(fields) != 2 or not fields[0].strip():
            raise UserInputError(
                f"expected 'system<TAB>score', found {len(fields)} field(s)", path=name, line=line
            )
        rows.setdefault(fields[0].strip(), []).append(_score(fields[1], name, line))
    counts = {len(v) for v in rows.values()}
    if len(counts) != 1:
        raise UserInputError(
            f"systems have different numbers of segments ({', '.join(map(str, sorted(counts)))})",
            path=name,
        )
    (n,) = counts
    scores = np.array(list(rows.values()), dtype=np.float64)
    return Judgments(list(rows), list(range(1, n + 1)), scores, "mtme-seg", name, item_base=1)


def _score(text: str, path: str, line: int) -> float:
    text = text.strip()
    if text == "None":
        return float("nan")
    try:
        value = float(text)
    except ValueError:
        raise UserInputError(
            f"score {shortened(text)!r} is not a number (or None)", path=path, line=line
        ) from None
    if not np.isfinite(value):
        raise UserInputError(f"score {shortened(text)!r} is not finite", path=path, line=line)
    return value


def mtme_paths(root: str | Path, lp: str | None, human: str | None, ref: str) -> dict[str, Any]:
    """The files of one language pair of an mt-metrics-eval test set folder.

    Returns ``judgments`` (``human-scores/<lp>.<human>.seg.score``; None when ``human`` is
    None), ``refs`` (``[references/<lp>.<ref>.txt]``), ``systems`` (the outputs of
    ``system-outputs/<lp>/`` except the reference itself), ``source`` (or None).
    """
    root = Path(root)
    if lp is None:
        raise UserInputError("--mtme needs the language pair: --lp en-de")
    if not (root / "system-outputs").is_dir():
        raise UserInputError(
            "not an mt-metrics-eval test set folder (no system-outputs/); give e.g. "
            "~/.mt-metrics-eval/mt-metrics-eval-v2/wmt22",
            path=str(root),
        )
    judgments = None if human is None else root / "human-scores" / f"{lp}.{human}.seg.score"
    reference = root / "references" / f"{lp}.{ref}.txt"
    for path, what in ((judgments, f"--human {human}"), (reference, f"--mtme-ref {ref}")):
        if path is not None and not path.is_file():
            have = sorted(p.name for p in path.parent.glob(f"{lp}.*"))
            raise UserInputError(
                f"no such file for {what}; the folder has: {', '.join(have) or 'nothing'}",
                path=str(path),
            )
    outputs = root / "system-outputs" / lp
    systems = sorted(p for p in outputs.glob("*.txt") if p.stem != ref)
    if not systems:
        raise UserInputError("no system output", path=str(outputs))
    source = root / "sources" / f"{lp}.txt"
    return {
        "judgments": judgments,
        "refs": [reference],
        "systems": systems,
        "source": source if source.is_file() else None,
    }
