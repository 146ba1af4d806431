"""Figures of the HTML report, drawn with matplotlib and inlined as SVG.

Every figure is made with matplotlib's object API on an Agg canvas (no pyplot state) and
turned into an SVG string with its text kept as text (``svg.fonttype: none``) and a fixed hash
salt, so the same run gives the same file. Dense scatter points are rasterised inside the SVG
to keep the report small.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def svg_of(fig) -> str:
    """The figure as an inline ``<svg>`` element (no XML prolog)."""
    from matplotlib import rc_context

    buf = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "mtpalette"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def ci_bars(
    names: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    xlabel: str,
    title: str,
    highlight: Sequence[bool] | None = None,
) -> str:
    """Horizontal bars with 95% interval whiskers, one per metric, as SVG.

    Examples
    --------
    >>> svg = ci_bars(["a", "b"], [0.5, 0.4], [0.45, 0.3], [0.55, 0.5], xlabel="x", title="t")
    >>> svg.startswith("<svg") and "</svg>" in svg
    True
    """
    n = len(names)
    fig = _figure(7.0, max(1.6, 0.28 * n + 1.0))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(n)[::-1]
    v = np.asarray(values, dtype=float)
    lo = np.asarray(lows, dtype=float)
    hi = np.asarray(highs, dtype=float)
    colors = [
        "#d95f02" if (highlight is not None and highlight[i]) else "#7570b3" for i in range(n)
    ]
    ax.barh(y, v, color=colors, alpha=0.8, height=0.6)
    ok = ~(np.isnan(lo) | np.isnan(hi))
    if ok.any():
        err = np.vstack([v - lo, hi - v])[:, ok]
        ax.errorbar(v[ok], y[ok], xerr=np.abs(err), fmt="none", ecolor="black", capsize=2, lw=1)
    ax.set_yticks(y)
    ax.set_yticklabels(list(names), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    ax.grid(True, axis="x", alpha=0.3)
    finite = np.concatenate([v, lo[ok], hi[ok]])
    finite = finite[np.isfinite(finite)]
    if finite.size:
        span = finite.max() - min(finite.min(), 0)
        ax.set_xlim(min(finite.min(), 0) - 0.02 * span, finite.max() + 0.05 * span)
    fig.tight_layout()
    return svg_of(fig)


def scatter(human: Sequence[float], metric: Sequence[float], *, name: str, note: str) -> str:
    """Human score against metric score (one point per rated translation), as SVG.

    Examples
    --------
    >>> "<svg" in scatter([1.0, 2.0, 3.0], [0.1, 0.3, 0.2], name="m", note="r = 0.5")
    True
    """
    fig = _figure(3.6, 3.0)
    ax = fig.add_subplot(1, 1, 1)
    x = np.asarray(metric, dtype=float)
    y = np.asarray(human, dtype=float)
    rng = np.random.default_rng(0)  # vertical jitter: human scores have many ties
    jitter = 0.01 * (np.nanmax(y) - np.nanmin(y) or 1.0) * rng.standard_normal(len(y))
    ax.scatter(x, y + jitter, s=3, alpha=0.25, color="#1b9e77", linewidths=0, rasterized=True)
    ax.set_xlabel(name, fontsize=8)
    ax.set_ylabel("human score", fontsize=8)
    ax.set_title(note, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    return svg_of(fig)
