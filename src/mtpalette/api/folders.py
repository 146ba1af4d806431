"""Test-set folders as run inputs: the one door of the mt-metrics-eval folder (``--mtme DIR
--lp``) into every run, the ``score`` command's included.

The folder loader is :func:`mtpalette.io.mtme.read_mtme` (read as mt-metrics-eval's
``EvalSet`` reads a folder); every run reaches it through this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mtpalette.io.mtme import MtmeSet


def read_mtme_set(root: Path, lp: str, **options: Any) -> MtmeSet:
    """One language pair of an mt-metrics-eval folder, as :func:`mtpalette.io.mtme.read_mtme`
    reads it (the judged systems; the others listed in ``left_out``)."""
    from mtpalette.io.mtme import read_mtme

    return read_mtme(root, lp, **options)
