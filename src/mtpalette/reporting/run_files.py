"""A run's output files, written one way for every command: its tables through the writers'
registry (:func:`mtpalette.io.writers.write`), its run record (``run.json``) and the HTML
report built from that record, each entered in the run's ``outputs`` under its key as it is
written. The files of an output folder go to its stage (:mod:`mtpalette.io.run_folder`) and
are named in ``outputs`` where they will be.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> files = RunFiles({})
>>> files.table("tsv", "tsv", d / "t.tsv", lambda: [{"metric": "bleu", "score": 1.0}])
>>> files.record("json", d / "run.json", lambda: Run("rank", command=[]))
>>> sorted(files.outputs) == ["json", "tsv"] and (d / "run.json").is_file()
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtpalette.io.run_folder import StagedFolder
from mtpalette.io.runfile import Run
from mtpalette.io.writers import write


@dataclass
class RunFiles:
    """The files of one run: ``outputs`` (output name to the path written) and, for an
    output folder written beside itself, its ``stage``."""

    outputs: dict[str, Any]
    stage: StagedFolder | None = None

    def at(self, path: Path) -> Path:
        """Where ``path`` is written now (in the stage of an output folder)."""
        return path if self.stage is None else self.stage.path(path)

    def table(self, key: str, fmt: str, path: Path | None, make: Callable[[], Any],
              **options: Any) -> Any:  # fmt: skip
        """Write ``make()`` in format ``fmt`` to ``path`` (None: not asked, nothing made) and
        enter it under ``key``; returns what the writer returns."""
        if path is None:
            return None
        written = write(fmt, make(), self.at(path), **options)
        self.outputs[key] = str(path)
        return written

    def record(self, key: str, path: Path | None, make: Callable[[], Run]) -> None:
        """Save the run record ``make()`` to ``path`` (None: not asked), entered under ``key``
        first: a record made on ``outputs`` lists itself."""
        if path is None:
            return
        self.outputs[key] = str(path)
        make().save(self.at(path))

    def report(self, run_json: Path | None, path: Path | None) -> None:
        """The HTML report of the run file ``run_json`` (written: it is read back, so the page
        equals ``mtpalette report``'s) to ``path``, entered as ``report``."""
        if path is None or run_json is None:
            return
        from mtpalette.reporting.html import write_report

        self.outputs["report"] = str(write_report([run_json], path))


def pairs_path(tsv: Path | None) -> Path | None:
    """The pairs file written beside a ranking's ``--tsv FILE`` (``out.tsv``:
    ``out.pairs.tsv``); none for standard output.

    Examples
    --------
    >>> pairs_path(Path("out/rank.tsv")), pairs_path(Path("-"))
    (PosixPath('out/rank.pairs.tsv'), None)
    """
    if tsv is None or str(tsv) == "-":
        return None
    return tsv.with_name(tsv.stem + ".pairs" + (tsv.suffix or ".tsv"))
