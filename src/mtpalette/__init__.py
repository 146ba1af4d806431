"""mtpalette: a workbench for machine-translation evaluation metrics.

The public Python API lives in :mod:`mtpalette.api` (one module per use); its names are
re-exported here, imported on first use so that ``import mtpalette`` (and the command line)
stays fast. Nothing inside the package imports this module: ``__version__`` lives in
:mod:`mtpalette._version`.
"""

from __future__ import annotations

from typing import Any

from mtpalette import api
from mtpalette._version import __version__

__all__ = ["__version__", *api.EXPORTS]


def __getattr__(name: str) -> Any:
    if name in api.EXPORTS:
        return getattr(api, name)
    raise AttributeError(f"module 'mtpalette' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)  # the public names only (no typing or __future__ leftovers)
