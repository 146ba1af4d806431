"""What a run reads: the files, folders, tables and system outputs a command names, checked
and made into the data objects the engines take.

* :mod:`~mtpalette.sources.checks` - arguments checked once at the boundary (metric lists,
  probabilities, counts, resampling, text pairs, reference streams);
* :mod:`~mtpalette.sources.scoring` - system outputs scored into metric scores
  (:func:`~mtpalette.sources.scoring.score_systems`, the API's ``score_texts``,
  ``corpus_score`` and ``sentence_scores``);
* :mod:`~mtpalette.sources.inputs` - n-best lists and judged segments
  (:class:`~mtpalette.sources.inputs.CandidateInputs`,
  :class:`~mtpalette.sources.inputs.JudgedInputs`);
* :mod:`~mtpalette.sources.folders` - mt-metrics-eval folders, read once
  (:func:`~mtpalette.sources.folders.read_mtme_set`);
* :mod:`~mtpalette.sources.score_inputs` - the inputs of ``score`` (plain files, tables,
  folders, WMT25/26 test sets);
* :mod:`~mtpalette.sources.wmt25` - WMT25/26 test sets and system outputs by paragraph,
  document or system;
* :mod:`~mtpalette.sources.rank` - the score sources of a ranking;
* :mod:`~mtpalette.sources.external` - stored metric scores given as ``NAME=FILE``;
* :mod:`~mtpalette.sources.recorded` - the record of the input files a result came from.

This package sits on floor 4 with :mod:`mtpalette.metaeval`: the runs of :mod:`mtpalette.api`
read through it, and it imports nothing of the API.
"""
