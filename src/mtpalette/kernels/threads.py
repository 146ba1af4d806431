"""How many threads the compiled kernels' parallel loops use (rayon's pool)."""

from __future__ import annotations

from mtpalette import _core


def num_threads() -> int:
    """The number of threads of the kernels' pool (``RAYON_NUM_THREADS``, else all cores).

    Examples
    --------
    >>> num_threads() >= 1
    True
    """
    return int(_core.num_threads())
