"""Kernels over int32 token ids: thin wrappers over the Rust core (:mod:`mtpalette._core`),
each with a plain-Python twin used by the tests.

Kernels take the flat arrays of :class:`mtpalette.text.ragged.Ragged` (``ids``, ``offsets``)
and run in parallel over candidates (rayon, all cores), with the GIL released. The core is
compiled once, when the package is installed; nothing is compiled at run time.
"""
