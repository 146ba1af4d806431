"""``mtpalette data``: the example data shipped with mtpalette (invented by the project), where
it is, and ``--copy DIR`` to write it out for the README's examples."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def data_cmd(
    copy: Annotated[
        Path | None,
        typer.Option("--copy", help="Copy every bundled set into this folder (made if missing)."),
    ] = None,
) -> None:
    """List the bundled example data sets (invented by mtpalette, not real data) and their
    paths, or copy them into a folder.

    Examples: `mtpalette data`; `mtpalette data --copy mydata/` then `mtpalette score -r
    mydata/example_zhen/ref.txt -i mydata/example_zhen/Aurora.txt -m bleu chrf`.
    """
    from mtpalette.api.data import bundled_data, copy_bundled

    sets = bundled_data()
    paths = copy_bundled(copy) if copy is not None else {n: s.path for n, s in sets.items()}
    for name, data in sets.items():
        typer.echo(f"{name}\t{paths[name]}\t{data.about}")
