"""Documents as paragraphs, as WMT25 and WMT26 cut them, and the WMT26 rule that brings a
translation's paragraphs to the source's count.

Since 2025 WMT's general test set holds whole documents whose paragraphs are separated by a
blank line; a paragraph is the segment a metric scores and a human rates. The organisers
split a document with ``text.split("\\n\\n")``, nothing stripped (WMT25's metric scripts,
the metrics task's test-set builder and the human-evaluation builder all do):
:func:`split_paragraphs` is that split. A document is scored as its paragraphs joined again
with ``"\\n\\n"`` (:data:`DOCUMENT_JOINER`), that is, as the document's own text.

A translation with another paragraph count than its source cannot be scored paragraph by
paragraph. WMT25 dropped such a system for the language pair; WMT26 aligned it
(``humeval/wmt_test_alignment.py`` of wmt-conference/wmt26-general-mt):

* too many paragraphs (:func:`merge_paragraphs`): adjacent translated paragraphs are merged
  (joined with ``"\\n"``) into as many groups as the source has, choosing the grouping whose
  lengths are nearest the source's scaled by the fertility (the translation's characters
  over the source's): the least mean of ``|len(src_j) * fertility - len(group_j)|``. The
  organisers try every grouping (``itertools.combinations`` of the merge points, keeping
  the first strictly better one); this module finds the same grouping by dynamic
  programming over exact sums, and among equal ones the first in their order (merges as
  early as possible).
* too few paragraphs (:func:`split_paragraphs_to`): the first paragraph (in order) longer
  than its source paragraph's expected length (source length times fertility) that has two
  sentences or more is cut at the sentence boundary whose first part's length is nearest
  the expected length; the scan restarts until the counts match, or the document cannot be
  aligned (None). Sentences end at ``.``, ``!``, ``?`` (then an optional closing quote or
  bracket, then a space or the end) or at CJK sentence punctuation; the two parts are
  their sentences joined with a space (with nothing in text holding CJK characters), so
  the whitespace between sentences is not kept, as in the organisers' rule.

Examples
--------
>>> split_paragraphs("One.\\n\\nTwo. Three.")
['One.', 'Two. Three.']
>>> merge_paragraphs(["A long first one.", "B."], ["Ein langer", "erster.", "B."])
['Ein langer\\nerster.', 'B.']
"""

from __future__ import annotations

import re
from fractions import Fraction

#: what separates paragraphs in WMT25/26 documents, and what a document's paragraphs are
#: joined with to score it as one segment
PARAGRAPH_SEPARATOR = "\n\n"
DOCUMENT_JOINER = PARAGRAPH_SEPARATOR
#: what the WMT26 rule joins merged paragraphs with
MERGE_JOINER = "\n"

_WESTERN_END = r"[.!?]+[\"')\]]?(?=\s|$)"
_CJK_END = r"[。！？…；‼⁇]+[」』）”’》】]?"
_SENTENCE = re.compile(rf".*?(?:{_WESTERN_END}|{_CJK_END})", re.DOTALL)
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>")


def split_paragraphs(text: str) -> list[str]:
    """The paragraphs of a WMT25/26 document: ``text`` split at every ``"\\n\\n"``, as the
    organisers split it (nothing stripped; an empty text is one empty paragraph).

    Examples
    --------
    >>> split_paragraphs("a\\nb\\n\\nc")
    ['a\\nb', 'c']
    >>> split_paragraphs("a\\n\\n\\nb"), split_paragraphs("")
    (['a', '\\nb'], [''])
    """
    return text.split(PARAGRAPH_SEPARATOR)


def join_paragraphs(paragraphs: list[str]) -> str:
    """A document's text from its paragraphs (:data:`DOCUMENT_JOINER` between them): the
    inverse of :func:`split_paragraphs`.

    Examples
    --------
    >>> join_paragraphs(["a", "b"]) == "a\\n\\nb"
    True
    """
    return DOCUMENT_JOINER.join(paragraphs)


def strip_html(text: str) -> str:
    """``text`` without HTML tags (``<p>``, ``</p>``, ``<br/>``, ``<b class="x">``...): each
    tag removed, nothing else changed (entities such as ``&amp;`` stay as written).

    Examples
    --------
    >>> strip_html("<p>Hello <b>world</b></p>\\n<p>again<br/></p>")
    'Hello world\\nagain'
    >>> strip_html("a < b and c > d")
    'a < b and c > d'
    """
    return _TAG.sub("", text)


def has_html(text: str) -> bool:
    """Whether ``text`` holds an HTML tag (what :func:`strip_html` removes).

    Examples
    --------
    >>> has_html("<p>x</p>"), has_html("x <3")
    (True, False)
    """
    return _TAG.search(text) is not None


def fertility(source: list[str], target: list[str]) -> float | None:
    """The translation's characters over the source's (None when the source is empty).

    Examples
    --------
    >>> fertility(["abcd"], ["ab", "cdef"])
    1.5
    """
    n_src = sum(len(p) for p in source)
    return None if n_src == 0 else sum(len(p) for p in target) / n_src


