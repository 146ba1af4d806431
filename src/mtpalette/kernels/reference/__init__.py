"""Slow twins of the kernels: obviously-correct plain Python (or numpy), one module per
kernel family, named like the wrapper module they check (``reference/ngram.py`` for
``kernels/ngram.py``). They exist for the tests (``tests/kernels``), which compare every
wrapper with its twin on generated inputs; nothing in the library calls them.

Twins that live elsewhere, because they are the library's own definitions: the per-line
tokenizers of :mod:`mtpalette.text.tokenizers` for :mod:`mtpalette.kernels.tokenize`;
``bleu_from_stats`` (:mod:`mtpalette.metrics.bleu`) and ``NIST.score_row``
(:mod:`mtpalette.metrics.nist`) for :func:`mtpalette.kernels.scores.bleu_rows` and
:func:`~mtpalette.kernels.scores.nist_rows`.
"""
