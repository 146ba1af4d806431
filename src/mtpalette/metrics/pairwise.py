"""Pairwise scoring: every candidate of a segment against every reference of it.

``pairwise(candidates, references, metric)`` returns, per segment, the matrix of sentence
scores ``[i, j] = metric(candidate i, reference j)`` -- the utility matrix of minimum Bayes
risk decoding (``references=None``: the candidates are their own pseudo-references) and of
reranking against references.

chrF and chrF++ run on a dedicated kernel (:mod:`mtpalette.kernels.pairwise`): each text is
encoded and its character (and word) n-grams are counted once, and a pair costs one AND and
popcount per 64 n-gram occurrences of its segment. Every other metric is scored through
:func:`mtpalette.metrics.scoring.compute_stats` on the flattened pairs (each distinct line
still tokenized once). Segments are processed in blocks, so memory beyond the returned
matrices stays bounded (``block_cells`` statistics rows at a time).

Values equal the metric's own sentence scores (``sentence_scores`` of the pair), which for
chrF equal sacrebleu's ``sentence_chrf``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mtpalette.errors import UserInputError

#: statistics rows (pairs x orders) computed at once: bounds the temporary memory
BLOCK_CELLS = 1 << 22


def _check(candidates, references):
    for name, value in (("candidates", candidates), ("references", references)):
        if isinstance(value, str) or (value is None and name == "candidates"):
            raise UserInputError(f"{name} must be a list of lists of strings (one per segment)")
        if value is not None and not hasattr(value, "__len__"):
            raise UserInputError(f"{name} is {type(value).__name__}; expected a list of lists")
    if references is None:
        references = candidates
    if len(references) != len(candidates):
        raise UserInputError(
            f"{len(candidates):,} segments of candidates but {len(references):,} of references"
        )
    for s, (c, r) in enumerate(zip(candidates, references, strict=True)):
        if isinstance(c, str) or isinstance(r, str):
            raise UserInputError(
                f"segment {s + 1}: expected a list of strings per segment, got a string"
            )
    return [list(c) for c in candidates], [list(r) for r in references]


def pairwise(
    candidates: Sequence[Sequence[str]],
    references: Sequence[Sequence[str]] | None = None,
    metric: str = "chrf",
    *,
    lowercase: bool = False,
    tokenize: str = "13a",
    block_cells: int = BLOCK_CELLS,
) -> np.ndarray | list[np.ndarray]:
    """Sentence scores of every candidate against every reference, segment by segment.

    Parameters
    ----------
    candidates
        Per segment, its candidates (an n-best list, samples, several systems' outputs).
    references
        Per segment, the references to score against; None: the candidates themselves (MBR).
    metric
        One metric spec (``chrf``, ``chrf++``, ``chrf:n=6,beta=2``, ``bleus:4``, ``rouge-l``,
        ``ter``...).
    lowercase, tokenize
        The run-wide text settings, as for :func:`mtpalette.sentence_scores`.
    block_cells
        Statistics rows held at once (memory bound).

    Returns
    -------
    numpy.ndarray or list of numpy.ndarray
        ``(S, N, M)`` float64 when every segment has N candidates and M references, else one
        ``(N_s, M_s)`` matrix per segment.

    Examples
    --------
    >>> m = pairwise([["the cat sat", "a cat sat"]], metric="chrf")
    >>> m.shape, float(m[0, 0, 0])
    ((1, 2, 2), 100.0)
    """
    from mtpalette.metrics import parse_specs
    from mtpalette.metrics.chrf import ChrF

    cands, refs = _check(candidates, references)
    metrics = parse_specs([metric], tokenize=tokenize, lowercase=lowercase)
    if len(metrics) != 1:
        raise UserInputError(f"pairwise takes one metric; {metric!r} names {len(metrics)}")
    (m,) = metrics
    shapes = [(len(c), len(r)) for c, r in zip(cands, refs, strict=True)]
    if isinstance(m, ChrF):
        out = _chrf(m, cands, refs, shapes, block_cells)
    else:
        out = _generic(m, cands, refs, shapes, block_cells)
    if len({s for s in shapes}) == 1 and shapes:
        return np.stack(out)
    return out


def _blocks(shapes: list[tuple[int, int]], per_pair: int, block_cells: int):
    """Consecutive segment ranges of at most ``block_cells`` statistics rows (one segment at
    least)."""
    lo, size = 0, 0
    for s, (n, m) in enumerate(shapes):
        cells = n * m * per_pair
        if size and size + cells > block_cells:
            yield lo, s
            lo, size = s, 0
        size += cells
    if lo < len(shapes):
        yield lo, len(shapes)


def _offsets(counts) -> np.ndarray:
    out = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=out[1:])
    return out


def _chrf(m, cands, refs, shapes, block_cells) -> list[np.ndarray]:
    from mtpalette.kernels.pairwise import pairwise_ngram_stats
    from mtpalette.metrics.chrf import f_scores
    from mtpalette.text.encode import Encoder

    views = [(m.view(), m.n)] + [(v, m.w) for v in m.extra_views()]
    encoders = [Encoder(view) for view, _ in views]
    out: list[np.ndarray] = []
    for lo, hi in _blocks(shapes, m.n + m.w, block_cells):
        flat_c = [c for seg in cands[lo:hi] for c in seg]
        flat_r = [r for seg in refs[lo:hi] for r in seg]
        c_seg = _offsets([len(seg) for seg in cands[lo:hi]])
        r_seg = _offsets([len(seg) for seg in refs[lo:hi]])
        parts = []
        for enc, (_, order) in zip(encoders, views, strict=True):
            if order:
                parts.append(
                    pairwise_ngram_stats(
                        enc.encode(flat_c), c_seg, enc.encode(flat_r), r_seg, order
                    )
                )
        # one F-score call for the block: every segment's pairs as rows (elementwise, so the
        # values are those of a call per segment)
        shapes_lo = shapes[lo:hi]
        orders = sum(p[0].shape[2] for p in parts)
        stats = np.concatenate([
            (np.concatenate([p[s] for p in parts], axis=2) if len(parts) > 1 else parts[0][s])
            .reshape(n * r, orders, 3) for s, (n, r) in enumerate(shapes_lo)
        ])  # fmt: skip
        # as sacrebleu: no candidate n-grams of an order the reference does not have
        stats[..., 0] = np.where(stats[..., 1] > 0, stats[..., 0], 0.0)
        flat = f_scores(stats, m.beta, m.eps)
        ends = np.cumsum([n * r for n, r in shapes_lo])
        out += [x.reshape(shape) for x, shape in zip(np.split(flat, ends[:-1]), shapes_lo,
                                                     strict=True)]  # fmt: skip
    return out


def _generic(m, cands, refs, shapes, block_cells) -> list[np.ndarray]:
    from mtpalette.metrics.scoring import TextPairs, compute_stats

    out: list[np.ndarray] = []
    for lo, hi in _blocks(shapes, 1, block_cells):
        hyps: list[str] = []
        seg: list[int] = []
        ref_row: list[str] = []
        for s in range(lo, hi):
            for r in refs[s]:
                ref_row.append(r)
                hyps += cands[s]
                seg += [len(ref_row) - 1] * len(cands[s])
        if not hyps:
            out += [np.zeros(shapes[s]) for s in range(lo, hi)]
            continue
        pairs = TextPairs(hyps, np.array(seg, dtype=np.int64), [ref_row])
        scores = m.sentence_scores(compute_stats([m], pairs)[m])
        k = 0
        for s in range(lo, hi):
            n, r = shapes[s]
            # laid out reference by reference: (M, N), transposed to (N, M)
            out.append(scores[k : k + n * r].reshape(r, n).T.copy())
            k += n * r
    return out
