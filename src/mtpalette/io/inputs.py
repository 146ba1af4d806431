"""The files a command reads, so that none of its outputs can overwrite one.

While a command runs (:func:`tracking`, entered by the command line around every
subcommand), every reader notes the files it opens (:func:`note`), and every writer asks
:func:`check_output` before it replaces a file. Files are compared by device and inode, so a
different spelling of the same path (``./a.txt``, a symlink, a hard link) is caught too.
Outside a command (library use) nothing is tracked: a script may rewrite its own inputs.

A command also notes when one of its outputs is standard output (``--json -``,
:func:`claim_stdout`): standard output then holds that one document, and the command line
prints its tables and notes on standard error instead (:func:`stdout_claimed`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from mtpalette.errors import UserInputError

_inputs: dict[tuple[int, int], str] | None = None
#: whether an output of the running command is standard output
_stdout_claimed = False


@contextlib.contextmanager
def tracking() -> Iterator[None]:
    """Track the files read (and whether standard output takes a document) until the block
    ends (nested blocks share the outer one)."""
    global _inputs, _stdout_claimed
    if _inputs is not None:
        yield
        return
    _inputs, _stdout_claimed = {}, False
    try:
        yield
    finally:
        _inputs, _stdout_claimed = None, False


def claim_stdout() -> None:
    """Record that an output of the running command is standard output (ignored outside one).

    Examples
    --------
    >>> with tracking():
    ...     before = stdout_claimed()
    ...     claim_stdout()
    ...     before, stdout_claimed()
    (False, True)
    >>> stdout_claimed()
    False
    """
    global _stdout_claimed
    if _inputs is not None:
        _stdout_claimed = True


def stdout_claimed() -> bool:
    """Whether standard output holds a document of the running command (``--json -``): then
    nothing else may be printed there."""
    return _stdout_claimed


def note(path: str | Path) -> None:
    """Record ``path`` as an input of the running command (ignored outside one)."""
    if _inputs is None:
        return
    with contextlib.suppress(OSError):
        st = os.stat(path)
        _inputs[(st.st_dev, st.st_ino)] = str(path)


def check_output(path: str | Path) -> None:
    """Refuse to write ``path`` when it is one of the command's inputs.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "refs.txt"
    >>> _ = p.write_text("a\\n")
    >>> with tracking():
    ...     note(p)
    ...     try:
    ...         check_output(p.parent / "." / "refs.txt")
    ...     except UserInputError as exc:
    ...         print("refused:", "is also an input of this command" in str(exc))
    refused: True
    """
    if not _inputs:
        return
    try:
        st = os.stat(path)
    except OSError:
        return  # not there yet: not an input
    same = _inputs.get((st.st_dev, st.st_ino))
    if same is not None:
        raise UserInputError(
            f"is also an input of this command ({same}); refusing to overwrite it", path=str(path)
        )
