"""Real data for the tests, read from the shared data folder and never from the repository.

The shared folder is ``$MTPALETTE_SHARED_DATA`` when set, else ``../shared/data`` next to the
repository (as ``scripts/shared_data.py`` and ``bench/common.py`` find it). Where it lacks a
data set, the test asking for it skips with a one-line reason naming the path (or fails, when
``$MTPALETTE_REQUIRE_SHARED`` is set, as ``.ci/run`` sets it where ``../shared/data`` exists: a
skip there would hide a missing data set). The folders the
tests read in a derived layout (the WMT21 TED MQM texts, the mt-metrics-eval folder) are
rebuilt from it by the project's scripts (``scripts/extract_mqm_ted.py``,
``scripts/mtme_folder.py build``) into a cache outside git, once per version of the script.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: the shared data folder (it may be absent: tests then skip)
SHARED = Path(os.environ.get("MTPALETTE_SHARED_DATA") or REPO.parent / "shared" / "data")
_SCRIPTS = REPO / "scripts"


#: the tests (node ids) and test modules (files) that read the shared data, for the summary
USED_BY: set[str] = set()
#: the phrase every skip for want of the shared data carries (conftest counts them)
ABSENT = "shared data absent"


def shared(*parts: str, what: str) -> Path:
    """``SHARED/parts...``, or a skip saying that ``what`` is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        reason = f"{what} is not at {path} ({ABSENT}; see tests/real_data.py)"
        if os.environ.get("MTPALETTE_REQUIRE_SHARED"):
            pytest.fail(f"{reason}, and $MTPALETTE_REQUIRE_SHARED is set", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    current = os.environ.get("PYTEST_CURRENT_TEST")
    if current:
        USED_BY.add(current.rsplit(" (", 1)[0])
    else:  # read at import: the whole module counts
        frame = sys._getframe(1)
        while frame and not Path(frame.f_code.co_filename).name.startswith("test_"):
            frame = frame.f_back
        if frame:
            USED_BY.add(str(Path(frame.f_code.co_filename).resolve()))
    return path


@functools.cache
def script(name: str):
    """The module of ``scripts/NAME.py`` (loaded by path: scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(f"_mtpalette_{name}", _SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cached(name: str, script: str, build) -> Path:
    """The folder ``build(tmp)`` writes, made once per script version in the temp folder."""
    key = hashlib.sha256((_SCRIPTS / f"{script}.py").read_bytes() + str(SHARED).encode())
    root = Path(tempfile.gettempdir()) / f"mtpalette-real-data-{os.getuid()}"
    target = root / f"{name}-{key.hexdigest()[:16]}"
    if not target.is_dir():
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=root, prefix=f".{name}-"))
        build(tmp)
        try:
            tmp.rename(target)
        except OSError:  # another test process made it first
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def mqm_ted_root() -> Path:
    """The WMT21 TED MQM texts and ratings (``ende/``, ``zhen/``), as
    ``scripts/extract_mqm_ted.py`` writes them from ``SHARED/mqm/ted`` (built once into a cache
    by ``scripts/shared_data.py: mqm_ted_root``)."""
    shared("mqm", "ted", what="the WMT21 TED MQM data (google/wmt-mqm-human-evaluation)")
    return script("shared_data").mqm_ted_root(SHARED)


def mqm_ted(lp: str) -> dict:
    """Paths of the real WMT21 TED MQM data of ``lp`` (``ende`` or ``zhen``): ``judgments``,
    ``avg``, ``refs`` (``ref``, and ``refB`` for zh-en), ``systems`` (13), ``seg_ids``,
    ``source`` and ``root`` (``scripts/shared_data.py: mqm_ted``)."""
    return script("shared_data").mqm_ted(lp, mqm_ted_root())


def mqm_ted_human(lp: str, systems: list[str], segments: int | None = None) -> list[list]:
    """The real average MQM scores of ``systems`` x the first ``segments`` annotated segments of
    ``lp`` (``extract_mqm_ted.mqm_avg_matrix``): the human side of golden inputs whose ratings
    are not stored in the repository."""
    return script("extract_mqm_ted").mqm_avg_matrix(mqm_ted_root(), lp, systems, segments)


def mqm_ted_inputs(lp: str) -> dict:
    """The real data of ``lp`` as the keywords of ``JudgedInputs``/``load_task`` (what
    ``bundled=lp`` gave when the data was shipped)."""
    p = mqm_ted(lp)
    return {"judgments": p["judgments"], "refs": p["refs"], "systems": p["systems"],
            "seg_ids": p["seg_ids"]}  # fmt: skip


def mqm_ted_args(lp: str) -> list[str]:
    """The real data of ``lp`` as command-line options (what ``--bundled LP`` gave)."""
    p = mqm_ted(lp)
    return ["--judgments", str(p["judgments"]), "--seg-ids", str(p["seg_ids"]),
            "--refs", *map(str, p["refs"]), "--systems", *map(str, p["systems"])]  # fmt: skip


def mtme_folder() -> Path:
    """The mt-metrics-eval folder ``wmt21.tedtalks`` (18 segments of en-de and zh-en), as
    ``scripts/mtme_folder.py build --docs 3 --per-doc 6`` writes it from ``SHARED``."""
    shared("mqm", "ted", what="the WMT21 TED MQM data (google/wmt-mqm-human-evaluation)")
    built = _cached("mtme", "mtme_folder",
                    lambda out: script("mtme_folder").build(out, 3, 6, shared=SHARED))  # fmt: skip
    return built / "wmt21.tedtalks"


def wmt24_rank(lp: str) -> Path:
    """The WMT24 ESA ratings of ``lp`` (``en-cs`` or ``en-ja``) as the ranking tests read them,
    ``system domain doc item score`` (``scripts/shared_data.py: wmt24_rank_root``: built from
    ``SHARED/wmt24`` by mtpalette's ESA reader into a cache outside git)."""
    shared("wmt24", "humeval", what="the WMT24 ESA ratings (wmt-conference/wmt24-news-systems)")
    return script("shared_data").wmt24_rank_root(SHARED) / f"{lp}.tsv.gz"
