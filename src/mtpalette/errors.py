"""Errors that describe a user's mistake rather than a bug.

A :class:`UserInputError` is turned by the command-line tool into a one-line message and exit
code 2, never a traceback. It names the file and the line when the mistake is in a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")


class UserInputError(Exception):
    """Bad input from the user: a file, a line, a spec string or an option.

    Parameters
    ----------
    message:
        What was wrong and what was expected.
    path:
        The file the mistake is in, if any.
    line:
        The 1-based line number inside ``path``, if known.

    Examples
    --------
    >>> str(UserInputError("expected 3 columns, found 2", path="j.tsv", line=7))
    'j.tsv:7: expected 3 columns, found 2'
    """

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return f"{where}{self.message}"


def shortened(text: str, limit: int = 30) -> str:
    """``text`` as an error message quotes it: whole when short, else its start and length
    (a 400-digit number in a file should not fill the terminal).

    Examples
    --------
    >>> shortened("0.5"), shortened("1" * 401)
    ('0.5', '111111111111...(401 characters)')
    """
    return text if len(text) <= limit else f"{text[:12]}...({len(text)} characters)"


def converted(convert: Callable[[str], T], text: str, message: str, *, path: str, line: int) -> T:
    """``convert(text)``, or a :class:`UserInputError` at ``path:line`` when it raises
    :class:`ValueError`: ``message`` with ``{text}`` filled in by the text (``{short}`` by its
    :func:`shortened` form; str.format conversions such as ``{text!r}`` apply).

    Examples
    --------
    >>> converted(int, "12", "id {text!r} is not an integer", path="a.txt", line=3)
    12
    >>> converted(float, "x1", "score {short!r} is not a number", path="a.txt", line=3)
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: a.txt:3: score 'x1' is not a number
    """
    try:
        return convert(text)
    except ValueError:
        raise UserInputError(
            message.format(text=text, short=shortened(text)), path=path, line=line
        ) from None


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """`` Did you mean 'x'?`` for the closest of ``choices`` to a mistyped ``name`` (empty
    when none is close), to end an error message with.

    Examples
    --------
    >>> did_you_mean("bleuu", ["bleu", "chrf", "ter"])
    " Did you mean 'bleu'?"
    >>> did_you_mean("xyz", ["bleu"])
    ''
    """
    import difflib

    close = difflib.get_close_matches(name, list(choices), n=2, cutoff=0.6)
    return f" Did you mean {' or '.join(repr(c) for c in close)}?" if close else ""


def repeated(names: Iterable[str]) -> list[str]:
    """The names that stand more than once in ``names``, sorted: what a refusal of a name given
    twice lists.

    Examples
    --------
    >>> repeated(["en-de", "zh-en", "en-de"]), repeated(["a", "b"])
    (['en-de'], [])
    """
    from collections import Counter

    return sorted(n for n, k in Counter(names).items() if k > 1)
