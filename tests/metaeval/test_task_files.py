"""Task files refused where they are wrong, with the file and the task named (issue 40's task
file cases): weights summing to 0, negative, NaN or huge; an empty list; a field of the wrong
type."""

from __future__ import annotations

import json

import pytest
from real_data import mtme_folder

from mtpalette.api import TaskSet, load_wmt
from mtpalette.errors import UserInputError


def _file(tmp_path, records):
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("records", "message"),
    [
        (
            [{"lang": "zh-en", "weight": 0}, {"lang": "en-de", "weight": 0}],
            "every task has weight 0",
        ),
        ([], "no task"),
        ({"tasks": []}, "no task"),
        ([{"lang": "zh-en", "k": "ten"}], "task 1: .*k is 'ten'; expected int"),
        ([{"lang": "zh-en", "k": True}], "k is True; expected int"),
        ([{"lang": "zh-en", "weight": -1}, {"lang": "en-de"}], "task 1: weight -1"),
        ([{"lang": "zh-en", "weight": "NaN"}], "weight 'NaN' is not a number"),
        ([{"lang": "zh-en", "pval": 5}], "pval must be between 0 and 1"),
        ([{"lang": "zh-en", "human": "no"}], "human is 'no'; expected bool"),
        (
            [{"lang": "zh-en", "level": "seg"}, {"lang": "zh-en", "level": "seg", "weight": 2}],
            r"task 2 is task 1 again \(zh-en seg pearson\); give each task once",
        ),
    ],
)
def test_bad_task_files_are_refused_naming_the_file(tmp_path, records, message):
    path = _file(tmp_path, records)
    with pytest.raises(UserInputError, match=message) as err:
        TaskSet.from_file(path)
    assert str(path) in str(err.value)


def test_nan_written_as_a_json_number_is_refused(tmp_path):
    path = tmp_path / "tasks.json"
    path.write_text('[{"lang": "zh-en", "weight": NaN}]', encoding="utf-8")
    with pytest.raises(UserInputError, match="finite number"):
        TaskSet.from_file(path)


def test_huge_weights_average_as_equal_ones(tmp_path):
    data = load_wmt(mtme_folder(), ["zh-en"], mtme_metrics=["chrF", "sentBLEU"]).data
    common = {"lang": "zh-en", "level": "sys", "k": 0, "human": False}
    records = [{**common, "weight": 1e308}, {**common, "corr_fcn": "kendall", "weight": 1e308}]
    huge = TaskSet.from_file(_file(tmp_path, records))
    equal = TaskSet.from_file(_file(tmp_path, [common, {**common, "corr_fcn": "kendall"}]))
    a, b = huge.run(data, seed=1), equal.run(data, seed=1)
    assert a.weights == b.weights == [0.5, 0.5]
    assert a.average_corrs() == b.average_corrs()


def test_write_mtme_scores_never_destroys_a_stored_score(tmp_path):
    import shutil

    from mtpalette.io.mtme import read_mtme
    from mtpalette.io.mtme_write import write_mtme_scores

    root = tmp_path / "wmt21.tedtalks"
    shutil.copytree(mtme_folder(), root)
    stored = root / "metric-scores" / "zh-en" / "chrF-refB.seg.score"
    before = stored.read_bytes()
    evs = read_mtme(root, "zh-en", metrics=["chrF"])
    seg = {s: [0.0] * evs.n_segments for s in evs.systems}
    with pytest.raises(UserInputError, match="already; pass overwrite=True"):
        write_mtme_scores(root, "zh-en", "chrF", {"seg": seg}, ref="refB")
    assert stored.read_bytes() == before
    with pytest.raises(UserInputError, match="outside the folder"):
        write_mtme_scores(root, "../..", "mine", {"seg": seg}, ref="refB")
    with pytest.raises(UserInputError, match="has 3 scores for 18 segments"):
        write_mtme_scores(root, "zh-en", "mine", {"seg": {"SMU": [1.0, 2.0, 3.0]}}, ref="refB")
    with pytest.raises(UserInputError, match="NoSuchSystem have no output"):
        write_mtme_scores(root, "zh-en", "mine", {"seg": {"NoSuchSystem": [1.0] * 18}})
    assert not (root / "metric-scores" / "zh-en" / "mine-refB.seg.score").exists()
    write_mtme_scores(root, "zh-en", "chrF", {"seg": seg}, ref="refB", overwrite=True)
    assert stored.read_bytes() != before
