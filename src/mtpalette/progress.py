"""Progress bars for long steps: rich bars on a terminal or in a notebook, nothing otherwise.

A bar is shown only when the console is a terminal (or a Jupyter notebook) and not
``--quiet``; piped or redirected output stays clean. The command line draws them on standard
error; the Python API's long calls take ``progress=`` (:func:`feedback_of`). rich is imported
only when something may be drawn: a call in a pipe loads none of it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, TypeVar

from mtpalette.feedback import SILENT, Feedback

if TYPE_CHECKING:
    from rich.console import Console

T = TypeVar("T")


def shown(console: Console) -> bool:
    """Whether bars are drawn on ``console``."""
    return not console.quiet and (console.is_terminal or console.is_jupyter)


def track(
    items: Iterable[T], console: Console, description: str, *, total: int | None = None
) -> Iterator[T]:
    """Iterate over ``items`` with a bar labelled ``description`` (or silently).

    Examples
    --------
    >>> from rich.console import Console
    >>> list(track([1, 2], Console(quiet=True), "x"))
    [1, 2]
    """
    if not shown(console):
        yield from items
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total if total is not None else _len(items))
        for item in items:
            yield item
            bar.advance(task)


def _len(items: Iterable[object]) -> int | None:
    try:
        return len(items)  # type: ignore[arg-type]
    except TypeError:
        return None


class ConsoleFeedback(Feedback):
    """A run's notes and progress on ``console`` (standard error): notes unless ``--quiet``,
    bars only on a terminal.

    Examples
    --------
    >>> from rich.console import Console
    >>> fb = ConsoleFeedback(Console(quiet=True))
    >>> fb.note("hidden"), fb.bars, list(fb.track([1], "x"))
    (None, False, [1])
    """

    def __init__(self, console: Console, *, notes: bool = True) -> None:
        self.console = console
        self.bars = shown(console)
        self.notes = notes

    def note(self, text: str, *, style: str = "dim") -> None:
        if self.notes:
            self.console.print(text, style=style)

    def track(self, items: Iterable[T], description: str) -> Iterator[T]:
        return track(items, self.console, description)

    @contextlib.contextmanager
    def counter(
        self, description: str, *, total: int | None = None, completed: int = 0
    ) -> Iterator[Callable[[], None]]:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        with Progress(
            TextColumn(description),
            BarColumn(),
            MofNCompleteColumn(),
            console=self.console,
            transient=True,
            disable=not self.bars,
        ) as bar:
            task = bar.add_task(description, total=total, completed=completed)
            yield lambda: bar.advance(task)

    @contextlib.contextmanager
    def steps(self, description: str) -> Iterator[Callable[[int, int, str], None] | None]:
        if not self.bars:
            yield None
            return
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, TimeElapsedColumn(), console=self.console, transient=True) as bar:
            task = bar.add_task(description, total=None)

            def progress(done: int, total: int, what: str) -> None:
                bar.update(task, completed=done, total=total, description=what[:60])

            yield progress


def feedback_of(progress: bool | Feedback | None) -> Feedback:
    """The feedback of a Python API call's ``progress=``: a :class:`Feedback` as given;
    ``False``: silent; ``True``: bars and notes on standard error; ``None`` (the default):
    bars alone, when standard error is a terminal or the call runs in a notebook (and no
    rich import otherwise: :func:`may_draw`).

    Examples
    --------
    >>> feedback_of(False) is SILENT, feedback_of(SILENT) is SILENT
    (True, True)
    """
    if isinstance(progress, Feedback):
        return progress
    if progress is False or (progress is None and not may_draw()):
        return SILENT
    from rich.console import Console

    return ConsoleFeedback(Console(stderr=True), notes=progress is True)


def may_draw() -> bool:
    """Whether a bar may be drawn on standard error by default: it is a terminal, or IPython
    runs (rich then tells a notebook from a console); elsewhere nothing is drawn and rich is
    not needed.

    Examples
    --------
    >>> isinstance(may_draw(), bool)
    True
    """
    if "IPython" in sys.modules:
        return True
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False
