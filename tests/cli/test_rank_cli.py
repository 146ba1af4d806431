"""``mtpalette rank``: metrics computed from the bundled texts, a long table of ratings, a
folder's human scores; the outputs and the refusals (the statistics are checked in
tests/metaeval/test_system_ranking.py)."""

from __future__ import annotations

import json
from pathlib import Path

from real_data import mqm_ted, mtme_folder

ZHEN = mqm_ted("zhen")["root"]
FOLDER = mtme_folder()
SYSTEMS = ["Online-W", "SMU", "NiuTrans", "DIDI-NLP", "Borderline"]


def test_rank_metrics_from_texts(cli, tmp_path):
    files = [ZHEN / f"{s}.txt" for s in SYSTEMS]
    out = tmp_path / "rank.json"
    code, stdout, err = cli("rank", "-r", ZHEN / "ref.txt", "-i", *files, "-m", "chrf", "bleu",
                            "--protocol", "bootstrap", "--json", out, "--latex",
                            tmp_path / "rank.tex")  # fmt: skip
    assert code == 0, err
    run = json.loads(out.read_text())
    assert run["kind"] == "rank" and run["settings"]["protocol"] == "bootstrap"
    result = run["results"]
    assert [r["name"] for r in result["rankings"]] == ["chrf", "bleu"]
    chrf = result["rankings"][0]
    assert len(chrf["systems"]) == 5 and len(chrf["pairs"]) == 10
    assert chrf["systems"][0]["rank_top"] == 1
    assert "protocol:bootstrap" in chrf["signature"] and "resamples:1000" in chrf["signature"]
    assert "autorank" in result and len(result["autorank"]["systems"]) == 5
    assert "AutoRank" in stdout and "pairs differ significantly" in stdout
    assert "\\midrule" in (tmp_path / "rank.tex").read_text()


def test_rank_a_folders_human_scores(cli):
    code, stdout, err = cli("rank", "--mtme", FOLDER, "--lp", "zh-en", "--protocol", "wmt24")
    assert code == 0, err
    assert "mqm: wmt24" in stdout and "ted" in stdout  # the folder's one domain


def test_rank_refusals(cli, tmp_path):
    code, _, err = cli("rank", "--protocol", "wilcoxon")
    assert code != 0 and "nothing to rank" in err
    table = tmp_path / "t.tsv"
    table.write_text("system\titem\tscore\nA\t1\t0.5\nA\t1\t0.7\n", encoding="utf-8")
    code, _, err = cli("rank", "--table", table)
    assert code != 0 and "scored twice" in err and "t.tsv" in err
    code, _, err = cli("rank", "--table", table, "--protocol", "kendall")
    assert code != 0 and "--protocol must be one of" in err


def test_version_and_did_you_mean(cli):
    from mtpalette._version import __version__

    code, out, _ = cli("--version")
    assert code == 0 and out.strip() == f"mtpalette {__version__}"
    code, _, err = cli("scroe")
    assert code != 0 and "Did you mean 'score'" in err
    code, _, err = cli("score", "-m", "bleuu", "-r", ZHEN / "ref.txt", "-i", ZHEN / "SMU.txt")
    assert code != 0 and "Did you mean 'bleu'" in err
    code, _, err = cli("rank", "--table", ZHEN / "ref.txt", "--protocol", "wilcoxn")
    assert code != 0 and "Did you mean 'wilcoxon'" in err


def test_public_namespace_has_no_leftovers():
    import mtpalette

    names = dir(mtpalette)
    assert "Any" not in names and "annotations" not in names
    assert {"rank", "correlate", "load_wmt", "TaskSet", "__version__"} <= set(names)


def test_a_byte_order_mark_is_dropped_with_a_one_line_warning(tmp_path, monkeypatch):
    import subprocess
    import sys

    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_bytes("\ufeffthe cat sat on the mat\n".encode())
    ref.write_text("the cat sat on the mat\n", encoding="utf-8")
    exe = Path(sys.executable).parent / "mtpalette"
    args = [str(exe), "score", "-r", str(ref), "-i", str(hyp), "-m", "chrf"]
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    warning = [x for x in done.stderr.splitlines() if "byte-order mark" in x]
    assert len(warning) == 1 and warning[0].startswith("warning: ") and ".py" not in warning[0]
    assert "100.0" in done.stdout  # the mark dropped: the texts are equal
    monkeypatch.setenv("MTPALETTE_KEEP_BOM", "1")  # as sacrebleu: a character of the line
    kept = subprocess.run(args, capture_output=True, text=True, check=True)
    assert "byte-order mark" not in kept.stderr and "100.0" not in kept.stdout
