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
from typing import Any

import numpy as np

from mtpalette.io import inputs
from mtpalette.metaeval.orange import OrangeCurve
from mtpalette.reporting.plots import NARROW, wrapped

#: up to this many metrics share one panel; more are drawn as small multiples by family
MAX_LINES = 12
#: marker cycle: with the 10 colours of tab10, no two of 110 lines share colour and marker
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">", "+")


def style_of(k: int) -> tuple[str, str]:
    """Colour and marker of the ``k``-th line: no two of the first 110 are alike.

    Examples
    --------
    >>> len({style_of(k) for k in range(110)})
    110
    """
    colours = [f"C{c}" for c in range(10)]
    return colours[k % 10], MARKERS[k % len(MARKERS)]


def families(names: Sequence[str]) -> dict[str, list[str]]:
    """Metric names grouped by family (the spec before ``:``), in first-seen order.

    Examples
    --------
    >>> families(["bleus:1", "wer", "bleus:2"])
    {'bleus': ['bleus:1', 'bleus:2'], 'wer': ['wer']}
    """
    out: dict[str, list[str]] = {}
    for name in names:
        out.setdefault(name.split(":", 1)[0], []).append(name)
    return out


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


def curve_image(task: tuple[OrangeCurve, str]) -> bytes:
    """The ORANGE-vs-N figure of ``task = (curve, format)`` as the bytes of a ``format``
    (png, pdf, svg) file: a task for :func:`mtpalette.parallel.run_tasks`, so that a run on
    Dask draws it on a worker and its client never loads matplotlib (33 MB).

    Examples
    --------
    >>> import numpy as np
    >>> c = OrangeCurve(np.array([1, 5, 9]), {"bleus:4": np.array([.5, .3, .25])}, {}, "mid")
    >>> curve_image((c, "png"))[:4]
    b'\\x89PNG'
    """
    import io

    curve, fmt = task
    buffer = io.BytesIO()
    orange_curve_figure(curve).savefig(buffer, format=fmt)
    return buffer.getvalue()


def curve_bytes(curve: OrangeCurve, path: str | Path, backend: Any = None) -> bytes:
    """The ORANGE-vs-N figure as the bytes of a file in ``path``'s format, drawn on a worker
    of ``backend`` (a Dask run's: its client, perhaps a login node, never loads matplotlib),
    else (None) here."""
    from mtpalette.io.runfile import figure_format
    from mtpalette.parallel import run_tasks

    ((_, image),) = run_tasks(curve_image, [(curve, figure_format(path))], backend)
    return image


def orange_curve_figure(
    curve: OrangeCurve,
    *,
    metrics: Sequence[str] | None = None,
    title: str | None = None,
    narrow: bool = False,
):
    """The ORANGE-vs-N figure (a matplotlib ``Figure`` on an Agg canvas).

    Every metric is drawn with its own colour and marker (each line has the SVG id
    ``curve-<metric>``). Up to :data:`MAX_LINES` metrics share one panel; more are drawn as
    small multiples, one panel per family (single-metric families share a panel), with a
    common y axis. ``narrow``: for a phone, :data:`~mtpalette.reporting.plots.NARROW` inches
    wide, the panels one above the other, the legend below the panel.

    Examples
    --------
    >>> import numpy as np
    >>> names = [f"bleus:{n}" for n in range(1, 21)] + ["wer"]
    >>> c = OrangeCurve(np.array([1, 2, 3]), {m: np.array([.6, .5, .4]) for m in names}, {},
    ...                 "mid")
    >>> fig = orange_curve_figure(c)
    >>> len(fig.axes), sum(len(ax.lines) for ax in fig.axes)
    (2, 21)
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    names = list(metrics) if metrics is not None else list(curve.orange)
    if len(names) <= MAX_LINES:
        panels = {"": names}
    else:
        panels = {}
        singles: list[str] = []
        for family, members in families(names).items():
            if len(members) == 1:
                singles.extend(members)
            else:
                panels[family] = members
        if singles:
            panels["other metrics"] = singles
    ncols = 1 if len(panels) == 1 or narrow else min(3, len(panels))
    nrows = -(-len(panels) // ncols)
    if narrow:  # the legend below: a row of it per two metrics of the single panel
        rows = -(-len(names) // 2) if len(panels) == 1 else 0
        size = (NARROW, 3.0 + 0.17 * rows) if len(panels) == 1 else (NARROW, 2.9 * nrows)
        fig = Figure(figsize=size, dpi=100, layout="constrained")
    elif ncols == 1:
        fig = Figure(figsize=(7.5, 4.5), dpi=120, layout="constrained")
    else:
        fig = Figure(figsize=(4.2 * ncols, 3.2 * nrows), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    x = curve.cutoffs
    every = max(1, len(x) // 12)
    values = [100.0 * curve.orange[n] for n in names]
    finite = np.concatenate([v[np.isfinite(v)] for v in values]) if values else np.zeros(1)
    ylim = (finite.min(), finite.max()) if finite.size else (0.0, 100.0)
    pad = 0.04 * ((ylim[1] - ylim[0]) or 1.0)
    axes = []
    for p, (label, members) in enumerate(panels.items()):
        ax = fig.add_subplot(nrows, ncols, p + 1)
        axes.append(ax)
        for k, name in enumerate(members):
            colour, marker = style_of(k)
            (line,) = ax.plot(
                x,
                100.0 * curve.orange[name],
                label=name,
                color=colour,
                marker=marker,
                markevery=every,
                linewidth=1.3,
                markersize=4,
            )
            line.set_gid(f"curve-{name}")
        ax.set_ylim(ylim[0] - pad, ylim[1] + pad)
        ax.grid(True, alpha=0.3)
        if narrow:
            ax.tick_params(labelsize=7)
        if label:
            ax.set_title(label, fontsize=9)
            ax.tick_params(labelsize=7)
            ax.legend(fontsize=6.5, frameon=False, ncol=1 + len(members) // 7)
        if p % ncols == 0:
            ax.set_ylabel("ORANGE (%)", fontsize=9 if label or narrow else None)
        if p >= len(panels) - ncols:
            small = 9 if label or narrow else None
            ax.set_xlabel("N (first N candidates of each list)", fontsize=small)
    heading = title or f"ORANGE vs N (ties: {curve.ties}); lower is better"
    if len(panels) == 1:
        ax = axes[0]
        if narrow:  # over the whole figure: the axis labels leave the axes too narrow
            fig.suptitle(wrapped(heading, narrow, 40), fontsize=10)
        else:
            ax.set_title(heading)
        # a figure legend "outside" the axes: constrained layout makes room for it
        where = "outside lower center" if narrow else "outside right center"
        fig.legend(*ax.get_legend_handles_labels(), fontsize=8, loc=where, frameon=False,
                   ncol=2 if narrow else 1)  # fmt: skip
    else:
        heading = f"{heading}; {len(names)} metrics, one panel per family"
        fig.suptitle(wrapped(heading, narrow, 40), fontsize=10)
    return fig
