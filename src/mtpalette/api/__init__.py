"""The Python API of mtpalette: one module per use, each name imported on first use.

* :mod:`~mtpalette.api.scoring` - scores of texts (:func:`score_texts`, :func:`corpus_score`,
  :func:`sentence_scores`, :func:`score_systems`);
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
  :func:`qe_then_mbr`);
* :mod:`~mtpalette.api.train_run` - BLANC and ROSE trained on human judgments or ORANGE
  (:class:`BlancTrainRun`, :func:`run_train_blanc`; :class:`RoseTrainRun`,
  :func:`run_train_rose`);
* :mod:`~mtpalette.api.wmt25_inputs` - WMT25/26 test sets and system outputs scored per
  paragraph, document or system (:func:`score_wmt25`; :class:`Wmt25Inputs`);
* :mod:`~mtpalette.api.data` - the example data shipped with mtpalette, invented by the
  project (:func:`bundled_data`, :func:`copy_bundled`);
* :mod:`~mtpalette.api.report_run` - the HTML report of results (:func:`report`), the page
  ``mtpalette report`` writes.

A run description (``*Run``) is a dataclass that validates, saves and loads itself
(:mod:`~mtpalette.api.description`); its ``run_*`` function runs it and returns the result
the command line prints. Every command of the command line is such a run.

Examples
--------
>>> from mtpalette.api import corpus_score
>>> hyps, refs = ["the cat sat on the mat"], [["the cat sat on the mat"]]
>>> [round(s.value, 2) for s in corpus_score(hyps, refs, ["bleu", "bleus:4"])]
[100.0, 100.0]
"""

from __future__ import annotations

import importlib
from typing import Any

#: public name -> the module of this package that defines it
EXPORTS = {
    "Scores": "scoring",
    "score_texts": "scoring",
    "score_systems": "scoring",
    "corpus_score": "scoring",
    "sentence_scores": "scoring",
    "SACREBLEU_SEED": "paired",
    "paired_test": "paired",
    "compare_scored": "paired",
    "PairedRun": "paired",
    "run_paired": "paired",
    "candidate_lists": "orange_run",
    "orange": "orange_run",
    "OrangeRun": "orange_run",
    "OrangeOutputs": "orange_run",
    "OrangeResult": "orange_run",
    "run_orange": "orange_run",
    "Chunking": "chunked",
    "LimitedFeatures": "limited",
    "CandidateInputs": "inputs",
    "JudgedInputs": "inputs",
    "LoadedJudgments": "inputs",
    "correlate": "correlation_run",
    "CorrelationRun": "correlation_run",
    "CorrelationOutputs": "correlation_run",
    "CorrelationResult": "correlation_run",
    "run_correlation": "correlation_run",
    "audit": "audit_run",
    "AuditRun": "audit_run",
    "AuditResult": "audit_run",
    "run_audit": "audit_run",
    "WmtRun": "wmt_run",
    "WmtResult": "wmt_run",
    "WmtData": "wmt_run",
    "load_wmt": "wmt_run",
    "run_wmt": "wmt_run",
    "Task": "wmt_run",
    "TaskSet": "wmt_run",
    "task_set": "wmt_run",
    "bundled_data": "data",
    "score_wmt25": "wmt25_inputs",
    "Wmt25Inputs": "wmt25_inputs",
    "copy_bundled": "data",
    "rank": "rank_run",
    "autorank_wmt25": "autorank_run",
    "analyze": "analyze_run",
    "AnalyzeRun": "analyze_run",
    "AnalysisResult": "analyze_run",
    "run_analyze": "analyze_run",
    "RankRun": "rank_run",
    "RankResult": "rank_run",
    "run_rank": "rank_run",
    "AgreementRun": "agreement_run",
    "AgreementResult": "agreement_run",
    "run_agreement": "agreement_run",
    "BlancTrainRun": "train_run",
    "BlancTrainResult": "train_run",
    "run_train_blanc": "train_run",
    "RoseTrainRun": "train_run",
    "RoseTrainResult": "train_run",
    "run_train_rose": "train_run",
    "Feedback": "feedback",
    "pairwise": "pairwise_run",
    "mbr": "pairwise_run",
    "MbrSelection": "pairwise_run",
    "stored_mbr": "pairwise_run",
    "qe_rerank": "pairwise_run",
    "qe_then_mbr": "pairwise_run",
    "report": "report_run",
    "spans": "spans_run",
    "SpansRun": "spans_run",
    "SpansResult": "spans_run",
    "run_spans": "spans_run",
    "errorfree": "errorfree_run",
    "ErrorFreeRun": "errorfree_run",
    "ErrorFreeResult": "errorfree_run",
    "run_errorfree": "errorfree_run",
}

__all__ = list(EXPORTS)


def __getattr__(name: str) -> Any:
    if name in EXPORTS:
        return getattr(importlib.import_module(f"{__name__}.{EXPORTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(EXPORTS))
