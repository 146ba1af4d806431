"""The Python API of mtpalette: one module per use, each name imported on first use.

* :mod:`~mtpalette.sources.scoring` - scores of texts (:func:`score_texts`, :func:`corpus_score`,
  :func:`sentence_scores`, :func:`score_systems`);
* :mod:`~mtpalette.api.score_run` - scores of files, tables and folders as ``mtpalette score``
  gives them (:class:`ScoreRun` with :class:`ScoreInputs` and :class:`ScoreTests`,
  :func:`run_score`);
* :mod:`~mtpalette.api.paired` - paired significance tests between systems
  (:func:`paired_test`; from files: :class:`PairedRun`, :func:`run_paired`);
* :mod:`~mtpalette.api.orange_run` - ORANGE and Limited ORANGE (:func:`orange`; from files:
  :class:`OrangeRun`, :func:`run_orange`, chunked and distributed runs included);
* :mod:`~mtpalette.api.correlation_run` - correlation with human judgments (:func:`correlate`;
  :class:`CorrelationRun`, :func:`run_correlation`);
* :mod:`~mtpalette.api.wmt_run` - WMT's task sets and global ranking on mt-metrics-eval folders
  (:func:`load_wmt`, :class:`Task`, :class:`TaskSet`, :func:`task_set`; :class:`WmtRun`,
  :func:`run_wmt`);
* :mod:`~mtpalette.api.analyze_run` - where systems differ, compare-mt's analyses
  (:func:`analyze`; :class:`AnalyzeRun`, :func:`run_analyze`);
* :mod:`~mtpalette.api.rank_run` - systems ranked with a test between every pair, rank ranges
  and clusters (:func:`rank`; :class:`RankRun`, :func:`run_rank`);
* :mod:`~mtpalette.api.audit_run` - the audit of ORANGE's premise (:func:`audit`;
  :class:`AuditRun`, :func:`run_audit`);
* :mod:`~mtpalette.api.agreement_run` - ORANGE against human correlation (:class:`AgreementRun`,
  :func:`run_agreement`);
* :mod:`~mtpalette.api.pairwise_run` - score matrices of every candidate against every
  reference of its segment, and MBR selection or reranking on them (:func:`pairwise`,
  :func:`mbr`; decisions from stored scores: :func:`stored_mbr`, :func:`qe_rerank`,
  :func:`qe_then_mbr`); :mod:`~mtpalette.api.mbr_run` - the same decisions on files as
  ``mtpalette mbr`` makes them (:class:`MbrRun`, :func:`run_mbr`);
* :mod:`~mtpalette.api.train_run` - BLANC and ROSE trained on human judgments or ORANGE
  (:class:`BlancTrainRun`, :func:`run_train_blanc`; :class:`RoseTrainRun`,
  :func:`run_train_rose`);
* :mod:`~mtpalette.sources.wmt25` - WMT25/26 test sets and system outputs scored per
  paragraph, document or system (:func:`score_wmt25`; :class:`Wmt25Inputs`);
* :mod:`~mtpalette.sources.bundled` - the example data shipped with mtpalette, invented by the
  project (:func:`bundled_data`, :func:`copy_bundled`);
* :mod:`~mtpalette.api.report_run` - the HTML report of results (:func:`report`), the page
  ``mtpalette report`` writes.

A run description (``*Run``) is a dataclass that validates, saves and loads itself
(:mod:`~mtpalette.description`); its ``run_*`` function runs it and returns the result
the command line prints. Every command that computes is such a run (``demo``, ``data`` and
``report`` put runs together or copy files).

Examples
--------
>>> from mtpalette.api import corpus_score
>>> hyps, refs = ["the cat sat on the mat"], [["the cat sat on the mat"]]
>>> [round(s.value, 2) for s in corpus_score(hyps, refs, ["bleu", "bleus:4"])]
[100.0, 100.0]
"""

from __future__ import annotations

from mtpalette.exports import lazy_exports

