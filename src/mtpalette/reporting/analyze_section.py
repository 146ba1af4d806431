"""The report's section of an ``analyze`` run (``mtpalette analyze --json``): every analysis's
table as the command line prints it, with a plot for the bucketed ones (a bar per system and
bucket, the bucket's count under its label, the interval as an error bar when there is one)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mtpalette.reporting.plots import responsive


def bucket_figure(
    labels: list[str],
    systems: list[str],
    values: dict[str, list[float | None]],
    counts: list[str],
    *,
    ylabel: str,
    low: dict[str, list[float | None]] | None = None,
    high: dict[str, list[float | None]] | None = None,
    narrow: bool = False,
):
    """A bar chart: buckets along x (with their counts), one bar per system; ``narrow`` (for
    a phone): the buckets down the y axis, the bars across, the legend below."""
    from mtpalette.reporting.plots import NARROW, _figure

    n, k = len(labels), max(len(systems), 1)
    if narrow:
        fig = _figure(NARROW, 1.3 + 0.16 * n * k + 0.17 * -(-k // 2) + 0.1 * n)
    else:
        fig = _figure(min(2.5 + 0.45 * n * k**0.5, 11.0), 3.2)
    ax = fig.add_subplot()
    width = 0.8 / k
    x = np.arange(n)[::-1] if narrow else np.arange(n)
    for j, name in enumerate(systems):
        y = np.array([np.nan if v is None else v for v in values[name]], dtype=float)
        err = None
        if low is not None and high is not None:
            lo = np.array([np.nan if v is None else v for v in low[name]], dtype=float)
            hi = np.array([np.nan if v is None else v for v in high[name]], dtype=float)
            err = np.vstack([np.clip(y - lo, 0, None), np.clip(hi - y, 0, None)])
            err = np.nan_to_num(err)
        at = x + (j - (k - 1) / 2) * width * (-1 if narrow else 1)
        if narrow:
            ax.barh(at, np.nan_to_num(y), width, xerr=err, label=name, capsize=2, linewidth=0)
        else:
            ax.bar(at, np.nan_to_num(y), width, yerr=err, label=name, capsize=2, linewidth=0)
    ticks = [f"{lab}\n({c})" if c else lab for lab, c in zip(labels, counts, strict=True)]
    if narrow:
        ax.set_yticks(x, [t.replace("\n", " ") for t in ticks], fontsize=7)
        ax.set_xlabel(ylabel, fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        if k > 1:
            handles, names = ax.get_legend_handles_labels()
            fig.legend(handles, names, fontsize=7, ncol=2, frameon=False,
                       loc="outside lower center")  # fmt: skip
        return fig
    ax.set_xticks(x, ticks, fontsize=7)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.tick_params(axis="y", labelsize=7)
    if k > 1:
        ax.legend(fontsize=7, ncol=min(k, 4), frameon=False)
    return fig


def analyze_section(run: dict[str, Any]) -> dict[str, Any]:
    """Tables and figures of every analysis in an analyze run's results."""
    out = []
    for a in run.get("results", {}).get("analyses", []):
        kind = a.get("analysis")
        item: dict[str, Any] = {"kind": kind, "data": a, "figure": None}
        if kind == "word-accuracy":
            item["title"] = f"Word F-measure by frequency in the {a['frequency_source']}"
            counts = [str(c) for c in a["ref_words"]]
            item["figure"] = responsive(
                bucket_figure, a["labels"], a["systems"], a["fmeasure"], counts,
                ylabel="word F-measure",
            )  # fmt: skip
        elif kind == "sentence-buckets":
            item["title"] = f"{a['metric']} by {a['what']}"
            first = a["systems"][0] if a["systems"] else None
            counts = [str(c) for c in a["counts"][first]] if first else []
            same = all(a["counts"][s] == a["counts"][first] for s in a["systems"])
            item["figure"] = responsive(
                bucket_figure, a["labels"], a["systems"], a["scores"],
                counts if same else [""] * len(counts),
                ylabel=a["metric"], low=a.get("low"), high=a.get("high"),
            )  # fmt: skip
        elif kind == "ngram-differences":
            item["title"] = (
                f"n-grams {a['system']} matches more and less often than {a['baseline']}"
            )
        else:
            item["title"] = f"Where {a['system']} and {a['baseline']} differ most ({a['metric']})"
        out.append(item)
    return {"analyses": out}
