"""The training data of ROSE from judged texts: each rated translation's features and human
score, the preference pairs of ROSE-rank (from scores, or from WMT12's relative rankings) and
the WMT12 rankings read as a judged task.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.segments import SegmentData
from mtpalette.train.rose import FeatureExtractor


def rated_features(data: SegmentData, ex: FeatureExtractor):
    """Features and human scores of every rated translation, with their (system, item)."""
    rated = ~np.isnan(data.human)
    s, i = np.nonzero(rated)
    X = ex(
        [data.hyps[a][b] for a, b in zip(s, i, strict=True)], [[r[b] for r in data.refs] for b in i]
    )
    return X, data.human[rated], s, i


def preference_pairs(y: np.ndarray, item: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices (better, worse) of every pair of translations of one item with different human
    scores.

    Examples
    --------
    >>> preference_pairs(np.array([1.0, 0.0, 0.0, 2.0]), np.array([0, 0, 0, 1]))
    (array([0, 0]), array([1, 2]))
    """
    better, worse = [], []
    for it in np.unique(item):
        idx = np.flatnonzero(item == it)
        for a in range(len(idx)):
            for b in range(a + 1, len(idx)):
                p, q = idx[a], idx[b]
                if y[p] != y[q]:
                    better.append(p if y[p] > y[q] else q)
                    worse.append(q if y[p] > y[q] else p)
    return np.asarray(better, dtype=np.int64), np.asarray(worse, dtype=np.int64)


def rankings_task(
    path: Path, lp: str, refs: list[Path], systems_dir: Path
) -> tuple[SegmentData, tuple[np.ndarray, list[str], list[str]]]:
    """WMT12 relative rankings of ``lp`` with the judged translations: a
    :class:`SegmentData` whose human score of a translation is the share of its strict
    pairwise comparisons it won (ties left out; ROSE-reg's target), and the preference pairs
    ``(line, better, worse)`` themselves (ROSE-rank's training data)."""
    from mtpalette.io.judgments_wmt import read_wmt12_rankings
    from mtpalette.io.plain import read_lines

    rr = read_wmt12_rankings(path, lp)
    pairs = rr.pairs()
    if not len(pairs.line):
        raise UserInputError(f"no strict preference in the {lp} rankings", path=str(path))
    if not systems_dir.is_dir():
        raise UserInputError(f"--systems-dir {systems_dir} is not a folder")
    files = {f.name: f for f in systems_dir.iterdir() if f.is_file()}
    systems = sorted(set(pairs.better) | set(pairs.worse))
    found: dict[str, Path] = {}
    for name in systems:
        hits = [f for n, f in files.items() if n == name or n.endswith("." + name)]
        if len(hits) == 1:
            found[name] = hits[0]
    missing = [x for x in systems if x not in found]
    if missing:
        raise UserInputError(
            f"no single output file in {systems_dir} for the judged system(s) "
            f"{', '.join(missing)} (expected a name ending in .SYSTEM)"
        )
    ref_lines = [read_lines(p) for p in refs]
    outs = {x: read_lines(found[x]) for x in systems}
    lines = sorted(set(pairs.line.tolist()))
    n_lines = len(ref_lines[0])
    if lines[-1] >= n_lines or any(len(o) != n_lines for o in outs.values()):
        raise UserInputError(
            f"the rankings reach line {lines[-1] + 1}; references and outputs must all have "
            f"the same number of lines (the reference has {n_lines})"
        )
    row = {x: k for k, x in enumerate(systems)}
    col = {line: k for k, line in enumerate(lines)}
    wins = np.zeros((len(systems), len(lines)))
    seen = np.zeros((len(systems), len(lines)))
    for line, b, w in zip(pairs.line.tolist(), pairs.better, pairs.worse, strict=True):
        wins[row[b], col[line]] += 1
        seen[row[b], col[line]] += 1
        seen[row[w], col[line]] += 1
    human = np.where(seen > 0, wins / np.where(seen > 0, seen, 1), np.nan)
    data = SegmentData(
        systems,
        human,
        [[outs[x][i] for i in lines] for x in systems],
        [[r[i] for i in lines] for r in ref_lines],
        lines,
        {"format": "wmt12-rr"},
    )
    return data, (pairs.line, pairs.better, pairs.worse)


def pairs_in(data: SegmentData, prefs) -> tuple[np.ndarray, np.ndarray]:
    """Flat indices (into :func:`rated_features` rows) of the better and worse translation of
    every preference pair whose segment is in ``data``."""
    rated = ~np.isnan(data.human)
    s, i = np.nonzero(rated)
    index = {(int(a), int(b)): k for k, (a, b) in enumerate(zip(s, i, strict=True))}
    row = {x: k for k, x in enumerate(data.systems)}
    col = {int(line): k for k, line in enumerate(data.items)}
    better, worse = [], []
    for line, b, w in zip(*prefs, strict=True):
        c = col.get(int(line))
        if c is not None:
            better.append(index[(row[b], c)])
            worse.append(index[(row[w], c)])
    return np.asarray(better, dtype=np.int64), np.asarray(worse, dtype=np.int64)
