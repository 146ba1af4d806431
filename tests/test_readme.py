"""Every code block of the README after its set-up section and of the pages of docs/ runs as
written: shell blocks
command by command through bash, Python blocks with ``exec``, in a folder holding the files
the README names (``refA.txt``, ``system.txt``, ``outputs/``...), made from a small excerpt of
the bundled WMT21 TED zh-en data (the first segments of a few systems)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
#: the documentation pages, in the README's order: every block runs, after the README's
DOCS = [
    Path(__file__).resolve().parents[1] / "docs" / f"{name}.md"
    for name in ("scoring", "systems", "correlation", "mtme", "sacrebleu", "orange", "mbr",
                 "reports", "large-runs", "plugins", "results", "baselines", "analyze")
]  # fmt: skip
ZHEN = resources.files("mtpalette") / "data" / "mqm_ted" / "zhen"
N_SEG = 40
SYSTEMS = ["SMU", "Online-W", "MiSS", "NiuTrans", "DIDI-NLP"]
#: an mt-metrics-eval folder (18 segments of the WMT21 TED MQM data per pair)
MTME_FOLDER = Path(str(resources.files("mtpalette") / "data" / "mtme" / "wmt21.tedtalks"))
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def readme_blocks() -> list[tuple[str, str, str]]:
    """``(language, code, where)`` of every block of the README after its set-up section,
    then of every documentation page."""
    out = []
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        start = text.index("\n## The first minute") if path == README else 0
        out += [
            (m.group(1), m.group(2), f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}")
            for m in _BLOCK.finditer(text, start)
        ]
    return out


def commands(code: str) -> list[str]:
    """Shell commands of a block: continuation lines joined, comments and blanks dropped."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [line for line in joined.splitlines() if line.strip() and not line.startswith("#")]


def _lines(name: str) -> list[str]:
    return (ZHEN / name).read_text(encoding="utf-8").splitlines()[:N_SEG]


def _write(path: Path, lines: list[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    ws = tmp_path_factory.mktemp("readme")
    _write(ws / "refA.txt", _lines("ref.txt"))
    _write(ws / "refB.txt", _lines("refB.txt"))
    _write(ws / "src.txt", _lines("source.txt"))
    (ws / "outputs").mkdir()
    outputs = {name: _lines(f"{name}.txt") for name in SYSTEMS}
    for name, lines in outputs.items():
        _write(ws / "outputs" / f"{name}.txt", lines)
    for file, name in [("system.txt", "Online-W"), ("base.txt", "SMU"), ("A.txt", "MiSS")]:
        _write(ws / file, outputs[name])
    _write(ws / "B.txt", outputs["NiuTrans"])
    _write(
        ws / "nbest.txt",
        [f"{s} ||| {outputs[n][s]} ||| f=0 ||| 0" for s in range(N_SEG) for n in SYSTEMS],
    )
    _write(
        ws / "data.tsv",
        ["mt\tref1\tref2"]
        + [
            f"{h}\t{a}\t{b}"
            for h, a, b in zip(outputs["SMU"], _lines("ref.txt"), _lines("refB.txt"), strict=True)
        ],
    )
    _write(ws / "mqm.tsv", ["system\tsegment\tscore"] + _judgments(outputs))
    shutil.copytree(MTME_FOLDER, ws / "wmt21.tedtalks")
    return ws


def _judgments(outputs) -> list[str]:
    """The bundled MQM scores of the excerpt's systems as a generic judgment file (system,
    1-based line, score)."""
    from mtpalette.api.inputs import load_task

    data, _, _ = load_task(bundled="zhen")
    assert data.n_items == len((ZHEN / "ref.txt").read_text(encoding="utf-8").splitlines())
    return [
        f"{system}\t{i + 1}\t{float(data.human[k, i])!r}"
        for k, system in enumerate(data.systems)
        if system in outputs
        for i in range(N_SEG)
        if data.human[k, i] == data.human[k, i]
    ]


CASES = readme_blocks()


@pytest.mark.parametrize(("lang", "code", "line"), CASES, ids=[c[2] for c in CASES])
def test_readme_block_runs(lang, code, line, workspace, monkeypatch):
    if lang == "python":
        monkeypatch.chdir(workspace)
        exec(compile(code, line, "exec"), {"__name__": "__readme__"})
        return
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    for command in commands(code):
        done = subprocess.run(
            ["bash", "-c", command], cwd=workspace, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, f"{line}: {command}\n{done.stderr[-2000:]}"
