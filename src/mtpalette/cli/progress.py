"""Progress bars for long CLI steps: rich bars on a terminal, nothing otherwise.

A bar is shown only when the console is a terminal and not ``--quiet``; piped or redirected
output stays clean.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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
