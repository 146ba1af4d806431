"""Figures of the HTML report, drawn with matplotlib and inlined as SVG.

Every figure is made with matplotlib's object API on an Agg canvas (no pyplot state) and
turned into an SVG string with its text kept as text (``svg.fonttype: none``) and a fixed hash
salt, so the same run gives the same file. Dense scatter points are rasterised inside the SVG
to keep the report small.

Phones: each figure is drawn twice (:func:`responsive`), for a window and, ``narrow=True``,
:data:`NARROW` inches wide for a phone's column (its texts at their size in points, its long
titles wrapped, its legend below); the page shows one of the two by the window's width.

Layout: every figure uses matplotlib's constrained layout, which makes room for titles,
legends, colour bars and axis labels (``tight_layout`` clipped a colour-bar label and let the
legend of the interval chart sit on its title). Labels of scattered points are placed by
:func:`place_labels`, which tries positions around each point and leaves out a label that
would overlap another label or a dot (the note under the plot names them).
"""

from __future__ import annotations

import inspect
import io
import re
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np


def _figure(width: float, height: float):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


#: the width (inches) of a figure drawn for a phone: 3.5 in = 252 pt = 336 CSS px, within the
#: report's column in a 390 px window (the page scales it to the column, about 1:1)
NARROW = 3.5
#: the characters per line of a wrapped title or axis label of a narrow figure (at 9 pt)
NARROW_CHARS = 44


def wrapped(text: str, narrow: bool, chars: int = NARROW_CHARS) -> str:
    r"""``text`` with each of its lines wrapped at ``chars`` characters when ``narrow``.

    Examples
    --------
    >>> wrapped("pearson (segment level), higher is better; error metrics negated", True, 30)
    'pearson (segment level),\nhigher is better; error\nmetrics negated'
    >>> wrapped("one line", False, 3)
    'one line'
    """
    if not narrow:
        return text
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def narrow_ids(svg: str) -> str:
    """An SVG's ids, and its references to them, prefixed ``n-``: the narrow drawing of a
    figure sits in the page beside the wide one, and no id may be there twice.

    Examples
    --------
    >>> narrow_ids('<g id="dot-a"><path clip-path="url(#p1)"/><use xlink:href="#m1"/></g>')
    '<g id="n-dot-a"><path clip-path="url(#n-p1)"/><use xlink:href="#n-m1"/></g>'
    """
    return re.sub(r'(\bid="|url\(#|href="#)', r"\1n-", svg)


def responsive(draw: Callable[..., Any], *args, **kwargs) -> dict[str, str]:
    """The figure ``draw(*args, **kwargs)`` as SVG twice: ``wide``, for a window, and
    ``narrow`` (``draw(..., narrow=True)``, its ids prefixed by :func:`narrow_ids`), for a
    phone; the report's template shows one of them by the window's width.

    Examples
    --------
    >>> both = responsive(ci_dots_figure, ["a"], [1.0], [0.5], [1.5], xlabel="x", title="t")
    >>> 'id="dot-a"' in both["wide"], 'id="n-dot-a"' in both["narrow"]
    (True, True)
    """
    wide = svg_of(draw(*args, **kwargs))
    return {"wide": wide, "narrow": narrow_ids(svg_of(draw(*args, narrow=True, **kwargs)))}


def svg_of(fig) -> str:
    """The figure as an inline ``<svg>`` element (no XML prolog)."""
    from matplotlib import rc_context

    buf = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "mtpalette"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]


def _svg_twin(name: str, figure: Callable[..., Any], doc: str) -> Callable[..., str]:
    """The function ``name`` that takes the arguments of the figure function ``figure`` and returns
    its figure as SVG (:func:`svg_of`), with ``figure``'s signature and the docstring ``doc``."""

    def twin(*args, **kwargs) -> str:
        return svg_of(figure(*args, **kwargs))

    twin.__signature__ = inspect.signature(figure).replace(return_annotation="str")
    twin.__doc__ = doc
    twin.__name__ = twin.__qualname__ = name
    return twin


