"""An exact vocabulary: token strings to consecutive int32 ids, in a hash table (Rust core).

Tokens are held as UTF-32 code points. A token's 64-bit hash only chooses where to look in an
open-addressing table; two tokens get the same id only when their code points are equal, so
there are no collisions. Whole corpora are interned in one compiled call; strings are built
back only when asked for (:meth:`Vocabulary.token`, :meth:`Vocabulary.decode`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain

import numpy as np

from mtpalette.kernels.vocab import hash_spans, vocab_intern, vocab_rehash


def _grown(arr: np.ndarray, need: int) -> np.ndarray:
    if need <= len(arr):
        return arr
    out = np.empty(max(4 * len(arr), need, 1 << 12), dtype=arr.dtype)
    out[: len(arr)] = arr
    return out


def to_codepoints(text: str) -> np.ndarray:
    """The code points of ``text`` as a writable uint32 array (lone surrogates kept).

    Examples
    --------
    >>> to_codepoints("a€").tolist()
    [97, 8364]
    """
    return np.frombuffer(bytearray(text.encode("utf-32-le", "surrogatepass")), dtype=np.uint32)


def from_codepoints(cp: np.ndarray) -> str:
    """Inverse of :func:`to_codepoints`."""
    return np.ascontiguousarray(cp, dtype=np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


class Vocabulary:
    """A growing, exact map from token strings to consecutive int32 ids.

    Examples
    --------
    >>> v = Vocabulary()
    >>> v.ids(["a", "b", "a"]), v.token(1), len(v)
    ([0, 1, 0], 'b', 2)
    >>> v.decode([1, 0, 1])
    ['b', 'a', 'b']
    """

    def __init__(self) -> None:
        self._table = np.full(1024, -1, dtype=np.int32)
        self._hash = np.zeros(0, dtype=np.uint64)
        self._start = np.zeros(0, dtype=np.int64)
        self._len = np.zeros(0, dtype=np.int64)
        self._cp = np.zeros(0, dtype=np.uint32)
        self._n = 0
        self._n_cp = 0
        self._strings: list[str] = []

    def __len__(self) -> int:
        return self._n

    def intern_spans(
        self,
        cp: np.ndarray,
        start: np.ndarray,
        length: np.ndarray,
        hashes: np.ndarray | None,
        *,
        distinct: bool = False,
    ) -> np.ndarray:
        """int32 ids of the tokens ``cp[start[t]:start[t] + length[t]]`` (hashes optional).
        ``distinct``: the tokens are known to be distinct, so room for all of them is made at
        once instead of doubling step by step."""
        cp = np.ascontiguousarray(cp, dtype=np.uint32)
        start = np.ascontiguousarray(start, dtype=np.int64)
        length = np.ascontiguousarray(length, dtype=np.int64)
        if hashes is None:
            hashes = hash_spans(cp, start, length)
        ids = np.empty(len(start), dtype=np.int32)
        if distinct:
            self._make_room(self._n + len(start), self._n_cp + int(length.sum()))
        t = 0
        while True:
            t, self._n, self._n_cp = vocab_intern(
                cp,
                start,
                length,
                hashes,
                t,
                ids,
                self._table,
                self._hash,
                self._start,
                self._len,
                self._cp,
                self._n,
                self._n_cp,
            )
            if t == len(start):
                return ids
            # make room for at least the next token, doubling
            self._make_room(self._n + 1, self._n_cp + int(length[t]))

    def _make_room(self, n_tokens: int, n_cp: int) -> None:
        """Room for ``n_tokens`` tokens of ``n_cp`` code points in all (the table at most half
        full)."""
        if 2 * n_tokens > len(self._table):
            size = 1 << (2 * n_tokens - 1).bit_length()
            self._table = vocab_rehash(size, self._hash, self._n)
        self._hash = _grown(self._hash, n_tokens)
        self._start = _grown(self._start, n_tokens)
        self._len = _grown(self._len, n_tokens)
        self._cp = _grown(self._cp, n_cp)

    def ids_array(self, tokens: Sequence[str]) -> np.ndarray:
        """int32 ids of ``tokens`` (a list of strings), adding the new ones."""
        lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
        start = np.zeros(len(tokens), dtype=np.int64)
        if len(tokens) > 1:
            np.cumsum(lengths[:-1], out=start[1:])
        return self.intern_spans(to_codepoints("".join(tokens)), start, lengths, None)

    def ids(self, tokens: Iterable[str]) -> list[int]:
        """Ids of ``tokens``, adding the new ones."""
        return self.ids_array(list(tokens)).tolist()

    def ids_of_rows(self, rows: Sequence[Sequence[str]]) -> tuple[np.ndarray, np.ndarray]:
        """Ids of several token lists at once: ``(flat int32 ids, int64 row lengths)``."""
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
        return self.ids_array(list(chain.from_iterable(rows))), lengths

    def _materialise(self, upto: int) -> None:
        done = len(self._strings)
        if upto <= done:
            return
        lo = self._start[done]
        hi = self._start[upto - 1] + self._len[upto - 1]
        text = from_codepoints(self._cp[lo:hi])
        ends = (self._start[done:upto] + self._len[done:upto] - lo).tolist()
        begins = (self._start[done:upto] - lo).tolist()
        self._strings.extend(text[b:e] for b, e in zip(begins, ends, strict=True))

    def token(self, i: int) -> str:
        """The token string of id ``i``."""
        if not 0 <= i < self._n:
            raise IndexError(f"token id {i} out of range (vocabulary of {self._n})")
        self._materialise(i + 1)
        return self._strings[i]

    def decode(self, ids: Iterable[int]) -> list[str]:
        """The token strings of ``ids``."""
        ids = [int(i) for i in ids]
        if ids:
            self._materialise(max(ids) + 1)
        return [self._strings[i] for i in ids]
