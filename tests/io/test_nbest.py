"""n-best files (Moses and JSONL) and system-output folders: parsing, grouping, clear errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.nbest import (
    list_system_files,
    parse_features,
    read_nbest,
    read_systems,
    system_names,
    write_moses_nbest,
)

MOSES = (
    "0 ||| the cat sat ||| LM0= -12.5 TM0= -1 -2 ||| -3.25\n"
    "0 ||| a cat sat ||| LM0= -13 TM0= -1 -3 ||| -4.5\n"
    "3 ||| hello ||| LM0= -2 ||| -1 ||| 0-0\n"  # ids skip 1 and 2; trailing alignment field
    "3 ||| hi\n"  # only id and hypothesis
    "0 ||| the cat sits ||| ||| \n"  # back to segment 0, no features or score
)


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_moses_fields_and_grouping(tmp_path):
    nb = read_nbest(_write(tmp_path, "a.nbest", MOSES))
    assert nb.ids.tolist() == [0, 0, 3, 3, 0]
    assert nb.hyps == ["the cat sat", "a cat sat", "hello", "hi", "the cat sits"]
    assert nb.features[0] == "LM0= -12.5 TM0= -1 -2" and nb.features[3] == ""
    np.testing.assert_array_equal(nb.scores, [-3.25, -4.5, -1.0, np.nan, np.nan])
    assert nb.lines.tolist() == [1, 2, 3, 4, 5]
    order, offsets = nb.group(5)
    # segment 0 keeps file order across the interleaving; N varies (3, 0, 0, 2, 0)
    assert order.tolist() == [0, 1, 4, 2, 3]
    assert np.diff(offsets).tolist() == [3, 0, 0, 2, 0]


def test_one_based_ids(tmp_path):
    nb = read_nbest(_write(tmp_path, "b.nbest", "1 ||| x\n2 ||| y\n"))
    order, offsets = nb.group(2, id_base=1)
    assert offsets.tolist() == [0, 1, 2]
    with pytest.raises(UserInputError, match=r"b.nbest:2: segment id 2 is outside 0..1"):
        nb.group(2)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("0 ||| ok\nno separator here\n", 2, "no '|||' separator"),
        ("x ||| hyp\n", 1, "segment id 'x' is not an integer"),
        ("-1 ||| hyp\n", 1, "segment id -1 is outside 0.."),
        ("9" * 400 + " ||| hyp\n", 1, "is outside 0.."),  # once an OverflowError traceback
        ("0 ||| hyp ||| f ||| high\n", 1, "score 'high' is not a number"),
        ("0 ||| a\n\n0 ||| b\n", 2, "empty line"),
    ],
)
def test_malformed_moses_lines_name_file_and_line(tmp_path, text, line, message):
    p = _write(tmp_path, "bad.nbest", text)
    with pytest.raises(UserInputError, match=message) as info:
        read_nbest(p)
    assert str(info.value).startswith(f"{p}:{line}: ")


def test_trailing_blank_lines_are_fine(tmp_path):
    nb = read_nbest(_write(tmp_path, "c.nbest", "0 ||| a\n\n\n"))
    assert nb.hyps == ["a"]


def test_empty_file_is_an_error(tmp_path):
    with pytest.raises(UserInputError, match="empty"):
        read_nbest(_write(tmp_path, "e.nbest", ""))


def test_jsonl_both_shapes_and_autodetect(tmp_path):
    lines = [
        {"id": 2, "hyps": ["b1", "b2"], "scores": [-1.0, -2.0]},
        {"id": 0, "hyp": "a1", "score": -0.5, "features": {"lm": -3}},
    ]
    p = _write(tmp_path, "n.txt", "".join(json.dumps(x) + "\n" for x in lines))
    nb = read_nbest(p)  # not .jsonl, detected from the first character
    assert nb.ids.tolist() == [2, 2, 0] and nb.hyps == ["b1", "b2", "a1"]
    assert nb.scores.tolist() == [-1.0, -2.0, -0.5]
    assert json.loads(nb.features[2]) == {"lm": -3} and nb.features[0] == ""
    assert nb.lines.tolist() == [1, 1, 2]


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ('{"id": 0, "hyp": "a"', "invalid JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"hyp": "a"}', "'id' must be an integer in 0.."),
        ('{"id": "3", "hyp": "a"}', "'id' must be an integer in 0.."),
        ('{"id": 1' + "0" * 400 + ', "hyp": "a"}', "'id' must be an integer in 0.."),
        ('{"id": 1, "hyp": "a", "score": 1' + "0" * 400 + "}", "score is not a finite number"),
        ('{"id": 0}', "no 'hyp' or 'hyps'"),
        ('{"id": 0, "hyps": "a"}', "'hyps' must be a list"),
        ('{"id": 0, "hyps": ["a", "b"], "scores": [1]}', "'scores' must be a list as long"),
        ('{"id": 0, "hyp": 5}', "is not a string"),
        ('{"id": 0, "hyp": "a", "score": "x"}', "is not a number"),
    ],
)
def test_malformed_jsonl_lines(tmp_path, obj, message):
    p = _write(tmp_path, "bad.jsonl", '{"id": 0, "hyp": "fine"}\n' + obj + "\n")
    with pytest.raises(UserInputError, match=message) as info:
        read_nbest(p)
    assert str(info.value).startswith(f"{p}:2: ")


def test_forced_format_and_unknown_format(tmp_path):
    p = _write(tmp_path, "x.jsonl", "0 ||| a\n")
    assert read_nbest(p, fmt="moses").hyps == ["a"]
    with pytest.raises(UserInputError, match="unknown n-best format"):
        read_nbest(p, fmt="xml")


def test_write_then_read_round_trip(tmp_path):
    p = tmp_path / "w.nbest"
    write_moses_nbest(p, [0, 0, 5], ["a b", "c", "d"], ["f= 1", "f= 2", ""], [-1.0, -2.0, 0.5])
    nb = read_nbest(p)
    assert nb.ids.tolist() == [0, 0, 5] and nb.hyps == ["a b", "c", "d"]
    assert nb.scores.tolist() == [-1.0, -2.0, 0.5] and nb.features[1] == "f= 2"
    with pytest.raises(ValueError):
        write_moses_nbest(p, [0], ["a ||| b"])


def test_parse_features():
    assert parse_features("0.5 lm: -1 tm= 2 3") == {"": [0.5], "lm": [-1.0], "tm": [2.0, 3.0]}
    with pytest.raises(UserInputError, match="x.nbest:4: feature token 'abc'"):
        parse_features("lm= abc", path="x.nbest", line=4)


def test_system_names_strip_shared_parts():
    wmt = ["newstest2019.Facebook_FAIR.6862.en-de", "newstest2019.MSRA.MADL.6926.en-de"]
    assert system_names(wmt) == ["Facebook_FAIR.6862", "MSRA.MADL.6926"]
    assert system_names(["d/Nemo.txt", "d/SMU.txt"]) == ["Nemo", "SMU"]
    # names that would collide fall back to file names
    assert system_names(["a/x.txt", "b/x.txt"]) == ["x.txt", "x.txt"]


def test_system_folder_and_files(tmp_path):
    for name, text in {
        "sysA.txt": "a\nb\n",
        "sysB.txt": "c\nd\n",
        "source.txt": "s\nt\n",
        ".hidden": "x\n",
        "short.txt": "e\n",
    }.items():
        _write(tmp_path, name, text)
    files = list_system_files(tmp_path, exclude=["source.txt", "short*"])
    assert [f.name for f in files] == ["sysA.txt", "sysB.txt"]
    assert read_systems(files) == {"sysA": ["a", "b"], "sysB": ["c", "d"]}
    with pytest.raises(UserInputError, match="short.txt:2: has 1 lines but system 'sysA' has 2"):
        read_systems([tmp_path / "sysA.txt", tmp_path / "short.txt"])
    with pytest.raises(UserInputError, match="no system files match"):
        list_system_files(tmp_path, pattern="*.de")
    with pytest.raises(UserInputError, match="not a directory"):
        list_system_files(tmp_path / "sysA.txt")


def test_a_jsonl_list_given_twice_for_one_segment_is_refused(tmp_path):
    path = tmp_path / "nb.jsonl"
    path.write_text('{"id": 0, "hyps": ["a b", "a c"]}\n{"id": 1, "hyps": ["x"]}\n'
                    '{"id": 0, "hyps": ["q"]}\n')  # fmt: skip
    with pytest.raises(UserInputError, match=r"nb.jsonl:3: segment id 0 again \(first on line 1\)"):
        read_nbest(path)
    path.write_text('{"id": 0, "hyp": "a b"}\n{"id": 0, "hyp": "a c"}\n{"id": 1, "hyp": "x"}\n')
    assert len(read_nbest(path)) == 3  # one line per hypothesis: an id on several lines
