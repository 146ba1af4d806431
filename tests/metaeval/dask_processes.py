"""What the tests on real Dask processes share: the command lines of mtpalette and of Dask's
scheduler and worker, each run by this Python in a process of its own."""

from __future__ import annotations

import sys


def cli_argv(*args: str) -> list[str]:
    """``mtpalette ARGS`` as a process of this Python."""
    return [sys.executable, "-c", "from mtpalette.cli.app import main; main()", *args]


def dask_argv(*args: str) -> list[str]:
    """``dask scheduler|worker ARGS`` (``args[0]``: ``dask_scheduler`` or ``dask_worker``)."""
    return [sys.executable, "-m", "distributed.cli." + args[0], *args[1:]]
