"""How a run tells its user what it is doing: notes and progress, silent by default.

The library never prints. A run takes a :class:`Feedback`; the command line passes one that
writes notes and draws progress bars on standard error (:mod:`mtpalette.progress`).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def note_on_stderr(text: str) -> None:
    """The default ``note`` of the loaders: one line on standard error."""
    print(text, file=sys.stderr)


class Feedback:
    """Silent feedback; subclasses show it.

    Examples
    --------
    >>> fb = Feedback()
    >>> fb.note("scoring"), fb.bars
    (None, False)
    >>> list(fb.track([1, 2], "items"))
    [1, 2]
    >>> with fb.counter("chunks", total=3) as advance:
    ...     advance()
    """

    #: whether progress bars are drawn (else a run may note each long step instead)
    bars: bool = False

    def note(self, text: str, *, style: str = "dim") -> None:
        """A one-line note (``style`` ``dim`` for routine, ``yellow`` for a warning)."""

    def warn(self, text: str) -> None:
        """Something the user must see even when quiet (data left out): standard error."""
        print(text, file=sys.stderr)

    def track(self, items: Iterable[T], description: str) -> Iterator[T]:
        """``items``, one by one, while showing how many are done."""
        yield from items

    @contextlib.contextmanager
    def counter(
        self, description: str, *, total: int | None = None, completed: int = 0
    ) -> Iterator[Callable[[], None]]:
        """A function that counts one more step done."""
        yield lambda: None

    @contextlib.contextmanager
    def steps(self, description: str) -> Iterator[Callable[[int, int, str], None] | None]:
        """A callback ``(done, total, what)`` for long library steps, or ``None`` when nothing
        is shown (the step then skips its bookkeeping)."""
        yield None

    @contextlib.contextmanager
    def stage(self, description: str) -> Iterator[None]:
        """One long step that cannot count its work: :meth:`steps` with no count while it
        runs (a bar shows the time elapsed), told ``(1, 1, description)`` when it ends.

        Examples
        --------
        >>> with Feedback().stage("testing every pair"):
        ...     pass
        """
        with self.steps(description) as step:
            yield
            if step is not None:
                step(1, 1, description)


#: the feedback of a run given none
SILENT = Feedback()
