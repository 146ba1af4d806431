"""What the round-4 bad-input matrix (issue 40) shares: its input files, the in-process runner,
a snapshot of a folder (every file's bytes: nothing changed or lost) and the faults it injects
(a full disk, a read-only folder, a full standard output).

The inputs are 12 segments of the bundled WMT21 TED zh-en data (four systems, two references)
and a copy of the bundled mt-metrics-eval folder, as in ``test_bad_input_matrix.py``.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from real_data import mqm_ted, mtme_folder

from mtpalette.cli.app import main

ZHEN = mqm_ted("zhen")["root"]
MTME = mtme_folder()
N = 12
SYSTEMS = {"s1": "SMU", "s2": "MiSS", "s3": "NiuTrans", "s4": "Online-W"}
SYS4 = "-s {s1} {s2} {s3} {s4}"
FAST = "--bootstrap 0"
NO_TEST = "--bootstrap 0 --permutations 0"


def lines(name: str, n: int = N) -> list[str]:
    return (ZHEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()[:n]


def text(rows: list[str]) -> str:
    return "".join(x + "\n" for x in rows)


def judgments(score=lambda system, k, i: f"{((7 * i + 3 * k) % 11) / 10:.1f}", skip=None) -> str:
    """Judgments of s1..s4, segments 1..N (``skip(system, i)``: no row)."""
    rows = ["system\tsegment\tscore"]
    for k, system in enumerate(SYSTEMS):
        for i in range(1, N + 1):
            if skip is None or not skip(system, i):
                rows.append(f"{system}\t{i}\t{score(system, k, i)}")
    return "\n".join(rows) + "\n"


def make_inputs(d: Path) -> dict[str, str]:
    """The shared input files in ``d``, by name (the ``{name}`` of the case tables)."""
    files: dict[str, str] = {}

    def put(name: str, content: str | bytes) -> None:
        p = d / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        files[name.split(".")[0]] = str(p)

    put("r1.txt", text(lines("ref")))
    put("r2.txt", text(lines("refB")))
    for system, name in SYSTEMS.items():
        put(f"{system}.txt", text(lines(name)))
    put("j.tsv", judgments())
    smu, ref_b = lines("SMU"), lines("refB")
    put("nb.txt", "".join(f"{i} ||| {h}\n" for i in range(N) for h in (smu[i], ref_b[i])))
    (d / "bom").mkdir()  # s1's output with a byte-order mark, under s1's name
    put("bom/s1.txt", b"\xef\xbb\xbf" + text(smu).encode())
    files["bom"] = files.pop("bom/s1")
    zh = ["北京 欢迎 你们 大家", "我们 是 朋友 好的"] * (N // 2)
    put("zh.txt", text(zh))
    put("zhref.txt", text(zh[::-1]))
    shutil.copytree(MTME, d / MTME.name)  # its name gives MTME's settings (the standard ref)
    files["mtme"] = str(d / MTME.name)
    return files


def run(monkeypatch, capsys, argv: list[str]) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["mtpalette", *argv])
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out = capsys.readouterr()
    return code, out.out, out.err


def argv_of(template: str, names: dict[str, str]) -> list[str]:
    return [a.format(**names) for a in template.split()]


def snapshot(d: Path) -> dict[str, object]:
    """Every entry under ``d``: a file's bytes, a link's target, a pipe, a folder."""
    out: dict[str, object] = {}
    for p in sorted(d.rglob("*")):
        key = str(p.relative_to(d))
        if p.is_symlink():
            out[key] = ("link", os.readlink(p))
        elif p.is_fifo():
            out[key] = "fifo"
        elif p.is_dir():
            out[key] = "dir"
        else:
            out[key] = p.read_bytes()
    return out


def full_disk(monkeypatch, after: int = 0) -> None:
    """A disk that fills up: the first ``after`` files are flushed to it, then every flush
    fails with ``ENOSPC`` (every output is flushed with ``os.fsync`` before it replaces a
    file)."""
    done = [0]
    real = os.fsync

    def fsync(fd):
        if done[0] >= after:
            raise OSError(errno.ENOSPC, "No space left on device")
        done[0] += 1
        return real(fd)

    monkeypatch.setattr(os, "fsync", fsync)


def read_only(monkeypatch, folder: Path) -> None:
    """``folder`` read-only, as for a user without root (root writes anywhere): making a
    file or a folder in it fails with ``EACCES``."""
    folder = folder.resolve()

    def inside(where) -> bool:
        return where is not None and Path(where).resolve().is_relative_to(folder)

    def refused(what):
        def call(*args, **kwargs):
            where = kwargs.get("dir", args[2] if len(args) > 2 else None)
            if inside(where):
                raise PermissionError(errno.EACCES, "Permission denied", str(where))
            return what(*args, **kwargs)

        return call

    def mkdir(path, *args, **kwargs):
        if inside(Path(path).parent):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_mkdir(path, *args, **kwargs)

    real_mkdir = os.mkdir
    monkeypatch.setattr(tempfile, "mkstemp", refused(tempfile.mkstemp))
    monkeypatch.setattr(tempfile, "mkdtemp", refused(tempfile.mkdtemp))
    monkeypatch.setattr(os, "mkdir", mkdir)


class FullStdout(io.TextIOBase):
    """Standard output on a full disk: every write fails with ``ENOSPC``."""

    encoding = "utf-8"

    def write(self, s: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def isatty(self) -> bool:
        return False


def orange_run_file(d: Path, names: dict[str, str]) -> str:
    """A real ORANGE run file, the input of ``report``."""
    from mtpalette.api import CandidateInputs, OrangeOutputs, OrangeRun, run_orange

    path = d / "run.json"
    inputs = CandidateInputs([Path(names["r1"]), Path(names["r2"])],
                             systems=[Path(names[s]) for s in SYSTEMS])  # fmt: skip
    run = OrangeRun(inputs, ["chrf"], bootstrap=0, outputs=OrangeOutputs(json=path))
    run_orange(run, progress=False)
    return str(path)


def check_api_case(call, expected) -> None:
    """One case of a Python API matrix: ``expected`` is ``("error", a fragment of the
    UserInputError's message)``, ``("value", a check of the result)`` or ``("equal", a call
    giving the result expected)``."""
    import pytest

    from mtpalette.errors import UserInputError

    kind, want = expected
    if kind == "error":
        with pytest.raises(UserInputError) as info:
            call()
        assert want in str(info.value), str(info.value)
    elif kind == "value":
        assert want(call())
    else:
        assert kind == "equal", kind
        assert call() == want()


def inputs_with(d: Path, files: dict[str, str]) -> dict[str, str]:
    """The shared inputs of :func:`make_inputs` in ``d`` and a case table's own ``files``
    (name to content), by name."""
    names = make_inputs(d)
    for name, content in files.items():
        (d / name).write_text(content, encoding="utf-8")
        names[name.split(".")[0]] = str(d / name)
    return names


def case_params(cases) -> list:
    """``(id, command line, exit code, expected)`` rows as pytest parameters."""
    import pytest

    return [pytest.param(a, c, m, id=i) for i, a, c, m in cases]


def run_case(names, tmp_path, monkeypatch, capsys, argv: str, code: int):
    """One command-line case run in ``tmp_path``: ``(stdout, stderr)``, after asserting the
    exit code and that there is no traceback."""
    monkeypatch.chdir(tmp_path)
    got, out, err = run(monkeypatch, capsys, argv_of(argv, names))
    assert "Traceback" not in err, err[-2000:]
    assert got == code, (got, err[-2000:])
    return out, err
