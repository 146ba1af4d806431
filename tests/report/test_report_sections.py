"""Report sections built from run dictionaries."""

from mtpalette.reporting.correlation_section import correlation_section
from mtpalette.reporting.orange_section import error_browser_data
from mtpalette.reporting.overview import summary_table, systems_table

ROW = {"metric": "wer", "correlation": 0.5, "low": 0.4, "high": 0.6, "cluster": 1,
       "metric_higher_is_better": False}  # fmt: skip
SYSTEMS = {"systems": ["A", "B", "C"], "kind": "corpus", "human": [-2.0, -1.0, -3.0],
           "n_rated": [3, 3, 3], "metrics": {"wer": [0.3, 0.2, 0.5]}}  # fmt: skip


def _run(level, **extra):
    table = {"statistic": "pearson", "level": level, "rows": [ROW], **extra}
    return {
        "results": {
            "tables": [table],
            "segment_scores": {"human": [0.0, -5.0, -1.0], "metrics": {"wer": [0.2, 0.9, 0.4]}},
        }
    }


def test_segment_scatter_never_quotes_a_system_level_correlation():
    """Once a system-level run titled its segment points with the system-level value."""
    (system,) = correlation_section(_run("system"))["scatters"]
    assert "no segment-level correlation" in system["svg"]["wide"]
    (segment,) = correlation_section(_run("segment"))["scatters"]
    for drawn in segment["svg"].values():  # for a window and for a phone
        assert "segment level: pearson 0.500 [0.400, 0.600]" in drawn
        assert "wer segment score (lower is better)" in drawn
        assert "negated" not in drawn


def test_system_level_plots_one_labelled_dot_per_system():
    (seg, sys) = correlation_section(_run("system", system_scores=SYSTEMS), "MQM")["scatters"]
    assert (seg["level"], sys["level"]) == ("segment", "system")
    wide, narrow = sys["svg"]["wide"], sys["svg"]["narrow"]
    assert wide.count('id="sys-') == 3 and all(f">{s}<" in wide for s in "ABC")
    # the phone's drawing: the same dots, ids of their own (both drawings are in the page)
    assert narrow.count('id="n-sys-') == 3 and 'id="sys-' not in narrow
    assert all(f">{s}<" in narrow for s in "ABC")
    for drawn in (wide, narrow):
        assert "wer corpus score (lower is better)" in drawn
        assert "MQM score (system mean)" in drawn


def test_systems_table_ranks_by_human_score_and_metric_direction():
    st = systems_table([_run("system", system_scores=SYSTEMS)], human_name="MQM")
    assert [(r["system"], r["human_rank"], r["cells"]) for r in st["rows"]] == [
        ("B", 1, [(0.2, 1)]),
        ("A", 2, [(0.3, 2)]),
        ("C", 3, [(0.5, 3)]),  # WER: lower is better
    ]
    assert st["correlations"] == [
        {"statistic": "pearson", "confidence": 0.95, "cells": [(0.5, 0.4, 0.6, 1)]}
    ]
    assert systems_table([_run("segment")]) is None  # no systems' scores: no table


def test_systems_table_shows_the_length_baselines_as_baselines(tmp_path):
    """The README's report once shaded a length baseline as the best metric of a system."""
    from typer.testing import CliRunner

    from mtpalette.cli.app import app

    base = {"metric": "len", "correlation": 0.2, "low": 0.1, "high": 0.3, "cluster": 2,
            "metric_higher_is_better": True, "baseline": True}  # fmt: skip
    scores = {**SYSTEMS, "metrics": {"wer": [0.3, 0.2, 0.5], "len": [9.0, 7.0, 8.0]}}
    run = _run("segment", system_scores=scores)
    run["results"]["tables"][0]["rows"].append(base)
    st = systems_table([run])
    assert st["metrics"] == ["wer", "len"] and st["baseline"] == [False, True]
    # the README's report: a segment-level run's systems table with its three baselines
    out = tmp_path / "run"
    args = ["correlate", "--bundled", "zhen", "-m", "bleu", "chrf", "--bootstrap", "0",
            "--permutations", "0", "--out-dir", str(out), "--report", str(out / "r.html")]
    assert CliRunner().invoke(app, args).exit_code == 0
    html = (out / "r.html").read_text(encoding="utf-8")
    table = html.split('<table class="metrics systems"')[1].split("</table>")[0]
    for name in ("len:sign=-1", "len", "lendiff"):
        assert f'<th data-metric="{name}" class="baseline">' in table
    assert table.count('class="m baseline"') == 3 * 8  # 8 systems, never shaded as best
    assert table.count('class="m best"') == 2  # bleu's and chrf's best system


