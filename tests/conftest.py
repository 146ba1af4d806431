"""Shared fixtures: the real WMT21 TED MQM data, read from the shared data folder
(``tests/real_data.py``; the tests using it skip where it is absent)."""

from __future__ import annotations

import pytest
import real_data
from real_data import mqm_ted

from mtpalette.io.plain import read_lines


def _load(lp: str, ref_names: list[str]) -> tuple[dict[str, list[str]], list[list[str]]]:
    paths = mqm_ted(lp)
    refs = [read_lines(str(p)) for p in paths["refs"]]
    systems = {p.stem: read_lines(str(p)) for p in paths["systems"]}
    assert [p.stem for p in paths["refs"]] == ref_names
    return systems, refs


@pytest.fixture(scope="session")
def ted_zhen():
    """zh-en TED: ``(systems, refs)``; 13 systems x 529 segments, 2 English references."""
    return _load("zhen", ["ref", "refB"])


@pytest.fixture(scope="session")
def ted_ende():
    """en-de TED: ``(systems, refs)``; 13 systems x 529 segments, 1 German reference."""
    return _load("ende", ["ref"])


@pytest.fixture(scope="session")
def real_pairs(ted_zhen, ted_ende):
    """At least 2,000 real (hypothesis, references) pairs with 2 references and with 1.

    Returns ``{"two_refs": (hyps, refs), "one_ref": (hyps, refs)}`` with the systems'
    outputs concatenated and the references repeated to match.
    """
    out = {}
    for key, (systems, refs) in {"two_refs": ted_zhen, "one_ref": ted_ende}.items():
        names = sorted(systems)[:5]
        hyps = [line for name in names for line in systems[name]]
        out[key] = (hyps, [ref * len(names) for ref in refs])
    return out


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run the real entry point in-process: ``cli(*args)`` gives (exit code, stdout, stderr)."""
    import sys

    from mtpalette.cli.app import main

    def run(*args):
        monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code or 0
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


_REAL_FIXTURES = {"ted_zhen", "ted_ende", "real_pairs"}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Mark the reports of tests that read the shared data (``tests/real_data.py``)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and (
        item.nodeid in real_data.USED_BY
        or str(item.path) in real_data.USED_BY
        or _REAL_FIXTURES & set(item.fixturenames)
    ):
        report.user_properties.append(("real_data", True))


def pytest_terminal_summary(terminalreporter):
    """One line: how many tests ran on the shared data, and how many skipped without it."""
    stats = terminalreporter.stats
    ran = sum(
        ("real_data", True) in r.user_properties
        for r in [*stats.get("passed", []), *stats.get("failed", [])]
        if getattr(r, "when", None) == "call"
    )
    skipped = sum(real_data.ABSENT in str(r.longrepr) for r in stats.get("skipped", []))
    terminalreporter.write_line(
        f"real data ({real_data.SHARED}): {ran} tests ran on it, {skipped} skipped without it"
    )
