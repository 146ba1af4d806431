"""The inputs of a span evaluation read from files: span files with an annotator chosen,
``[NAME=]FILE[,annotator=A]`` options, exclusion lists, and the span example shipped with
mtpalette; for :mod:`mtpalette.api.spans_run` and :mod:`mtpalette.api.errorfree_run`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtpalette.errors import UserInputError, did_you_mean


def example_folder() -> Path:
    """The span example shipped with mtpalette (invented by the project: gold, a second
    human, two predictors and a tuning split, in the generic JSONL), for the docs and tests.

    Examples
    --------
    >>> sorted(p.name for p in example_folder().glob("*.jsonl"))[:3]
    ['dev_gold.jsonl', 'dev_lexi.jsonl', 'glint.jsonl']
    """
    from importlib import resources

    return Path(str(resources.files("mtpalette") / "data" / "spans_example"))


def file_option(value: str, *, named: bool) -> tuple[str | None, str, str | None]:
    """``[NAME=]FILE[,annotator=A]`` as ``(name, file, annotator)``.

    Examples
    --------
    >>> file_option("xcomet=preds.json", named=True)
    ('xcomet', 'preds.json', None)
    >>> file_option("mqm.tsv,annotator=rater1", named=False)
    (None, 'mqm.tsv', 'rater1')
    """
    name = None
    if named:
        name, sep, value = value.partition("=")
        if not sep or not name or not value:
            raise UserInputError(f"--pred {name}{sep}{value!r}: expected NAME=FILE")
    path, *options = value.split(",annotator=")
    if len(options) > 1 or (options and not options[0]):
        raise UserInputError(f"{value!r}: expected FILE or FILE,annotator=NAME")
    return name, path, options[0] if options else None


def read_span_input(given: Any, *, fmt: str | None, clip: bool, annotator: str | None = None):
    """A span file read (a :class:`~mtpalette.io.spans.SpanSet` passes as it is), with only
    ``annotator``'s rows when given (none of them: refused, naming the annotators there).

    Examples
    --------
    >>> from mtpalette.io.spans import SpanRow, SpanSet
    >>> ss = SpanSet((SpanRow(None, "A", None, 0, "x", (), annotator="r1"),), "m.tsv", "mqm")
    >>> len(read_span_input(ss, fmt=None, clip=False, annotator="r1"))
    1
    """
    from mtpalette.io.spans import SpanSet
    from mtpalette.io.spans_read import read_spans

    spans = given if isinstance(given, SpanSet) else read_spans(given, format=fmt, clip=clip)
    if annotator is not None:
        chosen = spans.filter(annotator=annotator)
        if not len(chosen):
            raise UserInputError(
                f"no row of annotator {annotator!r} (annotators: "
                f"{', '.join(str(a) for a in spans.annotators())})", path=spans.path)  # fmt: skip
        return chosen
    return spans


def read_exclude(path: str | Path) -> set[tuple[str, str]]:
    """``(lp, segment)`` pairs of a TSV with a header naming ``lp`` and ``sid``, ``segid`` or
    ``segment`` (the WMT23 QE hallucination index's form); a damaged line refused.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "hal.tsv")
    >>> _ = open(p, "w").write("lp\\tsegid\\nen-de\\t5\\n")
    >>> read_exclude(p)
    {('en-de', '5')}
    """
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    header = lines[0].split("\t") if lines else []
    seg = next((c for c in ("sid", "segid", "segment", "seg_id") if c in header), None)
    if "lp" not in header or seg is None:
        raise UserInputError(f"expected a header with lp and sid (or segid, segment), got "
                             f"{header!r}", path=str(path), line=1)  # fmt: skip
    i, j = header.index("lp"), header.index(seg)
    out = set()
    for n, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != len(header):
            raise UserInputError(f"expected {len(header)} tab-separated cells, got {len(cells)}",
                                 path=str(path), line=n)  # fmt: skip
        out.add((cells[i].strip(), cells[j].strip()))
    return out


def protocol_list(protocol: str | Sequence[str]) -> list[str]:
    """``"wmt25,mpp"`` or a list as a list of known protocol names (unknown ones refused).

    Examples
    --------
    >>> protocol_list("wmt25, mpp")
    ['wmt25', 'mpp']
    >>> protocol_list("wmt52")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: unknown span protocol 'wmt52'; expected one of ...
    """
    from mtpalette.stats.spans import PROTOCOLS

    names = (
        [p.strip() for p in protocol.split(",")] if isinstance(protocol, str) else list(protocol)
    )
    names = [p for p in names if p]
    if not names:
        raise UserInputError("give a span protocol: --protocol wmt25")
    for p in names:
        if p not in PROTOCOLS:
            known = ", ".join(PROTOCOLS)
            raise UserInputError(
                f"unknown span protocol {p!r}; expected one of {known}.{did_you_mean(p, PROTOCOLS)}"
            )
    if len(set(names)) != len(names):
        raise UserInputError(f"a protocol is given twice: {', '.join(names)}")
    return names


def check_protocol_options(names: list[str], penalty: float | None, partial_credit: float | None):
    """Refuse an option no protocol of the run takes (it would be ignored silently)."""
    from mtpalette.stats.spans import PROTOCOLS

    given = ((penalty, "penalty", "--penalty"),
             (partial_credit, "partial_credit", "--partial-credit"))  # fmt: skip
    for value, option, name in given:
        takers = [n for n, p in PROTOCOLS.items() if p.option == option]
        if value is not None and not any(PROTOCOLS[n].option == option for n in names):
            raise UserInputError(f"{name} applies to {', '.join(takers)}; the run's protocols "
                                 f"({', '.join(names)}) take none")  # fmt: skip


def span_inputs(run: Any):
    """The gold sets of a spans run (``run``: its description; with ``raters`` the two raters'
    same-text segments of one gold file) and its named predictions (a name given twice
    refused)."""
    read = lambda spec: read_span_input(spec[1], fmt=run.format, clip=run.clip,  # noqa: E731
                                  annotator=spec[2])  # fmt: skip
    golds = [read(file_option(g, named=False)) for g in run.gold]
    if run.raters is not None:
        from mtpalette.metaeval.spans import same_text_pair

        first, second = (r.strip() for r in run.raters.split(","))
        golds = list(same_text_pair(golds[0], first, second))
    return golds, predictions(run.pred, fmt=run.format, clip=run.clip)


def pred_names(pred: list[str]) -> list[str]:
    """The names of the predictions (``--pred NAME=FILE[,annotator=A]``), each checked; a name
    given twice is refused (one of the two would be dropped without a word).

    Examples
    --------
    >>> pred_names(["a=x.jsonl", "b=y.jsonl,annotator=r1"])
    ['a', 'b']
    >>> pred_names(["a=x.jsonl", "a=y.jsonl"])
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --pred a is given twice
    """
    names: list[str] = []
    for p in pred:
        name = file_option(p, named=True)[0]
        if name in names:
            raise UserInputError(f"--pred {name} is given twice")
        names.append(str(name))
    return names


def predictions(pred: list[str], *, fmt: str | None, clip: bool) -> dict[str, Any]:
    """The named predictions (``--pred NAME=FILE[,annotator=A]``) read, by name
    (:func:`pred_names`)."""
    read = lambda spec: read_span_input(spec[1], fmt=fmt, clip=clip, annotator=spec[2])  # noqa: E731
    return dict(zip(pred_names(pred), (read(file_option(p, named=True)) for p in pred),
                    strict=True))  # fmt: skip