def test_summary_table_has_a_column_per_run_and_table():
    orange_rows = [
        {"metric": "wer", "orange": 0.6512, "best": True, "equivalent_to_best": False},
        {"metric": "bleus:4", "orange": 0.66, "best": False, "equivalent_to_best": True},
    ]
    corr = correlation_section(_run("system"))
    sections = [
        {"id": "run1", "dataset": "ted", "orange": {"rows": orange_rows}, "correlation": None},
        {"id": "run2", "dataset": "news", "orange": None, "correlation": corr},
    ]
    t = summary_table(sections)
    assert [(c["dataset"], c["title"]) for c in t["columns"]] == [
        ("ted", "ORANGE (%) ↓"),
        ("news", "pearson (system)"),
    ]
    assert t["rows"] == [
        {"metric": "wer", "cells": [("65.12", "best"), ("0.5000", "best")]},
        {"metric": "bleus:4", "cells": [("66.00", "equiv"), ("", "")]},
    ]
    assert t["groups"] == [{"run": "run1", "dataset": "ted", "span": 1},
                           {"run": "run2", "dataset": "news", "span": 1}]  # fmt: skip
    sections.append({"id": "run3", "dataset": "news", "orange": None, "correlation": {
        "tables": corr["tables"] * 2}})  # fmt: skip
    assert summary_table(sections)["groups"][2] == {"run": "run3", "dataset": "news", "span": 2}
    assert summary_table(sections[:1]) is None


def test_error_browser_keeps_every_candidate_and_the_references_scores():
    cands = [{"scores": [0.9 - k / 100, 0.8], "origin": f"S{k}", "text": f"t{k}"} for k in range(8)]
    rec = {"metric": "bleus:4", "segment": 3, "n_candidates": 13, "oracle_rank": 9.5,
           "n_outranking": 12, "n_comparisons": 2, "oracle": "leave-one-out",
           "reference_scores": [0.5, 0.6], "references": ["r a", "r b"],
           "candidates": cands}  # fmt: skip
    d = error_browser_data([rec], per_segment=5, kept=8, directions={"bleus:4": True})
    entry = d["segments"][0]["by"]["0"]
    assert len(entry["c"]) == 8 and entry["out"] == 12 and entry["rs"] == [0.5, 0.6]
    assert d["modes"] == [["ngram", 4]] and d["higher"] == [True] and d["kept"] == 8
    assert d["origins"] == [f"S{k}" for k in range(8)]


# ---- issue 27: ties, p-values, rounding artefacts, names, layout --------------------------
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from mtpalette.reporting import plots  # noqa: E402
from mtpalette.reporting.correlation_section import cluster_rows  # noqa: E402
from mtpalette.reporting.curves import orange_curve_figure  # noqa: E402
from mtpalette.reporting.names import dataset_label, reference_names  # noqa: E402
from mtpalette.reporting.orange_section import orange_rows  # noqa: E402


def test_every_tied_best_is_bold_in_the_summary_and_the_charts():
    rows = [
        {"metric": m, "correlation": v, "low": v - 0.1, "high": v + 0.1, "cluster": c,
         "metric_higher_is_better": True}
        for m, v, c in (("a", 0.4, 1), ("b", 0.4, 1), ("c", 0.35, 1), ("d", 0.1, 2))
    ]  # fmt: skip
    run = {"results": {"tables": [{"statistic": "pearson", "level": "segment", "rows": rows,
                                   "alpha": 0.05, "comparisons": []}]}}  # fmt: skip
    corr = correlation_section(run)
    assert [r["top"] for r in corr["tables"][0]["rows"]] == [True, True, False, False]
    orange = [
        {"metric": "x", "orange": 0.6, "best": True, "equivalent_to_best": False},
        {"metric": "y", "orange": 0.6, "best": False, "equivalent_to_best": True, "p_value": 1.0},
    ]
    sections = [
        {
            "id": "run1",
            "dataset": "d",
            "orange": {"rows": orange_rows(orange)},
            "correlation": None,
        },
        {"id": "run2", "dataset": "d", "orange": None, "correlation": corr},
    ]
    cells = {r["metric"]: r["cells"] for r in summary_table(sections)["rows"]}
    assert cells["x"][0][1] == cells["y"][0][1] == "best"
    assert cells["a"][1][1] == cells["b"][1][1] == "best" and cells["c"][1][1] == "equiv"


