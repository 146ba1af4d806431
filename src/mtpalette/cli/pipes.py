"""Standard output that a closed pipe cannot break.

``mtpalette correlate ... --out-dir run | head -2`` closes the pipe after two lines. Python
then raises :class:`BrokenPipeError` at the next write, which used to end the command before
it wrote the files it was asked for (exit 1, no message, ``run/`` empty). Here the first
broken write sends the rest of the printing to the null device, the command goes on to write
its files, and the process exits 0 as ``sacrebleu ... | head`` does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO


class PipeSafe:
    """A text stream wrapper that drops everything after the reader has gone away."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.closed_pipe = False

    def _drop(self) -> None:
        if not self.closed_pipe:
            self.closed_pipe = True
            # later writes, and the interpreter's flush at exit, go to the null device
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(null, self._stream.fileno())
            except (OSError, ValueError):  # not a real file (a test's capture buffer)
                pass
            finally:
                os.close(null)

    def write(self, text: str) -> int:
        if self.closed_pipe:
            return len(text)
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        if self.closed_pipe:
            return
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._drop()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextmanager
def pipe_safe_stdout() -> Iterator[PipeSafe]:
    """Run a block with ``sys.stdout`` wrapped in :class:`PipeSafe`."""
    original = sys.stdout
    safe = PipeSafe(original)
    sys.stdout = safe  # type: ignore[assignment]
    try:
        yield safe
        safe.flush()
    finally:
        sys.stdout = original
