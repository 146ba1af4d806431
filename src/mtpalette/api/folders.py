"""Test-set folders as run inputs: the one door of the mt-metrics-eval folder (``--mtme DIR
--lp``) into every run, the ``score`` command's included.

The folder loader of :mod:`mtpalette.io` may change; every run reaches it through
:func:`mtme_inputs` alone.
"""

from __future__ import annotations

from pathlib import Path


def mtme_inputs(
    root: Path, lp: str | None, human: str | None, ref: str
) -> tuple[Path | None, str, list[Path], list[Path]]:
    """The judgments (None without ``human``), their format, the reference and the system
    outputs of one language pair of an mt-metrics-eval folder (see :mod:`mtpalette.io.mtme`).

    Examples
    --------
    >>> mtme_inputs(Path("/no/such/folder"), "en-de", "mqm", "refA")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: ...
    """
    from mtpalette.io.mtme import mtme_paths

    paths = mtme_paths(root, lp, human, ref)
    return paths["judgments"], "mtme-seg", list(paths["refs"]), list(paths["systems"])
