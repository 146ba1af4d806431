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

from mtpalette.errors import UserInputError

if TYPE_CHECKING:
    from mtpalette.metaeval.autorank import AutoRank, AutoRank25

#: the AutoRank methods: WMT24's rescaled ranks, WMT25's robust z-scores
AUTORANK_METHODS = ("wmt24", "wmt25")


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
    from mtpalette.io.wmt25_scores import read_wmt25_scores, supported_systems
    from mtpalette.metaeval.autorank import autorank, autorank25, wmt25_metrics

    if method not in AUTORANK_METHODS:
        raise UserInputError(f"--autorank must be one of {', '.join(AUTORANK_METHODS)} (got "
                             f"{method!r})")  # fmt: skip
    scores = read_wmt25_scores(directory)
    keep = None
    if metadata is not None:
        from mtpalette.io.jsonfile import read_json

        meta = read_json(metadata, "WMT25's systems metadata (systems_metadata*.json)")
        if not isinstance(meta, dict):
            raise UserInputError("expected an object of systems", path=str(metadata))
        keep = supported_systems(meta, lp, path=str(metadata))
    by_metric, notes = scores.system_scores(lp, domain=domain, systems=keep)
    if not by_metric:
        pairs = ", ".join(scores.language_pairs()) or "none"
        where = f" in domain {domain!r}" if domain else ""
        raise UserInputError(f"no system has {lp} documents{where} (the files' pairs: {pairs})",
                             path=str(directory))  # fmt: skip
    if keep is not None:
        with_lp = {s for s, docs in scores.documents.items()
                   if any(d.language_pair == lp for d in docs)}  # fmt: skip
        dropped = sorted(with_lp - keep)
        left = f"; not listed, left out: {', '.join(dropped)}" if dropped else ""
        notes.insert(0, f"{len(with_lp & keep)} system(s) listed for {lp} in {metadata}{left}")
    if metrics:
        combined, shown = list(metrics), list(metrics)
    else:
        combined, shown, chosen = wmt25_metrics(lp, list(by_metric))
        notes += chosen
    if method == "wmt24":
        return autorank({m: by_metric[m] for m in combined if m in by_metric})
    return autorank25({m: by_metric[m] for m in shown if m in by_metric}, metrics=combined,
                      language_pair=lp, notes=notes)  # fmt: skip
