"""ROUGE-N and ROUGE-L with whitespace tokens (``tok=none``) straight from the text equal the
encoded route, bit for bit: the compiled text route splits as Python's ``str.split()``."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.kernels.rouge_score import text_counts
from mtpalette.metrics.registry import parse_spec
from mtpalette.metrics.scoring import TextPairs, compute_stats

SPECS = ["rouge-n:1", "rouge-n:2", "rouge-l", "rouge-l:beta=2,score=r"]
ALPHABET = list("abcAB") + ["é", "ß", "語", "\u200b"] + [" ", "\t", "\u3000", "\x1c", "\xa0"]
text = st.lists(st.sampled_from(ALPHABET), max_size=14).map("".join)


def test_every_python_space_splits_and_nothing_else_does():
    texts = [f"a{chr(c)}b" for c in range(0x3100) if not 0xD800 <= c < 0xE000]
    counts, _ = text_counts(texts, [texts], (1,), lcs=False, whitespace=True)
    np.testing.assert_array_equal(counts[:, 0, 0, 1], [len(t.split()) for t in texts])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=6))
def test_text_route_equals_encoded_route(pairs):
    hyps = [h for h, _ in pairs]
    refs = [r for _, r in pairs]
    metrics = [m for spec in SPECS for m in parse_spec(spec, tokenize="none")]
    from_text = compute_stats(metrics, TextPairs.parallel(hyps, [refs]))
    encoded = TextPairs.parallel(hyps, [refs])
    encoded.encoded(metrics[0].view())  # encoded already: the route counts ids
    from_ids = compute_stats(metrics, encoded)
    for m in metrics:
        np.testing.assert_array_equal(from_text[m], from_ids[m])
