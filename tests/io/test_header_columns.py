"""The readers of fixed-format files refuse a header without their columns, naming the file,
line 1, the format and every missing column (one check, io/tabular.header_columns)."""

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_mqm import read_mqm
from mtpalette.io.judgments_wmt import read_wmt12_rankings
from mtpalette.io.spans_formats import read_mqm_spans, read_wmt25_tsv
from mtpalette.io.spans_jsonl import read_generic_tsv


@pytest.mark.parametrize(
    ("read", "message"),
    [
        (read_mqm, "not an MQM TSV: no column(s) seg_id, rater, category, severity in the "
                   "header (expected system seg_id rater category severity ...)"),
        (read_mqm_spans, "not an MQM TSV: no column(s) doc, seg_id, rater, source, target, "
                         "category, severity (expected system doc seg_id rater source target "
                         "category severity)"),
        (read_wmt25_tsv, "not a WMT25 task-2 TSV: no column(s) doc_id, segment_id, "
                         "source_lang, target_lang, set_id, system_id, source_segment, "
                         "hypothesis_segment, domain_name, method, start_indices, end_indices, "
                         "error_types"),
        (read_generic_tsv, "not a generic span TSV: no column(s) segment, start, end, "
                           "severity (expected system segment start end severity at least)"),
        (lambda p: read_wmt12_rankings(p, "en-de"),
         "not a WMT ranking file: no column(s) srclang, trglang, srcIndex, judgeId, system1Id, "
         "system1rank, system2Id, system2rank, system3Id, system3rank, system4Id, system4rank, "
         "system5Id, system5rank"),
    ],
)  # fmt: skip
def test_missing_columns_named(tmp_path, read, message):
    path = tmp_path / "bad.tsv"
    path.write_text("system\tfoo\n1\t2\n", encoding="utf-8")
    with pytest.raises(UserInputError) as err:
        read(path)
    assert str(err.value) == f"{path}:1: {message}"
