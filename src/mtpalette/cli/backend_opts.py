"""The ``--backend`` option, shared by the commands that can spread work over workers."""

from __future__ import annotations

from typing import Annotated

import typer

#: ``--backend``: where work runs (see :mod:`mtpalette.parallel`)
BackendOption = Annotated[
    str,
    typer.Option(
        "--backend",
        help="inproc, processes or dask. On one machine inproc is fastest (the kernels use "
        "every core; bench/bench_backends.py); workers pay off across machines.",
        rich_help_panel="Running",
    ),
]
