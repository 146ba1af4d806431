"""``mtpalette demo`` runs on the bundled data and writes its ORANGE run."""

import json

from typer.testing import CliRunner

from mtpalette.cli.app import app


def test_demo(tmp_path):
    result = CliRunner().invoke(app, ["demo", "--out-dir", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "Online-W" in result.output and "ORANGE" in result.output
    run = json.loads((tmp_path / "run" / "run.json").read_text())
    assert run and (tmp_path / "run" / "curve.png").stat().st_size > 0
