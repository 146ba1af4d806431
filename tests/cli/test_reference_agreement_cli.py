"""``orange`` prints each reference against the others beside the systems, and warns when a
reference is closer to another than the best system (a post-edit, not an independent one)."""

from __future__ import annotations

import json
import re

from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app

ZHEN = mqm_ted("zhen")
SYSTEMS = [str(p) for p in ZHEN["systems"][:4]]


def _orange(tmp_path, refs):
    out = tmp_path / "o.json"
    args = ["orange", "-r", *map(str, refs), "-s", *SYSTEMS, "-m", "bleus:4", "chrf"]
    result = CliRunner().invoke(app, [*args, "--bootstrap", "0", "--json", str(out)])
    assert result.exit_code == 0, result.output
    return result.output, json.loads(out.read_text())["results"]["reference_agreement"]


def test_independent_references_raise_no_warning(tmp_path):
    output, agreement = _orange(tmp_path, ZHEN["refs"])
    assert "Reference agreement" in output and "warning" not in output
    assert not any(r["closer_than_best_system"] for r in agreement["rows"])


def test_a_lightly_edited_copy_of_a_reference_is_flagged(tmp_path):
    # derived here from the real reference A by light edits (articles swapped, one comma
    # dropped per line): what a post-edited "second reference" looks like
    text = ZHEN["refs"][0].read_text(encoding="utf-8")
    edited = re.sub(r"\bthe\b", "a", text).replace(",", "", 1)
    derived = tmp_path / "derived.txt"
    derived.write_text(edited, encoding="utf-8")
    output, agreement = _orange(tmp_path, [ZHEN["refs"][0], derived])
    assert "warning" in output
    assert all(r["closer_than_best_system"] for r in agreement["rows"])
