"""The HTML report: content from the run files, self-contained, and checked in headless
Chromium (no console errors, the tables hold the run's numbers, plots render, the error
browser filters)."""

from __future__ import annotations

import json
import re

import pytest
from browser import ARGS, CHROMIUM, needs_chromium
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.runfile import load_run
from mtpalette.reporting.baselines import one_length_row


def test_report_holds_the_runs_numbers_and_is_self_contained(report):
    path, (orange_run, corr_run, sys_run, orange2) = report
    text = path.read_text(encoding="utf-8")
    for run in (orange_run, orange2):
        for row in run["results"]["table"]["rows"]:
            assert f"{100 * row['orange']:.2f}%" in text
    for run in (corr_run, sys_run):
        for table in run["results"]["tables"]:
            for row in one_length_row(table["rows"])[0]:  # len in its better orientation
                assert f"{row['correlation']:.4f}" in text
    # offline: no external scripts, styles, images or fonts
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    data = re.search(r'<script type="application/json" class="errors-data">(.*?)</script>', text)
    errors = json.loads(data.group(1))
    assert errors["metrics"] == ["bleus:4", "wer", "rouge-l"] and len(errors["segments"]) > 10
    assert errors["refs"] == ["A", "B"] and errors["ref_files"] == ["ref.txt", "refB.txt"]
    assert errors["ref_names"] == ["ref", "refB"]  # names from the data, not file names
    # the scatters' axes say what they show: raw scores with their direction
    assert "wer segment score (lower is better)" in text and "(metric negated)" not in text
    assert "wer corpus score (lower is better)" in text


