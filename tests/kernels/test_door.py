"""One door to the Rust core: only ``mtpalette.kernels`` imports ``mtpalette._core``, the
kernels import nothing of mtpalette but the core, ``errors`` and each other, every function
the core exports has a wrapper, and the crate's compute modules know nothing of Python."""

import ast
import re
from pathlib import Path

import pytest

import mtpalette
from mtpalette import _core

PACKAGE = Path(mtpalette.__file__).parent
RUST = Path(__file__).parents[2] / "rust" / "src"


def _imports(path: Path) -> set[str]:
    """Every name an ``import`` statement of ``path`` imports (``from a import b``: ``a.b``),
    at any depth of the file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.update(f"{node.module}.{alias.name}" for alias in node.names)
    return out


def test_only_the_kernels_import_the_core():
    outside = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "mtpalette._core" in _imports(path) and "kernels" not in path.relative_to(PACKAGE).parts
    ]
    assert outside == []


def test_kernels_import_only_the_core_errors_and_kernels():
    allowed = re.compile(r"mtpalette\.(_core|errors(\..*)?|kernels(\..*)?)$")
    for path in (PACKAGE / "kernels").rglob("*.py"):
        ours = {m for m in _imports(path) if m.split(".")[0] == "mtpalette"}
        bad = sorted(m for m in ours if not allowed.match(m))
        assert bad == [], f"{path.relative_to(PACKAGE)} imports {bad}"


def test_every_core_function_has_a_wrapper():
    exported = {name for name in dir(_core) if not name.startswith("_")}
    exported -= {"mtpalette"}  # the module attribute some builds set
    called = set()
    for path in (PACKAGE / "kernels").glob("*.py"):
        called |= set(re.findall(r"_core\.(\w+)\(", path.read_text(encoding="utf-8")))
    assert exported - called == set()
    assert called - exported == set()


@pytest.mark.skipif(not RUST.is_dir(), reason="the Rust sources are not next to the tests")
def test_only_the_binding_knows_python():
    for path in RUST.glob("*.rs"):
        text = path.read_text(encoding="utf-8")
        knows = bool(re.search(r"\b(pyo3|numpy)::", text))
        assert knows == (path.name == "python.rs"), path.name
