"""Tokenize many lines at once in numba: ``13a``, ``intl``, ``none`` and ``char``.

The lines are concatenated into one UTF-32 code point array; a compiled kernel applies the
tokenizer's rules to every line in parallel and hands the token spans, with their hashes, to
the exact :class:`~mtpalette.text.vocab.Vocabulary`. The result equals the per-line
tokenizers of :mod:`mtpalette.text.tokenizers` (which equal sacrebleu's) token for token;
tests check this on real and generated text.

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

import re
from collections.abc import Sequence
from functools import lru_cache

import numba as nb
import numpy as np
import regex

from mtpalette.text.vocab import Vocabulary, hash_end, hash_start, hash_step

# character classes, one bit each in the table of :func:`char_flags`
SPACE, SPLIT_13A, PERIOD_COMMA, DIGIT, DASH, REPLACE_13A = 1, 2, 4, 8, 16, 32
PUNCT, NUMBER, SYMBOL = 64, 128, 256
#: kernel modes, by tokenizer name
MODES = {"none": 0, "char": 1, "13a": 2, "intl": 3}
#: mteval-v13a's always-split class, sacrebleu's ``[\{-\~\[-\` -\&\(-\+\:-\@\/]``
CLASS_13A = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_N_CODEPOINTS = 0x110000
#: characters per compiled call: bounds the temporary arrays
_BLOCK_CHARS = 1 << 20
#: below this many characters a block is tokenized in one thread
_PARALLEL_MIN_CHARS = 50000


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
    every = np.arange(_N_CODEPOINTS, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    flags = np.zeros(_N_CODEPOINTS, dtype=np.uint16)
    flags[[m.start() for m in re.finditer(r"\s", every)]] |= SPACE
    for chars, bit in (
        (CLASS_13A, SPLIT_13A),
        (".,", PERIOD_COMMA),
        ("0123456789", DIGIT),
        ("-", DASH),
        ("<&\n", REPLACE_13A),
    ):
        flags[[ord(c) for c in chars]] |= bit
    if unicode_classes:
        for bit, pattern in ((PUNCT, r"\p{P}"), (NUMBER, r"\p{N}"), (SYMBOL, r"\p{S}")):
            flags[[m.start() for m in regex.finditer(pattern, every)]] |= bit
    return flags


def _codes(text: str) -> np.ndarray:
    return np.array([ord(c) for c in text], dtype=np.uint32)


# sacrebleu's 13a string replacements, in order (the entities only when the line has "&")
_SKIPPED, _EMPTY = _codes("<skipped>"), _codes("")
_DASH_NL, _NL, _BLANK = _codes("-\n"), _codes("\n"), _codes(" ")
_QUOT, _AMP, _LT, _GT = _codes("&quot;"), _codes("&amp;"), _codes("&lt;"), _codes("&gt;")
_DQ, _AND, _LESS, _MORE = _codes('"'), _codes("&"), _codes("<"), _codes(">")


@nb.njit(cache=True, nogil=True)
def _replace(src, n, pattern, replacement, dst):
    """``str.replace`` of ``src[:n]`` into ``dst``; returns the new length."""
    k = len(pattern)
    m = 0
    i = 0
    while i < n:
        if i + k <= n and src[i] == pattern[0]:
            same = True
            for q in range(1, k):
                if src[i + q] != pattern[q]:
                    same = False
                    break
            if same:
                for q in range(len(replacement)):
                    dst[m + q] = replacement[q]
                m += len(replacement)
                i += k
                continue
        dst[m] = src[i]
        m += 1
        i += 1
    return m


@nb.njit(cache=True, nogil=True)
def _replacements_13a(cp, s0, s1, a, b):
    """Apply sacrebleu's 13a replacements to the line ``cp[s0:s1]`` in place.

    Returns the new (never larger) length; ``a`` and ``b`` are scratch.
    """
    n = s1 - s0
    for i in range(n):
        a[i] = cp[s0 + i]
    n = _replace(a, n, _SKIPPED, _EMPTY, b)
    n = _replace(b, n, _DASH_NL, _EMPTY, a)
    n = _replace(a, n, _NL, _BLANK, b)
    has_amp = False
    for i in range(n):
        if b[i] == 38:
            has_amp = True
            break
    if has_amp:
        n = _replace(b, n, _QUOT, _DQ, a)
        n = _replace(a, n, _AMP, _AND, b)
        n = _replace(b, n, _LT, _LESS, a)
        n = _replace(a, n, _GT, _MORE, b)
    for i in range(n):
        cp[s0 + i] = b[i]
    return n


# Items of a pair-rule window: an index into the line, or one of these
_PAD = -2  # 13a's padding space around the line
_INSERTED = -1  # a space inserted by a rule


@nb.njit(cache=True, nogil=True, inline="always")
def _has(line, i, flags, bit) -> bool:
    """Whether item ``i`` of a window (a line index; spaces and padding have no class bits)
    has class ``bit``."""
    return i >= 0 and flags[line[i]] & bit != 0


@nb.njit(cache=True, nogil=True)
def _pair_rules(line, k, p, q, pad, run, digit, flags, wa, wb, brk):
    """Breaks made by the two pair rules around the maximal run ``line[p:q]`` of R characters.

    The rules, applied one after the other, are ``(not D)(R) -> "\\1 \\2 "`` and
    ``(R)(not D) -> " \\1 \\2"`` (13a: R = ``[.,]``, D = ``[0-9]``; intl: R = ``\\p{P}``,
    D = ``\\p{N}``). A match needs an R character, and neither rule can have consumed the
    character just before a maximal run of R characters (it is not R) nor the run's first
    character (in the second rule it follows that character or an inserted space), so the
    window ``line[p - 1] .. line[q]`` is scanned on its own, exactly as ``re.sub`` scans it.
    Every space the rules insert sets ``brk`` before the next character of the line.
    """
    n = 0
    if p > 0:
        wa[n] = p - 1
        n += 1
    elif pad:
        wa[n] = _PAD
        n += 1
    for i in range(p, q):
        wa[n] = i
        n += 1
    if q < k:
        wa[n] = q
        n += 1
    elif pad:
        wa[n] = _PAD
        n += 1
    # (not D)(R) -> \1 space \2 space
    m = 0
    i = 0
    while i < n:
        x = wa[i]
        if i + 1 < n and not _has(line, x, flags, digit) and _has(line, wa[i + 1], flags, run):
            wb[m] = x
            wb[m + 1] = _INSERTED
            wb[m + 2] = wa[i + 1]
            wb[m + 3] = _INSERTED
            m += 4
            i += 2
        else:
            wb[m] = x
            m += 1
            i += 1
    # (R)(not D) -> space \1 space \2
    n = 0
    i = 0
    while i < m:
        x = wb[i]
        if i + 1 < m and _has(line, x, flags, run) and not _has(line, wb[i + 1], flags, digit):
            wa[n] = _INSERTED
            wa[n + 1] = x
            wa[n + 2] = _INSERTED
            wa[n + 3] = wb[i + 1]
            n += 4
            i += 2
        else:
            wa[n] = x
            n += 1
            i += 1
    pending = False
    for i in range(n):
        x = wa[i]
        if x == _INSERTED:
            pending = True
        else:
            if pending and x >= 0:
                brk[x] = True
            pending = False
    if pending:
        brk[k] = True


@nb.njit(cache=True, nogil=True)
def _breaks(line, k, is_13a, flags, wa, wb, brk):
    """``brk[i]``: whether 13a (or intl) puts a space before ``line[i]`` (``line[:k]``).

    13a (sacrebleu's TokenizerRegexp on ``" " + line + " "``): the always-split class gets a
    space on both sides, and so does a dash after a digit (no earlier rule separates a digit
    from a dash); the period/comma rules are :func:`_pair_rules`. The always-split characters
    are neither digits, periods, commas nor dashes, exactly like the spaces put around them,
    so the later rules see the same classes with or without the first rule's spaces.
    intl (TokenizerV14International): the punctuation rules are :func:`_pair_rules`, then
    every symbol gets a space on both sides.
    """
    if is_13a:
        run, digit, isolate = PERIOD_COMMA, DIGIT, SPLIT_13A
    else:
        run, digit, isolate = PUNCT, NUMBER, SYMBOL
    for i in range(k + 1):
        brk[i] = False
    p = -1  # start of the current run of R characters
    prev = 0
    for i in range(k):
        f = flags[line[i]]
        if f & run:
            if p < 0:
                p = i
        else:
            if p >= 0:
                _pair_rules(line, k, p, i, is_13a, run, digit, flags, wa, wb, brk)
                p = -1
            if f & isolate or (is_13a and f & DASH and prev & DIGIT):
                brk[i] = True
                brk[i + 1] = True
        prev = f
    if p >= 0:
        _pair_rules(line, k, p, k, is_13a, run, digit, flags, wa, wb, brk)


@nb.njit(cache=True, nogil=True)
def _emit(line, n, flags, each_char, use_brk, brk, out_start, out_len, out_hash, base):
    """Split ``line[:n]`` on whitespace (and before ``brk``) into tokens written from ``base``.

    A token's start is stored as ``base`` plus its index in the line. Returns the count.
    """
    t = 0
    i = 0
    while i < n:
        if flags[line[i]] & SPACE:
            i += 1
            continue
        out_start[base + t] = base + i
        h = hash_start()
        k = 0
        while True:
            h = hash_step(h, line[i])
            k += 1
            i += 1
            if each_char or i >= n or flags[line[i]] & SPACE or (use_brk and brk[i]):
                break
        out_len[base + t] = k
        out_hash[base + t] = hash_end(h)
        t += 1
    return t


@nb.njit(cache=True, nogil=True)
def _tokenize_lines(cp, line_off, l0, l1, mode, flags, out_start, out_len, out_hash, counts):
    """Tokenize lines ``l0..l1-1``: token ``t`` of line ``l`` goes to index ``line_off[l] + t``
    of the span arrays (a line never has more tokens than characters)."""
    longest = 0
    for line in range(l0, l1):
        if line_off[line + 1] - line_off[line] > longest:
            longest = line_off[line + 1] - line_off[line]
    a = np.empty(longest + 1, dtype=np.uint32)
    b = np.empty(longest + 1, dtype=np.uint32)
    wa = np.empty(4 * longest + 8, dtype=np.int64)
    wb = np.empty(4 * longest + 8, dtype=np.int64)
    brk = np.zeros(longest + 1, dtype=np.bool_)
    for line in range(l0, l1):
        s0 = line_off[line]
        s1 = line_off[line + 1]
        n = s1 - s0
        if mode >= 2:  # 13a, intl
            if mode == 2:
                for i in range(s0, s1):
                    if flags[cp[i]] & REPLACE_13A:
                        n = _replacements_13a(cp, s0, s1, a, b)
                        break
            text = cp[s0 : s0 + n]
            _breaks(text, n, mode == 2, flags, wa, wb, brk)
            counts[line] = _emit(text, n, flags, False, True, brk, out_start, out_len, out_hash, s0)
        else:  # none, char
            counts[line] = _emit(
                cp[s0:s1], n, flags, mode == 1, False, brk, out_start, out_len, out_hash, s0
            )


@nb.njit(cache=True, nogil=True)
def _pack(line_off, counts, out_start, out_len, out_hash):
    """Move every line's tokens to follow the previous line's (left only, so in place)."""
    t = 0
    for line in range(len(counts)):
        base = line_off[line]
        for k in range(counts[line]):
            out_start[t] = out_start[base + k]
            out_len[t] = out_len[base + k]
            out_hash[t] = out_hash[base + k]
            t += 1
    return t


@nb.njit(cache=True, parallel=True, nogil=True)
def _tokenize_parallel(cp, line_off, mode, flags, n_chunks, out_start, out_len, out_hash):
    """Tokenize every line ``cp[line_off[l]:line_off[l + 1]]``, chunks of lines in parallel.

    Returns the number of tokens of each line and their total ``T``; token ``u`` (lines one
    after the other) is ``cp[out_start[u]:out_start[u] + out_len[u]]``, with hash
    ``out_hash[u]``. 13a's replacements rewrite a line in place (they never lengthen it).
    """
    L = len(line_off) - 1
    counts = np.zeros(L, dtype=np.int64)
    chunk = (L + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        _tokenize_lines(
            cp,
            line_off,
            c * chunk,
            min(L, (c + 1) * chunk),
            mode,
            flags,
            out_start,
            out_len,
            out_hash,
            counts,
        )
    return counts, _pack(line_off, counts, out_start, out_len, out_hash)


@nb.njit(cache=True, nogil=True)
def _tokenize_serial(cp, line_off, mode, flags, n_chunks, out_start, out_len, out_hash):
    """:func:`_tokenize_parallel` in one thread (a parallel region costs a thread wake-up)."""
    L = len(line_off) - 1
    counts = np.zeros(L, dtype=np.int64)
    _tokenize_lines(cp, line_off, 0, L, mode, flags, out_start, out_len, out_hash, counts)
    return counts, _pack(line_off, counts, out_start, out_len, out_hash)


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
    if tokenizer not in MODES:
        return None
    flags = char_flags(tokenizer == "intl")
    # Python's own lower() and rstrip(), line by line, as sacrebleu
    stripped = list(map(str.rstrip, map(str.lower, lines) if lowercase else lines))
    lengths = np.fromiter(map(len, stripped), dtype=np.int64, count=len(stripped))
    blocks = _blocks(lengths)
    widest = max((int(lengths[lo:hi].sum()) for lo, hi in blocks), default=0)
    cp_buf = np.empty(widest, dtype=np.uint32)
    out_start = np.empty(widest, dtype=np.int64)
    out_len = np.empty(widest, dtype=np.int64)
    out_hash = np.empty(widest, dtype=np.uint64)
    all_ids, all_counts = [np.zeros(0, np.int32)], [np.zeros(0, np.int64)]
    for lo, hi in blocks:
        text = "".join(stripped[lo:hi]).encode("utf-32-le", "surrogatepass")
        cp = cp_buf[: len(text) // 4]
        cp[:] = np.frombuffer(text, dtype=np.uint32)  # a writable copy: 13a rewrites lines
        line_off = np.zeros(hi - lo + 1, dtype=np.int64)
        np.cumsum(lengths[lo:hi], out=line_off[1:])
        if len(cp) < _PARALLEL_MIN_CHARS:
            kernel, n_chunks = _tokenize_serial, 1
        else:
            kernel, n_chunks = _tokenize_parallel, min(hi - lo, 8 * nb.get_num_threads())
        counts, T = kernel(
            cp, line_off, MODES[tokenizer], flags, n_chunks, out_start, out_len, out_hash
        )
        all_ids.append(vocab.intern_spans(cp, out_start[:T], out_len[:T], out_hash[:T]))
        all_counts.append(counts)
    return np.concatenate(all_ids), np.concatenate(all_counts)
