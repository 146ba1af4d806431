"""The ORANGE-vs-N plot (Lin and Och 2004, figure 1): ORANGE of each metric as the candidate
lists are cut to their first N entries.

Drawn with matplotlib's object API on an Agg canvas: no pyplot, no global backend switch, so
it works without a display and does not disturb a caller's own matplotlib state.

References
----------
Lin and Och (2004), ORANGE, figure 1 (ORANGE of six metrics for N = 1..16384, step 64).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mtpalette.io import inputs
from mtpalette.metaeval.orange import OrangeCurve

#: above this many metrics, the plot shows the best metric of each family
MAX_LINES = 12


def pick_metrics(curve: OrangeCurve, *, max_lines: int = MAX_LINES) -> list[str]:
    """The metrics to draw: all of them, or the best (lowest final ORANGE) of each family
    (``bleus``, ``rouge-w``...) when there are more than ``max_lines``.

    Examples
    --------
    >>> import numpy as np
    >>> c = OrangeCurve(np.array([1, 2]), {"bleus:1": np.array([.5, .4]),
    ...     "bleus:2": np.array([.5, .3]), "wer": np.array([.5, .45])}, {}, "mid")
    >>> pick_metrics(c, max_lines=2)
    ['bleus:2', 'wer']
    """
    names = list(curve.orange)
    if len(names) <= max_lines:
        return names
    best: dict[str, str] = {}
    for name in names:
        family = name.split(":", 1)[0]
        if family not in best or curve.orange[name][-1] < curve.orange[best[family]][-1]:
            best[family] = name
    return list(best.values())


def plot_orange_curve(
    curve: OrangeCurve,
    path: str | Path,
    *,
    metrics: Sequence[str] | None = None,
    title: str | None = None,
) -> Path:
    """Draw ORANGE (%) against the list length N for each metric and save it to ``path``
    (the format follows the suffix: .png, .pdf, .svg).

    Examples
    --------
    >>> import numpy as np, os, tempfile
    >>> c = OrangeCurve(np.array([1, 5, 9]), {"bleus:4": np.array([.5, .3, .25])}, {}, "mid")
    >>> p = plot_orange_curve(c, os.path.join(tempfile.mkdtemp(), "curve.png"))
    >>> p.stat().st_size > 1000
    True
    """
    fig = orange_curve_figure(curve, metrics=metrics, title=title)
    out = Path(path)
    inputs.check_output(out)
    fig.savefig(out)
    return out


def orange_curve_figure(
    curve: OrangeCurve, *, metrics: Sequence[str] | None = None, title: str | None = None
):
    """The ORANGE-vs-N figure (a matplotlib ``Figure`` on an Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(metrics) if metrics is not None else pick_metrics(curve)
    fig = Figure(figsize=(7.5, 4.5), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    x = curve.cutoffs
    for name in names:
        ax.plot(
            x,
            100.0 * curve.orange[name],
            label=name,
            linewidth=1.4,
            marker="o" if len(x) <= 20 else None,
            markersize=3,
        )
    ax.set_xlabel("N (first N candidates of each list)")
    ax.set_ylabel("ORANGE (%)")
    ax.set_title(title or f"ORANGE vs N (ties: {curve.ties}); lower is better")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
    fig.tight_layout()
    return fig
