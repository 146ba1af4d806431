"""mtpalette: a workbench for machine-translation evaluation metrics.

The public Python API lives in :mod:`mtpalette.api` (one module per use); its names are
re-exported here, imported on first use so that ``import mtpalette`` (and the command line)
stays fast. Nothing inside the package imports this module: ``__version__`` lives in
:mod:`mtpalette._version`.
"""

from __future__ import annotations

from mtpalette import api
from mtpalette._version import __version__
from mtpalette.exports import lazy_exports

__all__ = ["__version__", *api.EXPORTS]
__getattr__, __dir__ = lazy_exports(__name__, api.EXPORTS, globals())
