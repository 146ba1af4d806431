"""The HTML report: content from the run files, self-contained, and checked in headless
Chromium (no console errors, the tables hold the run's numbers, plots render, the error
browser filters)."""

from __future__ import annotations

import json
import re
import shutil
from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.runfile import load_run
from mtpalette.report.html import write_report

ROOT = Path(str(resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
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


def _run(args):
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """An ORANGE run and a correlation run on 80 real segments, and their report."""
    tmp = tmp_path_factory.mktemp("report")
    refs = [tmp / "ref.txt", tmp / "refB.txt"]
    for name, path in zip(("ref.txt", "refB.txt"), refs, strict=True):
        path.write_text("\n".join((ROOT / name).read_text().split("\n")[:80]) + "\n")
    systems = []
    for name in ("Facebook-AI", "NiuTrans", "Online-W", "SMU", "DIDI-NLP"):
        p = tmp / f"{name}.txt"
        p.write_text("\n".join((ROOT / f"{name}.txt").read_text().split("\n")[:80]) + "\n")
        systems.append(p)
    metrics = ["-m", "bleus:4", "wer", "rouge-l"]
    _run(
        [
            "orange",
            "--refs",
            *map(str, refs),
            "--systems",
            *map(str, systems),
            *metrics,
            "--bootstrap",
            "100",
            "--out-dir",
            str(tmp / "orange"),
            "-q",
        ]
    )
    _run(
        [
            "correlate",
            "--bundled",
            "zhen",
            *metrics,
            "--stat",
            "pearson,kendall",
            "--max-items",
            "120",
            "--bootstrap",
            "100",
            "--test",
            "bootstrap",
            "--keep-scores",
            "--out-dir",
            str(tmp / "corr"),
            "-q",
        ]
    )
    runs = [tmp / "orange" / "run.json", tmp / "corr" / "run.json"]
    out = write_report(runs, tmp / "report.html")
    return out, [json.loads(p.read_text()) for p in runs]


def test_report_holds_the_runs_numbers_and_is_self_contained(report):
    path, (orange_run, corr_run) = report
    text = path.read_text(encoding="utf-8")
    for row in orange_run["results"]["table"]["rows"]:
        assert f"{100 * row['orange']:.2f}%" in text
    for table in corr_run["results"]["tables"]:
        for row in table["rows"]:
            assert f"{row['correlation']:.4f}" in text
    # offline: no external scripts, styles, images or fonts
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert text.count("<svg") >= 2 + 2 + 3  # CI bars, curve, two correlation bars, 3 scatters
    data = re.search(r'<script type="application/json" class="errors-data">(.*?)</script>', text)
    errors = json.loads(data.group(1))
    assert errors["metrics"] == ["bleus:4", "wer", "rouge-l"] and len(errors["segments"]) > 10


def test_report_command_and_bad_run_files(report, tmp_path):
    path, _ = report
    run_file = path.parent / "orange" / "run.json"
    out = tmp_path / "r.html"
    result = CliRunner().invoke(app, ["report", str(run_file), "-o", str(out), "-q"])
    assert result.exit_code == 0 and out.stat().st_size > 10_000
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(UserInputError, match="not an mtpalette run file"):
        load_run(bad)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":\n')
    with pytest.raises(UserInputError, match=r"broken\.json:2: not valid JSON"):
        load_run(broken)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs it)")
def test_report_in_headless_chromium(report):
    playwright = pytest.importorskip("playwright.sync_api")
    path, (orange_run, corr_run) = report
    with playwright.sync_playwright() as p:  # playwright gives it a new, empty profile
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.goto(path.as_uri())
        page.wait_for_selector(".error-browser tbody tr")
        assert problems == []

        # the ORANGE table holds the run's numbers, in the run's order
        cells = page.locator(".orange-table td.orange").all_text_contents()
        expected = [f"{100 * r['orange']:.2f}%" for r in orange_run["results"]["table"]["rows"]]
        assert cells == expected
        values = page.locator(".corr-table td.value").all_text_contents()
        assert values == [
            f"{r['correlation']:.4f}" for t in corr_run["results"]["tables"] for r in t["rows"]
        ]

        # plots render: every figure has a visible size and drawn paths
        figs = page.locator(".fig svg")
        assert figs.count() >= 7
        for k in range(figs.count()):
            box = figs.nth(k).bounding_box()
            assert box is not None and box["width"] > 100 and box["height"] > 50
        assert page.locator(".fig.curve svg path").count() > 10
        assert page.locator(".fig.scatter svg image").count() == 3  # rasterised points

        # the error browser filters, searches and switches metric
        count = page.locator(".eb-count")
        total = int(count.text_content().split()[0])
        first_ref = page.locator(".error-browser tbody tr .ref").first.text_content()
        word = max(first_ref.split()[1:], key=len).strip(".,;:!?\"'")
        page.fill(".eb-search", word)
        found = int(count.text_content().split()[0])
        assert 1 <= found < total
        rows = page.locator(".error-browser tbody tr")
        for k in range(rows.count()):
            assert word.lower() in rows.nth(k).text_content().lower()
        page.fill(".eb-search", "")
        page.fill(".eb-min", "4")
        page.dispatch_event(".eb-min", "change")
        outranking = page.locator(".error-browser tbody tr td:nth-child(3)").all_text_contents()
        assert outranking and all(int(x) >= 4 for x in outranking)
        page.select_option(".eb-metric", label="wer")
        assert page.locator(".error-browser tbody tr").count() >= 1
        page.click("th[data-sort=out]")
        after = [
            int(x)
            for x in page.locator(".error-browser tbody tr td:nth-child(3)").all_text_contents()
        ]
        assert after == sorted(after, reverse=True)
        assert page.locator("mark").count() > 0  # matched words highlighted
        assert problems == []
        browser.close()
