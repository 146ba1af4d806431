"""Synonym resources and the semantic space transformation (SST) of Yu et al.

Resources (each a set of synonym groups; two different words are synonyms when they share a
group):

* ``cilin``: Tongyici Cilin (extended), HIT IR-Lab - bundled (``data/lexical``, Apache-2.0, see
  NOTICE); only its ``=`` lines (synonym groups) are used, not ``#`` (related) or ``@``;
* ``wordnet`` or ``wordnet:DIR``: WordNet's WNDB files (``data.noun``, ``data.verb``,
  ``data.adj``, ``data.adv``), by default ``/usr/share/wordnet`` (Debian's ``wordnet-base``);
  a synset is a group; multi-word lemmas keep their underscores; no lemmatisation, so
  inflected forms only match when WordNet lists them;
* ``@PATH``: a generic table, one group per line, words separated by tabs (two columns: a word
  and its synonym).

The resource's name and the sha256 of its source are in the signature of every -syn metric.

SST (the paper's section II.A.d): exact matches first, then synonyms, without overlap. A
candidate word whose form does not occur in the reference is replaced by the first unused
reference word of a form absent from the candidate that is its synonym. Replaced words never
matched anything before, so every n-gram, LCS or skip-bigram count against that reference can
only grow: a -syn score is never below the plain score against the same single reference (with
several references the plain metric clips against all at once and may score higher). This
reads the transformation by word types; :func:`transform_tokens` reads it token by token.

References
----------
Yu, Liu, He and Wang, Automatic Meta-evaluation of Low-Resource Machine Translation Evaluation
Metrics (Limited ORANGE), section II.A.d; Mei et al. (1983) and HIT IR-Lab, Tongyici Cilin
(extended); Miller (1995), WordNet.
"""

from __future__ import annotations

import gzip
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from mtpalette.errors import UserInputError

WORDNET_DIR = Path("/usr/share/wordnet")
WORDNET_FILES = ("data.noun", "data.verb", "data.adj", "data.adv")


@dataclass(frozen=True)
class Synonyms:
    """Synonym groups: ``groups[word]`` is the set of the groups ``word`` (lower-cased) belongs
    to; lookups ignore case."""

    name: str
    digest: str
    groups: dict[str, frozenset[int]]

    def are_synonyms(self, a: str, b: str) -> bool:
        """Two different words sharing a group.

        Examples
        --------
        >>> s = from_groups("t", [["car", "auto"], ["auto", "motor"]])
        >>> s.are_synonyms("car", "auto"), s.are_synonyms("car", "motor")
        (True, False)
        >>> s.are_synonyms("car", "car")  # a word is not its own synonym
        False
        """
        a, b = a.lower(), b.lower()
        if a == b:
            return False
        ga = self.groups.get(a)
        return bool(ga and ga & self.groups.get(b, frozenset()))

    @property
    def label(self) -> str:
        return f"{self.name}@{self.digest[:12]}"


def from_groups(name: str, groups: Iterable[Sequence[str]], digest: str = "") -> Synonyms:
    out: dict[str, set[int]] = {}
    for k, group in enumerate(groups):
        for word in group:
            out.setdefault(word.lower(), set()).add(k)
    return Synonyms(name, digest, {w: frozenset(g) for w, g in out.items()})


def read_cilin(text: str, *, name: str = "cilin", digest: str = "") -> Synonyms:
    """Cilin's ``=`` lines (``Aa01A01= 人 士 人物 ...``) as synonym groups.

    Examples
    --------
    >>> s = read_cilin("Aa01A01= 人 士 人物\\nAa01A08# 同伙 伙伴\\n")
    >>> s.are_synonyms("人", "人物"), s.are_synonyms("同伙", "伙伴")
    (True, False)
    """
    groups = []
    for line in text.splitlines():
        head, _, words = line.partition(" ")
        if len(head) == 8 and head.endswith("="):
            groups.append(words.split())
    return from_groups(name, groups, digest)


def read_wordnet(directory: str | Path = WORDNET_DIR) -> Synonyms:
    """WordNet synsets from the WNDB ``data.*`` files of ``directory``."""
    d = Path(directory)
    files = [d / f for f in WORDNET_FILES if (d / f).exists()]
    if not files:
        raise UserInputError(
            f"no WordNet data files (data.noun, data.verb...) in {d}; install Debian's "
            "wordnet-base or give wordnet:DIR",
            path=str(d),
        )
    h = hashlib.sha256()
    groups = []
    for path in files:
        raw = path.read_bytes()
        h.update(raw)
        for number, line in enumerate(raw.decode("utf-8", "replace").splitlines(), start=1):
            if not line or line.startswith(" "):
                continue  # the licence header
            fields = line.split(" ")
            try:
                count = int(fields[3], 16)
                words = [fields[4 + 2 * k].split("(")[0].lower() for k in range(count)]
            except (IndexError, ValueError):
                raise UserInputError(
                    "expected 'offset lex_filenum ss_type w_cnt word lex_id ...'",
                    path=str(path),
                    line=number,
                ) from None
            groups.append(words)
    return from_groups("wordnet", groups, h.hexdigest())


