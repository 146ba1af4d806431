"""Synonym-aware metrics: ``bleus-syn``, ``rouge-l-syn``, ``rouge-s-syn`` (Yu et al.).

Each candidate is transformed toward each reference by the semantic space transformation of
:mod:`mtpalette.text.synonyms` (exact matches first, then synonyms from Cilin, WordNet or a
table, the candidate word replaced by the reference word), then scored against that
reference by the plain metric (BLEU-S with +1 smoothing, ROUGE-L, ROUGE-S). With several
references the best of the per-reference scores is kept. Options: the plain metric's
(``bleus-syn:4``, ``rouge-s-syn:*``) and ``syn=cilin|wordnet|wordnet:DIR|@table.tsv``
(default ``cilin``; use ``tok=jieba`` for Chinese words). ``sst=types`` (the default) reads
the transformation by word types: a candidate word whose form is in the reference is never
replaced, and a -syn score is never below the plain one against the same reference (tested).
``sst=tokens`` reads it token by token, one-to-one, exact matches first, so a surplus
repetition of a reference word can take a synonym's form ("car car" vs "car vehicle" -> "car
vehicle"); its unigram matches never decrease, but a replaced token can break a longer
n-gram, so BLEU-S-syn can fall below BLEU-S (found on 2 of 300 random 8-word pairs). The
statistics are the plain metric's against each candidate's best reference, so a -syn metric
aggregates as its plain twin: corpus ``bleus-syn`` pools the n-gram counts as corpus
``bleus`` does (without a synonym in play the two are equal), ROUGE averages sentence
scores.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar

import numpy as np

from mtpalette.metrics.base import Metric, TextMetric
from mtpalette.metrics.bleu import BLEUS_SMOOTHING
from mtpalette.metrics.domains import Choice, Integer, Text
from mtpalette.metrics.registry import parse_spec, register
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.text.synonyms import load_synonyms, transform, transform_tokens
from mtpalette.text.tokenizers import get_tokenizer

#: the synonym source: a built-in name or a file
SYNONYMS = Text("a synonym table (cilin, or @file)")
#: how the semantic space transformation reads the candidate: by word types (a form found in
#: the reference is never replaced) or token by token, one-to-one (exact matches first)
SST_READINGS = ("types", "tokens")


class _SynonymMetric(TextMetric):
    base: ClassVar[str]
    base_arg: ClassVar[str | None] = None
    default_arg: ClassVar[str] = ""
    #: options passed on to the plain metric (``bleus-syn:4,smooth=yu``)
    plain_options: ClassVar[tuple[str, ...]] = ()
    #: the options every -syn metric takes (its own add the plain metric's)
    options: ClassVar[dict[str, Any]] = {"syn": SYNONYMS, "sst": Choice(SST_READINGS)}

    def __init__(self, *, syn: str = "cilin", sst: str = "types", **kw: Any) -> None:
        if sst not in SST_READINGS:
            raise ValueError(f"sst must be one of {', '.join(SST_READINGS)}")
        self.sst = sst
        arg = kw.pop(self.base_arg, self.default_arg) if self.base_arg else ""
        self.passed = {k: kw.pop(k) for k in self.plain_options if k in kw}
        super().__init__(**kw)
        self.arg = str(arg) if arg is not None else "*"
        self.syn_spec = syn
        self.synonyms = load_synonyms(syn)
        spec = f"{self.base}:{self.arg}" if self.base_arg else self.base
        spec += "".join(f",{k}={v}" for k, v in self.passed.items())
        [self.plain] = parse_spec(spec, tokenize="none")

    @property
    def higher_is_better(self) -> bool:  # type: ignore[override]
        return True

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {self.base_arg: self.arg} if self.base_arg else {}
        out |= {k: v for k, v in self.plain.params().items() if k in self.passed}
        if self.syn_spec != "cilin":
            out["syn"] = self.syn_spec
        if self.sst != "types":
            out["sst"] = self.sst
        return out

    def signature_fields(self) -> dict[str, Any]:
        return {"syn": self.synonyms.label, "sst": f"exact-then-synonym({self.sst})",
                "multiref": "max"}  # fmt: skip

    def group_key(self) -> Hashable:
        return (self.name, self.spec, self.view())

    @classmethod
    def compute_text(cls, metrics: Sequence[Metric], pairs: Any) -> list[np.ndarray]:
        out = []
        seg = np.asarray(pairs.seg, dtype=np.int64)
        for m in metrics:
            assert isinstance(m, _SynonymMetric)
            tok = get_tokenizer(m.tokenize)

            def words(text: str, tok=tok, m=m) -> list[str]:
                return tok(text.lower() if m.lowercase else text)

            hyp_words = [words(h) for h in pairs.hyps]
            best = np.full(len(pairs.hyps), -np.inf)
            rows: np.ndarray | None = None  # the plain statistics against the best reference
            for stream in pairs.refs:
                ref_words = [None if r is None else words(r) for r in stream]
                keep = np.array([ref_words[s] is not None for s in seg])
                if not keep.any():
                    continue
                idx = np.flatnonzero(keep)
                mapping = transform_tokens if m.sst == "tokens" else transform
                texts = [
                    " ".join(mapping(hyp_words[p], ref_words[seg[p]], m.synonyms)) for p in idx
                ]
                refs = [" ".join(r) if r is not None else None for r in ref_words]
                stats = compute_stats([m.plain], TextPairs(texts, seg[idx], [refs]))[m.plain]
                scores = m.plain.sentence_scores(stats)
                if rows is None:
                    rows = np.zeros((len(pairs.hyps), stats.shape[1]))
                better = scores > best[idx]
                best[idx[better]] = scores[better]
                rows[idx[better]] = stats[better]
            out.append(rows if rows is not None else np.zeros((len(pairs.hyps), 1)))
        return out

    # the statistics are the plain metric's (against each candidate's best reference): the
    # sentence and corpus scores, intervals and tests are the plain metric's, combined as it
    # combines them (corpus_combine as the plain family's: BLEU-S-syn pools n-gram counts)
    corpus_combine: ClassVar[str] = "mean"

    def sentence_scores(self, stats: np.ndarray) -> np.ndarray:
        return np.nan_to_num(np.asarray(self.plain.sentence_scores(stats), dtype=np.float64))

    def corpus_score(self, stats: np.ndarray) -> float:
        return float(self.sentence_scores(stats).mean()) if len(stats) else 0.0

    def corpus_scores_of_sums(self, sums: np.ndarray) -> np.ndarray:
        return self.plain.corpus_scores_of_sums(sums)

    def details(self, stats: np.ndarray) -> dict[str, Any]:
        return self.plain.details(stats)


@register
class BleusSyn(_SynonymMetric):
    """``bleus-syn:4``: smoothed sentence BLEU after synonym matching (BLEUS-syn)."""

    name = "bleus-syn"
    base = "bleus"
    base_arg = "n"
    default_arg = "4"
    positional = "n"
    options: ClassVar[dict[str, Any]] = {
        "n": Integer(1, 20),
        **_SynonymMetric.options,
        "smooth": Choice(BLEUS_SMOOTHING),
    }
    plain_options = ("smooth",)
    scale = "0-100"
    # BLEU-S pools its n-gram counts over the corpus: so does BLEU-S-syn
    corpus_combine: ClassVar[str] = "sum"
    corpus_score = Metric.corpus_score


@register
class RougeLSyn(_SynonymMetric):
    """``rouge-l-syn``: ROUGE-L after synonym matching."""

    name = "rouge-l-syn"
    base = "rouge-l"


@register
class RougeSSyn(_SynonymMetric):
    """``rouge-s-syn:*``: ROUGE-S (skip-bigrams, default no distance limit) after synonym
    matching."""

    name = "rouge-s-syn"
    base = "rouge-s"
    base_arg = "d"
    default_arg = "*"
    positional = "d"
    options: ClassVar[dict[str, Any]] = {
        "d": Integer(0, 1000, special={"*": None}),
        **_SynonymMetric.options,
    }
