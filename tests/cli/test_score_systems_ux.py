"""``score`` with several systems as a researcher uses it, on the bundled WMT21 TED zh-en
outputs: results named as the user spelled the metrics, ``--baseline best``, ``--sort``,
the lower-is-better marker, tables cut to the terminal's width, ``-s``/``-i`` everywhere and
glob patterns the shell left unexpanded."""

from __future__ import annotations

import json
import shutil

import pytest
from real_data import mqm_ted

from mtpalette import corpus_score, paired_test, score_systems, sentence_scores
from mtpalette.errors import UserInputError
from mtpalette.sources.scoring import best_system, sort_systems

ROOT = mqm_ted("zhen")["root"]
NAMES = ["Online-W", "SMU", "MiSS", "NiuTrans"]


@pytest.fixture
def outputs(tmp_path):
    """Four systems' files copied into a folder (for globs) and the reference."""
    folder = tmp_path / "outputs"
    folder.mkdir()
    for name in NAMES:
        shutil.copy(str(ROOT / f"{name}.txt"), folder / f"{name}.txt")
    return folder, str(ROOT / "ref.txt")


def test_results_are_keyed_by_the_names_given(ted_zhen):
    systems, refs = ted_zhen
    hyps = systems["SMU"][:50]
    ref = [refs[0][:50]]
    sent = sentence_scores(hyps, ref, ["chrf++", "gtm", "bleus:1..2"])
    assert list(sent) == ["chrf++", "gtm", "bleus:1", "bleus:2"]
    canonical = sentence_scores(hyps, ref, ["chrf:w=2"])["chrf:w=2"]
    assert sent["chrf++"].tolist() == canonical.tolist()
    (s, g) = corpus_score(hyps, ref, ["chrF++", "gtm"])
    assert (s.metric, s.name, s.spec, s.signature.metric) == (
        "chrF++",
        "chrF++",
        "chrf:w=2",
        "chrf:w=2",
    )
    assert (g.name, g.spec) == ("gtm", "gtm:1")
    # the same metric spelled twice is scored once, under the first name
    assert [x.name for x in corpus_score(hyps, ref, ["chrf++", "chrf:w=2"])] == ["chrf++"]
    both = {k: systems[k][:50] for k in ("SMU", "MiSS")}
    r = paired_test(both, ref, ["chrf++"], n_trials=50)
    assert r.metrics == ["chrf++"] and list(r.to_pandas()["metric"]) == ["chrf++", "chrf++"]
    assert r.signatures["chrf++"].startswith("chrf:w=2|")


def test_cli_names_and_spec_field(cli, outputs):
    folder, ref = outputs
    code, out, _ = cli(
        "score", "-s", folder / "SMU.txt", "-r", ref, "-m", "chrf++", "ter", "-f", "json"
    )
    assert code == 0
    rows = json.loads(out)
    assert [(r["metric"], r["spec"]) for r in rows] == [("chrf++", "chrf:w=2"), ("ter", "ter")]
    api = corpus_score(
        open(folder / "SMU.txt").read().splitlines(), [open(ref).read().splitlines()], ["chrf++"]
    )
    assert rows[0]["score"] == api[0].value
    code, out, _ = cli("score", "-i", folder / "SMU.txt", "-r", ref, "-m", "chrf++")
    assert out.splitlines()[1].split()[0] == "chrf++"
    # the sentence table's columns too
    code, out, _ = cli(
        "score", "-i", folder / "SMU.txt", "-r", ref, "-m", "chrf++", "--sentence", "-f", "tsv"
    )
    assert out.splitlines()[0].split("\t") == ["segment", "chrf++"]
    code, out, _ = cli("score", "-i", folder / "SMU.txt", "-r", ref, "-m", "chrf++", "ter",
                       "--sentence")  # fmt: skip
    assert out.splitlines()[0].split() == ["segment", "chrf++", "ter", "↓"]
    assert "\n↓ lower is better\n" in out


