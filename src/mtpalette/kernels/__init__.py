"""numba kernels over int32 token ids, each with a plain-Python twin used by the tests.

Kernels take the flat arrays of :class:`mtpalette.text.ragged.Ragged` (``ids``, ``offsets``)
and run in parallel over candidates. They are compiled on first use and cached on disk.
"""
