"""Train/test splits of judged data that keep documents whole.

A split by year is two data sets (e.g. train on WMT17, test on WMT21): nothing to do here.
Within one data set, :func:`holdout_split` keeps the last documents (MQM's ``doc`` column,
when the judgments have one) or, without documents, the last contiguous block of items for
testing, so that sentences of one talk or article never sit on both sides.
"""

from __future__ import annotations

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.metaeval.segments import SegmentData

SPLITS = ("docs", "items")


def holdout_split(
    data: SegmentData, fraction: float, *, by: str = "docs"
) -> tuple[SegmentData, SegmentData | None]:
    """``(train, test)``: about ``fraction`` of the items held out, at the end.

    ``by="docs"`` holds out whole documents (the last ones, in order of first appearance,
    until ``fraction`` of the items are reached) when ``data.info["docs"]`` exists, else falls
    back to ``items``: the last contiguous block. The split used is recorded in
    ``info["split"]`` of both parts.

    Examples
    --------
    >>> d = SegmentData(["A"], [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]], [list("abcdef")],
    ...                 [list("abcdef")], [1, 2, 3, 4, 5, 6],
    ...                 {"docs": ["t1", "t1", "t1", "t2", "t2", "t3"]})
    >>> train, test = holdout_split(d, 0.4)
    >>> train.items, test.items, test.info["split"]["test_docs"]
    ([1, 2, 3], [4, 5, 6], ['t2', 't3'])
    >>> train, test = holdout_split(d, 1 / 3, by="items")
    >>> train.items, test.items
    ([1, 2, 3, 4], [5, 6])
    """
    if by not in SPLITS:
        raise UserInputError(f"unknown split {by!r}; expected {' or '.join(SPLITS)}")
    if fraction == 0:
        return data, None
    if not 0 < fraction < 1:
        raise UserInputError(f"the held-out fraction must be in [0, 1), got {fraction}")
    n = data.n_items
    docs = data.info.get("docs")
    if by == "docs" and docs is not None and all(d is not None for d in docs):
        order = list(dict.fromkeys(docs))
        size = {d: 0 for d in order}
        for d in docs:
            size[d] += 1
        test_docs: list[str] = []
        held = 0
        for d in reversed(order):
            if held >= fraction * n:
                break
            test_docs.insert(0, d)
            held += size[d]
        in_test = np.isin(np.array(docs, dtype=object), test_docs)
        train_idx, test_idx = np.flatnonzero(~in_test), np.flatnonzero(in_test)
        split = {"by": "docs", "test_docs": test_docs}
    else:
        cut = int(round(n * (1 - fraction)))
        train_idx, test_idx = np.arange(cut), np.arange(cut, n)
        split = {"by": "items", "first_test_item": int(cut)}
    if len(train_idx) < 2 or len(test_idx) < 2:
        raise UserInputError(f"holding out {fraction} leaves fewer than 2 items on one side")
    train, test = data.select_items(train_idx), data.select_items(test_idx)
    train.info["split"] = test.info["split"] = split
    return train, test