def test_report_command_and_bad_run_files(report, tmp_path):
    path, _ = report
    runs = [str(path.parent / f"orange-{name}" / "run.json") for name in ("ted80", "ted60")]
    out = tmp_path / "r.html"
    args = ["report", *runs, "-o", str(out), "--labels", "TED-80,TED-60", "-q"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0 and out.stat().st_size > 10_000
    text = out.read_text(encoding="utf-8")
    # titles say what each run is
    assert "run1: ORANGE of system outputs, leave-one-out &middot; TED-80" in text
    assert "run2: ORANGE of system outputs, leave-one-out &middot; TED-60" in text
    assert '<table class="metrics summary">' in text  # two runs: one table, a column each
    result = CliRunner().invoke(app, ["report", *runs, "-o", str(out), "--labels", "x"])
    assert "1 label(s) for 2 run file(s)" in str(result.exception)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(UserInputError, match="not an mtpalette run file"):
        load_run(bad)
    broken = tmp_path / "broken.json"
    broken.write_text('{"format":\n')
    with pytest.raises(UserInputError, match=r"broken\.json:2: not valid JSON"):
        load_run(broken)


@needs_chromium
def test_report_in_headless_chromium(report):
    playwright = pytest.importorskip("playwright.sync_api")
    path, (orange_run, corr_run, sys_run, orange2) = report
    with playwright.sync_playwright() as p:  # playwright gives it a new, empty profile
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.goto(path.as_uri())
        page.wait_for_selector(".error-browser tbody tr")
        assert problems == []
        _check_tables(page, orange_run, corr_run, sys_run, orange2)
        _check_figures(page, orange_run, orange2, corr_run, sys_run)
        _check_error_browser(page, path, orange_run)
        assert _figure_text_problems(page) == []
        # references named from the data (the rated systems ref and refB), not file names
        names = _texts(page, "#run1 .ref-agreement tbody td:first-child")
        assert names and set(names) == {"ref", "refB"}
        assert problems == []
        browser.close()


#: per figure, the texts the browser draws outside their SVG or on one another (1 px slack)
FIGURE_TEXT_JS = """() => {
  const out = [];
  document.querySelectorAll('.fig svg').forEach((svg, k) => {
    const page = svg.getBoundingClientRect();
    const boxes = [];
    svg.querySelectorAll('text').forEach(t => {
      const r = t.getBoundingClientRect(), s = t.textContent.trim();
      if (!s || r.width === 0) return;
      if (r.left < page.left - 1 || r.right > page.right + 1 || r.top < page.top - 1
          || r.bottom > page.bottom + 1) out.push(`figure ${k}: '${s}' clipped`);
      for (const [o, b] of boxes)
        if (r.left < b.right - 1 && b.left < r.right - 1 && r.top < b.bottom - 1
            && b.top < r.bottom - 1) out.push(`figure ${k}: '${s}' over '${o}'`);
      boxes.push([s, r]);
    });
  });
  return out;
}"""


def _figure_text_problems(page):
    """Clipped or overlapping text in the figures as the browser draws them (its fonts)."""
    assert page.locator(".fig svg text").count() > 10
    return page.evaluate(FIGURE_TEXT_JS)


@needs_chromium
def test_tied_best_bold_and_the_audit_page_in_headless_chromium(tie_and_audit):
    playwright = pytest.importorskip("playwright.sync_api")
    path, (tie, audit) = tie_and_audit
    rows = tie["results"]["tables"][0]["rows"]
    top = max(r["correlation"] for r in rows)
    tied = [r["metric"] for r in rows if r["correlation"] == top]
    assert len(tied) == 4  # Kendall 0.3333 each
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(path.as_uri())
        weight = "el => getComputedStyle(el).fontWeight"
        for r in rows:
            cell = page.locator(f'#run1 .corr-table tr[data-metric="{r["metric"]}"] td.value')
            bold = int(cell.evaluate(weight)) >= 700
            assert bold == (r["metric"] in tied or r["cluster"] == 1), r["metric"]
        # the audit: a page of tables and sentences, not a JSON blob
        sec = page.locator("#run2")
        assert sec.locator(".audit-table tbody tr").count() == len(
            audit["results"]["audit"]["rows"]
        )
        human = audit["results"]["audit"]["human_outranked"]["value"]
        assert f"{100 * human:.1f}%" in sec.locator(".audit-human").text_content()
        assert "premise" in sec.locator(".audit-human").text_content()
        for pre in sec.locator("pre").all():  # raw JSON only behind a closed toggle
            assert not pre.is_visible()
        assert '"rows"' not in sec.locator(".audit-table").text_content()
        assert set(_texts(page, "#run2 .ref-agreement tbody td:first-child")) == {"ref", "refB"}
        assert ".txt" not in sec.locator(".ref-agreement").text_content()
        assert _figure_text_problems(page) == []
        browser.close()


def _texts(page, selector):
    return page.locator(selector).all_text_contents()


def _score(x):
    a = abs(x)
    return f"{x:.2f}" if a >= 10 else (f"{x:.3f}" if a >= 1 else f"{x:.4f}")


def _check_tables(page, orange_run, corr_run, sys_run, orange2):
    # the ORANGE tables hold the runs' numbers, in the runs' order
    expected = [
        f"{100 * r['orange']:.2f}%"
        for run in (orange_run, orange2)
        for r in run["results"]["table"]["rows"]
    ]
    assert _texts(page, ".orange-table td.orange") == expected
    assert _texts(page, ".corr-table td.value") == [
        f"{r['correlation']:.4f}"
        for run in (corr_run, sys_run)
        for t in run["results"]["tables"]
        for r in one_length_row(t["rows"])[0]  # the length baseline once
    ]

    # the systems table: every system's human score and each metric's corpus score, ranked
    ss = sys_run["results"]["tables"][0]["system_scores"]
    table = page.locator("table.systems")
    assert table.count() == 1
    systems = table.locator("tbody tr").evaluate_all("rs => rs.map(r => r.dataset.system)")
    order = sorted(range(len(ss["systems"])), key=lambda i: -ss["human"][i])
    assert systems == [ss["systems"][i] for i in order] and len(systems) == 13
    humans = table.locator("tbody td.human .rk").all_text_contents()
    assert humans == [str(k + 1) for k in range(13)]
    for j, metric in enumerate(ss["metrics"]):
        values = ss["metrics"][metric]
        cells = table.locator(f"tbody td.m:nth-child({j + 3}) .v").all_text_contents()
        assert cells == [_score(values[i]) for i in order]
        ranks = table.locator(f"tbody td.m:nth-child({j + 3}) .rk").all_text_contents()
        lower = metric == "wer"
        best = (min if lower else max)(values)
        assert ranks[[values[i] for i in order].index(best)] == "1"
    # below it, each system-level correlation with its interval
    for t, row in zip(sys_run["results"]["tables"], table.locator("tfoot tr").all(), strict=True):
        by = {r["metric"]: r for r in t["rows"]}
        cells = row.locator("td").all()[2:]
        for metric, cell in zip(ss["metrics"], cells, strict=True):
            r = by[metric]
            assert cell.text_content() == (
                f"{r['correlation']:.3f}[{r['low']:.2f}, {r['high']:.2f}]"
            )

    # the multi-run table: one column per run and table, the runs' numbers in it
    summary = page.locator("table.summary")
    heads = summary.locator("thead tr:nth-child(2) th").all_text_contents()[1:]
    assert heads == [
        "ORANGE (%) ↓",
        "pearson (segment)",
        "kendall-b (segment)",
        "pearson (system)",
        "kendall-b (system)",
        "ORANGE (%) ↓",
    ]
    runs = summary.locator("thead tr:first-child th").all_text_contents()[1:]
    assert runs == ["run1 · ted80", "run2 · zhen", "run3 · zhen", "run4 · ted60"]  # one each
    for row in orange2["results"]["table"]["rows"]:
        cell = summary.locator(f'tr[data-metric="{row["metric"]}"] td:last-child')
        assert cell.text_content() == f"{100 * row['orange']:.2f}"
        assert ("best" in cell.get_attribute("class")) == row["best"]
    wer = sys_run["results"]["tables"][1]["rows"]
    cell = summary.locator('tr[data-metric="wer"] td:nth-child(6)')
    assert (
        cell.text_content() == f"{next(r for r in wer if r['metric'] == 'wer')['correlation']:.4f}"
    )

    # signatures: a compact table, the raw JSON behind a closed toggle
    sigs = page.locator("#run1 table.sigs tbody tr")
    assert sigs.evaluate_all("rs => rs.map(r => r.dataset.metric)") == list(
        orange_run["signatures"]
    )
    assert "tok" in page.locator("#run1 table.sigs thead").text_content()
    assert not page.locator("#run1 details.raw pre").is_visible()
    assert page.locator("#run1 table.inputs").text_content().count("ref") >= 2


def _check_figures(page, orange_run, orange2, corr_run, sys_run):
    # each figure drawn twice, for a window (shown at 1400 px) and for a phone (hidden)
    assert page.locator(".fig > .wide svg").count() == page.locator(".fig > .narrow svg").count()
    assert page.locator(".fig > .narrow svg").evaluate_all(
        "s => s.every(x => !x.getBoundingClientRect().width)"
    )
    figs = page.locator(".fig > .wide svg")
    for k in range(figs.count()):
        box = figs.nth(k).bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
    # dot-and-whisker: one dot per metric, on an axis zoomed to the intervals (not from 0)
    dots = page.locator("#run1 .fig.ci-dots .wide svg")
    for r in orange_run["results"]["table"]["rows"]:
        assert dots.locator(f'g[id="dot-{r["metric"]}"] use').count() == 1
    ticks = [float(t) for t in dots.locator("text").all_text_contents() if _number(t)]
    low = min(100 * r["orange_low"] for r in orange_run["results"]["table"]["rows"])
    assert ticks and min(ticks) > low - 5 > 0
    # the curve: every metric's line, each with its own colour and marker
    for run, sec in ((orange_run, "#run1"), (orange2, "#run4")):
        curve = page.locator(f"{sec} .fig.curve svg")
        styles = set()
        for metric in run["results"]["curve"]["orange"]:
            line = curve.locator(f'g[id="curve-{metric}"] path').first
            assert line.count() == 1
            styles.add(line.get_attribute("style"))
        assert len(styles) == len(run["results"]["curve"]["orange"])
    # segment level: a hexbin per metric; system level: one labelled dot per system
    seg = page.locator('#run2 .fig.scatter[data-level="segment"]')
    assert seg.count() == len(corr_run["results"]["segment_scores"]["metrics"])
    assert seg.first.locator(".wide svg image").count() == 2  # rasterised hexagons, colour bar
    systems = sys_run["results"]["tables"][0]["system_scores"]["systems"]
    sysplots = page.locator('#run3 .fig.scatter[data-level="system"]')
    assert sysplots.count() == 3
    for k in range(3):
        svg = sysplots.nth(k).locator(".wide svg")
        assert svg.locator('g[id^="sys-"]').count() == len(systems)
        labels = set(svg.locator("text").all_text_contents())
        assert set(systems) <= labels


def _number(text):
    try:
        float(text.replace("−", "-"))
    except ValueError:
        return False
    return True


def _check_error_browser(page, path, orange_run):
    records = [
        json.loads(line)
        for line in (path.parent / "orange-ted80" / "errors.jsonl").read_text().splitlines()
    ]
    box = page.locator("#run1 .error-browser")
    best = next(r["metric"] for r in orange_run["results"]["table"]["rows"] if r["best"])
    assert box.locator(".eb-metric").input_value() == str(["bleus:4", "wer", "rouge-l"].index(best))
    count = box.locator(".eb-count")
    shown = [r for r in records if r["metric"] == best]
    assert count.text_content() == f"{len(shown)} segment(s)"
    rows = box.locator("tbody tr")
    assert rows.count() == min(20, len(shown))  # paged: the page stays short
    assert box.locator(".eb-page").first.text_content() == f"page 1 of {-(-len(shown) // 20)}"

    # each row: references A and B with their scores against each other, the candidates
    # with their score in each comparison, and "+N more"
    for k in range(rows.count()):
        row = rows.nth(k)
        rec = shown[k]
        assert row.get_attribute("data-segment") == str(rec["segment"])
        refs = row.locator(".ref")
        assert refs.locator(".lab").all_text_contents() == ["A", "B"]
        a, b = rec["reference_scores"]
        assert refs.locator(".meta").all_text_contents() == [
            f"vs B {_score(a)}",
            f"vs A {_score(b)}",
        ]
        cands = row.locator(".cand")
        assert cands.count() == min(5, rec["n_outranking"])
        first = rec["candidates"][0]
        meta = cands.first.locator(".meta .sc").all_text_contents()
        assert [m.replace(" ▲", "") for m in meta] == [
            f"vs B {_score(first['scores'][0])}",
            f"vs A {_score(first['scores'][1])}",
        ]
        assert cands.first.locator(".origin").text_content() == first["origin"]
        more = row.locator(".eb-all")
        if rec["n_outranking"] > 5:
            assert more.text_content() == f"+{rec['n_outranking'] - 5} more"
        else:
            assert more.count() == 0
    big = next(k for k in range(rows.count()) if shown[k]["n_outranking"] > 5)
    rows.nth(big).locator(".eb-all").click()
    assert rows.nth(big).locator(".cand").count() == len(shown[big]["candidates"])
    assert rows.nth(big).locator(".eb-all").text_content() == "show fewer"

    # highlights: the metric's matched n-grams, fewer words than every shared one
    page.select_option("#run1 .eb-metric", label="bleus:4")
    marks4 = sum(len(t.split()) for t in box.locator(".cand mark").all_text_contents())
    assert "n-grams of 2 to 4 words" in box.locator(".eb-legend").text_content()
    words = sum(len(t.split()) for t in box.locator(".cand").all_text_contents())
    assert 0 < marks4 < words
    # the comparison in view: B held out, scored against A
    page.select_option("#run1 .eb-comp", index=1)
    assert box.locator("tbody tr").first.locator(".ref.heldout .lab").text_content() == "B"
    assert box.locator("tbody tr").first.locator(".sc.cur").first.text_content().startswith("vs A")

    # paging, filtering, search, sorting
    box.locator(".eb-next").first.click()
    assert box.locator(".eb-page").first.text_content().startswith("page 2 of")
    total = int(count.text_content().split()[0])
    first_ref = box.locator("tbody tr .ref").first.text_content()
    word = max(first_ref.split()[3:], key=len).strip(".,;:!?\"'")
    page.fill("#run1 .eb-search", word)
    found = int(count.text_content().split()[0])
    assert 1 <= found < total
    for k in range(rows.count()):
        assert word.lower() in rows.nth(k).text_content().lower()
    page.fill("#run1 .eb-search", "")
    page.fill("#run1 .eb-min", "4")
    page.dispatch_event("#run1 .eb-min", "change")
    outranking = box.locator("tbody tr td:nth-child(3)").all_text_contents()
    assert outranking and all(int(x) >= 4 for x in outranking)
    page.select_option("#run1 .eb-metric", label="wer")
    assert "edit alignment" in box.locator(".eb-legend").text_content()
    page.click("#run1 th[data-sort=out]")
    after = [int(x) for x in box.locator("tbody tr td:nth-child(3)").all_text_contents()]
    assert after == sorted(after, reverse=True)
