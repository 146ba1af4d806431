"""One ``analyze`` run over the texts: the inputs checked, the texts encoded once (the word
and n-gram analyses, the lengths and the metrics all read the same rows), the metrics' statistics
computed once (:class:`_StatsOf`), then each analysis in turn. :func:`mtpalette.analyze` and
``mtpalette analyze`` (:mod:`mtpalette.api.analyze_run`) call :func:`analyses_of`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import TYPE_CHECKING, Any

import numpy as np

from mtpalette.errors import UserInputError, repeated
from mtpalette.feedback import Feedback
from mtpalette.records import Record, RowsFrame, out

if TYPE_CHECKING:
    from mtpalette.analysis.examples import SentenceExamples
    from mtpalette.analysis.ngrams import NgramDifferences, NgramMatches
    from mtpalette.analysis.sentences import SentenceBuckets
    from mtpalette.analysis.words import WordAccuracy
    from mtpalette.text.encode import Encoder

#: the word splitting by default: punctuation split off, as compare-mt's users tokenize
DEFAULT_TOKENIZE = "13a"
#: the sentence metric by default, and with ``compat="compare-mt"`` (its NLTK sentence BLEU)
DEFAULT_SENTENCE_METRIC = "bleus:4"
#: ``top`` by default: compare-mt's report lengths (sentence examples, n-grams)
DEFAULT_TOP = {"examples": 10, "ngrams": 50}
COMPATS = ("compare-mt",)
#: the analysis (its ``analyses`` name) each kind of result comes from
OPTION_OF = {
    "word-accuracy": "words",
    "ngram-differences": "ngrams",
    "sentence-examples": "examples",
}


@dataclass(frozen=True)
class AnalysisResult(Record, RowsFrame):
    """Every analysis asked, in order, with the settings that made them."""

    systems: list[str]
    tokenize: str
    lowercase: bool
    #: ``"compare-mt"``: words split as compare-mt splits them; None: by ``tokenize``
    compat: str | None
    analyses: list[WordAccuracy | SentenceBuckets | NgramDifferences | SentenceExamples] = field(
        metadata=out(after="signatures")
    )
    #: every metric's signature (the sentence buckets', the examples')
    signatures: dict[str, str] = field(default_factory=dict)
    #: what the reader should know (lines whose whitespace was folded...)
    notes: list[str] = field(default_factory=list)
    #: the files written, by kind (not in the dict: the run file records them itself)
    outputs: dict[str, str] = field(default_factory=dict, metadata=out(skip=True))

    def rows(self) -> list[dict[str, Any]]:
        """Every analysis's rows, each with the analysis it comes from."""
        from mtpalette.analysis.sentences import SentenceBuckets

        out = []
        for a in self.analyses:
            name = a.by if isinstance(a, SentenceBuckets) else OPTION_OF[a.KIND]
            out += [{"analysis": name, **row} for row in a.rows()]
        return out


def analyses_of(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str]],
    *,
    analyses: Sequence[str],
    metric: str,
    tokenize: str | None,
    lowercase: bool,
    compat: str | None,
    frequency_corpus: Sequence[str] | None,
    edges: Mapping[str, Sequence[float]] | None,
    domains: Sequence[str] | None,
    documents: Sequence[str] | None,
    labels: Sequence[str] | None,
    baseline: str | None,
    sentence_metric: str | None,
    top: int | None,
    orders: tuple[int, int],
    confidence: float | None,
    n_resamples: int,
    seed: int,
    progress: bool | Feedback | None,
) -> AnalysisResult:
    """The analyses of :func:`mtpalette.analyze`, as its result: every setting given, by
    name (their defaults are the API's, declared there once)."""
    from mtpalette.analysis import compare_mt
    from mtpalette.progress import feedback_of
    from mtpalette.text.encode import Encoder, TextView

    ref, systems = _checked(systems, refs, analyses)
    check_settings(confidence, top, ("confidence", "top"))
    tokenize, sentence_metric, notes = _compat(compat, tokenize, sentence_metric, systems, ref)
    given = {"domain": domains, "document": documents, "label": labels}
    _check_groups(analyses, given, len(ref))
    view = TextView(tokenize, lowercase)  # compare-mt's words: its split, tokenized in bulk
    encoder = compare_mt.SplitEncoder(view) if compat else Encoder(view)
    shared = _Shared(systems, ref, encoder, given,
                     _baseline(systems, baseline), dict(edges or {}), metric, sentence_metric,
                     dict(confidence=confidence, n_resamples=n_resamples, seed=seed))  # fmt: skip
    shared.stats_of.prefetch(_specs_needed(analyses, metric, sentence_metric))
    done: list = []
    feedback = feedback_of(progress)
    for k, name in enumerate(feedback.track(list(analyses), "analyses"), start=1):
        if not feedback.bars:  # no bar (standard error is no terminal): a line per step
            feedback.note(f"analyze: {name} ({k} of {len(analyses)})")
        done += _one(shared, name, analyses, frequency_corpus, orders, top)
    return AnalysisResult(list(systems), tokenize, lowercase, compat, done,
                          shared.stats_of.signatures(), notes)  # fmt: skip