def test_baseline_best_and_sort(cli, outputs, ted_zhen):
    folder, ref = outputs
    systems, refs = ted_zhen
    scored = score_systems({n: systems[n] for n in NAMES}, refs[:1], ["ter", "bleu"])
    ter = {n: s.corpus[0].value for n, s in scored.items()}
    by_ter = sorted(NAMES, key=lambda n: ter[n])  # lower is better
    assert list(sort_systems(scored, "ter")) == by_ter
    assert best_system(scored) == by_ter[0]
    bleu = {n: s.corpus[1].value for n, s in scored.items()}
    assert list(sort_systems(scored, "bleu")) == sorted(NAMES, key=lambda n: -bleu[n])
    with pytest.raises(UserInputError, match="'chrf' is not one of the metrics scored: ter, bleu"):
        sort_systems(scored, "chrf")
    files = [folder / f"{n}.txt" for n in NAMES]
    args = ["score", "-i", *files, "-r", ref, "-m", "ter", "bleu", "-f", "json"]
    code, out, _ = cli(*args, "--paired-bs", "--paired-bs-n", "100", "--baseline", "best")
    assert code == 0
    rows = json.loads(out)
    assert {r["system"] for r in rows if r["baseline"]} == {by_ter[0]}
    assert [r["system"] for r in rows if r["metric"] == "ter"] == NAMES  # the given order
    code, out, _ = cli(*args, "--sort", "ter")
    assert [r["system"] for r in json.loads(out) if r["metric"] == "ter"] == by_ter
    code, out, err = cli(*args, "--sort", "chrf")
    assert code == 2 and "'chrf' is not one of the metrics scored" in err


def test_lower_is_better_marker_and_terminal_width(cli, outputs, monkeypatch):
    folder, ref = outputs
    files = [folder / f"{n}.txt" for n in NAMES]
    metrics = ["bleu", "chrf", "chrf++", "ter", "wer", "rouge-l", "gtm"]
    monkeypatch.setenv("COLUMNS", "200")
    code, wide, _ = cli(
        "score", "-i", *files, "-r", ref, "-m", *metrics, "--confidence", "-cin", "50"
    )
    assert code == 0
    table = wide.split("\n\n")[0].splitlines()
    assert table[0].split("  ")[0] == "system" and "ter ↓" in table[0] and "wer ↓" in table[0]
    assert "bleu ↓" not in table[0] and "↓ lower is better" in wide
    monkeypatch.setenv("COLUMNS", "80")
    code, narrow, _ = cli(
        "score", "-i", *files, "-r", ref, "-m", *metrics, "--confidence", "-cin", "50"
    )
    table_part = narrow.split("signature")[0]
    assert max(map(len, table_part.splitlines())) <= 80
    heads = [line for line in table_part.splitlines() if line.startswith("system")]
    assert len(heads) > 1  # cut into blocks, each with the system column
    cells = " ".join(heads)
    for m in metrics:
        assert m in cells

    # the numbers are the same ones
    def numbers(text):
        return sorted(t for t in text.split("signature")[0].split() if t[0].isdigit())

    assert numbers(wide) == numbers(narrow) and len(numbers(wide)) >= len(NAMES) * len(metrics)


def test_systems_and_globs_in_every_command(cli, outputs):
    folder, ref = outputs
    listed = [folder / f"{n}.txt" for n in sorted(NAMES)]
    code, by_list, _ = cli("score", "-s", *listed, "-r", ref, "-f", "json")
    code2, by_glob, _ = cli("score", "--systems", str(folder / "*.txt"), "-r", ref, "-f", "json")
    assert code == code2 == 0 and by_list == by_glob
    assert len(json.loads(by_glob)) == len(NAMES)
    code, _, err = cli("score", "-i", str(folder / "*.hyp"), "-r", ref)
    assert code == 2 and f"{folder / '*.hyp'}: the pattern matches no file" in err
    refs = [str(ROOT / "ref.txt"), str(ROOT / "refB.txt")]
    common = ["-m", "chrf", "--bootstrap", "0", "-q"]
    for flag in ("-i", "--input", "-s"):
        code, out, err = cli("orange", "-r", *refs, flag, str(folder / "*.txt"), *common)
        assert code == 0, err
        assert "chrf" in out
    judged = ["-j", ROOT / "mqm_ted_zhen.tsv.gz", "--seg-ids", ROOT / "seg_ids.txt", "-r"]
    for command, n_refs in (("correlate", 1), ("audit", 2)):
        args = [*judged, *refs[:n_refs], "-i", str(folder / "*.txt")]
        code, out, err = cli(command, *args, *common)
        assert code == 0, err
        assert "chrf" in out
    code, _, err = cli("orange", "-r", *refs, "-i", str(folder / "*.hyp"), *common)
    assert code == 2 and "the pattern matches no file" in err
