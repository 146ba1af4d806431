"""The column-at-a-time reader of a plain TSV long table (``item_scores._long_scores_fast``)
against the row-by-row reader: the same ids, scores, labels, line numbers and order, or no
answer (the row reader then reads or refuses the file, naming the line)."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette.errors import UserInputError
from mtpalette.io import item_scores
from mtpalette.io.item_scores import read_long_scores

CELLS = {
    "system": st.sampled_from(["A", "B", " C ", "", "Sys-1"]),
    "item": st.sampled_from(["1", "2", " 3", "03", "-4", "x", "", "--5", "7"]),
    "score": st.sampled_from(["0.5", " 80 ", "1e3", "nan", "inf", "", "x", "-2", '"7"']),
    "domain": st.sampled_from(["news", "speech", " news ", ""]),
    "doc": st.sampled_from(["d1", "d2", ""]),
}
ROW = st.fixed_dictionaries(CELLS)


def _write(rows: list[dict[str, str]], extra: str) -> str:
    path = os.path.join(tempfile.mkdtemp(), "long.tsv")
    lines = ["system\titem\tscore\tdomain\tdoc"]
    lines += ["\t".join(r[c] for c in CELLS) for r in rows]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + extra)
    return path


def _slow(path: str, **kw):
    real = item_scores._long_scores_fast
    item_scores._long_scores_fast = lambda *a: None
    try:
        return read_long_scores(path, **kw)
    finally:
        item_scores._long_scores_fast = real


def _outcome(read, path, **kw):
    try:
        s = read(path, **kw)
    except (UserInputError, ValueError) as exc:
        return ("error", type(exc).__name__, str(exc))
    return (list(s.scores.items()), list(s.where.items()), list(s.domains.items()),
            list(s.docs.items()), s.path, s.higher_is_better, s.layout)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(ROW, min_size=0, max_size=8), st.sampled_from(["\n", "", "\n\n", "\nA\t1"]),
       st.booleans())  # fmt: skip
def test_fast_reader_equals_the_row_reader(rows, extra, labels):
    path = _write(rows, extra)
    kw = dict(domain_col="domain", doc_col="doc") if labels else {}
    assert _outcome(read_long_scores, path, **kw) == _outcome(_slow, path, **kw)


def test_fast_reader_answers_a_plain_table():
    rows = [dict(system=s, item=str(i), score=str(i / 3), domain="news" if i < 3 else "talk",
                 doc=f"d{i // 2}") for s in "AB" for i in range(1, 6)]  # fmt: skip
    path = _write(rows, "\n")
    fast = item_scores._long_scores_fast(path, ("system", "item", "score", "domain", "doc"),
                                         None, True)  # fmt: skip
    assert fast is not None and fast.matrix()[2].shape == (2, 5)
    assert _outcome(read_long_scores, path, domain_col="domain", doc_col="doc") == _outcome(
        _slow, path, domain_col="domain", doc_col="doc"
    )


@pytest.mark.parametrize("repeated", ["mean"])
def test_repeated_annotations_take_the_row_reader(repeated):
    rows = [dict(system="A", item="1", score=v, domain="n", doc="d") for v in ("1", "3")]
    path = _write(rows, "\n")
    assert read_long_scores(path, repeated=repeated).scores == {("A", 1): 2.0}
