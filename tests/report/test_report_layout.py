"""The report as a new user sees it, in headless Chromium at a desktop's width (1400 px) and at
a phone's (390 px), after its scripts ran: the demo's report, a report of every kind of
section (ORANGE, correlation, ranking, compare-mt's analyses, audit) and the browser test's
own. In each, checked in the rendered page:

* no label is a file name (``ref.txt``, ``SMU.txt``) or a path where the data name a system
  or a metric: headers, row labels, the menu, titles, captions, choices, figure text;
* no table without body rows;
* no column whose header (with the headers above it) repeats another's or is empty;
* the page is no wider than the window (a wide table scrolls inside its own box).
"""

from __future__ import annotations

import pytest
from browser import ARGS, CHROMIUM, needs_chromium

WIDTHS = (1400, 390)

#: every problem of the rendered page, as sentences
LAYOUT_JS = r"""() => {
  const out = [];
  const where = el => { const s = el.closest('section'); return s ? s.id : 'page'; };
  // a file name or a path, as a word of a label
  const FILE = /^[\w.+-]+\.(txt|tsv|csv|jsonl?|gz|xml|sgml?)$/i;
  const PATH = /^(\.{0,2}\/)?([\w.+-]+\/)+[\w.+-]*$/;
  const fileLike = s => s.split(/\s+/).some(w => {
    w = w.replace(/^[(\[]+|[)\],;:]+$/g, '');
    return FILE.test(w) || (PATH.test(w) && /[A-Za-z]/.test(w));
  });
  const own = el => Array.from(el.childNodes)
    .filter(n => !(n.classList && n.classList.contains('note'))).map(n => n.textContent).join('');
  // (the inputs table's second column is the file itself)
  const labels = 'th, tbody td:first-child, table:not(.inputs) td.name, nav a, h2, h3, caption,'
    + ' select option, .fig svg text, .origin, .lab';
  document.querySelectorAll(labels).forEach(el => {
    const text = (el.tagName === 'H2' ? own(el) : el.textContent).trim();
    if (text && fileLike(text)) out.push(`${where(el)}: a file name as a label: '${text}'`);
  });
  document.querySelectorAll('table').forEach(t => {
    const name = `${where(t)} table.${t.className.replace(/ /g, '.')}`;
    const head = t.tHead ? t.tHead.rows.length : 0;
    if (t.rows.length - head - (t.tFoot ? t.tFoot.rows.length : 0) === 0)
      out.push(`${name}: no rows`);
    if (!head) return;
    const grid = [];  // the header texts over every column, spans spread
    Array.from(t.tHead.rows).forEach((row, r) => {
      grid[r] = grid[r] || [];
      let c = 0;
      for (const cell of row.cells) {
        while (grid[r][c] !== undefined) c++;
        const text = cell.textContent.replace(/[\u2195]/g, '').trim();
        for (let i = 0; i < cell.rowSpan; i++)
          for (let j = 0; j < cell.colSpan; j++) {
            grid[r + i] = grid[r + i] || [];
            grid[r + i][c + j] = text;
          }
        c += cell.colSpan;
      }
    });
    const n = Math.max(...grid.map(g => g.length));
    const seen = new Set();
    for (let c = 0; c < n; c++) {
      const path = grid.map(g => g[c] || '').filter((s, i, a) => s && s !== a[i - 1]).join(' > ');
      if (!path) out.push(`${name}: column ${c + 1} has no header`);
      else if (seen.has(path)) out.push(`${name}: two columns headed '${path}'`);
      seen.add(path);
    }
  });
  const wide = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  if (wide > window.innerWidth + 1)
    out.push(`page: ${wide} px wide in a ${window.innerWidth} px window`);
  return out;
}"""


def layout_problems(path, width):
    """The problems :data:`LAYOUT_JS` finds in the report at ``path``, ``width`` px wide."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": width, "height": 900})
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(path.as_uri())
        if page.locator(".error-browser").count():
            page.wait_for_selector(".error-browser tbody tr")  # the browser's rows are drawn
        found = page.evaluate(LAYOUT_JS)
        browser.close()
    return errors + found


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_the_demo_report(demo_report, width):
    path, _ = demo_report
    assert layout_problems(path, width) == []


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_a_report_of_every_kind_of_section(mixed_report, width):
    path, _ = mixed_report
    assert layout_problems(path, width) == []


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_the_browser_tests_report(report, width):
    path, _ = report
    assert layout_problems(path, width) == []


@needs_chromium
def test_the_checker_sees_each_problem(tmp_path):
    page = tmp_path / "bad.html"
    page.write_text(
        "<html><body style='margin:0'><nav><a href='#x'>sys.SMU.txt</a></nav><section id='x'>"
        "<table class='a'><thead><tr><th>metric</th><th>x</th><th>x</th><th></th></tr></thead>"
        "<tbody></tbody></table>"
        "<table class='b'><thead><tr><th>system</th></tr></thead><tbody><tr>"
        "<td>outputs/A.txt</td></tr></tbody></table>"
        "<div style='width:700px'>wide</div></section></body></html>",
        encoding="utf-8",
    )
    found = layout_problems(page, 390)
    assert found == [
        "page: a file name as a label: 'sys.SMU.txt'",
        "x: a file name as a label: 'outputs/A.txt'",
        "x table.a: no rows",
        "x table.a: two columns headed 'x'",
        "x table.a: column 4 has no header",
        "page: 700 px wide in a 390 px window",
    ]
