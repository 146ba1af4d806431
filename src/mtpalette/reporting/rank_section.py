"""The report's section of a ranking run (``mtpalette rank --json``): each ranking's table
(rank range, cluster, score, domain scores) and a heat map of its pairwise p-values, systems
in ranking order, cluster boundaries drawn."""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.reporting.plots import responsive


def p_value_figure(
    names: list[str],
    p: np.ndarray,
    clusters: list[int],
    alpha: float,
    correction: str = "none",
    *,
    narrow: bool = False,
):
    """A heat map of the ``(S, S)`` p-values (darker: smaller), the significant pairs
    marked, lines between clusters; the colour bar names the ``correction`` (``none``: the
    p-values as tested). ``narrow``: for a phone (at most
    :data:`~mtpalette.reporting.plots.NARROW` inches wide, the colour bar below)."""
    from matplotlib.colors import LogNorm

    from mtpalette.reporting.plots import NARROW, _figure

    S = len(names)
    size = min(2.0 + 0.32 * S, 11.0)
    fig = (
        _figure(min(size + 1.2, NARROW), min(size, NARROW) + 1.0)
        if narrow
        else _figure(size + 1.2, size)
    )
    ax = fig.add_subplot()
    shown = np.where(np.isnan(p), 1.0, np.clip(p, 1e-4, 1.0))
    image = ax.imshow(shown, cmap="Blues_r", norm=LogNorm(vmin=1e-4, vmax=1.0))
    for i in range(S):
        for j in range(S):
            if i != j and p[i, j] < alpha:
                ax.text(j, i, "*", ha="center", va="center", fontsize=7, color="white")
    for k in range(1, S):
        if clusters[k] != clusters[k - 1]:
            ax.axhline(k - 0.5, color="#d95f02", lw=1.2)
            ax.axvline(k - 0.5, color="#d95f02", lw=1.2)
    ax.set_xticks(range(S), names, rotation=90, fontsize=7)
    ax.set_yticks(range(S), names, fontsize=7)
    label = "p-value" if correction in ("none", "", None) else f"p-value ({correction}-adjusted)"
    bar = fig.colorbar(image, ax=ax, shrink=0.8, location="bottom" if narrow else "right")
    bar.set_label(label, fontsize=8)
    bar.ax.tick_params(labelsize=7)
    ax.set_title(f"pairwise p-values (* p < {alpha:g})", fontsize=9)
    return fig


def rank_section(run: dict[str, Any]) -> dict[str, Any]:
    """Tables and heat maps of every ranking in a rank run's results."""
    out = []
    for r in run.get("results", {}).get("rankings", []):
        names = [s["system"] for s in r["systems"]]
        at = {n: k for k, n in enumerate(names)}
        p = np.full((len(names), len(names)), np.nan)
        for pair in r["pairs"]:
            v = pair["p_adjusted"]
            p[at[pair["a"]], at[pair["b"]]] = p[at[pair["b"]], at[pair["a"]]] = (
                np.nan if v is None else v
            )
        clusters = [s["cluster"] for s in r["systems"]]
        out.append(
            {
                "name": r["name"],
                "protocol": r["protocol"],
                "correction": r["correction"],
                "alpha": r["alpha"],
                "higher_is_better": r["higher_is_better"],
                "domains": r.get("domains") or [],
                "systems": r["systems"],
                "n_pairs": len(r["pairs"]),
                "n_significant": sum(bool(x["significant"]) for x in r["pairs"]),
                "notes": r.get("notes") or [],
                "heatmap": responsive(
                    p_value_figure, names, p, clusters, r["alpha"], r["correction"]
                ),
            }
        )
    auto = run.get("results", {}).get("autorank")
    return {"rankings": out, "autorank": auto}
