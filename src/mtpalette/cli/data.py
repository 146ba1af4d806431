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
    shared: Annotated[
        Path | None,
        typer.Option("--shared", help="With --copy: also set up the real data of this folder "
                     "(its mqm/ted: WMT21 TED MQM) as --copy's mqm_ted/."),
    ] = None,
) -> None:
    """List the bundled example data sets (invented by mtpalette, not real data) and their
    paths, or copy them into a folder; with --shared, set up real data beside them.

    Examples: `mtpalette data`; `mtpalette data --copy mydata/` then `mtpalette score -r
    mydata/example_zhen/ref.txt -i mydata/example_zhen/Aurora.txt -m bleu chrf`; `mtpalette
    data --copy mydata --shared ../shared/data` for the README's real-data examples.
    """
    from mtpalette.errors import UserInputError
    from mtpalette.sources.bundled import bundled_data, check_shared, copy_bundled, copy_shared

    if shared is not None and copy is None:
        raise UserInputError("--shared sets up the real data in a folder: give --copy DIR too")
    if shared is not None:  # refused before the examples are copied
        check_shared(shared, copy)
    sets = bundled_data()
    paths = copy_bundled(copy) if copy is not None else {n: s.path for n, s in sets.items()}
    if shared is not None:
        real = copy_shared(shared, copy)
        sets |= real
        paths |= {n: s.path for n, s in real.items()}
    for name, data in sets.items():
        typer.echo(f"{name}\t{paths[name]}\t{data.about}")
