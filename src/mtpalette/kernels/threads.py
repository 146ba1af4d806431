"""How many threads the compiled kernels' parallel loops use (rayon's pool), and setting it."""

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


def set_threads(n: int) -> None:
    """Run the kernels of this process on ``n`` threads from now on; 0 gives back the default
    pool (``RAYON_NUM_THREADS``, else all cores). A Dask worker with ``k`` threads sets ``k``
    (:mod:`mtpalette.parallel`), so that its kernels do not start a thread per core each.

    Examples
    --------
    >>> set_threads(1); num_threads()
    1
    >>> set_threads(0); num_threads() >= 1
    True
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"threads: a whole number (0 or more) expected, not {n!r}")
    _core.set_threads(n)
