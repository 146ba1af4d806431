"""The options of WMT25/26 files (``score --wmt25-testset FILE --wmt25-systems DIR --lp LP``):
an option group for :func:`~mtpalette.cli.options.with_options`, and the
:class:`~mtpalette.sources.wmt25.Wmt25Inputs` they describe."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

from mtpalette.cli.options import Group, opt

if TYPE_CHECKING:
    from mtpalette.sources.wmt25 import Wmt25Inputs

WMT25_PANEL = "Inputs: WMT25/26 files"


class Level(StrEnum):
    """``--level``."""

    paragraph = "paragraph"
    document = "document"
    system = "system"


class SystemScore(StrEnum):
    """``--system-score``."""

    corpus = "corpus"
    mean = "mean"


class Mismatch(StrEnum):
    """``--paragraph-mismatch``."""

    refuse = "refuse"
    drop = "drop"
    align = "align"


TestsetOpt = Annotated[
    Path | None,
    opt("--wmt25-testset", panel=WMT25_PANEL,
        help="A WMT25/26 test set (JSONL of documents; with --wmt25-systems and --lp)."),
]  # fmt: skip
SystemsOpt = Annotated[
    list[Path] | None,
    opt("--wmt25-systems", panel=WMT25_PANEL,
        help="System outputs (JSONL, one per system) or folders of them."),
]  # fmt: skip
SetIdOpt = Annotated[
    str | None,
    opt("--set-id", panel=WMT25_PANEL,
        help="The set of the test set (collection_id; WMT25's official one is 'general')."),
]  # fmt: skip
RefOpt = Annotated[
    list[str] | None,
    opt("--wmt25-ref", panel=WMT25_PANEL,
        help="References by name (default: every one all documents of the pair have)."),
]  # fmt: skip
LevelOpt = Annotated[
    Level,
    opt("--level", panel=WMT25_PANEL,
        help="The segment: paragraph, document (paragraphs joined), system (no segment rows)."),
]  # fmt: skip
SystemScoreOpt = Annotated[
    SystemScore,
    opt("--system-score", panel=WMT25_PANEL,
        help="corpus: the corpus score; mean: the mean of segment scores (WMT25's)."),
]  # fmt: skip
MismatchOpt = Annotated[
    Mismatch,
    opt("--paragraph-mismatch", panel=WMT25_PANEL,
        help="Another paragraph count than the source: refuse, drop the system, align (WMT26)."),
]  # fmt: skip
StripHtmlOpt = Annotated[
    bool,
    opt("--strip-html", panel=WMT25_PANEL, help="Remove HTML tags from hypotheses."),
]

#: the group ``score`` takes
WMT25: Group = {
    "wmt25_testset": (TestsetOpt, None),
    "wmt25_systems": (SystemsOpt, None),
    "set_id": (SetIdOpt, None),
    "wmt25_ref": (RefOpt, None),
    "level": (LevelOpt, Level.paragraph),
    "system_score": (SystemScoreOpt, SystemScore.corpus),
    "paragraph_mismatch": (MismatchOpt, Mismatch.refuse),
    "strip_html": (StripHtmlOpt, False),
}
DEFAULTS = {name: default for name, (_, default) in WMT25.items()}


def wmt25_inputs(options: Mapping[str, Any], lp: str | None) -> Wmt25Inputs | None:
    """The WMT25 inputs the options describe, or None when none of them is given (checked
    with the run that takes them: :class:`~mtpalette.api.score_run.ScoreRun`).

    Examples
    --------
    >>> wmt25_inputs(DEFAULTS, None) is None
    True
    >>> given = {**DEFAULTS, "wmt25_testset": Path("t.jsonl"), "wmt25_systems": [Path("s")]}
    >>> wmt25_inputs(given, "en-de").level
    'paragraph'
    """
    given = {k: v for k, v in options.items() if k in WMT25}
    if all(given.get(k, d) == d for k, d in DEFAULTS.items()):
        return None
    from mtpalette.sources.wmt25 import Wmt25Inputs

    values = {k: (v.value if isinstance(v, StrEnum) else v) for k, v in given.items()}
    return Wmt25Inputs(lp=lp, **values)
