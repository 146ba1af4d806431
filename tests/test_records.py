"""Result records: ``to_dict`` from the dataclass fields, in order, with what the fields say."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from mtpalette.records import Record, constant, out, written

SRC = Path(__file__).resolve().parents[1] / "src" / "mtpalette"


def _record_classes() -> list[tuple[str, ast.ClassDef]]:
    """Every class of the package that derives from Record, read from the source."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and b.id == "Record" for b in node.bases
            ):
                found.append((f"{path.relative_to(SRC)}:{node.name}", node))
    return found


def test_every_record_is_a_dataclass_without_a_keys_string():
    classes = _record_classes()
    assert len(classes) >= 21
    for where, node in classes:
        decorators = [ast.unparse(d) for d in node.decorator_list]
        assert any(d.startswith("dataclass") for d in decorators), where
        assigned = {t.id for s in node.body if isinstance(s, ast.Assign)
                    for t in s.targets if isinstance(t, ast.Name)}  # fmt: skip
        assert "KEYS" not in assigned, f"{where}: say renames and order on the fields"


@dataclasses.dataclass(frozen=True)
class _Interval:
    value: float
    low: float
    high: float


@dataclasses.dataclass(frozen=True)
class _Row(Record):
    rows: list[str] = dataclasses.field(metadata=out(after="note"))
    name: str
    ci: _Interval | None = dataclasses.field(
        metadata=out(parts={"score": "value", "low": "low", "high": "high"})
    )
    n: int = dataclasses.field(metadata=out("count", first=True))
    cache: dict = dataclasses.field(default_factory=dict, metadata=out(skip=True))
    note = constant("low and high: a 95% interval", after="ci")

    @written(key="width")
    def spread(self) -> float | None:
        return None if self.ci is None else self.ci.high - self.ci.low


def test_fields_in_order_with_renames_parts_places_and_computed_values():
    row = _Row(["a"], "m", _Interval(0.5, 0.25, 0.75), 3, {"x": 1})
    assert list(row.to_dict().items()) == [
        ("count", 3), ("name", "m"), ("score", 0.5), ("low", 0.25), ("high", 0.75),
        ("note", "low and high: a 95% interval"), ("rows", ["a"]), ("width", 0.5),
    ]  # fmt: skip
    empty = _Row([], "m", None, 0).to_dict()
    assert (empty["score"], empty["low"], empty["width"]) == (None, None, None)
    assert row.spread == 0.5 and row.note.startswith("low")  # still plain properties


def test_a_place_after_no_entry_is_refused():
    @dataclasses.dataclass
    class Bad(Record):
        a: int = dataclasses.field(metadata=out(after="nothing"))

    with pytest.raises(TypeError, match="Bad: no entry 'nothing'"):
        Bad(1).to_dict()
