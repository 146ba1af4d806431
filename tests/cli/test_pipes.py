"""Files asked for are written whatever stdout is: a file, or a pipe closed early.

``mtpalette correlate ... --out-dir run | head -1`` once exited 1 with no message and left
``run/`` empty (Python's BrokenPipeError at the second printed line). Each command with an
output option runs twice here, once into a file and once into ``head -1``: the exit code is 0
and the files are byte-identical (``run.json`` up to its creation time and its own paths).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mtpalette.io.judgments import bundled_mqm_ted

pytestmark = pytest.mark.skipif(shutil.which("head") is None, reason="needs head(1)")

ZHEN = bundled_mqm_ted("zhen")
SYSTEMS = [str(p) for p in ZHEN["systems"][:3]]
REFS = [str(p) for p in ZHEN["refs"]]

COMMANDS = {
    "correlate": ["correlate", "--bundled", "zhen", "-m", "bleus:4", "--out-dir", "{out}"],
    "orange": ["orange", "-r", *REFS, "-s", *SYSTEMS, "-m", "bleus:4", "--out-dir", "{out}"],
    "score": ["score", "-r", REFS[0], "-i", *SYSTEMS, "-m", "bleu", "chrf", "-o", "{out}/s.tsv"],
}


def _run(args: list[str], out: Path, piped: bool) -> int:
    argv = [sys.executable, "-m", "mtpalette.cli", *[a.replace("{out}", str(out)) for a in args]]
    out.mkdir(exist_ok=True)
    if piped:
        first = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        head = subprocess.run(["head", "-1"], stdin=first.stdout, capture_output=True)
        first.stdout.close()
        assert head.stdout.count(b"\n") <= 1
        return first.wait(timeout=600)
    with open(out.parent / f"{out.name}.stdout", "wb") as fh:
        return subprocess.run(argv, stdout=fh, stderr=subprocess.DEVNULL, timeout=600).returncode


def _content(path: Path, out: Path) -> bytes:
    data = path.read_bytes()
    if path.name != "run.json":
        return data
    record = json.loads(data.decode().replace(str(out), "OUT"))
    record.pop("created", None)
    return json.dumps(record, sort_keys=True).encode()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_outputs_survive_a_closed_pipe(tmp_path, command):
    to_file, to_pipe = tmp_path / "file", tmp_path / "pipe"
    assert _run(COMMANDS[command], to_file, piped=False) == 0
    assert _run(COMMANDS[command], to_pipe, piped=True) == 0
    written = sorted(p.relative_to(to_file) for p in to_file.rglob("*") if p.is_file())
    assert written, f"{command} wrote nothing"
    assert written == sorted(p.relative_to(to_pipe) for p in to_pipe.rglob("*") if p.is_file())
    for rel in written:
        assert _content(to_file / rel, to_file) == _content(to_pipe / rel, to_pipe), rel
