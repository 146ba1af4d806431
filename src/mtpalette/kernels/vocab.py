"""The exact vocabulary's compiled parts: token hashes, the open-addressing table, and the
distinct lines of a batch.

Tokens are spans of a UTF-32 code point array. A token's 64-bit hash (FNV-1a over its code
points, finished with a murmur-style mix) only chooses a slot of the table; two tokens share
an id only when their code points are equal, so there are no collisions. The table and the
vocabulary's arrays are owned by :class:`mtpalette.text.vocab.Vocabulary`, which grows them
and calls these kernels.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np

from mtpalette import _core


def _spans(cp, start, length) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return (
        np.ascontiguousarray(cp, dtype=np.uint32),
        np.ascontiguousarray(start, dtype=np.int64),
        np.ascontiguousarray(length, dtype=np.int64),
    )


def hash_spans(cp, start, length) -> np.ndarray:
    """uint64 hash of every token ``cp[start[t]:start[t] + length[t]]``.

    Examples
    --------
    >>> cp = np.array([97, 98, 97], dtype=np.uint32)  # "aba"
    >>> h = hash_spans(cp, [0, 2, 1], [1, 1, 1])  # "a", "a", "b"
    >>> bool(h[0] == h[1]), bool(h[0] == h[2])
    (True, False)
    """
    return _core.hash_spans(*_spans(cp, start, length))


def to_vocab_ids(ids: np.ndarray, vocab_ids: np.ndarray) -> np.ndarray:
    """``vocab_ids[ids]``, written into ``ids`` itself (int32, as :func:`encode_text` returns
    it): no index or output array is made. Returns ``ids``.

    Examples
    --------
    >>> to_vocab_ids(np.array([1, 0, 1], dtype=np.int32), np.array([7, 5], np.int32)).tolist()
    [5, 7, 5]
    """
    if ids.dtype != np.int32 or not ids.flags.c_contiguous or not ids.flags.writeable:
        ids = np.array(ids, dtype=np.int32)
    n = len(vocab_ids)
    if n and vocab_ids[-1] == n - 1 and np.array_equal(vocab_ids, np.arange(n)):
        return ids  # the numbers are the ids already (a first batch, an empty vocabulary)
    _core.to_vocab_ids(ids, np.ascontiguousarray(vocab_ids, dtype=np.int32))
    return ids


def vocab_rehash(size: int, v_hash: np.ndarray, n_vocab: int) -> np.ndarray:
    """A table of ``size`` slots (a power of two, more than ``n_vocab``) holding the ids
    ``0..n_vocab`` at the first free slot from ``hash & (size - 1)`` on (-1: free).

    Examples
    --------
    >>> vocab_rehash(4, np.array([5, 1], dtype=np.uint64), 2).tolist()  # 5 & 3 = 1: taken
    [-1, 0, 1, -1]
    """
    return _core.vocab_rehash(int(size), np.ascontiguousarray(v_hash, dtype=np.uint64), n_vocab)


def vocab_intern(
    cp: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    hashes: np.ndarray,
    t0: int,
    ids: np.ndarray,
    table: np.ndarray,
    v_hash: np.ndarray,
    v_start: np.ndarray,
    v_len: np.ndarray,
    v_cp: np.ndarray,
    n_vocab: int,
    n_cp: int,
) -> tuple[int, int, int]:
    """Set ``ids[t]`` for the tokens from ``t0`` on, adding new tokens to the vocabulary's
    arrays (written in place), until the end or until a new token does not fit.

    ``table`` (int32, a power of two) is the open-addressing table; ``v_hash``, ``v_start``,
    ``v_len`` the hash, start and length of each known token in ``v_cp``, their code points.
    A new token fits while the vocabulary stays at most half the table and ``v_cp`` has room.

    Returns
    -------
    tuple of int
        ``(t, n_vocab, n_cp)``: where it stopped (``len(start)`` when done) and the new
        sizes; the caller grows the arrays and calls again from ``t``.

    Examples
    --------
    >>> cp = np.array([97, 98, 97], dtype=np.uint32)  # "a", "b", "a"
    >>> start, length = np.array([0, 1, 2]), np.ones(3, dtype=np.int64)
    >>> ids = np.zeros(3, dtype=np.int32)
    >>> arrays = (np.full(8, -1, np.int32), np.zeros(4, np.uint64), np.zeros(4, np.int64),
    ...           np.zeros(4, np.int64), np.zeros(4, np.uint32))
    >>> vocab_intern(cp, start, length, hash_spans(cp, start, length), 0, ids, *arrays, 0, 0)
    (3, 2, 2)
    >>> ids.tolist()
    [0, 1, 0]
    """
    cp, start, length = _spans(cp, start, length)
    return _core.vocab_intern(
        cp,
        start,
        length,
        np.ascontiguousarray(hashes, dtype=np.uint64),
        int(t0),
        ids,
        table,
        v_hash,
        v_start,
        v_len,
        v_cp,
        int(n_vocab),
        int(n_cp),
    )


def first_occurrences(items: Sequence[Hashable]) -> tuple[np.ndarray, np.ndarray]:
    """Number the distinct items in order of first occurrence, in one compiled pass that
    asks Python's own ``hash`` and ``==`` (two items share a number exactly when a dict
    would give them one key): ``(int64 rows, int64 firsts)``, ``rows[i]`` the number of item
    ``i`` and ``firsts[r]`` the first item numbered ``r``.

    Examples
    --------
    >>> rows, firsts = first_occurrences(["b", "a", "b", None, "a"])
    >>> rows.tolist(), firsts.tolist()
    ([0, 1, 0, 2, 1], [0, 1, 3])
    """
    return _core.first_occurrences(items if isinstance(items, list) else list(items))
