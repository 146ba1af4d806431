"""``analyze``: where systems differ, compare-mt's analyses (Neubig et al., 2019) on the
tokens and statistics mtpalette computes.

:func:`analyze` takes the texts; :class:`AnalyzeRun` reads them as ``score`` does (files, a
systems folder, a long table or an MTME folder: :class:`~mtpalette.api.score_inputs.
ScoreInputs`), runs :func:`analyze` and writes the outputs. The analyses:

* ``words``: word precision, recall and F-measure by frequency bucket
  (:mod:`mtpalette.analysis.words`);
* ``length``, ``hyp-length``, ``lengthdiff``: any metric by sentence bucket
  (:mod:`mtpalette.analysis.sentences`); the default metric is compare-mt's own BLEU
  (``bleu:compat=compare-mt``), so that the numbers are compare-mt's.

One reference stream: compare-mt's definitions have one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.analysis.sentences import BUCKETINGS, SentenceBuckets, sentence_buckets
from mtpalette.analysis.words import WordAccuracy, word_accuracy
from mtpalette.api.score_inputs import ScoreInputs
from mtpalette.errors import UserInputError
from mtpalette.io.runfile import write_csv, write_json
from mtpalette.metrics import parse_specs
from mtpalette.metrics.scoring import TextPairs, compute_stats
from mtpalette.records import Record
from mtpalette.text.encode import Encoder, TextView

ANALYSES = ("words", *BUCKETINGS)
DEFAULT_METRIC = "bleu:compat=compare-mt"


@dataclass(frozen=True)
class AnalysisResult(Record):
    """Every analysis asked, in order, with the settings that made them."""

    KEYS = "systems tokenize lowercase analyses=dicts()"

    systems: list[str]
    tokenize: str
    lowercase: bool
    analyses: list[WordAccuracy | SentenceBuckets]

    def dicts(self) -> list[dict[str, Any]]:
        return [a.to_dict() for a in self.analyses]

    def rows(self) -> list[dict[str, Any]]:
        """Every analysis's rows, each with the analysis it comes from."""
        out = []
        for a in self.analyses:
            name = a.by if isinstance(a, SentenceBuckets) else "words"
            out += [{"analysis": name, **row} for row in a.rows()]
        return out

    def to_pandas(self):
        from mtpalette.records import frame

        return frame(self.rows())


def analyze(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str]],
    *,
    analyses: Sequence[str] = ("words", "length"),
    metric: str = DEFAULT_METRIC,
    tokenize: str = "none",
    lowercase: bool = False,
    frequency_corpus: Sequence[str] | None = None,
    edges: Mapping[str, Sequence[float]] | None = None,
    confidence: float | None = None,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> AnalysisResult:
    """compare-mt's analyses of two or more systems against one reference.

    Parameters
    ----------
    systems:
        Each system's outputs, one per reference line.
    refs:
        One reference stream.
    analyses:
        Any of ``words``, ``length``, ``hyp-length``, ``lengthdiff``.
    metric:
        The metric of the sentence buckets (any spec; default compare-mt's BLEU).
    tokenize, lowercase:
        How words are made for the word analysis and the lengths (``none``: whitespace, as
        compare-mt).
    frequency_corpus:
        Lines whose words give the frequencies (compare-mt's ``--train_file``); default: the
        reference.
    edges:
        Bucket edges by analysis name (default: compare-mt's).
    confidence, n_resamples, seed:
        Bootstrap intervals of the sentence buckets, when ``confidence`` is given.

    Examples
    --------
    >>> out = analyze({"A": ["a b c", "d"], "B": ["a x c", "e"]}, [["a b c", "d e"]],
    ...               analyses=["words"])
    >>> out.analyses[0].fmeasure["A"][1:3]  # words seen once: P 4/4, R 4/5; none seen twice
    [0.888888888888889, 0.0]
    """
    unknown = [a for a in analyses if a not in ANALYSES]
    if unknown:
        raise UserInputError(f"unknown analysis {unknown[0]!r}; expected {', '.join(ANALYSES)}")
    if len(refs) != 1:
        raise UserInputError(
            f"analyze takes one reference stream (compare-mt's definitions have one); got "
            f"{len(refs)}"
        )
    if len(systems) < 1:
        raise UserInputError("no system outputs given")
    ref = list(refs[0])
    for name, lines in systems.items():
        if len(lines) != len(ref):
            raise UserInputError(
                f"system {name!r} has {len(lines)} lines, the reference {len(ref)}"
            )
    edges = dict(edges or {})
    encoder = Encoder(TextView(tokenize, lowercase))
    ref_rows = encoder.encode(ref)
    out_rows = {name: encoder.encode(list(lines)) for name, lines in systems.items()}
    ref_len = ref_rows.lengths()
    lengths = {
        "length": {s: ref_len for s in systems},
        "hyp-length": {s: rows.lengths() for s, rows in out_rows.items()},
        "lengthdiff": {s: rows.lengths() - ref_len for s, rows in out_rows.items()},
    }
    done: list[WordAccuracy | SentenceBuckets] = []
    for name in analyses:
        if name == "words":
            done.append(_words(encoder, out_rows, ref_rows, frequency_corpus, edges.get("words")))
            continue
        [m] = parse_specs([metric], tokenize=tokenize, lowercase=lowercase)
        stats = {s: compute_stats([m], TextPairs.parallel(list(lines), [ref]))[m]
                 for s, lines in systems.items()}  # fmt: skip
        done.append(
            sentence_buckets(
                m,
                stats,
                lengths[name],
                by=name,
                edges=edges.get(name),
                confidence=confidence,
                n_resamples=n_resamples,
                seed=seed,
            )  # fmt: skip
        )
    return AnalysisResult(list(systems), tokenize, lowercase, done)


def _words(encoder, out_rows, ref_rows, corpus, edges) -> WordAccuracy:
    freq, source = None, "reference"
    if corpus is not None:  # encoded last: the vocabulary then holds every word
        ids = encoder.encode(list(corpus)).ids
        freq, source = np.bincount(ids, minlength=len(encoder.vocab)), "frequency corpus"
    vocab = len(encoder.vocab)
    kw = {} if edges is None else {"edges": edges}
    return word_accuracy(out_rows, ref_rows, vocab, frequency=freq, frequency_source=source, **kw)


@dataclass
class AnalyzeRun:
    """An ``analyze`` run: where the texts are, what to compute, where to write."""

    inputs: ScoreInputs
    analyses: list[str] = field(default_factory=lambda: ["words", "length"])
    metric: str = DEFAULT_METRIC
    tokenize: str = "none"
    lowercase: bool = False
    frequency_corpus: Path | None = None
    confidence: float | None = None
    n_resamples: int = 1000
    seed: int = 12345
    json: Path | None = None
    csv: Path | None = None


def run_analyze(run: AnalyzeRun) -> AnalysisResult:
    """Read the texts, analyze them, write the JSON and CSV asked (atomically)."""
    from mtpalette.io.plain import read_lines

    systems, refs, _ = run.inputs.load()
    corpus = None if run.frequency_corpus is None else read_lines(run.frequency_corpus)
    result = analyze(
        systems, refs, analyses=run.analyses, metric=run.metric, tokenize=run.tokenize,
        lowercase=run.lowercase, frequency_corpus=corpus, confidence=run.confidence,
        n_resamples=run.n_resamples, seed=run.seed,
    )  # fmt: skip
    if run.json is not None:
        write_json(run.json, result.to_dict())
    if run.csv is not None:
        write_csv(run.csv, result.rows())
    return result
