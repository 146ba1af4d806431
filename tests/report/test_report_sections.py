"""Report sections built from run dictionaries."""

from mtpalette.report.html import _correlation_section


def _run(level):
    row = {"metric": "wer", "correlation": 0.5, "low": 0.4, "high": 0.6, "cluster": 1,
           "metric_higher_is_better": False}  # fmt: skip
    return {
        "results": {
            "tables": [{"statistic": "pearson", "level": level, "rows": [row]}],
            "segment_scores": {"human": [0.0, -5.0, -1.0], "metrics": {"wer": [0.2, 0.9, 0.4]}},
        }
    }


def test_segment_scatter_never_quotes_a_system_level_correlation():
    """Once a system-level run titled its segment points with the system-level value."""
    (system,) = _correlation_section(_run("system"))["scatters"]
    assert "no segment-level correlation" in system["svg"]
    (segment,) = _correlation_section(_run("segment"))["scatters"]
    assert "segment pearson 0.500" in segment["svg"] and "lower is better" in segment["svg"]
