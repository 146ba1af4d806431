"""The round-5 bad-input matrix (issue 51), ``rank``: rankings that compare like with like.

Each case runs ``mtpalette rank`` in process and asserts its exit code, that there is no
traceback, what the message or the output says, and that a refused run changes nothing in its
folder. The statistics behind the cases are tested in tests/metaeval/test_rank_items.py.
"""

from __future__ import annotations

import json

import pytest
from bad_input_files import argv_of, make_inputs, run, snapshot


def _table(skip_a: bool) -> str:
    """Ratings of A, B, C on 60 items; A (when ``skip_a``) only on the easy items 1-30, where
    it is 2 points below B on each."""
    rows = ["system\titem\tscore"]
    for i in range(1, 61):
        base = (90.0 if i <= 30 else 50.0) + (i * 7 % 5)
        rows += [f"B\t{i}\t{base + (i % 3) * 0.1:.2f}", f"C\t{i}\t{base - 5 - (i % 2) * 0.1:.2f}"]
        if i <= 30 or not skip_a:
            rows.append(f"A\t{i}\t{base - 2 + (i % 4) * 0.05:.2f}")
    return "\n".join(rows) + "\n"


def _scores(systems: list[str], shift: float = 0.0) -> str:
    rows = [{"system": s, "segment": i, "score": (k + 1) * 0.1 + i * 0.01 + shift}
            for k, s in enumerate(systems) for i in range(1, 13)]  # fmt: skip
    return "".join(json.dumps(r) + "\n" for r in rows)


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("inputs")
    files = make_inputs(d)
    for name, content in {"uneven.tsv": _table(True), "even.tsv": _table(False),
                          "x.jsonl": _scores(["s1", "s2", "s3"]),
                          "y.jsonl": _scores(["t1", "t2", "t3"], 0.3),
                          "z.jsonl": _scores(["s1", "s2", "t3"], 0.2)}.items():  # fmt: skip
        (d / name).write_text(content, encoding="utf-8")
        files[name.split(".")[0]] = str(d / name)
    return files


def _cli(names, tmp_path, monkeypatch, capsys, template: str):
    argv = argv_of(template, {**names, "OUT": str(tmp_path / "out")})
    before = snapshot(tmp_path)
    code, out, err = run(monkeypatch, capsys, argv)
    assert "Traceback" not in err and 'File "' not in err, err[-2000:]
    return code, out, err, before == snapshot(tmp_path)


REFUSED = [
    # (id, command line, what the one-line message says)
    ("uneven-items-wilcoxon", "rank --table {uneven} --json {OUT}",
     r"not scored on the same 60 items \(scored items: A \(30\)\).*--missing common"),
    ("uneven-items-ttest", "rank --table {uneven} --protocol ttest --tsv {OUT}",
     "--missing mark"),
    ("uneven-items-bootstrap-mark", "rank --table {uneven} --protocol bootstrap --missing mark",
     "resamples every item of every system"),
    ("missing-rule-unknown", "rank --table {uneven} --missing shared",
     "--missing must be one of refuse, common, mark"),
    ("holm-too-few-resamples",
     "rank -r {r1} -s {s1} {s2} {s3} {s4} -m chrf --protocol bootstrap --correction holm "
     "--resamples 100 --json {OUT}", r"with 100 resamples.*6 pairs.*--resamples 120"),
    ("holm-ar-20-trials", "rank --table {even} --protocol ar --correction holm --resamples 20",
     "no pair could reach alpha 0.05"),
    ("sources-share-no-system", "rank --scores x={x} --scores y={y} --json {OUT}",
     r"share 0 system\(s\).*AutoRank"),
]


@pytest.mark.parametrize(("argv", "says"), [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_refused(names, tmp_path, monkeypatch, capsys, argv, says):
    import re

    code, out, err, unchanged = _cli(names, tmp_path, monkeypatch, capsys, argv)
    assert code == 2, err
    assert re.search(says, err.replace("\n", " ")), err
    assert unchanged and out == ""


def test_uneven_items_by_rule(names, tmp_path, monkeypatch, capsys):
    code, out, err, _ = _cli(names, tmp_path, monkeypatch, capsys,
                             "rank --table {uneven} --missing common --json {OUT}")  # fmt: skip
    assert code == 0, err
    r = json.loads((tmp_path / "out").read_text())["results"]["rankings"][0]
    assert [s["system"] for s in r["systems"]] == ["B", "A", "C"]
    assert r["missing"] == "common" and "missing:common" in r["signature"]
    assert "30 of 60 items left out" in out
    code, out, err, _ = _cli(names, tmp_path, monkeypatch, capsys,
                             "rank --table {uneven} --missing mark --tsv {OUT}")  # fmt: skip
    assert code == 0, err
    assert "A is above B by its mean over its own items" in out.replace("\n", " ")
    pairs = (tmp_path / "out.pairs.tsv").read_text().splitlines()
    header = pairs[0].split("\t")
    ab = dict(zip(header, next(p.split("\t") for p in pairs if "\tA\tB\t" in p),
                  strict=True))  # fmt: skip
    assert ab["significant"] == "False" and float(ab["shared_difference"]) < 0


def test_a_mean_of_sentence_scores_is_named_so(names, tmp_path, monkeypatch, capsys):
    code, out, err, _ = _cli(names, tmp_path, monkeypatch, capsys,
                             "rank -r {r1} -s {s1} {s2} {s3} -m bleu --json {OUT}")  # fmt: skip
    assert code == 0, err
    r = json.loads((tmp_path / "out").read_text())["results"]["rankings"][0]
    assert r["name"] == "mean(sentence bleu)" and r["system_score"] == "mean"
    assert r["signature"].startswith("mean(sentence bleu)|") and "mean(sentence bleu)" in out
    assert "the score is the mean of the item scores" in out


def test_direction_is_in_the_signature(names, tmp_path, monkeypatch, capsys):
    sigs = []
    for flag in ("", "--lower-is-better"):
        code, out, err, _ = _cli(names, tmp_path, monkeypatch, capsys,
                                 f"rank --table {{even}} {flag} --json {{OUT}}")  # fmt: skip
        assert code == 0, err
        sigs.append(json.loads((tmp_path / "out").read_text())["signatures"]["score"])
    assert "higher-is-better:yes" in sigs[0] and "higher-is-better:no" in sigs[1]


def test_autorank_names_the_systems_it_leaves_out(names, tmp_path, monkeypatch, capsys):
    code, out, err, _ = _cli(names, tmp_path, monkeypatch, capsys,
                             "rank --scores x={x} --scores z={z} --json {OUT}")  # fmt: skip
    assert code == 0, err
    auto = json.loads((tmp_path / "out").read_text())["results"]["autorank"]
    assert auto["systems"] and set(auto["systems"]) == {"s1", "s2"}
    assert auto["left_out"] == {"x": ["s3"], "z": ["t3"]}
    assert "AutoRank leaves out s3: scored by x but not by every metric" in out
