"""ROUGE as rouge-score computes it, from raw text, whole batches in one compiled call.

:func:`rouge_score_batch` takes rouge-score's names (``rouge1`` .. ``rouge9``, ``rougeL``,
``rougeLsum``) and options (``use_stemmer``) and returns, per name, one ``[precision, recall,
fmeasure]`` row per prediction, equal to rouge-score's ``RougeScorer.score`` (one target per
prediction) or ``score_multi`` (several: the target with the highest F-measure, the first on
ties). ROUGE-N and ROUGE-L run straight from text in the Rust core (each string object
tokenized once, so a reference repeated for several predictions costs one, the pairs in
parallel, the GIL released); ``rougeLsum`` runs through the
``rouge-lsum`` metric. :func:`specs_for` names the mtpalette metrics that give the same
numbers through :func:`mtpalette.sentence_scores` and the command line.

References
----------
google-research/google-research ``rouge/rouge_scorer.py`` (rouge-score 0.1.2).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.kernels.rouge_score import text_counts
from mtpalette.metrics.rouge import f_measure
from mtpalette.text.rouge_score_tok import warn_lost_letters

_NGRAM = re.compile(r"rouge([0-9])$")


def specs_for(
    rouge_types: Sequence[str], *, use_stemmer: bool = False, split_summaries: bool = False
) -> list[str]:
    """The mtpalette spec of each rouge-score type name (rouge-score's own rules: ``rouge1``
    to ``rouge9``, ``rougeL``, ``rougeLsum``; others are refused as rouge-score refuses them).
    ``split_summaries``: ``rougeLsum`` finds sentences with NLTK (``split=nltk``).

    Examples
    --------
    >>> specs_for(["rouge1", "rougeLsum"], use_stemmer=True)
    ['rouge-n:1,tok=rouge-score,stem=yes', 'rouge-lsum:tok=rouge-score,stem=yes']
    >>> specs_for(["rougeLsum"], split_summaries=True)
    ['rouge-lsum:tok=rouge-score,split=nltk']
    """
    stem = ",stem=yes" if use_stemmer else ""
    split = ",split=nltk" if split_summaries else ""
    out = []
    for t in rouge_types:
        m = _NGRAM.match(t)
        if m and int(m.group(1)) > 0:
            out.append(f"rouge-n:{m.group(1)},tok=rouge-score{stem}")
        elif t == "rougeL":
            out.append(f"rouge-l:tok=rouge-score{stem}")
        elif t == "rougeLsum":
            out.append(f"rouge-lsum:tok=rouge-score{stem}{split}")
        else:
            raise UserInputError(
                f"invalid rouge type {t!r}: rouge-score names are rouge1 .. rouge9, rougeL "
                "and rougeLsum"
            )
    return out


def _prf(counts: np.ndarray) -> np.ndarray:
    """``[hits, candidate total, reference total]`` -> ``[P, R, F]`` as rouge-score: the
    totals floored at 1 (n-grams) or 0 giving 0 (LCS), which agree since hits are 0 then."""
    hits, cand, ref = counts[..., 0], counts[..., 1], counts[..., 2]
    p = hits / np.maximum(cand, 1)
    r = hits / np.maximum(ref, 1)
    return np.stack([p, r, f_measure(p, r, 1.0)], axis=-1)


def rouge_score_batch(
    predictions: Sequence[str],
    targets: Sequence[str] | Sequence[Sequence[str]],
    rouge_types: Sequence[str] = ("rouge1", "rouge2", "rougeL"),
    *,
    use_stemmer: bool = False,
    split_summaries: bool = False,
) -> dict[str, np.ndarray]:
    """rouge-score's scores of every (prediction, target) pair: ``{type: (n, 3) array of
    [precision, recall, fmeasure]}``.

    ``targets[i]`` is the target of prediction ``i``, or a list of targets (rouge-score's
    ``score_multi``: the one with the best F-measure per type). Warns
    (:class:`~mtpalette.text.rouge_score_tok.LostLettersWarning`) when texts lost most of
    their letters to rouge-score's ``[a-z0-9]`` tokenizer.

    Examples
    --------
    >>> out = rouge_score_batch(["text first"], [["first text", "first something"]])
    >>> [float(out[t][0, 2]) for t in ("rouge1", "rouge2", "rougeL")]
    [1.0, 0.0, 0.5]
    """
    specs = specs_for(rouge_types, use_stemmer=use_stemmer, split_summaries=split_summaries)
    predictions = list(predictions)
    targets = list(targets)
    if len(targets) != len(predictions):
        raise UserInputError(
            f"{len(predictions):,} predictions but {len(targets):,} targets: one each expected"
        )
    if set(map(type, targets)) <= {str}:  # one target each (the common case, no loop)
        refs: list[list[str | None]] = [targets]
    else:
        multi = [t if not isinstance(t, str) else [t] for t in targets]
        n_refs = max((len(t) for t in multi), default=0)
        if any(not t for t in multi):
            raise UserInputError("every prediction needs at least one target")
        refs = [[t[k] if k < len(t) else None for t in multi] for k in range(n_refs)]
    orders = sorted({int(t[5:]) for t in rouge_types if _NGRAM.match(t)})
    want_l = "rougeL" in rouge_types
    out: dict[str, np.ndarray] = {}
    if orders or want_l:
        counts, letters = text_counts(predictions, refs, orders, lcs=want_l, stem=use_stemmer)
        texts = predictions + [r for row in refs for r in row]
        warn_lost_letters(texts, letters[:, 0], letters[:, 1])
        prf = _prf(counts)  # (P, R, width, 3)
        names = [f"rouge{n}" for n in orders] + (["rougeL"] if want_l else [])
        if len(refs) == 1:
            for j, name in enumerate(names):
                out[name] = prf[:, 0, j, :].copy()
        else:
            present = np.array([[r is not None for r in row] for row in refs]).T  # (P, R)
            for j, name in enumerate(names):
                f = np.where(present, prf[:, :, j, 2], -np.inf)
                best = np.argmax(f, axis=1)
                out[name] = prf[np.arange(len(best)), best, j, :]
    if "rougeLsum" in rouge_types:
        from mtpalette.metrics.registry import parse_specs
        from mtpalette.metrics.scoring import TextPairs, compute_stats

        (lsum,) = parse_specs([s for s in specs if s.startswith("rouge-lsum")])
        stats = compute_stats([lsum], TextPairs.parallel(list(predictions), refs))[lsum]
        out["rougeLsum"] = stats[:, :3]  # the [P, R, F] row of the best reference
    return {t: out[t] for t in rouge_types}