@dataclass
class _Shared:
    """What the analyses of one run share: the texts encoded once (the word and n-gram
    analyses, the lengths and the metrics all read these rows), the metrics' statistics
    (:class:`_StatsOf`) and the n-gram matches of every system (one compiled pass)."""

    systems: Mapping[str, Sequence[str]]
    ref: list[str]
    encoder: Encoder
    given: Mapping[str, Sequence[Any] | None]
    base: str
    edges: dict[str, Sequence[float]]
    metric: str
    sentence_metric: str
    resampling: dict[str, Any]
    counted: NgramMatches | None = None

    def __post_init__(self) -> None:
        n = len(self.ref)  # every line tokenized in one call, the reference first
        numbers = self.encoder.rows([*self.ref, *chain.from_iterable(self.systems.values())])
        rows = self.encoder.take(numbers)
        self.ref_rows = rows.span(0, n)
        self.out_rows = {s: rows.span(k * n, (k + 1) * n) for k, s in enumerate(self.systems, 1)}
        self.lengths = _lengths(self.ref_rows, self.out_rows)
        self.stats_of = _StatsOf(self.systems, self.ref, self.encoder, (numbers, rows))

    def matches(self, analyses: Sequence[str], orders: tuple[int, int]) -> NgramMatches:
        """Every system's matches of the words (order 1) and of the n-grams of ``orders``
        (when ``ngrams`` is asked), counted together once."""
        if self.counted is None:
            lo, hi = orders
            ngrams = "ngrams" in analyses and 1 <= lo <= hi
            span = (1 if "words" in analyses else lo, hi) if ngrams else (1, 1)
            from mtpalette.analysis.ngrams import ngram_matches

            self.counted = ngram_matches(self.out_rows, self.ref_rows, span)
        return self.counted

    def word_matches(self, analyses: Sequence[str], orders: tuple[int, int]) -> dict:
        """Every system's matches of every word id: order 1 of :meth:`matches` when the
        n-grams are counted too, else straight from the word ids (no n-gram to number)."""
        from mtpalette.analysis.words import token_matches

        vocab = len(self.encoder.vocab)
        if "ngrams" not in analyses:
            return token_matches(self.out_rows, self.ref_rows, vocab)
        counted = self.matches(analyses, orders)
        return {s: counted.of_order(1, s, vocab) for s in self.out_rows}


def _one(a: _Shared, name: str, analyses, corpus, orders, top) -> list:
    """The results of the analysis ``name``."""
    from mtpalette.analysis.sentences import BUCKETINGS, LABELS, label_groups, sentence_buckets

    if name == "words":
        matches = a.word_matches(analyses, orders)
        return [_words(a.encoder, a.out_rows, a.ref_rows, corpus, a.edges.get("words"), matches)]
    if name == "score":
        return [_score_buckets(a.stats_of, a.metric, a.sentence_metric, a.edges, a.resampling)]
    if name in BUCKETINGS:
        m, stats = a.stats_of(a.metric)
        return [sentence_buckets(m, stats, a.lengths[name], by=name, edges=a.edges.get(name),
                                 **a.resampling)]  # fmt: skip
    if name in LABELS:
        m, stats = a.stats_of(a.metric)
        return [label_groups(m, stats, list(a.given[name]), by=name, **a.resampling)]
    if name == "ngrams":
        from mtpalette.analysis.ngrams import ngram_differences

        counted = a.matches(analyses, orders) if 1 <= orders[0] <= orders[1] else None
        return ngram_differences(a.out_rows, a.ref_rows, a.encoder.vocab.decode, baseline=a.base,
                                 orders=orders, top=top or DEFAULT_TOP["ngrams"],
                                 counted=counted)  # fmt: skip
    from mtpalette.analysis.examples import sentence_examples

    spec, _, scores = a.stats_of.sentence(a.sentence_metric)  # examples
    return sentence_examples(spec, scores, a.systems, a.ref, baseline=a.base,
                             top=top or DEFAULT_TOP["examples"])  # fmt: skip


