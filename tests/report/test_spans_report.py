"""The report's span section (``mtpalette spans --report``): the per-annotator tables with
intervals, the baselines and ceiling marked, and the span viewer's highlighted spans, checked
in the HTML's structure and, where Chromium is installed, rendered at both widths by the
layout checker of test_report_layout (on the project-written golden spans)."""

from __future__ import annotations

import html.parser
import json

import pytest
from browser import needs_chromium
from span_files import golden, write_files
from test_report_layout import WIDTHS, layout_problems


@pytest.fixture(scope="module")
def spans_report(tmp_path_factory):
    from browser import run_cli

    tmp = tmp_path_factory.mktemp("spans-report")
    files = write_files(golden("wmt25")["inputs"], tmp)
    out = tmp / "spans.html"
    run_cli(["spans", "--gold", str(files["gold"]), "--gold", str(files["sparse"]),
             "--pred", f"near={files['near']}", "--pred", f"random={files['random']}",
             "--protocol", "wmt25,mpp", "--bootstrap", "100", "--report", str(out),
             "-q"])  # fmt: skip
    return out


class _Structure(html.parser.HTMLParser):
    """Open tags checked to close in order (void elements aside); marks and rows counted."""

    VOID = {"meta", "link", "br", "img", "input", "hr", "col", "wbr", "source"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.marks, self.rows = [], [], {}, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "mark":
            self.marks[a.get("class")] = self.marks.get(a.get("class"), 0) + 1
        if tag == "tr" and "data-lp" in a:
            self.rows += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:]} at {self.getpos()}")
            return
        self.stack.pop()


def test_the_span_section_structure(spans_report):
    text = spans_report.read_text(encoding="utf-8")
    parser = _Structure()
    parser.feed(text)
    assert parser.errors == [] and parser.stack == []
    assert text.count('class="metrics spans-table"') == 2
    # 2 annotators + ceiling + 2 baselines, 3 pairs + all, 2 protocols
    assert parser.rows == 5 * 4 * 2
    assert parser.marks.get("sp-major", 0) > 0 and parser.marks.get("sp-minor", 0) > 0
    assert 'class="sp-ins"' in text  # the golden spans hold insertion points
    assert '<span class="chip">ceiling</span>' in text and "baseline</span>" in text
    run = json.loads(spans_report.with_suffix(".run.json").read_text())
    shown = run["results"]["viewer"]
    assert 0 < len(shown) <= 20 and text.count('class="span-seg"') == len(shown)
    near = next(r for r in run["results"]["rows"]
                if (r["protocol"], r["metric"], r["lp"]) == ("wmt25", "near", "all"))  # fmt: skip
    assert f"{near['f1']:.4f} [{near['f1_low']:.3f}, {near['f1_high']:.3f}]" in text


@needs_chromium
@pytest.mark.parametrize("width", WIDTHS)
def test_the_span_section_renders(spans_report, width):
    assert layout_problems(spans_report, width) == []
