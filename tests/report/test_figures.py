"""Every figure of the report, drawn from real runs on the bundled WMT21 TED zh-en data (an
ORANGE run with the demo's 11 metrics and 13 systems, segment- and system-level correlation
runs, an audit run), has no text outside the figure (no clipped axis label, title or legend)
and no two texts on one another (legend over title, system names over each other), as
matplotlib's renderer measures them (:func:`mtpalette.reporting.plots.layout_problems`)."""

from __future__ import annotations

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args
from typer.testing import CliRunner

from mtpalette.api import corpus_score
from mtpalette.cli.app import app
from mtpalette.io.judgments_read import read_judgments
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import load_run
from mtpalette.reporting import plots
from mtpalette.reporting.html import build_report
from mtpalette.reporting.plots import layout_problems, place_labels

ZHEN = mqm_ted("zhen")
METRICS = ["bleus:1..4", "chrf", "wer", "per", "rouge-l", "rouge-w:1.2", "rouge-s:4", "rouge-s:*"]


def _cli(args):
    result = CliRunner().invoke(app, [*args, "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output


@pytest.fixture(scope="module")
def figures(tmp_path_factory):
    """The report's figures of four real runs, as matplotlib figures (SVG making skipped)."""
    tmp = tmp_path_factory.mktemp("figures")
    refs, systems = [str(p) for p in ZHEN["refs"]], [str(p) for p in ZHEN["systems"]]
    _cli(["orange", "-r", *refs, "-s", *systems, "-m", *METRICS, "--bootstrap", "100"]
         + ["--out-dir", str(tmp / "orange"), "--curve-step", "1"])  # fmt: skip
    corr = ["correlate", *mqm_ted_args("zhen"), "-m", "bleu", "chrf", "wer", "rouge-w:1.2"]
    corr += ["--bootstrap", "100", "--test", "bootstrap", "--stat", "pearson,kendall"]
    _cli([*corr, "--max-items", "150", "--keep-scores", "--out-dir", str(tmp / "seg")])
    _cli([*corr, "--level", "system", "--out-dir", str(tmp / "sys")])
    _cli(["audit", *mqm_ted_args("zhen"), "-m", "bleus:4", "chrf", "wer", "--bootstrap", "50"]
         + ["--json", str(tmp / "audit.json")])  # fmt: skip
    paths = [tmp / "orange" / "run.json", tmp / "seg" / "run.json", tmp / "sys" / "run.json"]
    paths.append(tmp / "audit.json")
    drawn = []

    def keep(fig):
        drawn.append(fig)
        return "<svg></svg>"

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plots, "svg_of", keep)  # every figure, the ORANGE curve too (responsive)
        build_report([(load_run(p), p) for p in paths])
    return drawn


def test_every_report_figure_is_drawn(figures):
    titles = [ax.get_title() for fig in figures for ax in fig.axes[:1]]
    # ORANGE: intervals and curve; 2 x 2 correlation charts; 4 hexbins; 4 system scatters;
    # the audit's chart; each drawn for a window and, NARROW inches wide, for a phone
    assert len(figures) == 2 * (2 + 4 + 4 + 4 + 1), titles
    narrow = [f for f in figures if f.get_figwidth() <= plots.NARROW]
    assert len(narrow) == 2 + 4 + 4 + 4 + 1
    scatter = [f for f in figures if any(t.get_text() == "Online-W" for t in f.axes[0].texts)]
    assert len(scatter) == 2 * 4  # every system scatter names the systems on their dots
    assert len([f for f in scatter if f in narrow]) == 4


def test_no_clipped_or_overlapping_text_in_any_figure(figures):
    problems = [
        (k, fig.get_figwidth(), fig.axes[0].get_title() or fig.axes[0].get_xlabel(), found)
        for k, fig in enumerate(figures)
        if (found := layout_problems(fig))
    ]
    assert problems == []


def test_the_checker_sees_overlaps_and_clipping():
    """The check itself: labels of 13 real systems written on their dots overlap; a label
    placed past the edge is clipped; the same dots labelled by place_labels are clean."""
    fig = plots._figure(4.4, 3.5)
    ax = fig.add_subplot(1, 1, 1)
    names = [p.stem for p in ZHEN["systems"]]
    # the 13 systems' corpus BLEU and mean MQM score on the bundled data
    refs = [read_lines(p) for p in ZHEN["refs"]]
    x = [corpus_score(read_lines(p), refs, ["bleu"])[0].value for p in ZHEN["systems"]]
    judged = read_judgments(ZHEN["judgments"])
    y = [float(np.nanmean(judged.scores[judged.systems.index(n)])) for n in names]
    ax.plot(x, y, "o")
    for xi, yi, n in zip(x, y, names, strict=True):
        ax.annotate(n, (xi, yi), fontsize=9)
    ax.set_xlabel("bleu corpus score " * 6)
    problems = layout_problems(fig)
    assert any("overlaps" in p for p in problems)
    assert any("is clipped" in p for p in problems)
    for text in list(ax.texts):
        text.remove()
    ax.set_xlabel("bleu corpus score")
    ax.margins(x=0.18, y=0.1)
    left_out = place_labels(ax, x, y, names)
    assert layout_problems(fig) == [] and len(left_out) < len(names) // 2
