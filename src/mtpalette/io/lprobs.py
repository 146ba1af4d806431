"""Numbers per candidate, one per line: log-probabilities from the sampler (weighted MBR) or
QE scores (reranking).

The file holds one finite number per line, the log-probability of the candidate on the same
line of the n-best or sample file (the order of its lines, whatever their segment ids). A
line that is not a finite number, a blank line, and a count that differs from the
candidates' are errors naming the file and the line.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.io.tabular import cell_float


def read_lprobs(path: str | Path, n: int, *, what: str = "log-probability") -> np.ndarray:
    """``n`` log-probabilities (or other per-candidate numbers: ``what``, as QE scores),
    float64, one per line of ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "lprobs.txt")
    >>> _ = open(p, "w").write("-1.5\\n-0.25\\n")
    >>> read_lprobs(p, 2).tolist()
    [-1.5, -0.25]
    """
    lines = read_lines(path)
    out = np.empty(len(lines))
    for k, text in enumerate(lines):
        try:
            value = cell_float(text)
        except (TypeError, ValueError):
            value = math.nan
        if not math.isfinite(value):
            raise UserInputError(
                f"{text.strip()[:40]!r} is not a finite {what} (one number per line, one "
                "line per candidate)",
                path=str(path),
                line=k + 1,
            )
        out[k] = value
    if len(out) != n:
        raise UserInputError(
            f"{len(out):,} line(s) for {n:,} candidates: one {what} per candidate, in the "
            "order of the candidates file",
            path=str(path),
        )
    return out