def _baseline(systems: Mapping[str, Any], baseline: str | None) -> str:
    """The system the others are compared with: ``baseline``, or the first."""
    base = next(iter(systems)) if baseline is None else baseline
    if base not in systems:
        raise UserInputError(f"--baseline {base!r} is not one of the systems: {', '.join(systems)}")
    return base


def _specs_needed(analyses: Sequence[str], metric: str, sentence_metric: str) -> list[str]:
    """The metrics the analyses score: the buckets' and groups' metric, the sentence
    metric's statistics (``sentbleu``'s are compare-mt's BLEU's).

    Examples
    --------
    >>> _specs_needed(["words", "length", "examples"], "chrf", "sentbleu")
    ['chrf', 'bleu:compat=compare-mt']
    """
    from mtpalette.analysis import compare_mt
    from mtpalette.analysis.sentences import BUCKETINGS, LABELS

    out = []
    if any(a in BUCKETINGS or a in LABELS for a in analyses):
        out.append(metric)
    if "score" in analyses or "examples" in analyses:
        out.append(compare_mt.SENTENCE_BLEU_STATS if sentence_metric == compare_mt.SENTENCE_BLEU
                   else sentence_metric)  # fmt: skip
    return out


def _compat(compat, tokenize, sentence_metric, systems, ref) -> tuple[str, str, list[str]]:
    """The tokenizer and sentence metric of a run, and its notes: ``compat="compare-mt"``
    splits as compare-mt does (no other tokenizer taken); otherwise the lines whose
    whitespace a tokenizer folds are counted."""
    from mtpalette.analysis import compare_mt

    if compat is not None and compat not in COMPATS:
        raise UserInputError(f"compat {compat!r}; expected one of {', '.join(COMPATS)}")
    if compat is not None:
        if tokenize is not None:
            raise UserInputError(
                f"--compat {compat} splits words as compare-mt does (line.strip().split(' ')); "
                f"--tokenize {tokenize} is not taken with it (tokenize the files first, as "
                "compare-mt's users do)"
            )
        return compare_mt.TOKENIZER, sentence_metric or compare_mt.SENTENCE_BLEU, []
    lines = [ref, *systems.values()]
    folded = sum(compare_mt.folded_lines(x) for x in lines)
    notes = []
    if folded:
        total = sum(len(x) for x in lines)
        notes.append(
            f"{folded} of {total} lines (reference and outputs) have runs of whitespace, tabs "
            "or no text; their whitespace was folded (compare-mt would read empty words there: "
            "--compat compare-mt splits as it does)"
        )
    return tokenize or DEFAULT_TOKENIZE, sentence_metric or DEFAULT_SENTENCE_METRIC, notes


def _checked(systems, refs, analyses) -> tuple[list[str], dict[str, list[str]]]:
    """The one reference stream and the systems' lines as lists (a DataFrame's columns
    too), once the inputs and the analyses' names are checked."""
    from mtpalette.analysis.sentences import BUCKETINGS, LABELS

    known = ("words", *BUCKETINGS, *LABELS, "ngrams", "examples")
    unknown = [a for a in analyses if a not in known]
    if unknown:
        raise UserInputError(f"unknown analysis {unknown[0]!r}; expected {', '.join(known)}")
    twice = repeated(analyses)
    if twice:  # its table would be there twice, its rows twice under one name
        raise UserInputError(f"analysis {', '.join(map(repr, twice))} is given twice; name "
                             "each once")  # fmt: skip
    if len(refs) != 1:
        raise UserInputError(
            f"analyze takes one reference stream (compare-mt's definitions have one); got "
            f"{len(refs)}"
        )
    if len(systems) < 1:
        raise UserInputError("no system outputs given")
    ref = list(refs[0])
    if not ref:
        raise UserInputError("no segments: the reference is empty")
    from mtpalette.sources.checks import as_systems  # a DataFrame: a column per system

    systems = dict(as_systems(systems).items())
    for name, lines in systems.items():
        if isinstance(lines, str):
            raise UserInputError(f"system {name!r}: expected a list of outputs, got a string")
        systems[name] = lines = list(lines)
        if len(lines) != len(ref):
            raise UserInputError(
                f"system {name!r} has {len(lines)} lines, the reference {len(ref)}"
            )
    for name, lines in [
        ("the reference", ref),
        *((f"system {s!r}", x) for s, x in systems.items()),
    ]:
        if not all(map(isinstance, lines, repeat(str))):
            k, line = next((k, x) for k, x in enumerate(lines) if not isinstance(x, str))
            raise UserInputError(
                f"{name}: line {k + 1} is {type(line).__name__}, expected a string"
            )
    return ref, systems


