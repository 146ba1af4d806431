"""Limited ORANGE: with similarity alone and the second reference as pivot it equals the
leave-one-out comparison of ORANGE; the features rank with synonyms; the CLI path."""

from __future__ import annotations

import numpy as np
import pytest
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.metaeval.audit import heldout_scores
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.limited import LimitedSetup, limited_comparisons, pivot_similarity
from mtpalette.metaeval.orange import Comparisons
from mtpalette.metrics import parse_specs
from mtpalette.text.synonyms import load_synonyms

ROOT = mqm_ted("zhen")["root"]
SYSTEMS = ["Facebook-AI", "NiuTrans", "Online-W", "SMU"]


def _lists(n=150):
    outs = {s: read_lines(ROOT / f"{s}.txt")[:n] for s in SYSTEMS}
    ref, ref_b = read_lines(ROOT / "ref.txt")[:n], read_lines(ROOT / "refB.txt")[:n]
    return outs, ref, ref_b


@pytest.mark.parametrize("spec", ["bleus:4", "rouge-l", "wer"])
def test_similarity_only_equals_orange_with_the_pivot_as_the_other_reference(spec):
    outs, ref, ref_b = _lists()
    [metric] = parse_specs([spec])
    one = CandidateLists.from_systems(outs, [ref])
    limited = limited_comparisons(one, [""] * len(ref), ref_b, metric, LimitedSetup({"sim": 1.0}))
    two = CandidateLists.from_systems(outs, [ref, ref_b])
    cand, refs = heldout_scores(two, metric)  # row 0: ref held out, scored against refB
    expected = Comparisons.from_scores(
        "x", cand[0], refs[0], two.offsets, higher_is_better=metric.higher_is_better
    )
    np.testing.assert_array_equal(limited.better, expected.better)
    np.testing.assert_array_equal(limited.ties, expected.ties)


def test_pivot_similarity_uses_cilin():
    cilin = load_synonyms("cilin")
    pivot = "他 是 一个 劳动力".split()
    assert pivot_similarity("他 是 一个 工作者".split(), pivot, None) == 0.75
    assert pivot_similarity("他 是 一个 工作者".split(), pivot, cilin) == 1.0


def test_setup_checks():
    with pytest.raises(UserInputError, match="needs a language model"):
        LimitedSetup({"flu": 1.0})
    with pytest.raises(UserInputError, match="unknown feature"):
        LimitedSetup({"style": 1.0})


def test_cli_limited_orange(tmp_path):
    n = 60
    files = {}
    for name in [*SYSTEMS, "ref", "refB", "source"]:
        p = tmp_path / f"{name}.txt"
        p.write_text("\n".join(read_lines(ROOT / f"{name}.txt")[:n]) + "\n", encoding="utf-8")
        files[name] = p
    lm_text = tmp_path / "lm.txt"  # English text that is not the test set: the other segments
    lm_text.write_text("\n".join(read_lines(ROOT / "ref.txt")[n:]) + "\n", encoding="utf-8")
    zh = tmp_path / "tm.zh"
    en = tmp_path / "tm.en"
    zh.write_text("\n".join(read_lines(ROOT / "source.txt")[n:]) + "\n", encoding="utf-8")
    en.write_text("\n".join(read_lines(ROOT / "ref.txt")[n:]) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    args = [
        "orange",
        "--refs",
        str(files["ref"]),
        "--systems",
        *(str(files[s]) for s in SYSTEMS),
        "--pivot",
        str(files["refB"]),
        "--source",
        str(files["source"]),
        "--source-tokenize",
        "jieba",
        "--lm-text",
        str(lm_text),
        "--tm-source",
        str(zh),
        "--tm-target",
        str(en),
        "-m",
        "bleus:4",
        "rouge-l",
        "--bootstrap",
        "50",
        "--out-dir",
        str(out),
        "-q",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "limited-features" in (out / "run.json").read_text()
    two = CliRunner().invoke(app, [*args[:2], str(files["ref"]), str(files["refB"]), *args[3:]])
    assert two.exit_code != 0 and "exactly one reference" in str(two.exception)
