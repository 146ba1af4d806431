"""The report as a new user sees it, in headless Chromium at a desktop's width (1400 px) and at
a phone's (390 px), after its scripts ran: the demo's report, a report of every kind of
section (ORANGE, correlation, ranking, compare-mt's analyses, audit) and the browser test's
own. In each, checked in the rendered page:

* no label is a file name (``ref.txt``, ``SMU.txt``) or a path where the data name a system
  or a metric: headers, row labels, the menu, titles, captions, choices, figure text;
* no table without body rows;
* no column whose header (with the headers above it) repeats another's or is empty;
* the page is no wider than the window (a wide table scrolls inside its own box);
* every chart readable: no text of the drawing shown at this width smaller than
  :data:`MIN_FONT_PX` as drawn, none outside its figure;
* in every result table, each row's first number in view (a wide table scrolls in its box,
  its row names wrap), and a correlation table's value and interval.
"""

from __future__ import annotations

import pytest
from browser import ARGS, CHROMIUM, needs_chromium

WIDTHS = (1400, 390)
#: the smallest chart text, in CSS pixels as drawn (a 7 pt label at 1:1 is 9.3 px)
MIN_FONT_PX = 8.5

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
  // charts: the drawing shown at this width (the other has no box), its text readable
  document.querySelectorAll('.fig svg').forEach(svg => {
    const fig = svg.getBoundingClientRect();
    if (!fig.width) return;
    svg.querySelectorAll('text').forEach(t => {
      const s = t.textContent.trim(), m = t.getScreenCTM(), r = t.getBoundingClientRect();
      if (!s || !m || !r.width) return;
      const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));  // of the drawing, as shown
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (px < MIN_FONT_PX) out.push(`${where(svg)}: chart text '${s}' ${px.toFixed(1)} px high`);
      if (r.left < fig.left - 1 || r.right > fig.right + 1)
        out.push(`${where(svg)}: chart text '${s}' outside its figure`);
    });
  });
  // tables: the first column of numbers in view, inside the table's scrolling box
  document.querySelectorAll('table.metrics').forEach(t => {
    const box = (t.closest('.scroll') || t.parentElement).getBoundingClientRect();
    if (!box.width || !t.tBodies.length) return;
    const right = Math.min(box.right, window.innerWidth) + 1;
    const name = `${where(t)} table.${t.className.replace(/ /g, '.')}`;
    const isNumber = c => c && /^[-\u2212]?\[?\d/.test(c.textContent.trim());
    const rows = Array.from(t.tBodies[0].rows)  // rows of one cell per column
      .filter(r => r.cells.length > 1 && Array.from(r.cells).every(c => c.colSpan === 1));
    const width = Math.max(0, ...rows.map(r => r.cells.length));
    let first = 0;
    while (first < width && !rows.some(r => isNumber(r.cells[first]))) first++;
    // a correlation's value and its interval
    const must = t.classList.contains('corr-table') ? [1, 2] : (first < width ? [first] : []);
    for (const row of rows) {
      const off = must.map(k => row.cells[k])
        .find(c => c && c.getBoundingClientRect().right > right);
      if (off) { out.push(`${name}: '${off.textContent.trim()}' out of view`); break; }
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
        found = page.evaluate(LAYOUT_JS.replace("MIN_FONT_PX", str(MIN_FONT_PX)))
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
        "<div class='fig'><svg width='300' height='40' viewBox='0 0 600 80'><text x='5' y='40'"
        " style='font-size:10px'>tiny</text><text x='560' y='70' style='font-size:20px'>cut off"
        "</text></svg></div><div class='scroll' style='overflow-x:auto'><table class='metrics c'>"
        "<thead><tr><th>metric</th><th>value</th></tr></thead><tbody><tr><td style='"
        "min-width:500px'>m</td><td>0.5</td></tr></tbody></table></div>"
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
        "x: chart text 'tiny' 5.0 px high",
        "x: chart text 'cut off' outside its figure",
        "x table.metrics.c: '0.5' out of view",
        "page: 700 px wide in a 390 px window",
    ]
