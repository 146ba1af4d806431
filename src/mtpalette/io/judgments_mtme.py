"""Segment-level human scores of an mt-metrics-eval score file (format ``mtme-seg``), read
alone; a whole test set folder is read by :func:`mtpalette.io.mtme.read_mtme`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.judgments import Judgments
from mtpalette.io.mtme_files import read_score_file
from mtpalette.io.plain import read_lines


def read_mtme_seg_scores(path: str | Path, *, n_segments: int | None = None) -> Judgments:
    """Segment-level human scores of an mt-metrics-eval ``<lp>.<name>.seg.score`` file.

    Each system's block is its segments in text order (``None``: not rated); every block
    must have ``n_segments`` lines (the source's length). When not given and the file sits in
    a test set folder (``human-scores/LP.NAME.seg.score`` beside ``sources/LP.txt``), it is
    the source's line count; otherwise every block must have the same number of lines. Items
    are line numbers from 1. A whole test set folder is read by
    :func:`mtpalette.io.mtme.read_mtme`.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "en-de.mqm.seg.score")
    >>> _ = open(p, "w").write("A\\t-1.5\\nA\\tNone\\nB\\t0\\nB\\t-2\\n")
    >>> j = read_mtme_seg_scores(p)
    >>> j.systems, j.items, j.scores.tolist()
    (['A', 'B'], [1, 2], [[-1.5, nan], [0.0, -2.0]])
    """
    name = str(path)
    lines = read_score_file(path, level="seg")
    if n_segments is None:
        n_segments = _mtme_source_length(Path(path))
    if not lines.scores:
        raise UserInputError("no judgments in the file", path=name)
    counts = {len(v) for v in lines.scores.values()}
    if n_segments is not None:
        for system, values in lines.scores.items():
            if len(values) != n_segments:
                raise lines.count_error(system, n_segments, "one per segment of the source")
    elif len(counts) != 1:
        raise UserInputError(
            f"systems have different numbers of segments ({', '.join(map(str, sorted(counts)))})",
            path=name,
        )
    n = len(next(iter(lines.scores.values())))
    scores = np.array(list(lines.scores.values()), dtype=np.float64)
    return Judgments(
        list(lines.scores), list(range(1, n + 1)), scores, "mtme-seg", name, item_base=1
    )


def _mtme_source_length(path: Path) -> int | None:
    """The line count of the source beside an MTME human-score file, or None."""
    if path.parent.name != "human-scores":
        return None
    lp = path.name.split(".")[0]
    source = path.parent.parent / "sources" / f"{lp}.txt"
    if not source.is_file():
        source = source.with_suffix(".jsonl")
    return len(read_lines(source, allow_empty=True)) if source.is_file() else None