def check_settings(confidence: Any, top: Any, names: tuple[str, str]) -> None:
    """Refuse a ``confidence`` outside (0, 1) and a ``top`` (None: the default) that is not a
    whole number, 1 or more (0 would show no example, -1 all but the last), naming the
    argument (``names``: the Python API's or the command line's).

    Examples
    --------
    >>> check_settings(0.95, 10, ("confidence", "top"))
    >>> check_settings(None, -1, ("--confidence", "--top"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mtpalette.errors.UserInputError: --top is -1; expected a whole number, 1 or more: ...
    """
    import numpy as np

    from mtpalette.sources.checks import probability_argument

    if confidence is not None:
        probability_argument(confidence, names[0])
    if top is None:
        return
    if isinstance(top, bool) or not isinstance(top, int | np.integer) or top < 1:
        raise UserInputError(
            f"{names[1]} is {top!r}; expected a whole number, 1 or more: the examples shown "
            "each way, and the n-grams, per system (every one: a number as large as the test set)"
        )


def _check_groups(
    analyses: Sequence[str], given: Mapping[str, Sequence[Any] | None], n: int
) -> None:
    """Refuse a domain, document or label analysis without its labels, labels of another
    length than the reference (``n`` lines), and a missing or blank label."""
    from mtpalette.analysis.sentences import LABELS

    where = {"label": "--labels FILE (one label per sentence)"}
    for name in LABELS:
        if name in analyses and given[name] is None:
            raise UserInputError(
                f"the {name} analysis needs each sentence's {name}: "
                + where.get(
                    name,
                    "an MTME folder with documents/LP.docs, or --docs FILE "
                    "(one 'DOMAIN DOCUMENT' line per sentence)",
                )  # fmt: skip
            )
        if given[name] is not None and len(given[name]) != n:
            raise UserInputError(f"{len(given[name])} {name} labels for {n} sentences")
    if given["label"] is not None:
        _check_labels(given["label"])


def _lengths(ref_rows, out_rows) -> dict[str, dict[str, np.ndarray]]:
    """Each system's sentence lengths by length bucketing: the reference's, its own, and
    its own minus the reference's."""
    ref_len = ref_rows.lengths()
    return {
        "length": {s: ref_len for s in out_rows},
        "hyp-length": {s: rows.lengths() for s, rows in out_rows.items()},
        "lengthdiff": {s: rows.lengths() - ref_len for s, rows in out_rows.items()},
    }


def _score_buckets(stats_of, metric, sentence_metric, edges, resampling) -> SentenceBuckets:
    """``metric`` by bucket of the sentence metric's score."""
    from mtpalette.analysis.sentences import score_edges, sentence_buckets

    m, stats = stats_of(metric)
    spec, scale, values = stats_of.sentence(sentence_metric)
    cuts = edges.get("score") or score_edges(scale)
    what = f"{spec} sentence score"
    return sentence_buckets(m, stats, values, by="score", edges=cuts, what=what, **resampling)


def _check_labels(labels: Sequence[Any]) -> None:
    """Refuse a missing or blank label (it would become a label of its own)."""
    for k, label in enumerate(labels):
        if label is None or (isinstance(label, str) and not label.strip()):
            raise UserInputError(
                f"labels[{k}] is {label!r}; expected each sentence's label (a non-empty string)"
            )


