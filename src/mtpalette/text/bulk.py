"""Tokenize many lines at once in the Rust core: ``13a``, ``intl``, ``none`` and ``char``.

The compiled kernel (:func:`mtpalette.kernels.tokenize.encode_text`) reads the Python
strings themselves (UTF-8, borrowed), applies the tokenizer's rules to every line, blocks of
lines in parallel, and numbers the tokens among the batch's distinct tokens; only those are
interned into the exact :class:`~mtpalette.text.vocab.Vocabulary`, in order of first
occurrence, so the ids are those of interning every token. A line with a lone surrogate
(not UTF-8) takes the older route: all lines concatenated into one UTF-32 code point array
for :func:`mtpalette.kernels.tokenize.tokenize_lines`, which interns every token span. Either
way the result equals the per-line tokenizers of :mod:`mtpalette.text.tokenizers` (which
equal sacrebleu's) token for token; tests check this on real and generated text.

How each rule is reproduced exactly:

* lower-casing and ``rstrip`` are Python's own, applied line by line first;
* 13a's string replacements (``<skipped>``, ``-\\n``, ``\\n``, then the HTML entities) are
  ``str.replace`` passes: leftmost match first, scanning on behind each match;
* each regular-expression substitution of 13a and intl matches two fixed characters (or one);
  ``re.sub`` scans left to right and after a match resumes behind it. The kernel does the
  same scan over the line, with character classes from lookup tables built once from Python's
  ``re`` (``\\s``, which is ``str.isspace``) and the ``regex`` module (``\\p{P}``, ``\\p{N}``,
  ``\\p{S}``), the very engines sacrebleu uses;
* the final split is on ``str.isspace`` characters, as ``str.split()``.

References
----------
sacrebleu ``tokenizers/tokenizer_13a.py``, ``tokenizer_re.py``, ``tokenizer_intl.py``,
``tokenizer_char.py`` (Post, 2018); mteval-v13a.pl, mteval-v14.pl.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from mtpalette.kernels.tokenize import char_ids, encode_text, tokenize_lines
from mtpalette.kernels.vocab import to_vocab_ids
from mtpalette.text.vocab import Vocabulary

# character classes, one bit each in the table of :func:`char_flags`
SPACE, SPLIT_13A, PERIOD_COMMA, DIGIT, DASH, REPLACE_13A = 1, 2, 4, 8, 16, 32
PUNCT, NUMBER, SYMBOL = 64, 128, 256
#: kernel modes, by tokenizer name
MODES = {"none": 0, "char": 1, "13a": 2, "intl": 3}
#: mteval-v13a's always-split class, sacrebleu's ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``
CLASS_13A = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_N_CODEPOINTS = 0x110000
#: every code point ``str.isspace`` holds for lies below this one (U+3000, the ideographic
#: space, is the last): 12,289 checks instead of a scan of all 1,114,112 code points, which
#: cost every command-line start about 25 ms (the test of this table scans them all)
_SPACE_END = 0x3001
#: characters per compiled call: bounds the temporary arrays
_BLOCK_CHARS = 1 << 20
#: below this many characters a block is tokenized in one thread
_PARALLEL_MIN_CHARS = 50000
#: below this many lines, :func:`encode_text` runs in one thread
PARALLEL_MIN_LINES = 500


@lru_cache(maxsize=2)
def char_flags(unicode_classes: bool) -> np.ndarray:
    """uint16 class bits for every code point.

    SPACE is ``str.isspace`` (Python's ``re`` ``\\s``); SPLIT_13A, PERIOD_COMMA, DIGIT
    (``[0-9]``), DASH and REPLACE_13A (``<``, ``&``, newline: a replacement may apply) serve
    13a; with ``unicode_classes`` also PUNCT, NUMBER and SYMBOL, the ``regex`` module's
    ``\\p{P}``, ``\\p{N}`` and ``\\p{S}``, for intl.

    Examples
    --------
    >>> f = char_flags(True)
    >>> [int(f[ord(c)]) == bits for c, bits in [(" ", SPACE | SPLIT_13A),
    ...     (",", PERIOD_COMMA | PUNCT), ("5", DIGIT | NUMBER), ("€", SYMBOL)]]
    [True, True, True, True]
    """
    flags = np.zeros(_N_CODEPOINTS, dtype=np.uint16)
    flags[[c for c in range(_SPACE_END) if chr(c).isspace()]] |= SPACE
    for chars, bit in (
        (CLASS_13A, SPLIT_13A),
        (".,", PERIOD_COMMA),
        ("0123456789", DIGIT),
        ("-", DASH),
        ("<&\n", REPLACE_13A),
    ):
        flags[[ord(c) for c in chars]] |= bit
    if unicode_classes:
        import regex  # only here: it costs a command-line start 25 ms

        every = (
            np.arange(_N_CODEPOINTS, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
        )
        for bit, pattern in ((PUNCT, r"\p{P}"), (NUMBER, r"\p{N}"), (SYMBOL, r"\p{S}")):
            flags[[m.start() for m in regex.finditer(pattern, every)]] |= bit
    return flags


def _blocks(lengths: np.ndarray) -> list[tuple[int, int]]:
    """Consecutive line ranges of about ``_BLOCK_CHARS`` characters (at least one line)."""
    ends = np.cumsum(lengths)
    bounds, lo = [], 0
    while lo < len(lengths):
        begin = ends[lo] - lengths[lo]
        hi = max(int(np.searchsorted(ends, begin + _BLOCK_CHARS, side="right")), lo + 1)
        bounds.append((lo, hi))
        lo = hi
    return bounds


def encode_lines(
    lines: Sequence[str], tokenizer: str, lowercase: bool, vocab: Vocabulary
) -> tuple[np.ndarray, np.ndarray] | None:
    """Tokenize and encode ``lines``: ``(int32 ids, int64 tokens per line)``.

    None when ``tokenizer`` has no compiled kernel; the caller then tokenizes line by line.

    Examples
    --------
    >>> v = Vocabulary()
    >>> ids, counts = encode_lines(["Hello, world!", "world"], "13a", False, v)
    >>> ids.tolist(), counts.tolist(), v.decode(ids)
    ([0, 1, 2, 3, 2], [4, 1], ['Hello', ',', 'world', '!', 'world'])
    """
    if tokenizer.startswith("rouge-score"):
        from mtpalette.text.rouge_score_tok import ROUGE_SCORE_MODES, encode_rouge_score

        if tokenizer in ROUGE_SCORE_MODES:  # lower-cases by itself, as rouge-score
            return encode_rouge_score(lines, tokenizer, vocab)
    if tokenizer not in MODES:
        return None
    flags = char_flags(tokenizer == "intl")
    # Python's own lower(), line by line, as sacrebleu
    cased = list(map(str.lower, lines)) if lowercase else lines
    if tokenizer != "char":
        # the kernel right-strips as rstrip()
        try:
            counts, local, cp, start, length, hashes = encode_text(
                cased, MODES[tokenizer], flags, len(cased) >= PARALLEL_MIN_LINES
            )
        except UnicodeEncodeError:
            pass  # a lone surrogate: the code point route below keeps it
        else:
            # only the distinct tokens meet the vocabulary: the ids of interning every token
            ids = vocab.intern_spans(cp, start, length, hashes, distinct=True)
            return to_vocab_ids(local, ids), counts
    # Python's own rstrip(), line by line, as sacrebleu
    stripped = list(map(str.rstrip, cased))
    lengths = np.fromiter(map(len, stripped), dtype=np.int64, count=len(stripped))
    if tokenizer == "char":
        return _encode_chars(stripped, lengths, flags, vocab)
    blocks = _blocks(lengths)
    widest = max((int(lengths[lo:hi].sum()) for lo, hi in blocks), default=0)
    cp_buf = np.empty(widest, dtype=np.uint32)
    all_ids, all_counts = [np.zeros(0, np.int32)], [np.zeros(0, np.int64)]
    for lo, hi in blocks:
        text = "".join(stripped[lo:hi]).encode("utf-32-le", "surrogatepass")
        cp = cp_buf[: len(text) // 4]
        cp[:] = np.frombuffer(text, dtype=np.uint32)  # a writable copy: 13a rewrites lines
        line_off = np.zeros(hi - lo + 1, dtype=np.int64)
        np.cumsum(lengths[lo:hi], out=line_off[1:])
        counts, start, length, hashes = tokenize_lines(
            cp, line_off, MODES[tokenizer], flags, len(cp) >= _PARALLEL_MIN_CHARS
        )
        all_ids.append(vocab.intern_spans(cp, start, length, hashes))
        all_counts.append(counts)
    return np.concatenate(all_ids), np.concatenate(all_counts)


def _encode_chars(
    lines: list[str], lengths: np.ndarray, flags: np.ndarray, vocab: Vocabulary
) -> tuple[np.ndarray, np.ndarray]:
    """The ``char`` tokenizer's ids: the distinct characters are numbered by the kernel
    (:func:`~mtpalette.kernels.tokenize.char_ids`) and only they are interned, in order of
    first occurrence, so the ids equal those of interning every character."""
    cp = np.frombuffer("".join(lines).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    line_off = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(lengths, out=line_off[1:])
    counts, local, distinct = char_ids(cp, line_off, flags)
    n = len(distinct)
    ones = np.ones(n, dtype=np.int64)
    global_ids = vocab.intern_spans(
        distinct, np.arange(n, dtype=np.int64), ones, None, distinct=True
    )
    return to_vocab_ids(local, global_ids), counts
