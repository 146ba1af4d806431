"""Plain text: one segment per line, from a file or standard input."""

from __future__ import annotations

import sys
from pathlib import Path

from mtpalette.errors import UserInputError

STDIN = "-"


def read_lines(path: str | Path, *, allow_empty: bool = False) -> list[str]:
    """The lines of a UTF-8 text file (``-`` for standard input), without line ends.

    Errors name the file, and the line for invalid UTF-8.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "h.txt")
    >>> _ = open(p, "w", encoding="utf-8").write("a b\\nc\\n")
    >>> read_lines(p)
    ['a b', 'c']
    """
    name = str(path)
    if name == STDIN:
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            raise UserInputError("file not found", path=name) from None
        except IsADirectoryError:
            raise UserInputError("is a directory, expected a text file", path=name) from None
        except PermissionError:
            raise UserInputError("permission denied", path=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UserInputError(
            f"invalid UTF-8 (byte 0x{data[exc.start]:02x}); expected UTF-8 text",
            path=name,
            line=line,
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [ln[:-1] if ln.endswith("\r") else ln for ln in lines]
    if not lines and not allow_empty:
        raise UserInputError("the file is empty; expected one segment per line", path=name)
    return lines


def read_parallel(
    hyp_path: str | Path, ref_paths: list[str | Path]
) -> tuple[list[str], list[list[str]]]:
    """A hypothesis file and its reference files, checked to have the same number of lines."""
    hyps = read_lines(hyp_path)
    refs = []
    for path in ref_paths:
        ref = read_lines(path)
        if len(ref) != len(hyps):
            shorter = min(len(ref), len(hyps)) + 1
            raise UserInputError(
                f"has {len(ref)} lines but the hypotheses ({_name(hyp_path)}) have {len(hyps)}; "
                f"the files differ from line {shorter} on",
                path=str(path),
            )
        refs.append(ref)
    return hyps, refs


def _name(path: str | Path) -> str:
    return "<stdin>" if str(path) == STDIN else str(path)