#: colours of the report's figures: best, equivalent to the best, others
BEST, EQUIV, OTHER = "#d95f02", "#f4a261", "#6a6aa8"


def ci_dots_figure(
    names: Sequence[str],
    values: Sequence[float],
    lows: Sequence[float],
    highs: Sequence[float],
    *,
    xlabel: str,
    title: str,
    best: Sequence[bool] | None = None,
    equivalent: Sequence[bool] | None = None,
    labels: Sequence[str] | None = None,
    best_label: str = "best",
    equivalent_label: str = "equivalent to the best",
    legend: bool = True,
    narrow: bool = False,
):
    """Dot-and-whisker chart, one line per metric, as SVG: the axis spans the values and
    their intervals only (not from 0), so that close values and their intervals are told
    apart; the best is a filled diamond, its equivalents hollow ones, and the best's
    interval a shaded band. Each dot carries the SVG id ``dot-<name>``. Returns the
    matplotlib ``Figure`` (``narrow``: :data:`NARROW` inches wide, for a phone).

    Examples
    --------
    >>> fig = ci_dots_figure(["a", "b"], [65.0, 66.5], [64.0, 65.1], [66.0, 67.9], xlabel="x",
    ...                      title="t", best=[True, False])
    >>> layout_problems(fig)
    []
    """
    from matplotlib.lines import Line2D

    n = len(names)
    fig = _figure(NARROW if narrow else 7.0, max(1.8, 0.27 * n + (1.9 if narrow else 1.2)))
    ax = fig.add_subplot(1, 1, 1)
    y = np.arange(n)[::-1].astype(float)
    v = np.asarray(values, dtype=float)
    lo = np.asarray(lows, dtype=float)
    hi = np.asarray(highs, dtype=float)
    best = list(best) if best is not None else [False] * n
    equivalent = list(equivalent) if equivalent is not None else [False] * n
    ok = ~(np.isnan(lo) | np.isnan(hi))
    for i in range(n):
        if best[i] and ok[i]:
            ax.axvspan(lo[i], hi[i], color=BEST, alpha=0.08, lw=0)
    for i in range(n):
        colour = BEST if best[i] else (EQUIV if equivalent[i] else OTHER)
        if ok[i]:
            ax.plot([lo[i], hi[i]], [y[i], y[i]], color=colour, lw=1.6, solid_capstyle="butt")
        face = colour if (best[i] or not equivalent[i]) else "white"
        (dot,) = ax.plot(
            [v[i]],
            [y[i]],
            marker="D" if (best[i] or equivalent[i]) else "o",
            ms=6 if best[i] else 5,
            mfc=face,
            mec=colour,
            mew=1.4,
            ls="none",
        )
        dot.set_gid(f"dot-{names[i]}")
    ax.set_yticks(y)
    shown = [wrapped(str(x), narrow, 18) for x in (labels if labels is not None else names)]
    ax.set_yticklabels(shown, fontsize=8)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlabel(wrapped(xlabel, narrow, 32), fontsize=9)  # centred under the axes
    if narrow:  # over the whole figure: the labels leave the axes too narrow for it
        fig.suptitle(wrapped(title, narrow, 40), fontsize=10)
    else:
        ax.set_title(title, fontsize=10)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(True, axis="x", alpha=0.3)
    finite = np.concatenate([v, lo[ok], hi[ok]])
    finite = finite[np.isfinite(finite)]
    if finite.size:
        span = (finite.max() - finite.min()) or abs(finite.max()) or 1.0
        ax.set_xlim(finite.min() - 0.04 * span, finite.max() + 0.04 * span)
    if not legend:  # nothing is "best" (the audit's shares)
        return fig
    handles = [
        Line2D([], [], marker="D", color=BEST, mfc=BEST, ls="none", label=best_label),
        Line2D([], [], marker="D", color=EQUIV, mfc="white", ls="none", label=equivalent_label),
        Line2D([], [], marker="o", color=OTHER, mfc=OTHER, ls="none", label="others"),
    ]
    # below the axes, outside them: constrained layout keeps it off the title and the labels
    fig.legend(handles=handles, fontsize=7, loc="outside lower center", ncol=2 if narrow else 3,
               frameon=False)  # fmt: skip
    return fig


