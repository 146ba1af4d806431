"""A run folder (``--out-dir``) written whole or not at all.

A run writes its folder's files (``run.json``, the tables, the curve, the error analysis)
into a hidden sibling folder first (:class:`StagedFolder`, ``.NAME.stage-XXXX`` beside
``NAME``), each file as the run makes it. Only when every file is written is the stage moved
into place: a new folder by one rename of the stage, an existing one (a previous run, a
chunked run's folder) file by file with :func:`os.replace`, ``run.json`` last. Writing is
where a full disk or a read-only folder fails; moving is renames only. So a run that fails
(a full disk, a bad input found late, an interruption) leaves the folder as it was: absent,
or holding the previous complete run.

Examples
--------
>>> import os, tempfile
>>> from pathlib import Path
>>> out = Path(tempfile.mkdtemp()) / "run"
>>> with staged_folder(out) as stage:
...     _ = stage.path(out / "table.csv").write_text("a,b\\n")
...     os.path.exists(out)
False
>>> sorted(os.listdir(out)), sorted(os.listdir(out.parent))
(['table.csv'], ['run'])
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import disk_error, usual_mode

#: the file of a run folder moved in last: a folder holding it holds the whole run
RUN_FILE = "run.json"


def check_out_dir(folder: str | Path | None, option: str = "--out-dir") -> None:
    """Refuse an output folder that is a file (or anything but a folder), before any work.

    Examples
    --------
    >>> check_out_dir(None); check_out_dir(tempfile.gettempdir())
    >>> check_out_dir(__file__)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: ...run_folder.py: --out-dir is a file; expected a folder ...
    """
    if folder is None:
        return
    if str(folder) == "-":
        raise UserInputError(f"{option} -: expected a folder, not standard output")
    p = Path(folder)
    if p.exists() and not p.is_dir():
        raise UserInputError(
            f"{option} is a file; expected a folder (new or existing)", path=str(folder)
        )


class StagedFolder:
    """Where the files of ``folder`` are written until the run is complete (see the module).

    ``path(p)`` gives the place to write ``p`` now: inside the stage when ``p`` is in
    ``folder``, ``p`` itself otherwise; the stage is made on first use. :meth:`commit` moves
    the stage into place, :meth:`discard` deletes it.
    """

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = None if folder is None else Path(folder)
        #: where the files go: the folder, or the folder a symbolic link to it points to
        self.target = None if folder is None else Path(os.path.realpath(folder))
        self.stage: Path | None = None

    def path(self, p: str | Path | None) -> Path | None:
        if p is None or self.folder is None:
            return None if p is None else Path(p)
        p = Path(p)
        try:
            inner = p.absolute().relative_to(self.folder.absolute())
        except ValueError:
            return p  # not in the folder: written where it is named
        if self.stage is None:
            self._make_stage()
        assert self.stage is not None
        out = self.stage / inner
        out.parent.mkdir(parents=True, exist_ok=True)
        return out

    def final(self, p: str | Path) -> Path:
        """Where a file written at ``p`` (a :meth:`path`) will be once the stage is in place.

        Examples
        --------
        >>> stage = StagedFolder(tempfile.mkdtemp())
        >>> written = stage.path(stage.folder / "a" / "b.tsv")
        >>> stage.final(written) == stage.folder / "a" / "b.tsv"; stage.discard()
        True
        """
        p = Path(p)
        if self.stage is None or self.folder is None:
            return p
        try:
            return self.folder / p.relative_to(self.stage)
        except ValueError:
            return p

    def _make_stage(self) -> None:
        assert self.folder is not None and self.target is not None
        parent = self.target.parent
        try:
            parent.mkdir(parents=True, exist_ok=True)  # as --out-dir a/b/c always made them
            stage = tempfile.mkdtemp(prefix=f".{self.target.name}.stage-", dir=parent)
            os.chmod(stage, usual_mode(0o777))  # mkdtemp makes 0700 folders
        except OSError as exc:
            raise disk_error(exc, self.folder) from None
        self.stage = Path(stage)

    def commit(self) -> None:
        """Move the stage into place: the whole folder at once when it is new, else each
        file over its old self, ``run.json`` last."""
        if self.stage is None or self.target is None:
            return
        stage, self.stage = self.stage, None
        try:
            if not self.target.exists():
                with contextlib.suppress(OSError):  # made meanwhile: file by file below
                    os.rename(stage, self.target)
                    return
            files = sorted(
                (p for p in stage.rglob("*") if not p.is_dir()),
                key=lambda p: (p.name == RUN_FILE, len(p.parts), str(p)),
            )
            for src in files:
                dst = self.target / src.relative_to(stage)
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
        except OSError as exc:
            raise disk_error(exc, self.folder) from None
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    def discard(self) -> None:
        if self.stage is not None:
            shutil.rmtree(self.stage, ignore_errors=True)
            self.stage = None


@contextlib.contextmanager
def staged_folder(folder: str | Path | None) -> Iterator[StagedFolder]:
    """A :class:`StagedFolder` committed when the block succeeds, discarded when it fails."""
    stage = StagedFolder(folder)
    try:
        yield stage
    except UserInputError as exc:  # named where the user asked for it, not in the stage
        final = None if exc.path is None else str(stage.final(exc.path))
        stage.discard()
        if final == exc.path:
            raise
        raise UserInputError(exc.message, path=final, line=exc.line) from None
    except BaseException:
        stage.discard()
        raise
    stage.commit()