#: public name -> the module that defines it (under ``mtpalette``: ``api.*`` or a lower floor)
EXPORTS = {
    "Scores": "sources.scoring",
    "score_texts": "sources.scoring",
    "score_systems": "sources.scoring",
    "corpus_score": "sources.scoring",
    "sentence_scores": "sources.scoring",
    "ScoreRun": "api.score_run",
    "ScoreResult": "api.score_run",
    "run_score": "api.score_run",
    "ScoreInputs": "sources.score_inputs",
    "ScoreTests": "api.score_tests",
    "SACREBLEU_SEED": "api.paired",
    "paired_test": "api.paired",
    "compare_scored": "api.paired",
    "PairedRun": "api.paired",
    "run_paired": "api.paired",
    "candidate_lists": "sources.candidates",
    "orange": "api.orange_run",
    "OrangeRun": "api.orange_run",
    "OrangeOutputs": "reporting.outputs",
    "OrangeResult": "api.orange_run",
    "run_orange": "api.orange_run",
    "Chunking": "api.chunked",
    "LimitedFeatures": "sources.limited",
    "CandidateInputs": "sources.inputs",
    "JudgedInputs": "sources.inputs",
    "LoadedJudgments": "sources.inputs",
    "correlate": "api.correlation_run",
    "CorrelationRun": "api.correlation_run",
    "CorrelationOutputs": "reporting.outputs",
    "CorrelationResult": "api.correlation_run",
    "run_correlation": "api.correlation_run",
    "audit": "api.audit_run",
    "AuditRun": "api.audit_run",
    "AuditResult": "api.audit_run",
    "run_audit": "api.audit_run",
    "WmtRun": "api.wmt_run",
    "WmtResult": "api.wmt_run",
    "WmtData": "api.wmt_run",
    "load_wmt": "api.wmt_run",
    "run_wmt": "api.wmt_run",
    "Task": "metaeval.tasks",
    "TaskSet": "metaeval.task_sets",
    "task_set": "metaeval.task_sets",
    "bundled_data": "sources.bundled",
    "score_wmt25": "sources.wmt25",
    "Wmt25Inputs": "sources.wmt25",
    "copy_bundled": "sources.bundled",
    "rank": "api.rank_run",
    "autorank_wmt25": "api.autorank_run",
    "analyze": "api.analyze_run",
    "AnalyzeRun": "api.analyze_run",
    "AnalysisResult": "analysis.pipeline",
    "run_analyze": "api.analyze_run",
    "RankRun": "api.rank_run",
    "RankResult": "api.rank_run",
    "run_rank": "api.rank_run",
    "AgreementRun": "api.agreement_run",
    "AgreementResult": "api.agreement_run",
    "run_agreement": "api.agreement_run",
    "BlancTrainRun": "api.train_run",
    "BlancTrainResult": "api.train_run",
    "run_train_blanc": "api.train_run",
    "RoseTrainRun": "api.train_run",
    "RoseTrainResult": "api.train_run",
    "run_train_rose": "api.train_run",
    "Feedback": "feedback",
    "pairwise": "api.pairwise_run",
    "mbr": "api.pairwise_run",
    "MbrSelection": "api.pairwise_run",
    "MbrRun": "api.mbr_run",
    "MbrOutputs": "reporting.outputs",
    "run_mbr": "api.mbr_run",
    "stored_mbr": "api.pairwise_run",
    "qe_rerank": "api.pairwise_run",
    "qe_then_mbr": "api.pairwise_run",
    "report": "api.report_run",
    "spans": "api.spans_run",
    "SpansRun": "api.spans_run",
    "SpansResult": "api.spans_run",
    "run_spans": "api.spans_run",
    "errorfree": "api.errorfree_run",
    "ErrorFreeRun": "api.errorfree_run",
    "ErrorFreeResult": "api.errorfree_run",
    "run_errorfree": "api.errorfree_run",
}

__all__ = list(EXPORTS)
__getattr__, __dir__ = lazy_exports("mtpalette", EXPORTS, globals())