class _StatsOf:
    """A metric's statistics for every system (:func:`~mtpalette.metrics.scoring.
    compute_stats`: the systems as one set of candidates sharing the references), computed
    once per spec, on the texts the analyses encoded (``encoder``: no line is tokenized
    again for a metric that reads the same words; ``encoded``: the row numbers and rows of
    the reference's lines and then every system's, which such a metric reads as they are,
    no line looked up again)."""

    def __init__(self, systems, ref, encoder: Encoder, encoded: tuple) -> None:
        import numpy as np

        from mtpalette.metrics.base import Pairs
        from mtpalette.metrics.scoring import TextPairs

        self.systems, self.ref = systems, ref
        view = encoder.view
        self.text = dict(tokenize=view.tokenizer, lowercase=view.lowercase)
        flat = list(chain.from_iterable(systems.values()))
        n = len(ref)
        seg = np.tile(np.arange(n, dtype=np.int64), len(systems))
        self.pairs = TextPairs(flat, seg, [ref], _encoders={view: encoder})
        if view.for_refs() == view:  # as TextPairs.encoded would make them from ``encoder``
            numbers, rows = encoded
            self.pairs._pairs[view] = Pairs(rows.span(n, len(rows)), seg, rows.span(0, n),
                                            self.pairs.ref_mask())  # fmt: skip
            self.pairs._hyp_rows[view] = numbers[n:]
        self.done: dict[str, tuple] = {}
        self.sentbleu = False

    def signatures(self) -> dict[str, str]:
        from mtpalette.analysis import compare_mt

        out = {spec: str(sig) for spec, (_, _, sig) in self.done.items()}
        if self.sentbleu:
            out[compare_mt.SENTENCE_BLEU] = compare_mt.SENTENCE_BLEU_SIGNATURE
        return out

    def sentence(self, spec: str) -> tuple[str, str, dict[str, np.ndarray]]:
        """``(spec, scale, scores)``: a sentence metric's score of every sentence, per
        system; ``sentbleu`` (compare-mt's NLTK sentence BLEU) from the statistics of
        compare-mt's BLEU, which the buckets share."""
        from mtpalette.analysis import compare_mt

        if spec == compare_mt.SENTENCE_BLEU:
            _, stats = self(compare_mt.SENTENCE_BLEU_STATS)
            self.sentbleu = True
            return spec, "0-100", {s: compare_mt.sentence_bleu(x) for s, x in stats.items()}
        m, stats = self(spec)
        return m.spec, m.scale, {s: m.sentence_scores(x) for s, x in stats.items()}

    def prefetch(self, specs: Sequence[str]) -> None:
        """Score every spec not done yet in one call, so that the metrics of one family (the
        buckets' BLEU and the examples' sentence BLEU) share one count of the n-grams."""
        from mtpalette.metrics import parse_specs
        from mtpalette.metrics.scoring import compute_stats

        todo = [s for s in dict.fromkeys(specs) if s not in self.done]
        if not todo:
            return
        parsed = {spec: parse_specs([spec], **self.text) for spec in todo}
        for spec, metrics in parsed.items():
            if len(metrics) != 1:
                raise UserInputError(
                    f"{spec!r} names {len(metrics)} metrics; an analysis takes one metric"
                )
        found = compute_stats([parsed[spec][0] for spec in todo], self.pairs)
        n = len(self.ref)
        for spec in todo:
            m = parsed[spec][0]
            stats = {s: found[m][k * n : (k + 1) * n] for k, s in enumerate(self.systems)}
            self.done[spec] = (m, stats, m.signature(n_refs=1))

    def __call__(self, spec: str) -> tuple:
        self.prefetch([spec])
        m, stats, _ = self.done[spec]
        return m, stats


def _words(encoder, out_rows, ref_rows, corpus, edges, matches) -> WordAccuracy:
    import numpy as np

    from mtpalette.analysis.words import word_accuracy

    freq, source = None, "reference"
    if corpus is not None:  # encoded last: the vocabulary then holds every word
        ids = encoder.encode(list(corpus)).ids
        freq, source = np.bincount(ids, minlength=len(encoder.vocab)), "frequency corpus"
    vocab = len(encoder.vocab)
    kw = {} if edges is None else {"edges": edges}
    return word_accuracy(out_rows, ref_rows, vocab, frequency=freq, frequency_source=source,
                         matches=matches, **kw)  # fmt: skip


