"""compare-mt's words tokenized in bulk (:class:`~mtpalette.analysis.compare_mt.SplitEncoder`):
every row reads the words of ``line.strip().split(' ')`` (lower-cased first when asked), as the
line-by-line route of the ``compare-mt`` tokenizer does, on generated text full of the cases
where whitespace splitting and compare-mt differ, and on WMT21 reference A (43 lines with runs
of spaces)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from real_data import shared

from mtpalette.analysis.compare_mt import TOKENIZER, SplitEncoder, folded_lines, split_words
from mtpalette.text.encode import Encoder, TextView

CHARS = st.sampled_from(["a", "b", "É", "ß", " ", " ", "  ", "\t", "\xa0", "\u2003", "\u200b",
                         "\x0b", "\x1c", "\u3000", "\x85", "é", "[", "\r"])  # fmt: skip
LINES = st.lists(st.lists(CHARS, max_size=12).map("".join), max_size=12)


def _words(encoder, lines):
    rows = encoder.encode(lines)
    return [encoder.vocab.decode(rows[k].tolist()) for k in range(len(rows))]


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.booleans())
def test_rows_are_compare_mt_words(first, second, lowercase):
    view = TextView(TOKENIZER, lowercase)
    fast, slow = SplitEncoder(view), Encoder(view)
    for lines in (first, second, first + second):  # later batches: seen and new lines
        want = [split_words(x.lower() if lowercase else x) for x in lines]
        assert _words(fast, lines) == want
        assert _words(slow, lines) == want


def test_real_reference_with_runs_of_spaces():
    path = shared("wmt21", "txt", "references", "newstest2021.en-de.ref.A.de",
                  what="WMT21 en-de reference A")  # fmt: skip
    lines = path.read_text(encoding="utf-8").splitlines()
    words = _words(SplitEncoder(TextView(TOKENIZER)), lines)
    assert words == [split_words(x) for x in lines]
    assert folded_lines(lines) == 43  # the lines taken apart from the compiled route