ci_dots = _svg_twin(
    "ci_dots",
    ci_dots_figure,
    """:func:`ci_dots_figure` as SVG.

    Examples
    --------
    >>> svg = ci_dots(["a", "b"], [65.0, 66.5], [64.0, 65.1], [66.0, 67.9], xlabel="x",
    ...               title="t", best=[True, False], equivalent=[False, True])
    >>> 'id="dot-a"' in svg and 'id="dot-b"' in svg
    True
    """,
)


def robust_limits(values: np.ndarray, *, q: float = 0.5) -> tuple[float, float]:
    """Axis limits from the ``q``-th to the ``100 - q``-th percentile, padded by 3%, so a
    few outliers do not squeeze the bulk of the points into a corner.

    Examples
    --------
    >>> robust_limits(np.r_[np.linspace(0, 1, 999), 3.0])  # the 3.0 is left out
    (-0.024725, 1.025727)
    """
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return 0.0, 1.0
    a, b = np.percentile(finite, [q, 100 - q])
    if b <= a:
        a, b = float(finite.min()), float(finite.max())
    if b <= a:
        a, b = a - 0.5, b + 0.5
    pad = 0.03 * (b - a)
    return round(float(a - pad), 6), round(float(b + pad), 6)


def segment_figure(
    human: Sequence[float],
    metric: Sequence[float],
    *,
    xlabel: str,
    ylabel: str,
    note: str,
    narrow: bool = False,
):
    """Human score against metric score at segment level (a matplotlib ``Figure``): a hexbin
    of counts on a log colour scale (human scores have few distinct values, so points would
    overplot), the metric axis from the 0.5th to the 99.5th percentile (points beyond it are
    drawn at its edge and counted in the note).

    Examples
    --------
    >>> h, m = -np.arange(400.0) % 11, np.r_[np.linspace(0, 1, 399), 3.0]
    >>> layout_problems(segment_figure(h, m, xlabel="m", ylabel="h", note="r"))
    []
    """
    x = np.asarray(metric, dtype=float)
    y = np.asarray(human, dtype=float)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    lo, hi = robust_limits(x)
    outside = int(((x < lo) | (x > hi)).sum())
    xc = np.clip(x, lo, hi)
    fig = _figure(NARROW if narrow else 4.4, 3.5)
    ax = fig.add_subplot(1, 1, 1)
    ylo, yhi = (float(y.min()), float(y.max())) if y.size else (0.0, 1.0)
    if yhi <= ylo:
        ylo, yhi = ylo - 0.5, yhi + 0.5
    hb = ax.hexbin(
        xc,
        y,
        gridsize=(28, 14),
        extent=(lo, hi, ylo, yhi),
        bins="log",
        mincnt=1,
        cmap="viridis",
        linewidths=0.2,
        rasterized=True,
    )
    cb = fig.colorbar(hb, ax=ax, pad=0.02)
    cb.set_label("translations (log scale)", fontsize=7)
    cb.ax.tick_params(labelsize=6)
    ax.set_xlim(lo, hi)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    extra = f"; {outside} beyond the axis, drawn at its edge" if outside else ""
    ax.set_title(wrapped(f"{note}\n{len(x)} translations{extra}", narrow, 50), fontsize=7.5)
    ax.tick_params(labelsize=7)
    return fig


