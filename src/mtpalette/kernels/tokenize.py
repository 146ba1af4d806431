"""Bulk tokenization of many lines in one compiled call: sacrebleu's ``none``, ``char``,
``13a`` and ``intl`` over UTF-32 code points, with character classes from a table.

How each rule is reproduced exactly, and how the table of character classes is built from
the engines sacrebleu uses, is described in :mod:`mtpalette.text.bulk`, which prepares the
arguments; its twins are the per-line tokenizers of :mod:`mtpalette.text.tokenizers`.
"""

from __future__ import annotations

import numpy as np

from mtpalette import _core

_N_CODEPOINTS = 0x110000


def tokenize_lines(
    cp: np.ndarray, line_off: np.ndarray, mode: int, flags: np.ndarray, parallel: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tokenize the lines ``cp[line_off[l]:line_off[l + 1]]`` of a uint32 code point array.

    ``cp`` must be a writable contiguous uint32 array: 13a's string replacements rewrite each
    line in place (never longer). ``flags`` is the uint16 class table of every code point,
    ``mode`` the tokenizer (0 none, 1 char, 2 13a, 3 intl: ``MODES`` of
    :mod:`mtpalette.text.bulk`); ``parallel`` splits the lines among threads.

    Returns
    -------
    tuple of numpy.ndarray
        ``(tokens per line, token starts, token lengths, token hashes)``; token ``u`` is
        ``cp[start[u]:start[u] + length[u]]`` and its hash is
        :func:`mtpalette.kernels.vocab.hash_spans`'s.

    Examples
    --------
    >>> cp = np.frombuffer(bytearray("ab c".encode("utf-32-le")), dtype=np.uint32)
    >>> flags = np.zeros(0x110000, dtype=np.uint16); flags[32] = 1  # the space: SPACE
    >>> counts, start, length, _ = tokenize_lines(cp, np.array([0, 4]), 0, flags, False)
    >>> counts.tolist(), start.tolist(), length.tolist()
    ([2], [0, 3], [2, 1])
    """
    if not (isinstance(cp, np.ndarray) and cp.dtype == np.uint32 and cp.flags.writeable):
        raise ValueError("cp: a writable uint32 array expected (13a rewrites it in place)")
    flags = np.ascontiguousarray(flags, dtype=np.uint16)
    if len(flags) < _N_CODEPOINTS:
        raise ValueError("flags: one entry per code point (0x110000) expected")
    if mode not in (0, 1, 2, 3):
        raise ValueError("mode: 0 (none), 1 (char), 2 (13a) or 3 (intl)")
    return _core.tokenize_lines(
        cp, np.ascontiguousarray(line_off, dtype=np.int64), int(mode), flags, bool(parallel)
    )


def encode_text(
    lines: list[str], mode: int, flags: np.ndarray, parallel: bool
) -> tuple[np.ndarray, ...]:
    """Tokenize Python strings straight to token numbers, without a code point array of the
    whole text: each line is right-stripped (Python's ``rstrip``) and tokenized by the rules of
    :func:`tokenize_lines` (``mode`` 0 none, 2 13a, 3 intl), and each token numbered among the
    call's distinct tokens in order of first occurrence; blocks of lines run in parallel when
    ``parallel``. A string that is not valid UTF-8 (a lone surrogate) raises
    UnicodeEncodeError: :func:`tokenize_lines` takes those.

    Returns
    -------
    tuple of numpy.ndarray
        ``(tokens per line, each token's number, then the distinct tokens: code points,
        starts, lengths, hashes)``; distinct token ``d`` is ``cp[start[d]:start[d] +
        length[d]]`` with :func:`mtpalette.kernels.vocab.hash_spans`'s hash.

    Examples
    --------
    >>> flags = np.zeros(0x110000, dtype=np.uint16); flags[32] = 1  # the space: SPACE
    >>> counts, ids, cp, start, length, _ = encode_text(["b a b ", "a"], 0, flags, False)
    >>> counts.tolist(), ids.tolist(), cp.tolist(), start.tolist(), length.tolist()
    ([3, 1], [0, 1, 0, 1], [98, 97], [0, 1], [1, 1])
    """
    flags = np.ascontiguousarray(flags, dtype=np.uint16)
    if len(flags) < _N_CODEPOINTS:
        raise ValueError("flags: one entry per code point (0x110000) expected")
    if mode not in (0, 2, 3):
        raise ValueError("mode: 0 (none), 2 (13a) or 3 (intl)")
    return _core.encode_text_lines(lines, int(mode), flags, bool(parallel))


def char_ids(
    cp: np.ndarray, line_off: np.ndarray, flags: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """chrF's characters of the lines ``cp[line_off[l]:line_off[l + 1]]``: every code point
    but whitespace (``flags & 1``, SPACE), as the number of its code point among the distinct
    ones in order of first occurrence. The tokens of :func:`tokenize_lines`'s ``char`` mode,
    without a span and a hash per character.

    Returns
    -------
    tuple of numpy.ndarray
        ``(characters per line (int64), ids (int32), the distinct code points (uint32))``.

    Examples
    --------
    >>> cp = np.frombuffer("ab a".encode("utf-32-le"), dtype=np.uint32)
    >>> flags = np.zeros(0x110000, dtype=np.uint16); flags[32] = 1  # the space: SPACE
    >>> counts, ids, distinct = char_ids(cp, np.array([0, 4]), flags)
    >>> counts.tolist(), ids.tolist(), distinct.tolist()
    ([3], [0, 1, 0], [97, 98])
    """
    flags = np.ascontiguousarray(flags, dtype=np.uint16)
    if len(flags) < _N_CODEPOINTS:
        raise ValueError("flags: one entry per code point (0x110000) expected")
    return _core.char_ids(
        np.ascontiguousarray(cp, dtype=np.uint32),
        np.ascontiguousarray(line_off, dtype=np.int64),
        flags,
    )