def test_p_values_stand_next_to_every_cluster_boundary_and_equal_best():
    """The comparisons significance_clusters made (mt-metrics-eval's AssignRanks order)."""
    t = {
        "alpha": 0.05,
        "rows": [
            {"metric": m, "correlation": v, "cluster": c}
            for m, v, c in (
                ("a", 0.5, 1),
                ("b", 0.45, 1),
                ("c", 0.3, 2),
                ("d", 0.28, 2),
                ("e", 0.1, 3),
            )
        ],  # fmt: skip
        "comparisons": [
            {"better": "a", "worse": "b", "p_value": 0.2},
            {"better": "a", "worse": "c", "p_value": 0.001},
            {"better": "c", "worse": "d", "p_value": 0.4},
            {"better": "c", "worse": "e", "p_value": 0.3},
            {"better": "d", "worse": "e", "p_value": 0.02},
        ],
    }
    assert [r["p_text"] for r in cluster_rows(t)] == [
        "",
        "= best (p = 0.200 vs a)",
        "p = 0.001 vs a",
        "p = 0.400 vs c",
        "p = 0.020 vs d",
    ]


def test_a_candidate_identical_to_the_reference_does_not_beat_it():
    """Real records of errors.jsonl (TED zh-en, bleus:1): the candidate's stored score is a
    float32 (76.92308), the reference's rounded to 6 decimals (76.923077)."""
    rec = {"metric": "bleus:1", "segment": 24, "n_candidates": 8, "oracle_rank": 2.0,
           "n_outranking": 1, "n_comparisons": 2, "oracle": "leave-one-out",
           "reference_scores": [75.79572, 76.923077], "references": ["r a", "r b"],
           "candidates": [
               {"scores": [100.0, 76.92308], "origin": "S", "text": "r b"},
               {"scores": [44.124844, 77.0], "origin": "T", "text": "other"}]}  # fmt: skip
    d = error_browser_data([rec], directions={"bleus:1": True})
    same, other = d["segments"][0]["by"]["0"]["c"]
    assert same[3] == [1, 0]  # beats A (scored against B, it is B); ties B
    assert other[3] == [0, 1]
    # an error metric: lower is better
    rec = {**rec, "metric": "wer", "reference_scores": [0.5, 0.4],
           "candidates": [{"scores": [0.45, 0.3999999], "origin": "S", "text": "x"}]}  # fmt: skip
    d = error_browser_data([rec], directions={"wer": False})
    assert d["segments"][0]["by"]["0"]["c"][0][3] == [1, 0]


def test_names_come_from_the_data_not_the_files():
    assert reference_names(["a/ref.txt", "a/refB.txt"]) == ["ref", "refB"]
    wmt = [f"x/newstest2021.cs-en.ref.{k}.en" for k in "AB"]
    assert reference_names(wmt) == ["A", "B"]
    assert dataset_label({"inputs": {"refs": [{"path": wmt[0]}]}}, None) == "newstest2021 cs-en"
    run = {"inputs": {"refs": [{"path": "/data/ted/references/ref.txt"}]}}
    assert dataset_label(run, None) == "ted"


def _overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.fixture
def figures(monkeypatch):
    """The matplotlib figures the report functions draw, kept for inspection."""
    kept = []
    original = plots.svg_of

    def keep(fig):
        kept.append(fig)
        return original(fig)

    monkeypatch.setattr(plots, "svg_of", keep)
    return kept


def _inside_figure(fig):
    """Everything drawn (titles, labels, ticks, legends, colour bars) inside the canvas."""
    fig.canvas.draw()
    tight = fig.get_tightbbox(fig.canvas.get_renderer())  # inches, drawn artists only
    box = fig.bbox_inches
    assert tight.x0 >= box.x0 - 0.01 and tight.x1 <= box.x1 + 0.01, (tight, box)
    assert tight.y0 >= box.y0 - 0.01 and tight.y1 <= box.y1 + 0.01, (tight, box)