def merge_paragraphs(source: list[str], target: list[str]) -> list[str] | None:
    """``target`` (more paragraphs than ``source``) merged into ``len(source)`` paragraphs
    by WMT26's rule (see the module docstring); None when the source has no characters.

    Raises
    ------
    ValueError
        ``target`` has fewer paragraphs than ``source``.

    References
    ----------
    ``align_segments_by_merging_tgt`` in wmt-conference/wmt26-general-mt
    ``humeval/wmt_test_alignment.py`` (the rule; this is an implementation of our own,
    checked against theirs by ``scripts/wmt26_alignment_golden.py``).

    Examples
    --------
    >>> merge_paragraphs(["aaaa", "bb", "cc"], ["aa", "aa", "bb", "cc"])
    ['aa\\naa', 'bb', 'cc']
    >>> merge_paragraphs(["ab"], ["x", "y", "z"])
    ['x\\ny\\nz']
    """
    m, n = len(source), len(target)
    if n < m:
        raise ValueError(f"merging needs at least {m} paragraphs, got {n}")
    fert = fertility(source, target)
    if fert is None:
        return None
    lengths = [len(p) for p in target]
    starts = [0]
    for length in lengths:
        starts.append(starts[-1] + length)

    def cost(j: int, i: int, e: int) -> Fraction:
        """The term of source paragraph ``j`` for the group ``target[i:e]`` (exact)."""
        merged = starts[e] - starts[i] + (e - i - 1) * len(MERGE_JOINER)
        return Fraction(abs(len(source[j]) * fert - merged))

    # best[j][i]: the least exact sum of terms for target[i:] grouped as source[j:]
    inf = None
    best: list[list[Fraction | None]] = [[inf] * (n + 1) for _ in range(m + 1)]
    best[m][n] = Fraction(0)
    for j in range(m - 1, -1, -1):
        for i in range(n - (m - j) + 1):
            options = [
                cost(j, i, e) + best[j + 1][e]
                for e in range(i + 1, n - (m - j - 1) + 1)
                if best[j + 1][e] is not None
            ]
            best[j][i] = min(options) if options else None
    # The organisers compare means rounded to floats (statistics.mean) and keep the first of
    # equal ones, the grouping with the earliest merges: the longest group at each step among
    # those whose best completion rounds to the least mean.
    least = float(best[0][0] / m)
    groups, i, prefix = [], 0, Fraction(0)
    for j in range(m):
        e = max(
            e
            for e in range(i + 1, n - (m - j - 1) + 1)
            if best[j + 1][e] is not None
            and float((prefix + cost(j, i, e) + best[j + 1][e]) / m) == least
        )
        prefix += cost(j, i, e)
        groups.append(MERGE_JOINER.join(target[i:e]))
        i = e
    return groups


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences as WMT26's split rule cuts it (each stripped; text after
    the last sentence end is one more sentence).

    Examples
    --------
    >>> sentences('He said "Go!" Then left. And')
    ['He said "Go!"', 'Then left.', 'And']
    >>> sentences("你好。再见！")
    ['你好。', '再见！']
    >>> sentences("  no end  ")
    ['no end']
    """
    out, end = [], 0
    for match in _SENTENCE.finditer(text):
        end = match.end()
        if match.group().strip():
            out.append(match.group().strip())
    if not out:
        return [text.strip()] if text.strip() else []
    rest = text[end:].strip()
    return out + ([rest] if rest else [])


def _cut(paragraph: str, expected: float) -> tuple[str, str] | None:
    """``paragraph`` in two at the sentence boundary whose first part's length is nearest
    ``expected`` (the first such boundary), or None with fewer than two sentences."""
    sents = sentences(paragraph)
    if len(sents) < 2:
        return None
    sep = "" if _CJK.search(paragraph) else " "
    lengths = [len(s) for s in sents[:-1]]
    firsts = [sum(lengths[: k + 1]) + k * len(sep) for k in range(len(lengths))]
    diffs = [abs(length - expected) for length in firsts]
    k = diffs.index(min(diffs))
    return sep.join(sents[: k + 1]), sep.join(sents[k + 1 :])


def split_paragraphs_to(source: list[str], target: list[str]) -> list[str] | None:
    """``target`` (fewer paragraphs than ``source``) split into ``len(source)`` paragraphs
    by WMT26's rule (see the module docstring); None when no paragraph can be cut further
    (or the source has no characters).

    Raises
    ------
    ValueError
        ``target`` has more paragraphs than ``source``.

    References
    ----------
    ``align_segments_by_splitting_tgt`` in wmt-conference/wmt26-general-mt
    ``humeval/wmt_test_alignment.py`` (the rule; an implementation of our own, checked
    against theirs by ``scripts/wmt26_alignment_golden.py``).

    Examples
    --------
    >>> split_paragraphs_to(["One two.", "Three."], ["Eins zwei. Drei."])
    ['Eins zwei.', 'Drei.']
    >>> split_paragraphs_to(["One.", "Two."], ["No sentence end"]) is None
    True
    """
    m = len(source)
    if len(target) > m:
        raise ValueError(f"splitting needs at most {m} paragraphs, got {len(target)}")
    fert = fertility(source, target)
    if fert is None:
        return None
    out = list(target)
    while len(out) < m:
        for k, paragraph in enumerate(out):
            expected = len(source[k]) * fert
            cut = _cut(paragraph, expected) if len(paragraph) > expected else None
            if cut is not None:
                out[k : k + 1] = list(cut)
                break
        else:
            return None
    return out


def align_paragraphs(source: list[str], target: list[str]) -> list[str] | None:
    """``target`` brought to ``len(source)`` paragraphs by WMT26's rule: unchanged when the
    counts match, merged when it has more, split when it has fewer; None when it cannot be
    (no sentence boundary left to split at, or an empty source).

    Examples
    --------
    >>> align_paragraphs(["A.", "B."], ["X.", "Y."])
    ['X.', 'Y.']
    >>> align_paragraphs(["A.", "B."], ["X. Y."])
    ['X.', 'Y.']
    >>> align_paragraphs(["A. B."], ["X.", "Y."])
    ['X.\\nY.']
    """
    if len(target) == len(source):
        return list(target)
    if len(target) > len(source):
        return merge_paragraphs(source, target)
    return split_paragraphs_to(source, target)
