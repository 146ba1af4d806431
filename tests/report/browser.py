"""What the report's browser tests share: Chromium (Debian's ``chromium``; ``.ci/run``
installs it) driven by playwright, the tests skipped with a message without it, and the
command-line runs that make the reports (:mod:`conftest` builds them)."""

from __future__ import annotations

import shutil

import pytest
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (.ci/run installs it)"
)
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def run_cli(args):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output


def real_root():
    """The real WMT21 TED zh-en folder (a skip without the shared data: ``tests/real_data.py``;
    called by fixtures, never at import, as conftest imports this module)."""
    return mqm_ted("zhen")["root"]


def excerpt(tmp, folder, name, n):
    path = tmp / folder / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("\n".join((real_root() / name).read_text().split("\n")[:n]) + "\n")
    return path


def orange_run(tmp, folder, n, systems, metrics):
    refs = [excerpt(tmp, folder, name, n) for name in ("ref.txt", "refB.txt")]
    hyps = [excerpt(tmp, folder, f"{name}.txt", n) for name in systems]
    out = tmp / f"orange-{folder}"
    run_cli(
        ["orange", "--refs", *map(str, refs), "--systems", *map(str, hyps), *metrics]
        + ["--bootstrap", "100", "--out-dir", str(out), "-q", "--curve-step", "1"]
    )
    return out / "run.json"
