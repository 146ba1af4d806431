"""A chunk file proves its content (issue 40): every single-byte flip of a real chunk is either
caught (the chunk is then computed again, with a note naming it) or changes nothing that is
read; and a damaged chunk in a resumed command-line run is recomputed to the same table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
from real_data import mqm_ted
from typer.testing import CliRunner

from mtpalette.cli.app import app
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.chunked import chunk_path, chunk_stamp, run_chunks, system_chunks
from mtpalette.parallel import Backend

ROOT = mqm_ted("zhen")["root"]


def _small_chunk(run_dir: Path) -> Path:
    read = lambda n: (ROOT / n).read_text(encoding="utf-8").split("\n")[:3]  # noqa: E731
    lists = CandidateLists.from_systems(
        {s: read(f"{s}.txt") for s in ("SMU", "MiSS", "NiuTrans")},
        [read("ref.txt"), read("refB.txt")],
    )
    run_chunks(system_chunks(lists, 3), run_dir, specs=["bleus:4"], tokenize="13a",
               lowercase=False, oracle="leave-one-out", backend=Backend("inproc", 1),
               stamp="s" * 64)  # fmt: skip
    return chunk_path(run_dir, 0)


def test_no_byte_flip_goes_unnoticed(tmp_path):
    path = _small_chunk(tmp_path)
    original = path.read_bytes()
    stamp = chunk_stamp(path)
    assert stamp == ("s" * 64, 0, 3)
    columns = {k: v.to_numpy() for k, v in zip(*_columns(pq.read_table(path)), strict=True)}
    unnoticed_changes = caught = 0
    for i in range(len(original)):
        damaged = bytearray(original)
        damaged[i] ^= 0xFF
        path.write_bytes(bytes(damaged))
        if chunk_stamp(path) != stamp:
            caught += 1  # recomputed
            continue
        names, values = _columns(pq.read_table(path))
        same = names == list(columns) and all(
            np.array_equal(v.to_numpy(), columns[n]) for n, v in zip(names, values, strict=True)
        )
        unnoticed_changes += not same
    path.write_bytes(original)
    assert unnoticed_changes == 0
    assert caught > len(original) // 2  # most flips are caught; the rest change nothing read


def _columns(table):
    return table.column_names, [table.column(n) for n in table.column_names]


def test_a_damaged_chunk_is_recomputed_on_resume(tmp_path):
    refs = [str(ROOT / "ref.txt"), str(ROOT / "refB.txt")]
    systems = [str(ROOT / f"{s}.txt") for s in ("SMU", "MiSS", "NiuTrans", "Online-W")]
    args = ["orange", "-r", *refs, "-i", *systems, "-m", "bleus:4", "--bootstrap", "0",
            "--run-dir", str(tmp_path / "run"), "--chunk-size", "200"]  # fmt: skip
    first = CliRunner().invoke(app, args)
    assert first.exit_code == 0, first.output
    chunk = tmp_path / "run" / "chunks" / "chunk-00001.parquet"
    data = bytearray(chunk.read_bytes())
    data[len(data) // 2] ^= 0x01
    chunk.write_bytes(bytes(data))
    again = CliRunner().invoke(app, [*args, "--resume"])
    assert again.exit_code == 0, again.output
    assert "chunk-00001.parquet is damaged" in again.output
    table = lambda out: [ln for ln in out.splitlines() if "bleus:4" in ln and "%" in ln]  # noqa: E731
    assert table(first.output) and table(again.output) == table(first.output)


def test_an_unreachable_scheduler_is_one_line_with_the_address(monkeypatch):
    import pytest

    from mtpalette import parallel
    from mtpalette.errors import UserInputError

    monkeypatch.setattr(parallel, "CONNECT_SECONDS", 2)
    backend = parallel.Backend("dask", 1, scheduler="tcp://127.0.0.1:9")
    with pytest.raises(UserInputError, match=r"tcp://127.0.0.1:9 .*--resume"):
        list(parallel.run_tasks(abs, [-1, 2], backend))