segment_scatter = _svg_twin(
    "segment_scatter",
    segment_figure,
    """:func:`segment_figure` as SVG.

    Examples
    --------
    >>> h, m = -np.arange(400.0) % 11, np.r_[np.linspace(0, 1, 399), 3.0]
    >>> svg = segment_scatter(h, m, xlabel="m", ylabel="h", note="r")
    >>> "<svg" in svg and "beyond the axis" in svg
    True
    """,
)


#: where a point's label may go, tried in order: (dx, dy) in points and the alignment
_LABEL_SPOTS = (
    (4, 3, "left", "bottom"),
    (4, -3, "left", "top"),
    (-4, 3, "right", "bottom"),
    (-4, -3, "right", "top"),
    (0, 6, "center", "bottom"),
    (0, -6, "center", "top"),
    (10, 0, "left", "center"),
    (-10, 0, "right", "center"),
    (12, 9, "left", "bottom"),
    (-12, 9, "right", "bottom"),
    (12, -9, "left", "top"),
    (-12, -9, "right", "top"),
)


def place_labels(ax, x, y, names, *, fontsize: float = 6.5, marker_px: float = 4.0) -> list[str]:
    """Label each point with its name where the label overlaps no other label, no other dot
    and stays inside the axes; a name with no free spot is left out. Returns the names left
    out.

    The spots are tried in the order of :data:`_LABEL_SPOTS` (right-above first); the points
    with the nearest neighbours are labelled first, as they have the fewest free spots.

    Examples
    --------
    >>> fig = _figure(3, 2)
    >>> ax = fig.add_subplot(1, 1, 1)
    >>> _ = ax.plot([0, 1, 1.001], [0, 1, 1.001], "o")
    >>> place_labels(ax, [0, 1, 1.001], [0, 1, 1.001], ["A", "B", "C"])
    []
    >>> [t.get_text() for t in ax.texts]
    ['B', 'C', 'A']
    """
    fig = ax.figure
    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()  # final axes position (constrained layout) and limits
    pts = ax.transData.transform(np.column_stack([np.asarray(x, float), np.asarray(y, float)]))
    box = ax.get_window_extent(renderer)
    from matplotlib.transforms import Bbox

    dots = [Bbox.from_bounds(px - marker_px, py - marker_px, 2 * marker_px, 2 * marker_px)
            for px, py in pts]  # fmt: skip
    dist = np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(dist, np.inf)
    order = np.argsort(dist.min(axis=1), kind="stable") if len(pts) > 1 else np.arange(len(pts))
    taken: list = []
    left_out: list[str] = []
    for i in order:
        placed = False
        for dx, dy, ha, va in _LABEL_SPOTS:
            text = ax.annotate(
                names[i],
                (x[i], y[i]),
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                va=va,
                fontsize=fontsize,
                color="#333",
            )
            bb = text.get_window_extent(renderer).expanded(1.04, 1.08)
            inside = bb.x0 >= box.x0 and bb.x1 <= box.x1 and bb.y0 >= box.y0 and bb.y1 <= box.y1
            clash = any(bb.overlaps(t) for t in taken) or any(
                bb.overlaps(d) for j, d in enumerate(dots) if j != i
            )
            if inside and not clash:
                taken.append(bb)
                placed = True
                break
            text.remove()
        if not placed:
            left_out.append(names[i])
    return left_out


