"""Silent traps of the documented examples (issue 54): a reference in a folder of system
outputs is left out with a note, a missing n-best file of a run folder is a one-line error,
``--report`` never replaces an earlier ``--json`` run file, and a score file's signature
gives the references the file was computed with, not the run's count."""

from __future__ import annotations

import json
import shutil

import pytest
from real_data import mqm_ted, mqm_ted_args

ZHEN = mqm_ted("zhen")
REF_A, REF_B = ZHEN["refs"]
SYSTEMS = ZHEN["systems"][:3]
NOTE = "refB.txt (a reference by its name; give it with -r, or with --systems to rank it)"


@pytest.fixture
def folder(tmp_path):
    """``mtpalette data --copy``'s layout: outputs, ``ref.txt`` and ``refB.txt`` together."""
    d = tmp_path / "mqm_ted_zhen"
    d.mkdir()
    for p in (*SYSTEMS, REF_A, REF_B):
        shutil.copy(p, d / p.name)
    return d


def _clean(code, err, expected=0):
    assert code == expected and "Traceback" not in err, err


@pytest.mark.parametrize("command", ["rank", "score", "orange", "correlate"])
def test_a_reference_in_the_systems_folder_is_left_out_with_a_note(cli, folder, command):
    args = {
        "rank": ["-r", folder / "ref.txt", "-m", "chrf"],
        "score": ["-r", folder / "ref.txt", "-m", "chrf"],
        # a second reference from elsewhere: refB.txt of the folder is left out by its name
        "orange": ["-r", folder / "ref.txt", REF_B, "-m", "chrf", "--bootstrap", "0"],
        "correlate": ["--judgments", ZHEN["judgments"], "--seg-ids", ZHEN["seg_ids"],
                      "-r", folder / "ref.txt", "-m", "chrf", "--bootstrap", "0"],
    }[command]  # fmt: skip
    code, out, err = cli(command, *args, "--systems-dir", folder)
    _clean(code, err)
    assert f"systems: {len(SYSTEMS)} from {folder}" in err and NOTE in err
    if command != "orange":  # ORANGE's table names its references (ref, refB) as such
        assert "refB" not in out


def test_a_reference_given_as_a_system_file_is_ranked(cli, folder):
    files = [folder / p.name for p in SYSTEMS]
    code, out, err = cli("rank", "-r", folder / "ref.txt", "-m", "chrf",
                         "--systems", *files, folder / "refB.txt")  # fmt: skip
    _clean(code, err)
    assert "refB" in out and "a reference by its name" not in err


def test_a_missing_nbest_file_of_a_run_folder_is_one_line(cli, tmp_path):
    missing = tmp_path / "missing.txt"
    code, out, err = cli("orange", "-r", REF_A, REF_B, "--run-dir", tmp_path / "run",
                         "--nbest", missing, "-m", "chrf")  # fmt: skip
    _clean(code, err, expected=2)
    assert f"{missing}: file not found" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("command", ["rank", "analyze"])
def test_a_report_never_replaces_an_earlier_run_file(cli, tmp_path, command):
    args = ["-r", REF_A, "-s", *SYSTEMS[:2]]
    args += ["-m", "chrf"] if command == "rank" else ["-a", "length"]
    earlier = tmp_path / f"{command}.json"
    code, _, err = cli(command, *args, "--json", earlier)
    _clean(code, err)
    before = earlier.read_bytes()
    code, _, err = cli(command, *args, "--report", tmp_path / f"{command}.html")
    _clean(code, err)
    assert earlier.read_bytes() == before
    beside = tmp_path / f"{command}.run.json"
    assert json.loads(beside.read_text(encoding="utf-8"))["kind"] == command
    assert (tmp_path / f"{command}.html").is_file()


def _score_file(path, mtme: bool):
    """A segment score per system and line of the bundled zh-en outputs."""
    rows = [] if mtme else ["system\tsegment\tscore"]
    for p in ZHEN["systems"]:
        n = len(p.read_text(encoding="utf-8").splitlines())
        for i in range(n):
            score = (i * 7 + len(p.stem)) % 13 / 13
            rows.append(f"{p.stem}\t{score}" if mtme else f"{p.stem}\t{i + 1}\t{score}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "mtme", "nrefs"),
    [("COMET-src.seg.score", True, "nrefs:0"), ("comet.tsv", False, "nrefs:file")],
)
def test_a_score_file_signature_gives_the_file_references(cli, tmp_path, name, mtme, nrefs):
    scores = _score_file(tmp_path / name, mtme)
    # the run has two references (ref, refB); the file's name says none, or nothing
    code, out, err = cli("correlate", *mqm_ted_args("zhen"), "--scores", f"comet={scores}",
                         "--bootstrap", "0")  # fmt: skip
    _clean(code, err)
    assert f"comet|{nrefs}|source:file" in out
    assert "comet|nrefs:2" not in out
