"""A run's metrics have one name each: an ``-m`` spec, a ``--scores`` file, a stored metric
and a length baseline under one name are refused before any scoring, naming both, in
``orange``, ``audit`` and ``correlate`` (tables, signatures and records are keyed by name,
so one would take the other's place without a word: ``orange -m chrf --scores
chrf=BLEU.tsv`` used to print two ``chrf`` rows and one signature). Every file here is the
project's bundled example data or written by the test."""

from __future__ import annotations

import pytest

from mtpalette.io.judgments_mqm import bundled_mqm_ted
from mtpalette.io.mtme import example_folder

ZHEN = bundled_mqm_ted("zhen")


@pytest.fixture
def score_file(tmp_path):
    """A --scores file (mtpalette layout) of BLEU-S4 for the bundled zh-en systems."""
    from mtpalette.metrics import parse_specs
    from mtpalette.sources.scoring import score_systems

    systems = {p.stem: p.read_text(encoding="utf-8").splitlines() for p in ZHEN["systems"]}
    refs = [p.read_text(encoding="utf-8").splitlines() for p in ZHEN["refs"][:1]]
    scored = score_systems(systems, refs, ["bleus:4"], progress=False)
    path = tmp_path / "bleu.tsv"
    rows = ["system\tsegment\tscore"] + [
        f"{s}\t{i + 1}\t{float(v)!r}" for s, sc in scored.items()
        for i, v in enumerate(sc.sentence["bleus:4"])
    ]  # fmt: skip
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert parse_specs(["chrf"])[0].spec == "chrf"
    return path


def test_orange_refuses_a_score_file_named_as_a_metric(cli, score_file):
    refs = [str(p) for p in ZHEN["refs"]]
    code, _, err = cli("orange", "-r", *refs, "-s", *ZHEN["systems"], "-m", "chrf",
                       "--scores", f"chrf={score_file}", "--bootstrap", "0")  # fmt: skip
    assert code == 2, err
    assert "two metrics of the run are named 'chrf' (-m chrf and the score file" in err


def test_correlate_refuses_a_score_file_named_as_a_metric_or_a_baseline(cli):
    folder = example_folder()
    stored = folder / "metric-scores" / "en-de" / "sentBLEU-refA.seg.score"
    for name, origin in (("chrf", "-m chrf"), ("len", "the length baseline len")):
        code, _, err = cli("correlate", "--mtme", folder, "--lp", "en-de", "-m", "chrf",
                           "--scores", f"{name}={stored}", "--bootstrap", "0")  # fmt: skip
        assert code == 2, err
        assert f"two metrics of the run are named '{name}'" in err and origin in err
    code, out, err = cli("correlate", "--mtme", folder, "--lp", "en-de", "-m", "chrf",
                         "--scores", f"sentbleu={stored}", "--bootstrap", "0")  # fmt: skip
    assert code == 0, err
    assert "\nchrf\t" in out and "\nsentbleu\t" in out


def test_two_score_files_under_one_name_are_refused(cli, score_file):
    refs = [str(p) for p in ZHEN["refs"]]
    code, _, err = cli("audit", "-r", *refs, "-s", *ZHEN["systems"], "-m", "bleu",
                       "--scores", f"x={score_file}", "--scores", f"x={score_file}")  # fmt: skip
    assert code == 2, err
    assert "two metrics of the run are named 'x' (the score file" in err
