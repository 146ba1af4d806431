"""Progress bars for long CLI steps: rich bars on a terminal, nothing otherwise.

A bar is shown only when the console is a terminal and not ``--quiet``; piped or redirected
output stays clean.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from mtpalette.api.feedback import Feedback

T = TypeVar("T")


def shown(console: Console) -> bool:
    """Whether bars are drawn on ``console``."""
    return not console.quiet and console.is_terminal


def track(
    items: Iterable[T], console: Console, description: str, *, total: int | None = None
) -> Iterator[T]:
    """Iterate over ``items`` with a bar labelled ``description`` (or silently).

    Examples
    --------
    >>> list(track([1, 2], Console(quiet=True), "x"))
    [1, 2]
    """
    if not shown(console):
        yield from items
        return
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
    >>> fb = ConsoleFeedback(Console(quiet=True))
    >>> fb.note("hidden"), fb.bars, list(fb.track([1], "x"))
    (None, False, [1])
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self.bars = shown(console)

    def note(self, text: str, *, style: str = "dim") -> None:
        self.console.print(text, style=style)

    def track(self, items: Iterable[T], description: str) -> Iterator[T]:
        return track(items, self.console, description)

    @contextlib.contextmanager
    def counter(
        self, description: str, *, total: int | None = None, completed: int = 0
    ) -> Iterator[Callable[[], None]]:
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
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, TimeElapsedColumn(), console=self.console, transient=True) as bar:
            task = bar.add_task(description, total=None)

            def progress(done: int, total: int, what: str) -> None:
                bar.update(task, completed=done, total=total, description=what[:60])

            yield progress
