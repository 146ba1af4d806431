"""The report shows what the library computes for issue 27 once a run carries it: baselines
marked, the metrics not above the best baseline flagged with their sentence, the chance level
of a pairwise statistic, and the reference agreement next to ORANGE with its warning."""


import numpy as np
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.io.plain import read_lines
from mtpalette.io.runfile import load_run
from mtpalette.metaeval.references import reference_agreement
from mtpalette.reporting.html import build_report
from mtpalette.stats.baselines import compare_with_best_baseline
from mtpalette.stats.chance import acc_eq_chance

ROOT = mqm_ted("zhen")["root"]


def _correlation_run():
    rng = np.random.default_rng(0)
    length = rng.integers(3, 40, size=(3, 60)).astype(float)
    human = np.round(-0.2 * length + rng.normal(size=length.shape))  # MQM-like ties
    metrics = {"chrf": human + 5 * rng.normal(size=human.shape)}
    baselines = {"len:sign=-1": -length}
    report = compare_with_best_baseline(human, metrics, baselines, n_resamples=100, seed=1)
    (flag,) = report.comparisons
    rows = [
        {"metric": "len:sign=-1", "correlation": report.baselines["len:sign=-1"], "low": None,
         "high": None, "cluster": 1, "metric_higher_is_better": True},
        {"metric": "chrf", "correlation": flag.value, "low": None, "high": None, "cluster": 2,
         "metric_higher_is_better": True},
    ]  # fmt: skip
    table = {
        "statistic": "acc-eq", "level": "segment", "grouping": "item", "alpha": 0.05,
        "rows": rows, "comparisons": [], "baselines": report.to_dict(),
        "chance": acc_eq_chance(human, grouping="item").to_dict(),
    }  # fmt: skip
    return {"kind": "correlate", "results": {"tables": [table]}}, flag


def test_baselines_flags_chance_and_reference_agreement_in_the_report(tmp_path):
    corr, flag = _correlation_run()
    assert not flag.beats
    # an ORANGE run on 40 real segments whose second reference is the first, lightly edited
    ref = read_lines(ROOT / "ref.txt")[:40]
    edited = [" ".join(line.split()[:-1]) for line in ref]  # derived: last word dropped
    (tmp_path / "ref.txt").write_text("\n".join(ref) + "\n")
    (tmp_path / "edited.txt").write_text("\n".join(edited) + "\n")
    names = ["Facebook-AI", "NiuTrans", "Online-W", "SMU"]
    systems = {}
    for name in names:
        systems[name] = read_lines(ROOT / f"{name}.txt")[:40]
        (tmp_path / f"{name}.txt").write_text("\n".join(systems[name]) + "\n")
    args = ["orange", "--refs", str(tmp_path / "ref.txt"), str(tmp_path / "edited.txt")]
    args += ["--systems", *(str(tmp_path / f"{n}.txt") for n in names), "-m", "bleu", "chrf"]
    args += ["--bootstrap", "50", "--out-dir", str(tmp_path / "orange"), "-q"]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    orange = load_run(tmp_path / "orange" / "run.json")
    agreement = reference_agreement([ref, edited], systems, ["bleu", "chrf"],
                                    ref_names=["ref", "edited"])  # fmt: skip
    orange["results"]["reference_agreement"] = agreement.to_dict()
    html = build_report([(orange, tmp_path / "orange" / "run.json"), (corr, None)])
    assert html.count('class="warn ref-warning"') == 2  # each reference is the other's copy
    assert "reference &#39;edited&#39; is closer to the other reference(s)" in html
    assert html.count('<tr class="flagged">') == 4
    assert '<tr class="best baseline" data-metric="len:sign=-1">' in html
    assert "&#9888; not above the best baseline" in html
    assert flag.sentence.replace("'", "&#39;") in html
    assert "Chance level (acc-eq): 0." in html and "(exact)" in html
