"""WMT25's preliminary ranking from its automatic scores: AutoRank-25 on a folder of
``automatic_scores/<system>.jsonl`` files (:mod:`mtpalette.io.wmt25_scores`,
:mod:`mtpalette.metaeval.autorank`).

``mtpalette rank --wmt25-scores DIR --lp LP --autorank wmt25`` runs :func:`autorank_wmt25`
through :func:`mtpalette.api.rank_run.run_rank`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

# the AutoRank methods, re-exported: RankRun checks --autorank against them
from mtpalette.metaeval.autorank import AUTORANK_METHODS as AUTORANK_METHODS

if TYPE_CHECKING:
    from mtpalette.metaeval.autorank import AutoRank, AutoRank25


def autorank_wmt25(
    directory: str | Path,
    lp: str,
    *,
    metrics: Sequence[str] | None = None,
    metadata: str | Path | None = None,
    domain: str | None = None,
    method: str = "wmt25",
) -> AutoRank25 | AutoRank:
    """AutoRank of the systems of ``directory`` (WMT25's ``automatic_scores``) on ``lp``.

    Parameters
    ----------
    directory:
        One ``<system>.jsonl`` per system.
    lp:
        The language pair, as the files name it (``en-cs_CZ``).
    metrics:
        The metrics to combine (and show); by default WMT25's choice for ``lp``
        (:func:`~mtpalette.metaeval.autorank.wmt25_metrics`).
    metadata:
        WMT25's ``systems_metadata*.json``: rank only the systems it lists for ``lp`` under
        ``supported_lps``, as the organisers did.
    domain:
        Only this domain's documents (the organisers' ``--domain``).
    method:
        ``wmt25`` (robust z-scores) or ``wmt24`` (each metric rescaled to 1..N).

    Examples
    --------
    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> for name, xs in {"A": [0.9, 0.8], "B": [0.5, 0.6], "C": [0.7, 0.7]}.items():
    ...     _ = (d / f"{name}.jsonl").write_text(
    ...         '{"language_pair": "en-de_DE", "domain": "news", "document_id": "d1", '
    ...         f'"metric_scores": {{"XCOMET-XL": {xs}}}}}\\n')
    >>> a = autorank_wmt25(d, "en-de_DE")
    >>> [(s.system, round(s.autorank, 6)) for s in a.systems]
    [('A', 1.0), ('C', 2.0), ('B', 3.0)]
    """
    from mtpalette.metaeval.autorank import autorank_of_folder

    return autorank_of_folder(directory, lp, metrics=metrics, metadata=metadata, domain=domain,
                              method=method)  # fmt: skip
