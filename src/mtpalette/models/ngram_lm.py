"""An interpolated Kneser-Ney n-gram language model (Chen and Goodman, 1999), written here.

No maintained pure-Python n-gram LM installs offline from PyPI without a compiler toolchain
(``kenlm`` builds C++; NLTK's ``nltk.lm`` computes every probability in Python and is much
slower), and the model is small, so it is written here: counts in dictionaries, absolute
discounting with one discount per order (D = n1 / (n1 + 2 n2), kept in [0.05, 0.95]),
continuation counts for the
lower orders, interpolation down to a uniform distribution over the vocabulary plus ``</s>``
and ``<unk>``. Sentences are padded with ``<s>`` and closed with ``</s>``.

For any context the probabilities of all words of the vocabulary, ``</s>`` and ``<unk>`` sum
to 1 (tested).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence

BOS, EOS, UNK = "<s>", "</s>", "<unk>"


class KneserNeyLM:
    """Interpolated modified-free Kneser-Ney LM of order ``order``.

    Examples
    --------
    >>> lm = KneserNeyLM.train([["a", "b"], ["a", "c"]], order=2)
    >>> round(sum(lm.prob(w, ("a",)) for w in lm.events()), 12)
    1.0
    """

    def __init__(self, order: int) -> None:
        if order < 1:
            raise ValueError("the order must be at least 1")
        self.order = order
        self.vocab: set[str] = set()
        # counts[k]: Counter of k+1-grams (highest order: raw counts; lower: continuation)
        self.counts: list[Counter] = [Counter() for _ in range(order)]
        self.context_total: list[Counter] = [Counter() for _ in range(order)]
        self.context_types: list[Counter] = [Counter() for _ in range(order)]
        self.discount: list[float] = [0.75] * order

    @classmethod
    def train(cls, sentences: Iterable[Sequence[str]], *, order: int = 4) -> KneserNeyLM:
        lm = cls(order)
        highest: Counter = Counter()
        for sent in sentences:
            words = [BOS] * (order - 1) + list(sent) + [EOS]
            lm.vocab.update(sent)
            for i in range(order - 1, len(words)):
                highest[tuple(words[i - order + 1 : i + 1])] += 1
        lm.counts[order - 1] = highest
        # continuation counts: N1+(. w_{i-k+1..i}) for each lower order
        for k in range(order - 1, 0, -1):
            cont: Counter = Counter()
            for gram in lm.counts[k]:
                cont[gram[1:]] += 1
            lm.counts[k - 1] = cont
        for k in range(order):
            n1 = sum(1 for c in lm.counts[k].values() if c == 1)
            n2 = sum(1 for c in lm.counts[k].values() if c == 2)
            d = n1 / (n1 + 2 * n2) if n1 + 2 * n2 > 0 else 0.5
            # kept inside (0, 1): a zero discount would leave no mass for unseen words
            lm.discount[k] = min(max(d, 0.05), 0.95)
            for gram, c in lm.counts[k].items():
                lm.context_total[k][gram[:-1]] += c
                lm.context_types[k][gram[:-1]] += 1
        return lm

    def events(self) -> list[str]:
        """Every word the model predicts: the vocabulary, ``</s>`` and ``<unk>``."""
        return sorted(self.vocab) + [EOS, UNK]

    def prob(self, word: str, context: Sequence[str]) -> float:
        """P(word | the last order-1 words of context)."""
        if word not in self.vocab and word != EOS:
            word = UNK
        ctx = tuple(w if (w in self.vocab or w == BOS) else UNK for w in context)
        ctx = ((BOS,) * (self.order - 1) + ctx)[-(self.order - 1) :] if self.order > 1 else ()
        p = 1.0 / (len(self.vocab) + 2)  # uniform over the vocabulary, </s> and <unk>
        for k in range(self.order):
            c = ctx[len(ctx) - k :] if k else ()
            total = self.context_total[k].get(c, 0)
            if total == 0:
                continue
            d = self.discount[k]
            count = self.counts[k].get(c + (word,), 0)
            backoff = d * self.context_types[k][c] / total
            p = max(count - d, 0.0) / total + backoff * p
        return p

    def logprob(self, sentence: Sequence[str]) -> float:
        """Natural log-probability of a whole sentence, ``</s>`` included."""
        words = list(sentence) + [EOS]
        out = 0.0
        for i, w in enumerate(words):
            out += math.log(self.prob(w, words[max(0, i - self.order + 1) : i]))
        return out

    def per_word_logprob(self, sentence: Sequence[str]) -> float:
        return self.logprob(sentence) / (len(sentence) + 1)


def vocabulary_mass(lm: KneserNeyLM, context: Sequence[str]) -> float:
    """The sum of P(w | context) over every event: 1 for a proper distribution."""
    return sum(lm.prob(w, context) for w in lm.events())
