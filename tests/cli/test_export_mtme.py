"""``orange --export-scores DIR --export-mtme LP``: every computed metric written in
mt-metrics-eval's layout (``metric-scores/LP/NAME-REFS.seg.score``), read back unchanged by the
same loader that reads MTME's own files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mtme_folder
from typer.testing import CliRunner

from mtpalette import sentence_scores
from mtpalette.cli.app import app
from mtpalette.io.scorefile import read_score_option

ZHEN = mqm_ted("zhen")


def test_orange_exports_in_mtme_layout(tmp_path):
    refs = []
    for name, src in zip(("refA", "refB"), ZHEN["refs"], strict=True):
        refs.append(tmp_path / f"zh-en.{name}.txt")
        shutil.copy(src, refs[-1])
    systems = ZHEN["systems"][:2]
    out = tmp_path / "export"
    args = ["orange", "-r", *map(str, refs), "-s", *map(str, systems), "-m", "chrf"]
    result = CliRunner().invoke(
        app, [*args, "--bootstrap", "0", "--export-scores", str(out), "--export-mtme", "zh-en"]
    )
    assert result.exit_code == 0, result.output
    folder = out / "metric-scores" / "zh-en"
    assert sorted(p.name for p in folder.iterdir()) == [
        "chrf-refA.refB.seg.score", "chrf-refA.seg.score", "chrf-refB.seg.score",
    ]  # fmt: skip
    back = read_score_option(str(folder / "chrf-refB.seg.score"), ["zh-en.refB"])
    ref_b = refs[1].read_text(encoding="utf-8").splitlines()
    for path in systems:
        hyps = path.read_text(encoding="utf-8").splitlines()
        [want] = sentence_scores(hyps, [ref_b], ["chrf"]).values()
        got = [back.scores[(path.stem, k + 1, "")] for k in range(len(hyps))]
        assert np.allclose(got, want, atol=1e-6)
    bad = CliRunner().invoke(app, [*args, "--export-mtme", "zh-en"])
    assert bad.exit_code != 0 and "--export-scores" in str(bad.exception)


FOLDER = mtme_folder()
RESAMPLING = ["--bootstrap", "0", "--permutations", "0", "-q"]


def _correlations(path: Path) -> dict[tuple[str, str], float]:
    """``(level, metric) -> correlation`` of a correlate run file (``bleus:4`` read back as
    ``bleus_4``: the file's name)."""
    tables = json.loads(path.read_text())["results"]["tables"]
    return {
        (t["level"], r["metric"].replace(":", "_")): r["correlation"]
        for t in tables
        for r in t["rows"]
    }


def test_correlate_exports_a_folder_that_reads_back_the_same(cli, tmp_path):
    """``correlate --export-mtme``: each computed metric's seg and sys files (every output of
    the pair but the reference in use, error metrics negated) in the folder, read back by
    ``correlate --mtme`` and ``wmt --mtme`` as stored metrics with the same correlations."""
    folder = tmp_path / "wmt21.tedtalks"  # the name gives MTME's meta information (refB)
    shutil.copytree(FOLDER, folder)
    common = ["correlate", "--mtme", folder, "--lp", "zh-en", "--level", "segment,system"]
    export = ["--export-scores", folder, "--export-mtme", "zh-en"]
    code, _, err = cli(*common, "-m", "chrf", "wer", "bleus:4", *RESAMPLING, "--json",
                       tmp_path / "a.json", *export)  # fmt: skip
    assert code == 0, err
    stored = folder / "metric-scores" / "zh-en"
    for name in ("chrf", "wer", "bleus_4"):
        for level in ("seg", "sys"):
            assert (stored / f"{name}-refB.{level}.score").is_file()
    # every output but refB, as MTME's own files; chrF is sacrebleu's to the last digit
    for level in ("seg", "sys"):
        ours = (stored / f"chrf-refB.{level}.score").read_text()
        assert ours == (stored / f"chrF-refB.{level}.score").read_text()
    assert (stored / "wer-refB.sys.score").read_text().split("\t")[1].startswith("-")
    code, _, err = cli(*common, "--mtme-metrics", "chrf", "wer", "bleus_4", *RESAMPLING,
                       "--json", tmp_path / "b.json")  # fmt: skip
    assert code == 0, err
    computed, read = _correlations(tmp_path / "a.json"), _correlations(tmp_path / "b.json")
    assert len(read) == 2 * 3 + 3 and read == computed  # 3 baselines at segment level
    # a stored file is replaced only with --overwrite
    code, _, err = cli(*common, "-m", "chrf", *RESAMPLING, *export)
    assert code == 2 and "chrf-refB" in err and "--overwrite" in err

    tasks = tmp_path / "tasks.json"
    tasks.write_text(json.dumps([
        {"lang": "zh-en", "level": "seg", "corr_fcn": "pearson"},
        {"lang": "zh-en", "level": "seg", "corr_fcn": "KendallWithTiesOpt", "avg_by": "item",
         "corr_fcn_args": {"sample_rate": 1.0}},
        {"lang": "zh-en", "level": "sys", "corr_fcn": "pearson"},
    ]))  # fmt: skip
    corrs = []
    for where, metrics in ((FOLDER, ["-m", "chrf", "wer"]), (folder, ["--mtme-metrics", "chrf",
                                                                      "wer"])):  # fmt: skip
        out = tmp_path / f"wmt-{len(corrs)}.json"
        code, _, err = cli("wmt", "--mtme", where, "--tasks", tasks, *metrics, "-k", "0",
                           "--json", out)  # fmt: skip
        assert code == 0, err
        tasks_run = json.loads(out.read_text())["tasks"]
        corrs.append([dict(zip(t["metrics"], t["corrs"], strict=True)) for t in tasks_run])
    assert corrs[0] == corrs[1] and all(set(c) == {"chrf", "wer"} for c in corrs[0])


def test_correlate_exports_judged_texts_in_mtme_layout(cli, tmp_path):
    """Judgments and texts (the bundled zh-en MQM data, every line judged) written in MTME's
    layout against both references, read back by ``--scores`` at segment and system level;
    a run that keeps fewer lines than the outputs have is refused, naming why."""
    out = tmp_path / "export"
    common = ["correlate", *mqm_ted_args("zhen"), "--level", "segment,system", *RESAMPLING]
    code, _, err = cli(*common, "-m", "chrf", "--json", tmp_path / "a.json",
                       "--export-scores", out, "--export-mtme", "zh-en")  # fmt: skip
    assert code == 0, err
    stored = out / "metric-scores" / "zh-en"
    assert sorted(p.name for p in stored.iterdir()) == [
        "chrf-ref.refB.seg.score", "chrf-ref.refB.sys.score",
    ]  # fmt: skip
    back = {}
    for level, name in (("segment", "seg"), ("system", "sys")):
        path = tmp_path / f"{name}.json"
        code, _, err = cli("correlate", *mqm_ted_args("zhen"), "--level", level, *RESAMPLING,
                           "--scores", f"mine={stored / f'chrf-ref.refB.{name}.score'}",
                           "--json", path)  # fmt: skip
        assert code == 0, err
        back.update(_correlations(path))
    computed = _correlations(tmp_path / "a.json")
    for level in ("segment", "system"):
        assert back[(level, "mine")] == pytest.approx(computed[(level, "chrf")], abs=1e-12)
    code, _, err = cli(*common, "-m", "chrf", "--max-items", "50", "--export-scores",
                       tmp_path / "short", "--export-mtme", "zh-en")  # fmt: skip
    assert code == 2 and "50 of the 529 lines" in err and not (tmp_path / "short").exists()
    code, _, err = cli(*common, "-m", "chrf", "--export-mtme", "zh-en")
    assert code == 2 and "--export-mtme LP names the layout of --export-scores DIR" in err


def test_export_mtme_scores_no_text_twice(cli, tmp_path, monkeypatch):
    """With a system level, the run scores the folder's judged systems on every segment once;
    ``--export-mtme`` takes those scores and scores only the outputs they lack (the other
    reference, unjudged systems). The files equal those of a segment-level run, which scores
    every output for the export itself."""
    import mtpalette.sources.scoring as scoring

    real, scored = scoring.score_systems, []
    monkeypatch.setattr(
        scoring, "score_systems", lambda systems, *a, **k: scored.extend(systems) or real(
            systems, *a, **k)
    )  # fmt: skip
    files = {}
    for levels in ("segment,system", "segment"):
        folder = tmp_path / levels.replace(",", "_") / "wmt21.tedtalks"
        shutil.copytree(FOLDER, folder)
        scored.clear()
        code, _, err = cli("correlate", "--mtme", folder, "--lp", "zh-en", "--level", levels,
                           "-m", "chrf", "wer", *RESAMPLING, "--export-scores", folder,
                           "--export-mtme", "zh-en")  # fmt: skip
        assert code == 0, err
        stored = folder / "metric-scores" / "zh-en"
        files[levels] = {p.name: p.read_text() for p in sorted(stored.glob("[cw][hb]*-refB.*"))}
        if levels == "segment,system":
            assert len(scored) == len(set(scored)), "a system's texts were scored twice"
    assert len(files["segment"]) == 4 and files["segment,system"] == files["segment"]
