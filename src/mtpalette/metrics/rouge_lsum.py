"""ROUGE-Lsum: summary-level LCS over sentences (Lin 2004, section 3.2), as rouge-score's
``rougeLsum``; the shared options and reduction are ROUGE's (:mod:`mtpalette.metrics.rouge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.kernels.rouge_score import MARKER, lsum_per_ref
from mtpalette.metrics.base import Metric, Pairs
from mtpalette.metrics.domains import Choice
from mtpalette.metrics.registry import register
from mtpalette.metrics.rouge import _Rouge
from mtpalette.text.encode import TextView


@register
class RougeLsum(_Rouge):
    """ROUGE-Lsum: summary-level LCS over ``\\n``-separated sentences, as rouge-score's
    ``rougeLsum`` (Lin 2004, section 3.2, with ROUGE-1.5.5's guard against counting a word
    twice).

    For every reference sentence the union of its LCS with each candidate sentence is taken;
    its words are hits while both texts have an unused occurrence left. P = hits / candidate
    words, R = hits / reference words. Empty lines are not sentences. rouge-score's own
    setting is ``rouge-lsum:tok=rouge-score`` (``,stem=yes`` for ``use_stemmer=True``); with
    another tokenizer each sentence is tokenized by it. ``split=nltk`` finds the sentences
    with NLTK's ``sent_tokenize`` instead, as rouge-score's ``split_summaries=True`` does (it
    needs NLTK and its punkt model, which mtpalette does not ship).

    Examples
    --------
    >>> from mtpalette import sentence_scores
    >>> out = sentence_scores(["w1 w2 w6 w7 w8\\nw1 w3 w8 w9 w5"], [["w1 w2 w3 w4 w5"]],
    ...                       ["rouge-lsum:score=r", "rouge-lsum:score=p"], tokenize="none")
    >>> [float(v[0]) for v in out.values()]  # union LCS w1 w2 w3 w5: 4/5 and 4/10
    [0.8, 0.4]
    """

    name = "rouge-lsum"
    rank_rounded = False
    #: reads the text itself, to find the sentence marker's id in its vocabulary
    reads_text: ClassVar[bool] = True
    options: ClassVar[dict[str, Any]] = {**_Rouge.options, "split": Choice(("newline", "nltk"))}

    def __init__(self, *, split: str = "newline", **common: Any) -> None:
        super().__init__(**common)
        self.split = RougeLsum.options["split"].parse(split)

    def params(self) -> dict[str, Any]:
        return {**self._common_params(), **self.non_default(split="newline")}

    def view(self) -> TextView:
        """The text view of the metric's tokenizer, split into sentences."""
        view = super().view()
        return TextView(view.tokenizer + "+sents", view.lowercase)

    @classmethod
    def compute_text(cls, metrics: Sequence[Metric], pairs: Any) -> list[np.ndarray]:
        out = []
        resplit = None
        for m in metrics:
            view = m.view()
            if m.split == "nltk":
                resplit = resplit or _nltk_sentences(pairs)
                texts = resplit
            else:
                texts = pairs
            encoded = texts.encoded(view)
            marker = texts.encoder(view).vocab.ids([MARKER])[0]
            counts = lsum_per_ref(encoded, marker)
            hit, n, ref = counts[:, :, 0], counts[:, :, 1], counts[:, :, 2]
            out.append(m.reduce(hit, n, ref, encoded.present()))
        return out

    def compute(self, pairs: Pairs) -> np.ndarray:
        raise NotImplementedError("rouge-lsum reads raw text: score it through compute_stats")


def _nltk_sentences(pairs: Any) -> Any:
    """``pairs`` with every text re-split into lines by NLTK's ``sent_tokenize``, as
    rouge-score's ``split_summaries=True``: empty sentences dropped, and a newline inside a
    sentence made a space (every tokenizer here splits there anyway)."""
    try:
        import nltk
    except ImportError as exc:
        raise UserInputError("rouge-lsum:split=nltk needs NLTK: pip install nltk") from exc

    def lines(text: str | None) -> str | None:
        if text is None:
            return None
        try:
            sents = nltk.sent_tokenize(text)
        except LookupError as exc:
            raise UserInputError(
                "rouge-lsum:split=nltk needs NLTK's punkt sentence model, which is not "
                "installed: python -m nltk.downloader punkt_tab"
            ) from exc
        return "\n".join(s.replace("\n", " ") for s in sents if s)

    return type(pairs)(
        [lines(h) for h in pairs.hyps],
        pairs.seg,
        [[lines(r) for r in row] for row in pairs.refs],
        pairs.srcs,
    )
