"""Plain text: one segment per line, from a file or standard input (``-``).

Every error is a :class:`~mtpalette.errors.UserInputError` naming the file, and the line when
there is one: a missing file, a directory, an unreadable file, invalid UTF-8 (with the line
of the first bad byte), an empty file, and files of a parallel set whose line counts differ.

Lines are split on ``\\n`` only (a ``\\r`` before it is dropped, as is a UTF-8 byte-order
mark), never on the other characters :meth:`str.splitlines` treats as line breaks (U+2028,
form feed...), so line ``i`` of every file is segment ``i`` exactly as ``wc -l`` and
sacrebleu count them.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io import inputs

#: the file name that stands for standard input
STDIN = "-"


#: standard input as read once: (the stream it came from, its bytes)
_STDIN: list = [None, b""]


def _stdin_bytes() -> bytes:
    """Standard input's bytes; read once per stream, so that a table's header and its rows
    (two reads) see the same data."""
    if _STDIN[0] is not sys.stdin:
        _STDIN[:] = [sys.stdin, sys.stdin.buffer.read()]
    return _STDIN[1]


def display_name(path: str | Path) -> str:
    """How a path is named in messages: ``<stdin>`` for ``-``.

    Examples
    --------
    >>> display_name("-"), display_name("refs/ref.en")
    ('<stdin>', 'refs/ref.en')
    """
    return "<stdin>" if str(path) == STDIN else str(path)


def expand_globs(paths: Sequence[str | Path]) -> list[str]:
    """The paths with every glob pattern (``outputs/*.txt``, as a shell that did not expand
    it passes it on) replaced by the files it matches, in sorted order; a path that exists is
    kept as it is, even with ``*`` in its name.

    Raises
    ------
    UserInputError
        A pattern that matches no file, naming the pattern.

    Examples
    --------
    >>> expand_globs(["-", "no-pattern.txt"])
    ['-', 'no-pattern.txt']
    >>> expand_globs(["nowhere/*.txt"])
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: nowhere/*.txt: the pattern matches no file
    """
    import glob

    out: list[str] = []
    for path in map(str, paths):
        if path == STDIN or Path(path).exists() or not glob.has_magic(path):
            out.append(path)
            continue
        matches = sorted(p for p in glob.glob(path) if Path(p).is_file())
        if not matches:
            raise UserInputError("the pattern matches no file", path=path)
        out.extend(matches)
    return out


def read_lines(path: str | Path, *, allow_empty: bool = False) -> list[str]:
    """The lines of a UTF-8 text file (``-`` for standard input), without line ends.

    Parameters
    ----------
    path:
        A file, or ``-`` for standard input.
    allow_empty:
        Return ``[]`` for an empty file instead of raising.

    Raises
    ------
    UserInputError
        The file is missing, a directory, unreadable, not UTF-8 (the message gives the line
        and the byte), holds a NUL byte, or is empty.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "h.txt")
    >>> _ = open(p, "wb").write("a b\\r\\n\\nc\\u2028d\\n".encode())
    >>> read_lines(p)
    ['a b', '', 'c\\u2028d']
    """
    name = display_name(path)
    if name == "<stdin>":
        data = _stdin_bytes()
    else:
        data = _read_bytes(Path(path), name)
    nul = data.find(b"\x00")
    if nul >= 0:  # a binary file, or UTF-16: never text to score
        raise UserInputError(
            "a NUL byte; expected UTF-8 text (is this file binary or UTF-16?)",
            path=name,
            line=data.count(b"\n", 0, nul) + 1,
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise UserInputError(
            f"invalid UTF-8 (byte 0x{data[exc.start]:02x} at byte {column} of the line); "
            "expected UTF-8 text",
            path=name,
            line=line,
        ) from None
    del data  # one copy of the file at a time: the peak is the text and its lines, not three
    if text.startswith("\ufeff") and os.environ.get("MTPALETTE_KEEP_BOM") != "1":
        text = text[1:]
        import warnings

        warnings.warn(
            f"{name}: the UTF-8 byte-order mark at its start was dropped (sacrebleu keeps it "
            "as a character of the first line; MTPALETTE_KEEP_BOM=1 does the same)",
            stacklevel=2,
        )
    crlf = "\r" in text
    lines = text.split("\n")
    del text
    if lines[-1] == "":
        lines.pop()
    if crlf:  # CRLF line ends (the test skips a pass over every line of other files)
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if not lines and not allow_empty:
        raise UserInputError("the file is empty; expected one segment per line", path=name)
    return lines


def read_labels(path: str | Path) -> list[str]:
    """One label per line (``analyze --labels``), as :func:`read_lines` reads them; an empty
    or blank line is refused, naming the file and the line (it would become a label of its
    own, grouping the sentences it stands beside).

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "labels.txt")
    >>> _ = open(p, "w").write("news\\n\\nted\\n")
    >>> read_labels(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: ...labels.txt:2: empty label; expected one label per ...
    """
    labels = read_lines(path)
    for line, label in enumerate(labels, start=1):
        if not label.strip():
            raise UserInputError(
                "empty label; expected one label per sentence (a blank line would be a label "
                "of its own)",
                path=display_name(path),
                line=line,
            )
    return labels


def _read_bytes(path: Path, name: str) -> bytes:
    try:
        data = path.read_bytes()
        inputs.note(path)
        return gunzipped(data, name)
    except FileNotFoundError:
        raise UserInputError("file not found", path=name) from None
    except IsADirectoryError:
        raise UserInputError("is a directory, expected a text file", path=name) from None
    except PermissionError:
        raise UserInputError("permission denied", path=name) from None
    except OSError as exc:
        raise UserInputError(f"cannot read the file ({exc.strerror})", path=name) from None


def gunzipped(data: bytes, name: str) -> bytes:
    """``data`` decompressed when it is gzip's (its magic bytes; no UTF-8 text starts so),
    else as given; a damaged gzip file is an error naming it.

    Examples
    --------
    >>> import gzip
    >>> gunzipped(gzip.compress(b"a\\tb\\n"), "x.tsv.gz"), gunzipped(b"plain", "x.txt")
    (b'a\\tb\\n', b'plain')
    """
    if data[:2] != b"\x1f\x8b":
        return data
    import gzip

    try:
        return gzip.decompress(data)
    except (OSError, EOFError) as exc:
        raise UserInputError(f"damaged gzip file ({exc})", path=name) from None


def check_stdin_once(paths: Sequence[str | Path]) -> None:
    """Refuse a list of inputs that names standard input (``-``) more than once.

    Examples
    --------
    >>> check_stdin_once(["-", "ref.txt"])
    >>> check_stdin_once(["-", "-"])
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: standard input ('-') can be read only once; ...
    """
    if sum(str(p) == STDIN for p in paths) > 1:
        raise UserInputError(
            "standard input ('-') can be read only once; give the other inputs as files"
        )


def read_parallel(
    hyp_path: str | Path, ref_paths: Sequence[str | Path]
) -> tuple[list[str], list[list[str]]]:
    """A hypothesis file and its reference files, checked to have the same number of lines.

    Returns ``(hyps, refs)`` with ``refs[k][i]`` the ``k``-th reference of segment ``i``.

    Raises
    ------
    UserInputError
        A file cannot be read (see :func:`read_lines`), standard input is named twice, or a
        reference file has a different number of lines than the hypotheses (the message names
        both files and both counts).

    Examples
    --------
    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> for name, text in {"h": "a\\nb\\n", "r1": "a\\nc\\n", "r2": "x\\n"}.items():
    ...     _ = open(os.path.join(d, name), "w").write(text)
    >>> read_parallel(os.path.join(d, "h"), [os.path.join(d, "r1")])
    (['a', 'b'], [['a', 'c']])
    >>> read_parallel(os.path.join(d, "h"), [os.path.join(d, "r2")])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: .../r2:2: has 1 line but the hypotheses (.../h) have 2 ...
    """
    check_stdin_once([hyp_path, *ref_paths])
    hyps = read_lines(hyp_path)
    whose = f"the hypotheses ({display_name(hyp_path)}) have"
    return hyps, [read_matching(path, len(hyps), whose) for path in ref_paths]


def check_line_count(path: str | Path, count: int, n: int, whose: str) -> None:
    """Refuse a file of ``count`` lines where ``whose`` (e.g. "the hypotheses (h.txt) have")
    has ``n``: the error names the file and its first line that is missing or extra.

    Examples
    --------
    >>> check_line_count("r.txt", 2, 3, "the hypotheses have")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: r.txt:3: has 2 lines but the hypotheses have 3 lines; ...
    """
    if count != n:
        raise UserInputError(
            f"has {_lines(count)} but {whose} {_lines(n)}; every file needs one segment per line",
            path=display_name(path),
            line=min(count, n) + 1,
        )


def read_matching(path: str | Path, n: int, whose: str) -> list[str]:
    """The lines of ``path``, which must be ``n`` (see :func:`check_line_count`)."""
    lines = read_lines(path)
    check_line_count(path, len(lines), n, whose)
    return lines


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"
