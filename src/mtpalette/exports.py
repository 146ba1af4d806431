"""Names a package offers but imports on first use (PEP 562), so that importing the package,
and the command line, stays fast: :func:`lazy_exports` makes the package's ``__getattr__`` and
``__dir__`` from a table of names and the modules that define them.

Examples
--------
>>> getattr_, dir_ = lazy_exports("json", {"JSONDecoder": "decoder"}, {})
>>> getattr_("JSONDecoder").__name__, dir_()
('JSONDecoder', ['JSONDecoder'])
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str, table: Mapping[str, str], namespace: dict[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: a name of ``table`` (name -> module,
    relative to ``package``) is imported from its module on each use (a name that is also a
    submodule's stays the module once imported); ``dir()`` lists the table's names and the
    ``__all__`` of ``namespace`` (the package's ``globals()``), not the package's imports."""

    def __getattr__(name: str) -> Any:
        if name not in table:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{table[name]}"), name)

    def __dir__() -> list[str]:
        return sorted(set(table) | set(namespace.get("__all__", ())))

    return __getattr__, __dir__