def read_table(path: str | Path) -> Synonyms:
    """A generic synonym table: one group per line, words separated by tabs."""
    p = Path(path)
    try:
        raw = p.read_bytes()
        text = raw.decode("utf-8")
    except OSError as exc:
        raise UserInputError(
            f"cannot read the synonym table: {exc.strerror}", path=str(p)
        ) from None
    except UnicodeDecodeError:
        raise UserInputError("the synonym table is not UTF-8", path=str(p)) from None
    groups = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        words = [w.strip() for w in line.split("\t") if w.strip()]
        if len(words) < 2:
            raise UserInputError(
                "expected two or more tab-separated words (a word and its synonyms)",
                path=str(p),
                line=number,
            )
        groups.append(words)
    return from_groups(f"table:{p.name}", groups, hashlib.sha256(raw).hexdigest())


@cache
def load_synonyms(spec: str) -> Synonyms:
    """``cilin``, ``wordnet``, ``wordnet:DIR`` or ``@PATH`` (see the module docstring)."""
    if spec == "cilin":
        ref = resources.files("mtpalette") / "data" / "lexical" / "cilin_ex.txt.gz"
        raw = gzip.decompress(ref.read_bytes())
        return read_cilin(raw.decode("utf-8"), digest=hashlib.sha256(raw).hexdigest())
    if spec == "wordnet" or spec.startswith("wordnet:"):
        return read_wordnet(spec.partition(":")[2] or WORDNET_DIR)
    if spec.startswith("@"):
        return read_table(spec[1:])
    raise UserInputError(
        f"unknown synonym resource {spec!r}; expected cilin, wordnet[:DIR] or @PATH"
    )


def transform_tokens(cand: Sequence[str], ref: Sequence[str], syn: Synonyms) -> list[str]:
    """The candidate after SST read token by token, one-to-one, in two stages: each candidate
    token first takes an unused reference token of the same form (exact matches); then each
    candidate token left takes the first unused reference token that is its synonym, and
    becomes that word. A surplus repetition of a reference word can thus become a synonym's
    form (:func:`transform` reads word types: a form in the reference is never replaced).

    Examples
    --------
    >>> s = from_groups("t", [["car", "vehicle"], ["big", "large"]])
    >>> transform_tokens("car car".split(), "car vehicle".split(), s)
    ['car', 'vehicle']
    >>> transform("car car".split(), "car vehicle".split(), s)  # by word types
    ['car', 'car']
    """
    unused: dict[str, list[int]] = {}
    for k, w in enumerate(ref):
        unused.setdefault(w, []).append(k)
    taken = [False] * len(ref)
    matched = [False] * len(cand)
    for i, w in enumerate(cand):  # stage 1: exact, one-to-one
        if unused.get(w):
            taken[unused[w].pop(0)] = True
            matched[i] = True
    out = list(cand)
    for i, w in enumerate(cand):  # stage 2: synonyms among the reference tokens left
        if matched[i]:
            continue
        for k, r in enumerate(ref):
            if not taken[k] and syn.are_synonyms(w, r):
                out[i] = r
                taken[k] = True
                break
    return out


def transform(cand: Sequence[str], ref: Sequence[str], syn: Synonyms) -> list[str]:
    """The candidate after SST toward ``ref``: exact matches kept, then each candidate word
    absent from the reference replaced by the first unused reference synonym absent from the
    candidate.

    Examples
    --------
    >>> s = from_groups("t", [["car", "vehicle"], ["big", "large"]])
    >>> transform("a big car".split(), "a large vehicle".split(), s)
    ['a', 'large', 'vehicle']
    >>> transform("a car car".split(), "a vehicle".split(), s)  # one reference word, used once
    ['a', 'vehicle', 'car']
    """
    in_ref, in_cand = set(ref), set(cand)
    free = [k for k, w in enumerate(ref) if w not in in_cand]
    used: set[int] = set()
    out = list(cand)
    for i, w in enumerate(cand):
        if w in in_ref:
            continue
        for k in free:
            if k not in used and syn.are_synonyms(w, ref[k]):
                out[i] = ref[k]
                used.add(k)
                break
    return out
