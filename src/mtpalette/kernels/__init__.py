"""Kernels over int token ids: the one door to the Rust core (:mod:`mtpalette._core`).

Only this package imports ``_core``, and it imports nothing else of mtpalette (it is the
lowest floor above the core). Every compiled function has a thin wrapper here (argument
checks, dtypes and contiguity, the call), one module per family, and a slow twin, plain
Python or numpy, in :mod:`mtpalette.kernels.reference`, which the tests compare it with.

Kernels take flat arrays such as those of :class:`mtpalette.text.ragged.Ragged` (``ids``,
``offsets``) or of ``Pairs.arrays()``, and run in parallel (rayon, all cores) with the GIL
released. The core is compiled once, when the package is installed; nothing is compiled at
run time. A new kernel: its compute module in ``rust/src/`` (no PyO3 there, unit tests in a
``#[cfg(test)]`` module), its binding and registration in ``rust/src/python.rs``, its wrapper
here, its twin in ``reference/``, its hypothesis test in ``tests/kernels/``.
"""
