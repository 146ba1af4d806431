"""``analyze``: where systems differ, compare-mt's analyses (Neubig et al., 2019) on the
tokens and statistics mtpalette computes.

:func:`analyze` takes the texts (the run itself: :mod:`mtpalette.analysis.pipeline`);
:class:`AnalyzeRun` reads them as ``score`` does (files, a
systems folder, a long table or an MTME folder: :class:`~mtpalette.sources.score_inputs.
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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import INPUTS, METRICS, OUTPUTS, flag
from mtpalette.sources.score_inputs import ScoreInputs

if TYPE_CHECKING:
    from mtpalette.analysis.pipeline import AnalysisResult

#: the metric of the sentence buckets: compare-mt's BLEU, so the numbers are compare-mt's
DEFAULT_METRIC = "bleu:compat=compare-mt"


def analyze(
    systems: Mapping[str, Sequence[str]],
    refs: Sequence[Sequence[str]],
    *,
    analyses: Sequence[str] = ("words", "length"),
    metric: str = DEFAULT_METRIC,
    tokenize: str | None = None,
    lowercase: bool = False,
    compat: str | None = None,
    frequency_corpus: Sequence[str] | None = None,
    edges: Mapping[str, Sequence[float]] | None = None,
    domains: Sequence[str] | None = None,
    documents: Sequence[str] | None = None,
    labels: Sequence[str] | None = None,
    baseline: str | None = None,
    sentence_metric: str | None = None,
    top: int | None = None,
    orders: tuple[int, int] = (1, 4),
    confidence: float | None = None,
    n_resamples: int = 1000,
    seed: int = 12345,
    progress: bool | Feedback | None = None,
) -> AnalysisResult:
    """compare-mt's analyses of two or more systems against one reference.

    Parameters
    ----------
    systems:
        Each system's outputs, one per reference line.
    refs:
        One reference stream.
    analyses:
        Any of ``words``, ``length``, ``hyp-length``, ``lengthdiff``,
        ``score`` (by the sentence metric's score), ``domain``, ``document``, ``label``,
        ``ngrams``, ``examples``.
    metric:
        The metric of the sentence buckets and groups (any spec; default compare-mt's BLEU).
    tokenize, lowercase:
        How words are made for the word and n-gram analyses, the lengths and the metrics
        (default ``13a``: punctuation split off, as compare-mt's users tokenize its input;
        ``none``: runs of whitespace).
    compat:
        ``"compare-mt"``: words as compare-mt 0.2.10 splits them (``line.strip().split(' ')``:
        two spaces make an empty word, an empty line is one empty word; no ``tokenize``) and
        its NLTK sentence BLEU (``sentbleu``) as the default sentence metric. Without it, the
        lines where whitespace was folded (runs of spaces, tabs, empty lines) are counted in
        a note.
    frequency_corpus:
        Lines whose words give the frequencies (compare-mt's ``--train_file``); default: the
        reference.
    edges:
        Bucket edges by analysis name (default: compare-mt's).
    domains, documents, labels:
        Each sentence's domain, document or any label, for the ``domain``, ``document`` and
        ``label`` analyses.
    baseline:
        The system the others are compared with by ``ngrams`` and ``examples`` (default:
        the first).
    sentence_metric, top:
        The sentence metric of ``examples`` and ``score`` (default ``bleus:4``; with
        ``compat``, ``sentbleu``, compare-mt's) and how many examples and n-grams are listed
        each way per system: 1 or more (default compare-mt's: 10 examples, 50 n-grams).
    orders:
        The n-gram orders of ``ngrams`` (1 to 4).
    confidence, n_resamples, seed:
        Bootstrap intervals of the buckets and groups, when ``confidence`` (strictly between
        0 and 1) is given.
    progress:
        A bar counting the analyses: ``None`` (the default) when standard error is a terminal
        or in a notebook; ``True``: always offered; ``False``: silent; or a
        :class:`~mtpalette.feedback.Feedback` (the command line's: the bar on a terminal,
        else a note per analysis on standard error, so a piped run shows its progress).

    Examples
    --------
    >>> out = analyze({"A": ["a b c", "d"], "B": ["a x c", "e"]}, [["a b c", "d e"]],
    ...               analyses=["words"])
    >>> out.analyses[0].fmeasure["A"][1:3]  # words seen once: P 4/4, R 4/5; none seen twice
    [0.888888888888889, 0.0]
    """
    from mtpalette.analysis.pipeline import analyses_of

    return analyses_of(
        systems, refs, analyses=analyses, metric=metric, tokenize=tokenize,
        lowercase=lowercase, compat=compat, frequency_corpus=frequency_corpus, edges=edges,
        domains=domains, documents=documents, labels=labels, baseline=baseline,
        sentence_metric=sentence_metric, top=top, orders=orders, confidence=confidence,
        n_resamples=n_resamples, seed=seed, progress=progress,
    )  # fmt: skip


@dataclass
class AnalyzeRun(Description):
    """An ``analyze`` run: where the texts are, what to compute, where to write.

    The domains and documents come from ``docs`` (MTME's ``documents/LP.docs`` layout: one
    ``DOMAIN DOCUMENT`` line per sentence) or, for an MTME folder, from its own file."""

    kind = "analyze"
    inputs: ScoreInputs
    analyses: list[str] = flag(
        "--analyses", "-a", panel=METRICS,
        help="words, length, hyp-length, lengthdiff, score, domain, document, label, ngrams, "
        "examples (default: words length).",
    ).field(factory=lambda: ["words", "length"])  # fmt: skip
    metric: str = flag(
        "-m", "--metric", panel=METRICS, help="Metric of the sentence buckets."
    ).field(DEFAULT_METRIC)
    tokenize: str | None = flags.TOKENIZE.but(
        help="13a (default: punctuation split), intl, zh, char, none (whitespace)..."
    ).field(None)
    lowercase: bool = flags.LOWERCASE.field(False)
    frequency_corpus: Path | None = flag(
        "--freq-corpus", panel=INPUTS, help="Word frequencies from this text (a train set)."
    ).field(None)
    confidence: float | None = flags.CONFIDENCE.but(
        help="Bootstrap intervals per bucket at this level, between 0 and 1 (0.95)."
    ).field(None)
    n_resamples: int = 1000
    seed: int = flags.SEED.field(12345)
    docs: Path | None = flag(
        "--docs", panel=INPUTS, help="'DOMAIN DOCUMENT' per sentence (MTME's .docs)."
    ).field(None)
    domain_col: str | None = flag(
        "--domain-col", panel=INPUTS, help="--table: the domain column."
    ).field(None)
    doc_col: str | None = flag(
        "--doc-col", panel=INPUTS, help="--table: the document column."
    ).field(None)
    labels_file: Path | None = flag(
        "--labels", panel=INPUTS, help="A label per sentence, none blank (-a label)."
    ).field(None)
    baseline: str | None = flag(
        "--baseline", panel=METRICS, help="ngrams, examples: against (1st)."
    ).field(None)
    sentence_metric: str | None = flag(
        "--sentence-metric", panel=METRICS,
        help="examples, score: the metric (bleus:4; --compat compare-mt: sentbleu).",
    ).field(None)  # fmt: skip
    top: int | None = flag(
        "--top", panel=OUTPUTS,
        help="Examples and n-grams each way per system, 1 or more (10 and 50).",
    ).field(None)  # fmt: skip
    json: Path | None = flags.JSON.field(None)
    csv: Path | None = flags.CSV.field(None)
    report: Path | None = flags.REPORT.field(None)
    compat: str | None = flag(
        "--compat", panel=METRICS,
        help="compare-mt: split words as compare-mt 0.2.10 (single spaces), its sentbleu.",
    ).field(None)  # fmt: skip

    def validate(self) -> None:
        """Refuse settings the run could not mean, naming the command line's options."""
        from mtpalette.analysis.pipeline import check_settings

        check_settings(self.confidence, self.top, ("--confidence", "--top"))

    def labels(self) -> tuple[list[str] | None, list[str] | None]:
        """``(domains, documents)`` of the sentences: from a long table's columns
        (``domain_col``, ``doc_col``: the same in every system's row of a segment), from
        ``docs``, or from an MTME folder's documents file."""
        columns = [c for c in (self.domain_col, self.doc_col) if c is not None]
        if columns:
            return self._columns(columns)
        path = self.docs
        if path is None and self.inputs.mtme is not None and self.inputs.lp is not None:
            found = Path(self.inputs.mtme) / "documents" / f"{self.inputs.lp}.docs"
            path = found if found.exists() else None
        if path is None:
            return None, None
        from mtpalette.io.mtme_files import read_docs_file

        docs = read_docs_file(path)
        return list(docs.domain_of), list(docs.doc_of)

    def _columns(self, columns: list[str]) -> tuple[list[str] | None, list[str] | None]:
        from mtpalette.sources.inputs import LongTable

        t = self.inputs
        if t.table is None or self.docs is not None:
            raise UserInputError("--domain-col and --doc-col name columns of --table "
                                 "(not with --docs)")  # fmt: skip
        ref_cols = list(t.ref_cols or ["ref"])
        table = LongTable(t.table, t.table_format, (t.hyp_cols or ["hyp"])[0],
                          ref_cols + columns, t.system_col or "system",
                          table_quoting=t.table_quoting)  # fmt: skip
        _, streams = table.read()
        found = dict(zip(columns, (list(map(str, s)) for s in streams[len(ref_cols) :]),
                         strict=True))  # fmt: skip
        return (found.get(self.domain_col) if self.domain_col else None,
                found.get(self.doc_col) if self.doc_col else None)  # fmt: skip


def run_analyze(run: AnalyzeRun, progress: bool | Feedback | None = None) -> AnalysisResult:
    """Read the texts, analyze them, write the JSON and CSV asked (atomically);
    ``progress`` as in :func:`analyze`."""
    from mtpalette.io.plain import read_labels, read_lines

    run.validate()  # before any file is read
    if (run.json, run.csv, run.report) != (None, None, None):  # the run file's module if needed
        from mtpalette.io.runfile import check_output_folders, run_file_path

        run_file = "--json" if run.json is not None else "--report's run file"
        check_output_folders({run_file: run_file_path(run.json, run.report), "--csv": run.csv,
                              "--report": run.report})  # fmt: skip
    systems, refs, _ = run.inputs.load()
    corpus = None if run.frequency_corpus is None else read_lines(run.frequency_corpus)
    domains, documents = run.labels()
    labels = None if run.labels_file is None else read_labels(run.labels_file)
    result = analyze(
        systems, refs, analyses=run.analyses, metric=run.metric, tokenize=run.tokenize,
        lowercase=run.lowercase, frequency_corpus=corpus, domains=domains,
        documents=documents, labels=labels, baseline=run.baseline,
        sentence_metric=run.sentence_metric, top=run.top, compat=run.compat,
        confidence=run.confidence,
        n_resamples=run.n_resamples, seed=run.seed, progress=progress,
    )  # fmt: skip
    _write(run, result)
    return result


def _write(run: AnalyzeRun, result: AnalysisResult) -> None:
    """The run file (``--json``; beside ``--report`` when only a report is asked), the CSV
    and the report, each written atomically."""
    if (run.json, run.csv, run.report) == (None, None, None):
        return
    from mtpalette.io.runfile import Run, run_file_path

    json_path = run_file_path(run.json, run.report)
    if json_path is not None:
        settings = {"analyses": run.analyses, "metric": run.metric, "tokenize": result.tokenize,
                    "compat": run.compat,
                    "lowercase": run.lowercase, "baseline": run.baseline,
                    "sentence_metric": run.sentence_metric, "top": run.top,
                    "confidence": run.confidence, "bootstrap": run.n_resamples}  # fmt: skip
        seeds = {"bootstrap": run.seed} if run.confidence is not None else {}
        from mtpalette.sources.recorded import recorded_inputs

        i = run.inputs
        inputs = recorded_inputs(refs=i.refs, systems=i.hyps, systems_dir=i.systems_dir,
                                 table=i.table, mtme=i.mtme, lp=i.lp, docs=run.docs,
                                 labels=run.labels_file)  # fmt: skip
        Run("analyze", inputs=inputs, settings=settings, signatures=result.signatures,
            seeds=seeds, results=result.to_dict()).save(json_path)  # fmt: skip
        result.outputs["json"] = str(json_path)
    if run.csv is not None:
        from mtpalette.io.writers import write

        write("csv", result.rows(), run.csv)
        result.outputs["csv"] = str(run.csv)
    if run.report is not None:
        from mtpalette.reporting.html import write_report

        result.outputs["report"] = str(write_report([json_path], run.report))