def test_system_labels_never_overlap_and_nothing_is_clipped(figures):
    # crowded real corpus scores (bundled zh-en bleus:4 and MQM): MiSS and IIE-MT once overlapped
    names = ["Borderline", "DIDI-NLP", "Facebook-AI", "IIE-MT", "MiSS", "NiuTrans", "Online-W",
             "SMU", "metricsystem1", "metricsystem2", "metricsystem3", "metricsystem4",
             "metricsystem5"]  # fmt: skip
    x = [44.5, 49.4, 51.1, 50.4, 50.3, 48.0, 48.5, 47.2, 49.1, 50.3, 48.6, 49.2, 44.7]
    y = [-2.41, -1.65, -2.63, -1.98, -1.97, -2.49, -2.93, -2.2, -1.9, -1.77, -2.98, -2.05, -2.15]
    plots.system_scatter(y, x, names, xlabel="bleus:4 corpus score", ylabel="MQM", note="r")
    fig = figures[-1]
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.texts]
    labelled = {t.get_text() for t in ax.texts}
    assert len(labelled) >= 11  # at most two left out, and said so under the axis
    assert all(n in labelled or n in ax.get_xlabel() for n in names)
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            assert not _overlap(boxes[i], boxes[j]), (
                ax.texts[i].get_text(),
                ax.texts[j].get_text(),
            )
    _inside_figure(fig)


def test_interval_chart_legend_clears_the_title_and_plots_fit(figures):
    names = [f"bleus:{n}" for n in range(1, 5)] + ["wer", "rouge-l", "chrf"]
    v = np.linspace(68, 73, len(names))
    plots.ci_dots(names, v, v - 4, v + 4, xlabel="ORANGE (%)", title="ORANGE with intervals",
                  best=[False] * 6 + [True])  # fmt: skip
    fig = figures[-1]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = fig.axes[0].title.get_window_extent(renderer)
    legend = fig.legends[0].get_window_extent(renderer)
    assert not _overlap(title, legend)
    _inside_figure(fig)
    plots.segment_scatter(-np.arange(300.0) % 7, np.linspace(0, 1, 300), xlabel="m", ylabel="h",
                          note="n")  # fmt: skip
    _inside_figure(figures[-1])


def test_orange_curve_legend_and_labels_fit():
    from mtpalette.metaeval.orange import OrangeCurve

    names = ["bleus:1", "bleus:2", "wer", "rouge-l", "chrf"]
    c = OrangeCurve(np.arange(1, 9), {m: np.linspace(0.85, 0.7, 8) for m in names}, {}, "mid")
    _inside_figure(orange_curve_figure(c))


def test_rank_report_names_its_correction_and_no_empty_data_set(tmp_path):
    """The rank report's colour bar said 'p-value (adjusted)' with no correction, and its
    navigation showed '()' for a run without a data set name."""
    from typer.testing import CliRunner

    from mtpalette.sources.bundled import bundled_data
    from mtpalette.cli.app import app

    folder = bundled_data()["example_zhen"].path
    html = {}
    for correction in ("none", "holm"):
        out = tmp_path / correction
        out.mkdir()
        args = ["rank", "-r", str(folder / "ref.txt"), "--systems-dir", str(folder), "-m", "chrf",
                "--protocol", "wilcoxon", "--correction", correction, "--json",
                str(out / "rank.json"), "--report", str(out / "r.html")]  # fmt: skip
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 0, result.output
        html[correction] = (out / "r.html").read_text(encoding="utf-8")
    assert "p-value (adjusted)" not in html["none"] and "holm-adjusted" not in html["none"]
    assert "p-value (holm-adjusted)" in html["holm"]
    # a report made from Python: no input file names the data set
    from mtpalette import rank, report

    made = report(rank({"A": [80, 75, 90, 60], "B": [60, 65, 70, 50]}, progress=False),
                  path=tmp_path / "py.html")  # fmt: skip
    nav = made.read_text(encoding="utf-8").split("<nav>")[1].split("</nav>")[0]
    assert "<a href=" in nav and "()" not in nav
