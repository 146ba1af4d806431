"""Files asked for are written whatever stdout is: a file, or a pipe closed early.

``mtpalette correlate ... --out-dir run | head -1`` once exited 1 with no message and left
``run/`` empty (Python's BrokenPipeError at the second printed line). Each command with an
output option runs twice here, once into a file and once into ``head -1``: the exit code is 0
and the files are byte-identical (``run.json`` up to its creation time and its own paths).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from real_data import mqm_ted, mqm_ted_args, mtme_folder

pytestmark = pytest.mark.skipif(shutil.which("head") is None, reason="needs head(1)")

ZHEN = mqm_ted("zhen")
SYSTEMS = [str(p) for p in ZHEN["systems"][:3]]
REFS = [str(p) for p in ZHEN["refs"]]
# the 18-segment mt-metrics-eval folder keeps the other commands small
MTME = mtme_folder()
M_REFS = [str(MTME / "references" / f"zh-en.{r}.txt") for r in ("refA", "refB")]
M_SYSTEMS = [str(MTME / "system-outputs" / "zh-en" / f"{s}.txt") for s in
             ("Borderline", "MiSS", "NiuTrans", "Online-W")]  # fmt: skip
HUMAN = str(MTME / "human-scores" / "zh-en.mqm.seg.score")
FOLDER = ["--mtme", str(MTME), "--lp", "zh-en"]

COMMANDS = {
    "correlate": ["correlate", *mqm_ted_args("zhen"), "-m", "bleus:4", "--out-dir", "{out}"],
    "orange": ["orange", "-r", *REFS, "-s", *SYSTEMS, "-m", "bleus:4", "--out-dir", "{out}"],
    "score": ["score", "-r", REFS[0], "-i", *SYSTEMS, "-m", "bleu", "chrf", "-o", "{out}/s.tsv"],
    # once a traceback: the report of an --mtme run (its references are names, not files)
    "orange-mtme-exports": [
        "orange",
        *FOLDER,
        "-m",
        "chrf",
        "--bootstrap",
        "0",
        "--out-dir",
        "{out}",
        "--export-scores",
        "{out}/scores",
        "--report",
        "{out}/report.html",
    ],  # fmt: skip
    "correlate-exports": [
        "correlate",
        *FOLDER,
        "-m",
        "chrf",
        "--bootstrap",
        "0",
        "--permutations",
        "0",
        "--json",
        "{out}/c.json",
        "--csv",
        "{out}/c.csv",
        "--export-scores",
        "{out}/scores",
    ],  # fmt: skip
    "agree": [
        "agree",
        "-j",
        HUMAN,
        "-r",
        *M_REFS,
        "-s",
        *M_SYSTEMS,
        "-m",
        "chrf",
        "bleu",
        "ter",
        "--bootstrap",
        "0",
        "--out-dir",
        "{out}",
    ],  # fmt: skip
    "audit": [
        "audit",
        "-r",
        *M_REFS,
        "-s",
        *M_SYSTEMS,
        "-m",
        "chrf",
        "--bootstrap",
        "0",
        "--json",
        "{out}/audit.json",
    ],  # fmt: skip
    "train-blanc": [
        "train-blanc",
        *FOLDER,
        "--restarts",
        "1",
        "--max-evals",
        "3",
        "-o",
        "{out}/blanc.json",
    ],  # fmt: skip
    "train-rose": [
        "train-rose",
        *FOLDER,
        "--C",
        "1",
        "--epsilon",
        "0.1",
        "-o",
        "{out}/rose.json",
    ],  # fmt: skip
    "wmt": [
        "wmt",
        *FOLDER,
        "--task-set",
        "wmt24",
        "--mtme-metrics",
        "chrF",
        "-k",
        "0",
        "--json",
        "{out}/wmt.json",
    ],  # fmt: skip
    "report": ["report", "{data}/run.json", "-o", "{out}/report.html"],
    "mbr": [
        "mbr",
        "{data}/samples.nbest",
        "--scores",
        "{out}/mbr.tsv",
        "--matrix",
        "{out}/mbr.npz",
    ],  # fmt: skip
    "mbr-output": ["mbr", "{data}/samples.nbest", "-r", M_REFS[0], "-o", "{out}/selected.txt"],
}


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> Path:
    """An n-best file of the folder's system outputs and the run file of an ORANGE run."""
    d = tmp_path_factory.mktemp("pipe-inputs")
    outputs = [Path(p).read_text(encoding="utf-8").splitlines() for p in M_SYSTEMS]
    (d / "samples.nbest").write_text(
        "".join(f"{i} ||| {out[i]}\n" for i in range(len(outputs[0])) for out in outputs),
        encoding="utf-8",
    )
    argv = ["orange", "-r", *M_REFS, "-s", *M_SYSTEMS, "-m", "chrf", "wer", "--bootstrap", "0"]
    subprocess.run([sys.executable, "-m", "mtpalette.cli", *argv, "--out-dir", str(d)],
                   check=True, capture_output=True, timeout=600)  # fmt: skip
    return d


def _run(args: list[str], out: Path, piped: bool, data: Path) -> int:
    args = [a.replace("{out}", str(out)).replace("{data}", str(data)) for a in args]
    argv = [sys.executable, "-m", "mtpalette.cli", *args]
    out.mkdir(parents=True, exist_ok=True)
    if piped:
        first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        head = subprocess.run(["head", "-1"], stdin=first.stdout, capture_output=True)
        first.stdout.close()
        assert head.stdout.count(b"\n") <= 1
        return first.wait(timeout=600)
    with open(out.parent / f"{out.name}.stdout", "wb") as fh:
        return subprocess.run(argv, stdout=fh, stderr=subprocess.DEVNULL, timeout=600).returncode


def _content(path: Path, out: Path) -> bytes:
    """The file's bytes, up to what differs by design: a JSON record's creation time and own
    paths, a report's, and the time stamps inside a .npz (a zip archive)."""
    data = path.read_bytes()
    if path.suffix == ".npz":
        with np.load(path) as arrays:
            return b"".join(k.encode() + arrays[k].tobytes() for k in sorted(arrays.files))
    if path.suffix not in (".json", ".html"):
        return data
    text = data.decode().replace(str(out), "OUT")
    if path.suffix == ".html":
        return re.sub(r"\d{4}-\d\d-\d\dT?[ \d:.+-]*(UTC|Z)?", "DATE", text).encode()
    record = json.loads(text)
    if isinstance(record, dict):
        record.pop("created", None)
    return json.dumps(record, sort_keys=True).encode()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_outputs_survive_a_closed_pipe(tmp_path, command, data):
    # the same folder name: a report labels a run by its folder
    to_file, to_pipe = tmp_path / "file" / "run", tmp_path / "pipe" / "run"
    assert _run(COMMANDS[command], to_file, piped=False, data=data) == 0
    assert _run(COMMANDS[command], to_pipe, piped=True, data=data) == 0
    written = sorted(p.relative_to(to_file) for p in to_file.rglob("*") if p.is_file())
    assert written, f"{command} wrote nothing"
    assert written == sorted(p.relative_to(to_pipe) for p in to_pipe.rglob("*") if p.is_file())
    for rel in written:
        assert _content(to_file / rel, to_file) == _content(to_pipe / rel, to_pipe), rel