def system_figure(
    human: Sequence[float],
    metric: Sequence[float],
    systems: Sequence[str],
    *,
    xlabel: str,
    ylabel: str,
    note: str,
    narrow: bool = False,
):
    """Human score against metric score at system level (a matplotlib ``Figure``): one
    labelled dot per system (SVG id ``sys-<system>``), labels placed by :func:`place_labels`.

    Examples
    --------
    >>> fig = system_figure([-2.0, -1.5], [40.1, 44.0], ["A", "B"], xlabel="bleu",
    ...                     ylabel="MQM", note="r")
    >>> layout_problems(fig)
    []
    """
    x = np.asarray(metric, dtype=float)
    y = np.asarray(human, dtype=float)
    fig = _figure(NARROW if narrow else 4.4, 3.5)
    ax = fig.add_subplot(1, 1, 1)
    for i, name in enumerate(systems):
        (dot,) = ax.plot([x[i]], [y[i]], "o", ms=5, color="#1b7e6a", mec="white", mew=0.6)
        dot.set_gid(f"sys-{name}")
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel(ylabel, fontsize=8)
    ax.set_title(wrapped(note, narrow, 50), fontsize=7.5)
    ax.tick_params(labelsize=7)
    ax.grid(True, alpha=0.3)
    ax.margins(x=0.18, y=0.1)
    left_out = place_labels(ax, x, y, list(systems))
    if left_out:  # a longer axis label moves the axes: place the labels again
        ax.set_xlabel(f"{xlabel}\nnot labelled (no room): {', '.join(left_out)}", fontsize=8)
        for text in list(ax.texts):
            text.remove()
        left_out = place_labels(ax, x, y, list(systems))
        ax.set_xlabel(f"{xlabel}\nnot labelled (no room): {', '.join(left_out)}", fontsize=8)
    return fig


system_scatter = _svg_twin(
    "system_scatter",
    system_figure,
    """:func:`system_figure` as SVG.

    Examples
    --------
    >>> svg = system_scatter([-2.0, -1.5], [40.1, 44.0], ["A", "B"], xlabel="bleu",
    ...                      ylabel="MQM", note="r")
    >>> 'id="sys-A"' in svg and ">B<" in svg
    True
    """,
)


def layout_problems(fig, *, tolerance: float = 0.5) -> list[str]:
    """What is wrong with a figure's text as drawn: a text that reaches outside the figure
    (clipped) or overlaps another text or a legend (a legend over a title, labels on one
    another), found from the bounding boxes matplotlib's renderer gives
    (``get_window_extent``; tick labels outside the axis's view are not drawn and not
    counted). Empty when nothing is.

    ``tolerance`` (pixels) shrinks each box before comparing, so texts that only touch do
    not count.

    Examples
    --------
    >>> fig = _figure(3, 2)
    >>> ax = fig.add_subplot(1, 1, 1)
    >>> _ = ax.set_title("a title")
    >>> layout_problems(fig)
    []
    >>> _ = ax.text(0.5, 1.02, "over the title", transform=ax.transAxes)
    >>> layout_problems(fig)
    ["'a title' overlaps 'over the title'"]
    """
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    renderer = fig.canvas.get_renderer()
    fig.draw_without_rendering()
    page = fig.bbox
    hidden = set()  # labels of ticks outside the axis's view: matplotlib does not draw them
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            eps = 1e-9 * max(1.0, abs(lo), abs(hi))
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not lo - eps <= tick.get_loc() <= hi + eps:
                    hidden.update((id(tick.label1), id(tick.label2)))
    boxes = []
    for legend in fig.findobj(Legend):  # a legend is one box: its frame, entries and title
        if legend.get_visible():
            labels = ", ".join(t.get_text() for t in legend.get_texts())
            boxes.append((f"legend ({labels})", legend.get_window_extent(renderer).padded(-1)))
            hidden.update(id(t) for t in legend.findobj(Text))
    for text in fig.findobj(Text):
        if id(text) in hidden or not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width <= 0 or box.height <= 0:
            continue
        boxes.append((text.get_text(), box.padded(-tolerance)))
    problems = []
    for k, (name, box) in enumerate(boxes):
        if box.x0 < page.x0 or box.y0 < page.y0 or box.x1 > page.x1 or box.y1 > page.y1:
            problems.append(f"{name!r} is clipped (outside the figure)")
        for other, obox in boxes[:k]:
            if box.overlaps(obox):
                problems.append(f"{name!r} overlaps {other!r}")
    return problems
