"""Every code block of the README after its set-up section and of the pages of docs/ runs as
written: shell blocks command by command through bash, Python blocks statement by statement
with ``exec``, in a folder holding the files the pages name (``refA.txt``, ``system.txt``,
``outputs/``...), made from a small excerpt of the bundled example zh-en data (invented by the
project, ``src/mtpalette/data/example``: the first segments of a few of its systems).

Where a page shows what a block prints, the printed output must match it:

* a block marked ``output`` right after a code block is that block's standard output (a shell
  block's: every command's, in order);
* a comment ``# -> TEXT`` at the end of a Python statement is what that statement prints.

Whitespace is free (runs of spaces and blank lines are not compared) and every number must be
as shown; ``...`` stands for text left out: inside a line, any text of that line; on a line
of its own, any number of lines.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest

from mtpalette.io.judgments_mqm import bundled_mqm_ted
from mtpalette.io.mtme import example_folder

README = Path(__file__).resolve().parents[1] / "README.md"
#: the documentation pages, in the README's order: every block runs, after the README's
DOCS = [
    Path(__file__).resolve().parents[1] / "docs" / f"{name}.md"
    for name in ("scoring", "systems", "correlation", "mtme", "sacrebleu", "orange", "mbr",
                 "reports", "large-runs", "plugins", "results", "baselines", "analyze", "wmt",
                 "spans")
]  # fmt: skip
ZHEN = bundled_mqm_ted("zhen")["judgments"].parent
N_SEG = 40
SYSTEMS = ["Birch", "Cobalt", "Dune", "Ember", "Fjord"]
#: an mt-metrics-eval folder (the same invented data, 60 segments per pair)
MTME_FOLDER = example_folder()
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```[ \t]*\n?", re.S | re.M)


def readme_blocks() -> list[tuple[str, str, str, str | None]]:
    """``(language, code, where, output)`` of every block of the README after its set-up
    section, then of every documentation page; ``output``: the ``output`` block right after
    it (None without one)."""
    out: list[tuple[str, str, str, str | None]] = []
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        start = text.index("\n## The first minute") if path == README else 0
        last_end = start
        for m in _BLOCK.finditer(text, start):
            where = f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}"
            if m.group(1) == "output":
                assert out and out[-1][3] is None and text[last_end : m.start()].strip() == "", (
                    f"{where}: an output block follows a code block directly"
                )
                out[-1] = (*out[-1][:3], m.group(2))
                continue
            out.append((m.group(1), m.group(2), where, None))
            last_end = m.end()
    return out


def normalized(text: str) -> list[str]:
    """The non-blank lines of ``text``, each with its runs of whitespace made one space."""
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def shows(expected: str, printed: str) -> bool:
    r"""Whether ``printed`` is what ``expected`` shows (see the module docstring).

    Examples
    --------
    >>> shows("a  1.5\n...\nz 0.2...", "a 1.5\n\nb 2\nc 3\nz 0.25 end\n")
    True
    >>> shows("a 1.5", "a 1.50"), shows("...", "")
    (False, True)
    """
    parts = []
    for line in normalized(expected):
        if line == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append("[^\n]*?".join(map(re.escape, line.split("..."))) + r"\n")
    text = "".join(f"{line}\n" for line in normalized(printed))
    return re.fullmatch("".join(parts), text) is not None


def _check(expected: str, printed: str, where: str) -> None:
    assert shows(expected, printed), (
        f"{where}: the page shows\n{expected}\nbut it prints\n{printed}"
    )


def run_python(code: str, where: str) -> str:
    """Run a Python block statement by statement; check each ``# ->`` comment against what
    its statement printed; return everything the block printed."""
    arrows = {
        tok.start[0]: tok.string.split("->", 1)[1].strip()
        for tok in tokenize.generate_tokens(io.StringIO(code).readline)
        if tok.type == tokenize.COMMENT and re.match(r"#\s*->", tok.string)
    }
    namespace = {"__name__": "__readme__"}
    printed = io.StringIO()
    for node in ast.parse(code).body:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(ast.Module([node], type_ignores=[]), where, "exec"), namespace)
        printed.write(buffer.getvalue())
        if node.end_lineno in arrows:
            _check(arrows.pop(node.end_lineno), buffer.getvalue(), f"{where}+{node.end_lineno}")
    assert not arrows, f"{where}: '# ->' inside a statement, not at its end: lines {arrows}"
    return printed.getvalue()


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
    for file, name in [("system.txt", "Cobalt"), ("base.txt", "Birch"), ("A.txt", "Dune")]:
        _write(ws / file, outputs[name])
    _write(ws / "B.txt", outputs["Ember"])
    _write(
        ws / "nbest.txt",
        [f"{s} ||| {outputs[n][s]} ||| f=0 ||| 0" for s in range(N_SEG) for n in SYSTEMS],
    )
    _write(
        ws / "data.tsv",
        ["mt\tref1\tref2"]
        + [
            f"{h}\t{a}\t{b}"
            for h, a, b in zip(outputs["Birch"], _lines("ref.txt"), _lines("refB.txt"), strict=True)
        ],
    )
    _write(ws / "mqm.tsv", ["system\tsegment\tscore"] + _judgments(outputs))
    shutil.copytree(MTME_FOLDER, ws / "mtpalette.example")
    return ws


def _judgments(outputs) -> list[str]:
    """The bundled (synthetic) MQM scores of the excerpt's systems as a generic judgment file
    (system, 1-based line, score)."""
    from mtpalette.sources.inputs import load_task

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


@pytest.mark.parametrize(("lang", "code", "line", "output"), CASES, ids=[c[2] for c in CASES])
def test_readme_block_runs(lang, code, line, output, workspace, monkeypatch):
    if lang == "python":
        monkeypatch.chdir(workspace)
        printed = run_python(code, line)
    else:
        path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        env = {**os.environ, "PATH": path}
        printed = ""
        for command in commands(code):
            done = subprocess.run(
                ["bash", "-c", command], cwd=workspace, env=env, capture_output=True, text=True
            )
            assert done.returncode == 0, f"{line}: {command}\n{done.stderr[-2000:]}"
            printed += done.stdout
    if output is not None:
        _check(output, printed, line)


def test_the_output_convention():
    text = "```python\nprint(1)  # -> 1\n```\n\n```output\n1\n```\n"
    (block,) = [m.groups() for m in _BLOCK.finditer(text)][:1]
    assert block == ("python", "print(1)  # -> 1\n")
    assert run_python("x = 2\nprint(x, 3.25)  # -> 2 3.25\n", "t") == "2 3.25\n"
    with pytest.raises(AssertionError, match="the page shows"):
        run_python("print(0.1 + 0.2)  # -> 0.3\n", "t")
    shown = [c for c in CASES if c[3] is not None]
    arrows = [c for c in CASES if c[0] == "python" and "# ->" in c[1]]
    assert shown and arrows  # the pages use both
