"""The import structure of the package: every arrow points down the floors of the house and no
module imports itself back through others (ARCHITECTURE.md).

Every module's imports are read with :mod:`ast` (module-level, function-level and
``TYPE_CHECKING`` imports alike) and resolved to modules of ``src/mtpalette``. The test fails on
an import from a lower floor to a higher one, on a cycle between modules, and on any import of
the package root (which re-exports the API) from inside the package.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "mtpalette"

#: the floors, lowest first; a module may import its own floor and the floors below it
LAYERS: list[set[str]] = [
    {"_version", "errors", "records", "signature", "_core", "feedback", "flags", "exports"},
    {"io", "text", "kernels", "models", "parallel", "progress", "description"},
    {"metrics"},
    {"stats"},
    {"metaeval", "train", "reporting", "analysis", "sources"},
    {"api"},
    {"cli", "__main__"},
]

#: arrows up known today, each removed by work under way (issue 24); the lead deletes an entry
#: once its fix lands. (importer, imported) as module names.
KNOWN_UPWARD: set[tuple[str, str]] = set()

#: cycles known today (the modules of each), removed by work under way
KNOWN_CYCLES: list[set[str]] = []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted((SRC / PACKAGE).rglob("*.py"))}


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def imports_of(name: str) -> set[str]:
    """The package modules ``name`` imports (``from a import b`` is ``a.b`` when that is a
    module, else ``a``)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = name.split(".") if _is_package(name) else name.split(".")[:-1]
                here = here[: len(here) - node.level + 1]
                base = ".".join([*here, base] if base else here)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES or sub == f"{PACKAGE}._core" else base)
    return {m for m in found if m == PACKAGE or m.startswith(PACKAGE + ".")}


GRAPH = {name: imports_of(name) - {name} for name in MODULES}


def floor(name: str) -> int:
    """The floor of a module: the index in :data:`LAYERS` of its first name under the root."""
    top = name.split(".")[1] if "." in name else "__init__"
    for i, layer in enumerate(LAYERS):
        if top in layer:
            return i
    raise AssertionError(f"{name}: its floor is not listed in LAYERS (add it)")


def test_every_module_has_a_floor():
    for name in MODULES:
        if name != PACKAGE:
            floor(name)


def test_no_module_imports_the_package_root():
    importers = sorted(name for name, deps in GRAPH.items() if PACKAGE in deps)
    assert importers == [], (
        "the package root re-exports the API; import from the module that defines the name "
        f"(e.g. mtpalette._version): {importers}"
    )


def test_no_arrow_points_up():
    upward = sorted(
        (src, dst)
        for src, deps in GRAPH.items()
        if src != PACKAGE
        for dst in deps
        if dst != PACKAGE and floor(dst) > floor(src) and (src, dst) not in KNOWN_UPWARD
    )
    assert upward == [], "imports from a lower floor to a higher one:\n" + "\n".join(
        f"  {a} (floor {floor(a)}) -> {b} (floor {floor(b)})" for a, b in upward
    )


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of more than one module.

    Examples
    --------
    >>> sorted(map(sorted, strongly_connected({"a": {"b"}, "b": {"a"}, "c": {"a"}})))
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_cycle_between_modules():
    graph = {name: deps - {PACKAGE} for name, deps in GRAPH.items()}
    cycles = [c for c in strongly_connected(graph) if c not in KNOWN_CYCLES]
    assert cycles == [], "modules that import each other (directly or through others):\n" + (
        "\n".join("  " + ", ".join(sorted(c)) for c in cycles)
    )


@pytest.mark.parametrize("pair", sorted(KNOWN_UPWARD))
def test_known_exceptions_are_still_real(pair):
    """An exception whose import is gone must be deleted, so that it cannot hide a new one."""
    src, dst = pair
    if src not in GRAPH or dst not in GRAPH[src]:
        pytest.fail(f"{src} -> {dst} is gone: delete it from KNOWN_UPWARD")


def test_the_checker_sees_upward_arrows_and_cycles():
    """The checks themselves, on a made-up graph: one arrow up, one circle."""
    assert floor("mtpalette.cli.app") > floor("mtpalette.sources.scoring") > floor("mtpalette.io")
    assert strongly_connected({"x": {"y"}, "y": {"z"}, "z": {"x"}, "w": {"x"}}) == [{"x", "y", "z"}]
    assert strongly_connected({"x": {"y"}, "y": set()}) == []


ARCHITECTURE = SRC.parent / "ARCHITECTURE.md"


def documented_floors(text: str) -> list[set[str]]:
    r"""The packages and modules of each floor in ARCHITECTURE.md's floor table (rows
    ``| N | `io/`, `parallel.py` (a note) | ... |``), as :data:`LAYERS` names them: the
    backticked names of the second column, outside parentheses, without ``/`` or ``.py``.

    Examples
    --------
    >>> table = "| floor | packages |\n|---|---|\n| 0 | `errors`, `records` (`to_dict`) | x |"
    >>> [sorted(f) for f in documented_floors(table + "\n| 1 | `io/`, `parallel.py` | y |")]
    [['errors', 'records'], ['io', 'parallel']]
    """
    floors: list[set[str]] = []
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        assert int(cells[0]) == len(floors), f"floor {cells[0]} out of order in ARCHITECTURE.md"
        names = re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", cells[1]))
        floors.append({n.removesuffix("/").removesuffix(".py") for n in names})
    return floors


def test_architecture_md_names_the_floors_of_layers():
    """Every package and module of :data:`LAYERS` stands on its floor in ARCHITECTURE.md's
    floor table, and the table names nothing that LAYERS does not."""
    documented = documented_floors(ARCHITECTURE.read_text(encoding="utf-8"))
    assert len(documented) == len(LAYERS), (
        f"ARCHITECTURE.md's table has {len(documented)} floors, LAYERS {len(LAYERS)}"
    )
    for k, (doc, layer) in enumerate(zip(documented, LAYERS, strict=True)):
        assert doc == layer, (
            f"floor {k}: not in ARCHITECTURE.md {sorted(layer - doc)}, "
            f"not in LAYERS {sorted(doc - layer)}"
        )


def test_api_names_are_not_shadowed_by_its_modules():
    """``mtpalette.orange`` must be the function, not a module of the same name."""
    import mtpalette
    from mtpalette import api

    for name, module in api.EXPORTS.items():
        assert f"mtpalette.api.{name}" not in MODULES, f"module api/{name}.py shadows {name}"
        assert getattr(mtpalette, name) is getattr(
            __import__(f"mtpalette.{module}", fromlist=[name]), name
        )
