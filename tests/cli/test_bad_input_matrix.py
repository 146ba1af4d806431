"""The bad-input matrix of the command line: every command, one case per input.

Each case states its exact outcome: exit code 2 with a message naming the file and line, the
option or the argument, and no traceback; or, where the input is valid after all, the result.
The cases are built from tables: the examples of issue 28 one by one, then each command crossed
with each kind of bad file, every parameter of every registry metric with values outside its
declared domain (:mod:`mtpalette.metrics.domains`), and the numeric options of every command
(the Python API's cases are in ``test_bad_input_api.py``). The inputs are 12 segments of the
bundled WMT21 TED zh-en data (four systems, two references), so the whole matrix runs in
process in well under a minute.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from bad_input_files import FAST, MTME, SYSTEMS, N, run  # shared with round 4
from bad_input_files import lines as _lines
from bad_input_files import text as _text

from mtpalette.metrics.domains import Choice, Integer, Real, Text, YesNo
from mtpalette.metrics.registry import BUILTIN_FAMILIES, metric_class
from mtpalette.metrics.rose_features import feature_names


def _judgments(sep: str = "\t", **over: str) -> str:
    """Generic judgments of s1..s4 (a fixed, varied score per segment); ``over`` replaces the
    score cell of ``"s2/3"`` (system s2, segment 3)."""
    rows = [sep.join(("system", "segment", "score"))]
    for k, system in enumerate(SYSTEMS):
        for i in range(1, N + 1):
            score = over.get(f"{system}/{i}", f"{((7 * i + 3 * k) % 11) / 10:.1f}")
            rows.append(sep.join((system, str(i), score)))
    return "\n".join(rows) + "\n"


def _rose_model(**over) -> str:
    n = len(feature_names(False))
    model = dict(metric="rose", kind="reg", lang="en", pos=False, tokenize="13a",
                 lowercase=True, features=feature_names(False), mean=[0.0] * n,
                 scale=[1.0] * n, weights=[0.1] * n, function_words="fw100")  # fmt: skip
    for key, value in over.items():
        if isinstance(value, tuple):  # (index, value): one entry of a list
            model[key] = list(model[key])
            model[key][value[0]] = value[1]
        else:
            model[key] = value
    return json.dumps(model)


@pytest.fixture(scope="module")
def F(tmp_path_factory) -> dict[str, Path]:
    """Every input file of the matrix, by name (used as ``{name}`` in the case tables)."""
    d = tmp_path_factory.mktemp("inputs")
    files: dict[str, Path] = {}

    def put(name: str, content: str | bytes) -> None:
        p = d / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
        files[name.replace(".", "_").replace("-", "_")] = p

    r1, r2, s1 = _lines("ref"), _lines("refB"), _lines("SMU")
    put("r1.txt", _text(r1))
    put("r2.txt", _text(r2))
    for system, name in SYSTEMS.items():
        put(f"{system}.txt", _text(_lines(name)))
    # bad line-aligned files (a reference or a system output)
    put("short.txt", _text(s1[:-1]))
    put("long.txt", _text(_lines("SMU", N + 1)))
    put("empty.txt", "")
    put("badutf8.txt", _text(s1[:1]).encode() + b"caf\xe9\n" + _text(s1[2:]).encode())
    put("nul.txt", _text(s1[:2]) + "a\x00b\n" + _text(s1[3:]))
    put("r1copy.txt", _text(r1))
    files["missing"] = d / "missing.txt"
    files["dir"] = d / "adir"
    files["dir"].mkdir()
    # judgments
    put("j.tsv", _judgments())
    put("j_comma.csv", _judgments(","))
    put("j_nan.tsv", _judgments(**{"s2/3": "nan"}))
    put("j_inf.tsv", _judgments(**{"s2/3": "inf"}))
    put("j_blank.tsv", _judgments(**{"s2/3": ""}))
    put("j_word.tsv", _judgments(**{"s2/3": "good"}))
    put("j_header.tsv", "system\tsegment\tscore\n")
    put("j_dup.tsv", _judgments() + "s1\t1\t0.5\n")
    put("j_const.tsv", "".join(_judgments().splitlines(True)[:1])
        + "".join(f"{s}\t{i}\t1.0\n" for s in SYSTEMS for i in range(1, N + 1)))  # fmt: skip
    put("j_dupscore.tsv", "system\tsegment\tscore\tscore\ns1\t1\t0.1\t0.2\n")
    put("j_dupsys.tsv", "system\tsegment\tsystem\tscore\ns1\t1\ts2\t0.2\n")
    put("j_segid.tsv", "system\tsegment\tseg_id\tscore\ns1\t1\t1\t0.2\n")
    put("j_badseg.tsv", _judgments().replace("s3\t4\t", "s3\tfour\t"))
    put("j_seg0.tsv", _judgments().replace("s3\t4\t", "s3\t99\t"))
    put("j_unknown.tsv", _judgments().replace("s4\t", "zz\t"))
    put("j_utf8.tsv", _judgments().encode() + b"s1\t\xff\t0.1\n")
    put("j_null.jsonl", '{"system": "s1", "segment": 1, "score": 1}\n'
        '{"system": null, "segment": 2, "score": 0.5}\n')  # fmt: skip
    put("j_huge.jsonl", '{"system": "s1", "segment": 1, "score": 1' + "0" * 400 + "}\n")
    put("scores_dup.tsv", "system\tsegment\tscore\ns1\t1\t0.5\ns1\t1\t0.5\n")
    put("j_ragged.tsv", _judgments().replace("s2\t5\t", "s2\t5\textra\t"))
    put("wide.csv", "SMU,MiSS,ref\n" + "".join(f"a{i},b{i},c{i}\n" for i in range(N)))
    put("fake.parquet", b"PAR1 not really a parquet file")
    frame = pd.DataFrame(
        [(s, i, ((7 * i + 3 * k) % 11) / 10) for k, s in enumerate(['s"1', "s2", "s3", "s4"])
         for i in range(1, N + 1)], columns=["system", "segment", "score"])  # fmt: skip
    frame.to_csv(d / "j_pandas.tsv", sep="\t", index=False)
    files["j_pandas_tsv"] = d / "j_pandas.tsv"
    frame.replace('s"1', "s1").to_parquet(d / "j.parquet")
    files["j_parquet"] = d / "j.parquet"
    put('s"1.txt', _text(_lines("SMU")))
    files["squote"] = d / 's"1.txt'
    # n-best lists, run files, ROSE models, tables
    put("nb.txt", "".join(f"{i} ||| {h}\n" for i in range(N) for h in (s1[i], r2[i])))
    put("nb_nosep.txt", "0 ||| a b\n1 a c\n")
    put("nb_utf8.txt", b"0 ||| a b\n1 ||| a \xff c\n")
    put("nb_badid.txt", "x ||| a b\n")
    put("notjson.json", "{not json\n")
    put("notrun.json", json.dumps({"format": "something else"}))
    put("list.json", "[1, 2]\n")
    put("rose_ok.json", _rose_model())
    put("rose_str.json", _rose_model(weights=(0, "x")))
    put("rose_nan.json", _rose_model(scale=(0, 0.0)))
    put("rose_null.json", _rose_model(mean=(1, None)))
    put("rose_short.json", _rose_model(weights=[0.1]))
    put("rose_kernel.json", _rose_model(kernel="sigmoid"))
    put("rose_notrose.json", json.dumps({"metric": "bleu"}))
    put("t.tsv", "hyp\tref\n" + "".join(f"{h}\t{r}\n" for h, r in zip(s1, r1, strict=True)))
    put("t_dup.tsv", "hyp\thyp\tref\na\tb\tc\n")
    put("tasks_bad.json", json.dumps([{"lang": "zh-en", "level": "para"}]))
    put("tasks_notlist.json", json.dumps({"lang": "zh-en"}))
    # an mt-metrics-eval folder whose human file is one line short for one system
    mtme = d / "mtme"
    shutil.copytree(MTME, mtme)
    human = mtme / "human-scores" / "zh-en.mqm.seg.score"
    lines = human.read_text(encoding="utf-8").splitlines()
    del lines[17]  # the last line of Borderline's block of 18
    human.write_text("\n".join(lines) + "\n", encoding="utf-8")
    files["mtme_short"] = mtme
    files["mtme"] = MTME
    files["chrF_ref"] = MTME / "metric-scores" / "zh-en" / "chrF-{ref}.seg.score"
    files["chrF_sys"] = MTME / "metric-scores" / "zh-en" / "chrF-refB.sys.score"
    files["out"] = d / "out"  # every output folder is checked before any work: it exists
    files["out"].mkdir()
    # a systems folder holding a copy of a reference
    folder = d / "outputs"
    folder.mkdir()
    for system in SYSTEMS:
        shutil.copy(files[f"{system}_txt"], folder / f"{system}.txt")
    shutil.copy(files["r2_txt"], folder / "human.txt")
    files["outputs"] = folder
    return files


# --------------------------------------------------------------------------------------------
# base commands: each valid as written; a case swaps one input or adds one option
REFS2 = "-r {r1_txt} {r2_txt}"
SYS4 = "-s {s1_txt} {s2_txt} {s3_txt} {s4_txt}"
BASE = {
    "score": "score -r {r1_txt} -i {s1_txt} -m bleu",
    "orange": f"orange {REFS2} {SYS4} -m chrf {FAST}",
    "correlate": f"correlate -j {{j_tsv}} -r {{r1_txt}} {SYS4} -m chrf {FAST} --permutations 0",
    "agree": f"agree -j {{j_tsv}} {REFS2} {SYS4} -m chrf bleu ter {FAST}",
    "audit": f"audit -j {{j_tsv}} {REFS2} {SYS4} -m chrf {FAST}",
    "train-blanc": "train-blanc -j {j_tsv} -r {r1_txt} "
    + SYS4
    + " --restarts 1 --max-evals 2 -o {out}/b.json",
    "train-rose": "train-rose -j {j_tsv} -r {r1_txt} " + SYS4 + " --C 1 -o {out}/r.json",
    "report": "report {notjson_json} -o {out}/r.html",
    "wmt": "wmt --mtme {mtme} --lp zh-en --mtme-metrics chrF -k 0",
    "mbr": "mbr {nb_txt} -m chrf",
    "demo": "demo -m chrf --out-dir {out}/demo",
}

# where each command reads a reference file and a system output file
LINE_SLOTS = {
    "score": [("{r1_txt}", "ref"), ("{s1_txt}", "system")],
    "orange": [("{r2_txt}", "ref"), ("{s2_txt}", "system")],
    "correlate": [("{r1_txt}", "ref"), ("{s3_txt}", "system")],
    "agree": [("{r2_txt}", "ref"), ("{s2_txt}", "system")],
    "audit": [("{r1_txt}", "ref"), ("{s4_txt}", "system")],
    "train-blanc": [("{r1_txt}", "ref"), ("{s2_txt}", "system")],
    "train-rose": [("{r1_txt}", "ref"), ("{s2_txt}", "system")],
}
BAD_LINE_FILES = {  # kind: (file, expected message, a template)
    "missing": ("{missing}", "{missing}"),
    "directory": ("{dir}", "{dir}"),
    "empty": ("{empty_txt}", "{empty_txt}"),
    "invalid-utf8": ("{badutf8_txt}", "{badutf8_txt}:2: invalid UTF-8"),
    "nul-byte": ("{nul_txt}", "{nul_txt}:3:"),
    "one-line-short": ("{short_txt}", "{short_txt}"),
    "one-line-long": ("{long_txt}", "{long_txt}"),
}
JUDGMENT_COMMANDS = ["correlate", "agree", "audit", "train-blanc", "train-rose"]
BAD_JUDGMENTS = {
    "missing": ("{missing}", "{missing}"),
    "directory": ("{dir}", "{dir}"),
    "empty": ("{empty_txt}", "{empty_txt}"),
    "header-only": ("{j_header_tsv}", "{j_header_tsv}"),
    "nan-score": ("{j_nan_tsv}", "{j_nan_tsv}:16: score is 'nan'; expected a finite number"),
    "inf-score": ("{j_inf_tsv}", "{j_inf_tsv}:16: score is 'inf'; expected a finite number"),
    "empty-score": ("{j_blank_tsv}", "{j_blank_tsv}:16: missing score"),
    "word-score": ("{j_word_tsv}", "{j_word_tsv}:16: score 'good' is not a number"),
    "duplicate-id": ("{j_dup_tsv}", "{j_dup_tsv}:50: duplicate judgment of system 's1' segment 1"),
    "duplicate-score-column": ("{j_dupscore_tsv}", "column 'score' appears twice"),
    "duplicate-system-column": ("{j_dupsys_tsv}", "column 'system' appears twice"),
    "segment-and-seg_id": ("{j_segid_tsv}", "'segment', 'seg_id' could each be the segment"),
    "word-segment": ("{j_badseg_tsv}", "{j_badseg_tsv}: the segment ids of these"),
    "segment-out-of-range": ("{j_seg0_tsv}", "{j_seg0_tsv}"),
    "invalid-utf8": ("{j_utf8_tsv}", "{j_utf8_tsv}:50: invalid UTF-8"),
    "ragged-row": (
        "{j_ragged_tsv}",
        "{j_ragged_tsv}:18: expected 3 tab-separated fields as in the header",
    ),
    "wide-csv": ("{wide_csv}", "{wide_csv}:1: cannot tell the judgment format"),
    "not-parquet": ("{fake_parquet}", "{fake_parquet}"),
    "constant": ("{j_const_tsv}", "human scores are all equal"),
    # once a system "None", silently dropped; once an OverflowError traceback
    "null-system-jsonl": ("{j_null_jsonl}", '{j_null_jsonl}:2: "system" is null'),
    "huge-number-jsonl": (
        "{j_huge_jsonl}",
        "{j_huge_jsonl}:1: score is 100000000000...(401 characters)",
    ),
}

# numeric and choice options: (command, option and value, expected message)
BAD_OPTIONS = [
    ("score", "--seed -1", "--seed"),
    ("score", "--paired-bs-n 0", "--paired-bs-n"),
    ("score", "--paired-ar-n 0", "--paired-ar-n"),
    ("score", "--confidence-n 0", "--confidence-n"),
    ("score", "-w 18", "--width"),
    ("score", "--max-tokens 0", "--max-tokens"),
    ("score", "-tok nosuch", "nosuch"),
    ("score", "-f xml", "'xml' is not one of"),
    ("score", "-pbs", "a paired test needs a baseline and at least one other system"),
    # once ignored without a word: Limited ORANGE's options without --pivot; a negative
    # kendall-like threshold
    ("orange", "--features sim", "--features needs --pivot (without it, it would be ignored)"),
    ("orange", "--features sim --feature-mode direct", "--features, --feature-mode need --pivot"),
    ("correlate", "--threshold -1", "--threshold must be a human score difference >= 0"),
    ("orange", "--bootstrap -1", "--bootstrap must be 0 (no interval) or more (got -1)"),
    ("orange", "--bootstrap 1", "--bootstrap 1 is too few for a 95% interval"),
    ("orange", "--bootstrap abc", "--bootstrap"),
    ("orange", "--seed -1", "--seed must be between 0 and 2**63 - 1 (got -1)"),
    ("orange", f"--seed {2**63}", "--seed must be between 0 and 2**63 - 1"),
    ("orange", "--confidence 0", "--confidence must be between 0 and 1 (got 0.0)"),
    ("orange", "--confidence 1", "--confidence must be between 0 and 1 (got 1.0)"),
    ("orange", "--confidence 1.5", "--confidence must be between 0 and 1 (got 1.5)"),
    ("orange", "--confidence nan", "--confidence"),
    ("orange", "--oracle best", "best"),
    ("orange", "--ties random", "random"),
    ("orange", "--max-candidates 0", "--max-candidates"),
    ("orange", "--curve-step 0", "--curve-step"),
    ("orange", "--errors-max -1", "--errors-max"),
    ("orange", "--chunk-size 0 --run-dir {out}/run", "the chunk size must be at least 1"),
    ("orange", "--workers 0 --run-dir {out}/run", "--workers"),
    ("orange", "--backend nope --run-dir {out}/run", "nope"),
    ("orange", "--pivot {s1_txt}", "--pivot (Limited ORANGE) takes exactly one reference"),
    ("orange", "--export-mtme zh-en", "--export-mtme LP names the layout of --export-scores"),
    ("orange", "-tok nosuch", "unknown tokenizer 'nosuch'; known tokenizers: 13a"),
    ("correlate", "--bootstrap -5", "--bootstrap must be 0 (no interval) or more (got -5)"),
    ("correlate", "--bootstrap 10", "--bootstrap 10 is too few for a 95% interval"),
    ("correlate", "--permutations -1", "--permutations must be 0 (no test) or more (got -1)"),
    ("correlate", "--seed -1", "--seed must be between 0 and 2**63 - 1 (got -1)"),
    ("correlate", "--confidence 2", "--confidence must be between 0 and 1 (got 2.0)"),
    ("correlate", "--alpha 0", "--alpha"),
    ("correlate", "--alpha 1.5", "--alpha"),
    ("correlate", "--stat nosuch", "unknown statistic 'nosuch'"),
    ("correlate", "--stat pearson,nosuch", "unknown statistic 'nosuch'"),
    ("correlate", "--grouping doc", "unknown grouping 'doc'"),
    ("correlate", "--level doc", "doc"),
    ("correlate", "--test none2", "none2"),
    ("correlate", "--system-score median --level system", "median"),
    ("correlate", "--epsilon abc --stat acc-eq", "--epsilon"),
    ("correlate", "--max-items 0", "--max-items"),
    ("correlate", "--format nosuch", "nosuch"),
    ("correlate", "--id-base -1", "{j_tsv}: segment id 12 points to line 14"),
    ("correlate", "--rename s1", "--rename"),
    ("correlate", "--scores x", "NAME=PATH"),
    ("correlate", "--scores x={missing}", "{missing}"),
    ("correlate", "--scores x={j_tsv},layout=nosuch", "nosuch"),
    ("correlate", "--scores x={j_tsv},higher=maybe", "maybe"),
    ("agree", "--bootstrap -1", "--bootstrap must be 0 (no interval) or more (got -1)"),
    ("agree", "--seed -1", "--seed must be between 0 and 2**63 - 1 (got -1)"),
    ("agree", "--confidence 0", "--confidence must be between 0 and 1"),
    ("agree", "--stat nosuch", "unknown statistic 'nosuch'"),
    ("agree", "--grouping doc", "unknown grouping 'doc'"),
    ("agree", "--oracle best", "best"),
    ("agree", "--ties random", "random"),
    ("agree", "--max-items 0", "--max-items"),
    ("audit", "--bootstrap -1", "--bootstrap must be 0 (no interval) or more (got -1)"),
    ("audit", "--bootstrap 3", "--bootstrap 3 is too few for a 95% interval"),
    ("audit", "--seed -5", "--seed must be between 0 and 2**63 - 1 (got -5)"),
    ("audit", "--confidence 1", "--confidence must be between 0 and 1"),
    ("train-blanc", "--restarts 0", "--restarts and --max-evals must be at least 1"),
    ("train-blanc", "--max-evals 0", "--restarts and --max-evals must be at least 1"),
    ("train-blanc", "--seed -1", "--seed must be between 0"),
    ("train-blanc", "--holdout 1", "the held-out fraction must be in [0, 1), got 1.0"),
    ("train-blanc", "--holdout -0.1", "the held-out fraction must be in [0, 1), got -0.1"),
    ("train-blanc", "--n -1", "bad BLANC setting: n must be >= 1, or 0 for every size"),
    ("train-blanc", "--gap both", "both"),
    ("train-blanc", "--objective nosuch", "nosuch"),
    ("train-blanc", "--stat nosuch", "unknown statistic 'nosuch'; expected one of pearson"),
    ("train-blanc", "--grouping doc", "--grouping one of none, item, system (got 'doc')"),
    ("train-blanc", "--level doc", "--level is one of segment, system (got 'doc')"),
    (
        "train-blanc",
        "--objective orange",
        "--objective orange needs --refs (at least two files; or a --table with two --ref-col)",
    ),
    ("train-rose", "--C -1", "--C must be a positive number"),
    ("train-rose", "--C 0", "--C must be a positive number"),
    ("train-rose", "--seed -1", "--seed"),
    ("train-rose", "--holdout 1.5", "the held-out fraction must be in [0, 1), got 1.5"),
    ("train-rose", "--folds 1", "--folds must be at least 2 (got 1)"),
    ("train-rose", "--kernel sigmoid", "sigmoid"),
    ("train-rose", "--degree 0 --kernel poly", "degree must be >= 1 and components >= 2"),
    ("train-rose", "--gamma 0 --kernel rbf", "gamma must be a positive number (got 0.0)"),
    (
        "train-rose",
        "--components 0 --kernel rbf --approx nystroem",
        "degree must be >= 1 and components >= 2",
    ),
    ("train-rose", "--epsilon -1", "epsilon must be >= 0 (got -1.0)"),
    ("train-rose", "--loss nosuch", "nosuch"),
    ("train-rose", "--objective nosuch", "nosuch"),
    ("train-rose", "--approx nosuch", "nosuch"),
    ("train-rose", "--function-words nosuch", "nosuch"),
    ("train-rose", "--lang xx", "xx"),
    ("wmt", "-k -1", "-k"),
    ("wmt", "--seed -1", "--seed must be between 0 and 2**32 - 1 (got -1)"),
    ("wmt", f"--seed {2**32}", "--seed must be between 0 and 2**32 - 1"),
    ("wmt", "--task-set wmt99", "wmt99"),
    ("wmt", "--draws nosuch", "nosuch"),
    ("wmt", "--lp xx-yy", "xx-yy"),
    ("wmt", "--tasks {tasks_bad_json}", "task zh-en/para/pearson: unknown level; expected one of"),
    ("wmt", "--tasks {tasks_notlist_json}", "{tasks_notlist_json}"),
    ("wmt", "--tasks {notjson_json}", "{notjson_json}: cannot parse task set: Expecting"),
    ("wmt", "--tasks {missing}", "{missing}: file not found"),
    ("wmt", "--tasks {dir}", "{dir}: is a directory"),
    ("wmt", "--tasks {empty_txt}", "{empty_txt}: the file is empty"),
    ("wmt", "--mtme-metrics NoSuchMetric", "NoSuchMetric"),
    ("mbr", "--segments 0", "--segments must be at least 1 (got 0)"),
    ("mbr", "--segments 20", "{nb_txt}: no candidate for segment id(s) 12, 13, 14, 15, 16 ..."),
    ("mbr", "--id-base -1", "{nb_txt}: no candidate for segment id(s) -1 (ids from -1"),
    ("mbr", "--nbest-format xml", "xml"),
    ("mbr", "-r {short_txt}", "{nb_txt}:23: segment id 11 is outside 0..10"),
    ("mbr", "-tok nosuch", "unknown tokenizer 'nosuch'"),
    ("mbr", "--matrix {dir}/x/m.npz", "the output folder does not exist"),
    ("demo", "-m nosuch", "unknown metric 'nosuch'"),
    ("demo", "--out-dir {s1_txt}", "{s1_txt}: --out-dir is a file; expected a folder"),
]

# the examples of issue 28, one by one: (id, command line, exit code, expected text)
ISSUE_CASES = [
    (
        "mtme-human-file-one-line-short",
        "correlate --mtme {mtme_short} --lp zh-en -m chrf",
        2,
        "zh-en.mqm.seg.score:17: system 'Borderline' has 17 score line(s) (lines 1-17), "
        "expected 18 (one per segment of the source)",
    ),
    (
        "bleu-add-k-negative-value",
        "score -r {r1_txt} -i {s1_txt} -m bleu:smooth=add-k,value=-1",
        2,
        "bad value '-1' for 'value' in 'bleu:smooth=add-k,value=-1': expected a number >= 0",
    ),
    (
        "rouge-l-negative-beta",
        "score -r {r1_txt} -i {s1_txt} -m rouge-l:beta=-1",
        2,
        "bad value '-1' for 'beta' in 'rouge-l:beta=-1': expected a number >= 0",
    ),
    (
        "duplicate-score-columns",
        BASE["correlate"].replace("{j_tsv}", "{j_dupscore_tsv}"),
        2,
        "{j_dupscore_tsv}:1: column 'score' appears twice in the header; name each column once",
    ),
    (
        "duplicate-system-columns",
        BASE["correlate"].replace("{j_tsv}", "{j_dupsys_tsv}"),
        2,
        "{j_dupsys_tsv}:1: column 'system' appears twice in the header",
    ),
    (
        "segment-and-seg_id",
        BASE["correlate"].replace("{j_tsv}", "{j_segid_tsv}"),
        2,
        "{j_segid_tsv}:2: columns 'segment', 'seg_id' could each be the segment; keep one",
    ),
    (
        "same-reference-twice-score",
        "score -r {r1_txt} {r1_txt} -i {s1_txt}",
        2,
        "references {r1_txt} and {r1_txt} hold the same text",
    ),
    (
        "same-reference-twice-orange",
        f"orange -r {{r1_txt}} {{r1copy_txt}} {SYS4} {FAST}",
        2,
        "references {r1_txt} and {r1copy_txt} hold the same text",
    ),
    (
        "same-reference-column-twice",
        "score --table {t_tsv} --ref-col ref ref",
        2,
        "'ref' given twice",
    ),
    (
        "reference-copy-in-systems-dir-score",
        "score -r {r1_txt} {r2_txt} --systems-dir {outputs} -m bleu",
        0,
        "left out, a copy of a reference: human (= {r2_txt})",
    ),
    (
        "reference-copy-in-systems-dir-orange",
        f"orange {REFS2} --systems-dir {{outputs}} -m bleu {FAST}",
        0,
        "left out, a copy of a reference: human",
    ),
    (
        "constant-human-scores",
        BASE["correlate"].replace("{j_tsv}", "{j_const_tsv}"),
        2,
        "every human score is 1: no correlation is defined with constant human scores",
    ),
    (
        "two-systems-at-system-level",
        "correlate -j {j_tsv} -r {r1_txt} -s {s1_txt} {s2_txt} -m chrf --level system",
        2,
        "system level needs at least 3 systems, got 2: with 2 every metric correlates at +1 or -1",
    ),
    (
        "rouge-n-without-order",
        "score -r {r1_txt} -i {s1_txt} -m rouge-n",
        2,
        "rouge-n needs its order",
    ),
    (
        "agree-with-two-metrics",
        f"agree -j {{j_tsv}} {REFS2} {SYS4} -m chrf bleu {FAST}",
        0,
        "note: with 2 metrics the tau can only be +1 (same order) or -1 (opposite order)",
    ),
    (
        "agree-with-one-metric",
        f"agree -j {{j_tsv}} {REFS2} {SYS4} -m chrf {FAST}",
        2,
        "the agreement of two orderings needs at least 2 metrics",
    ),
    (
        "rose-model-string-weight",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_str_json}",
        2,
        '{rose_str_json}: "weights" holds "x"; expected finite numbers',
    ),
    (
        "rose-model-zero-scale",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_nan_json}",
        2,
        '{rose_nan_json}: "scale" holds 0: every feature would divide by 0',
    ),
    (
        "rose-model-null-mean",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_null_json}",
        2,
        '{rose_null_json}: "mean" holds null; expected finite numbers',
    ),
    (
        "rose-model-short-weights",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_short_json}",
        2,
        "{rose_short_json}: the model's weights or vectors do not match its features",
    ),
    (
        "rose-model-unknown-kernel",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_kernel_json}",
        2,
        "unknown kernel 'sigmoid' in the model",
    ),
    (
        "rose-model-not-rose",
        "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_notrose_json}",
        2,
        'not a ROSE model (expected "metric": "rose")',
    ),
    ("rose-model-valid", "score -r {r1_txt} -i {s1_txt} -m rose:model=@{rose_ok_json}", 0, "rose"),
    (
        "comma-separated-judgments",
        BASE["correlate"].replace("{j_tsv}", "{j_comma_csv}"),
        0,
        "4 systems x 12 segments, 48 rated translations",
    ),
    (
        "wide-csv-table-as-judgments",
        BASE["correlate"].replace("{j_tsv}", "{wide_csv}"),
        2,
        "{wide_csv}:1: cannot tell the judgment format from the first line; give --format",
    ),
    ("wide-csv-table-score", "score --table {wide_csv} --hyp-col SMU MiSS", 0, "SMU"),
    (
        "parquet-judgments",
        BASE["correlate"].replace("{j_tsv}", "{j_parquet}"),
        0,
        "4 systems x 12 segments, 48 rated translations",
    ),
    (
        "pandas-tsv-quoted-system-name",
        "correlate -j {j_pandas_tsv} -r {r1_txt} -s {squote} {s2_txt} {s3_txt} {s4_txt} -m chrf "
        "--bootstrap 0 --permutations 0",
        0,
        "4 systems x 12 segments, 48 rated translations",
    ),
    (
        "mtme-stored-scores-by-name",
        "correlate --mtme {mtme} --lp zh-en -m chrf --scores stored={chrF_ref},layout=mtme "
        "--bootstrap 0 --permutations 0",
        0,
        "stored\t",
    ),
    (
        "mtme-stored-sys-scores-refused",
        "correlate --mtme {mtme} --lp zh-en -m chrf --scores s={chrF_sys}",
        2,
        "sys-level scores",
    ),
    ("duplicate-table-header", "score --table {t_dup_tsv}", 2, "appears twice"),
    (
        "report-of-a-non-run",
        "report {notrun_json} -o {out}/r.html",
        2,
        'not an mtpalette run file (no "format"',
    ),
    ("report-of-a-json-list", "report {list_json} -o {out}/r.html", 2, "{list_json}"),
    ("report-of-bad-json", BASE["report"], 2, "{notjson_json}:1: not valid JSON"),
    ("report-missing-run", "report {missing} -o {out}/r.html", 2, "{missing}"),
    ("mbr-no-separator", "mbr {nb_nosep_txt}", 2, "{nb_nosep_txt}:2: no '|||' separator"),
    ("mbr-invalid-utf8", "mbr {nb_utf8_txt}", 2, "{nb_utf8_txt}:2: invalid UTF-8"),
    ("mbr-bad-id", "mbr {nb_badid_txt}", 2, "{nb_badid_txt}:1:"),
    ("mbr-missing", "mbr {missing}", 2, "{missing}"),
    ("mbr-empty", "mbr {empty_txt}", 2, "{empty_txt}"),
    (
        "orange-nbest-no-separator",
        f"orange {REFS2} --nbest {{nb_nosep_txt}}",
        2,
        "{nb_nosep_txt}:2: no '|||' separator",
    ),
    (
        "audit-nbest-invalid-utf8",
        f"audit {REFS2} --nbest {{nb_utf8_txt}}",
        2,
        "{nb_utf8_txt}:2: invalid UTF-8",
    ),
    (
        "orange-nbest-invalid-utf8",
        f"orange {REFS2} --nbest {{nb_utf8_txt}}",
        2,
        "{nb_utf8_txt}:2: invalid UTF-8",
    ),
    (
        "orange-duplicate-stored-score",
        f"orange {REFS2} {SYS4} --scores x={{scores_dup_tsv}}",
        2,
        "{scores_dup_tsv}:3: duplicate score for system 's1', segment 1",
    ),
    ("orange-one-reference", f"orange -r {{r1_txt}} {SYS4} {FAST}", 2, "2 references"),
    (
        "orange-json-into-missing-folder",
        f"orange {REFS2} {SYS4} --json {{dir}}/no/run.json",
        2,
        "the output folder does not exist",
    ),
    (
        "score-output-is-an-input",
        "score -r {r1_txt} -i {s1_txt} -o {s1_txt}",
        2,
        "is also an input of this command",
    ),
    ("wmt-without-folder", "wmt --lp zh-en", 2, "--mtme"),
    ("correlate-mtme-without-lp", "correlate --mtme {mtme}", 2, "--lp"),
    ("correlate-mtme-unknown-ref", "correlate --mtme {mtme} --lp zh-en --mtme-ref refC", 2, "refC"),
]

# the commands that take metric specs: the base command up to -m (the spec is appended)
METRIC_COMMANDS = {
    "score": "score -r {r1_txt} -i {s1_txt} -m",
    "orange": f"orange {REFS2} {SYS4} {FAST} -m",
    "correlate": f"correlate -j {{j_tsv}} -r {{r1_txt}} {SYS4} {FAST} -m",
    "agree": f"agree -j {{j_tsv}} {REFS2} {SYS4} {FAST} -m chrf",
    "audit": f"audit -j {{j_tsv}} {REFS2} {SYS4} {FAST} -m",
    "mbr": "mbr {nb_txt} -m",
    "wmt": "wmt --mtme {mtme} --lp zh-en -m",
    "demo": "demo --out-dir {out}/demo -m",
}


def _bad_values(domain) -> list[str]:
    """Texts outside ``domain``: past each end, not a number, not finite, not a name."""
    if isinstance(domain, Choice):
        return ["nosuch"]
    if isinstance(domain, YesNo):
        return ["maybe"]
    out: list[str] = []
    if domain.low is not None:
        out.append(f"{domain.low:g}" if domain.low_open else f"{domain.low - 1:g}")
    if domain.high is not None:
        out.append(f"{domain.high + 1:g}")
    out += ["abc", "nan"] if isinstance(domain, Real) and not isinstance(domain, Integer) else []
    out += ["1.5"] if isinstance(domain, Integer) else []
    return [v for v in out if v not in domain.special]  # blanc's n=0 means every size


def _metric_cases() -> list:
    cases, k = [], 0
    commands = sorted(METRIC_COMMANDS)
    for family in sorted(BUILTIN_FAMILIES):
        for key, domain in metric_class(family).options.items():
            if isinstance(domain, Text):
                continue
            for value in _bad_values(domain):
                spec = f"{family}:{key}={value}"
                command = commands[k % len(commands)]
                k += 1
                message = f"bad value '{value}' for '{key}' in '{spec}'"
                cases.append(
                    pytest.param(
                        METRIC_COMMANDS[command],
                        [spec],
                        2,
                        [message, domain.describe()],
                        id=f"{command}-{spec}",
                    )  # fmt: skip
                )
    for command in commands:
        for spec, message in [
            ("nosuch", "unknown metric"),
            ("bleu:nosuch=1", "nosuch"),
            ("blanc:params=@{missing}", "{missing}"),
            ("rose:model=@{missing}", "{missing}"),
            ("rouge-l-syn:syn=@{missing}", "{missing}"),
            ("plugin:target=nosuch.module:fn", "nosuch.module"),
        ]:
            cases.append(pytest.param(METRIC_COMMANDS[command], [spec], 2, [message],
                                      id=f"{command}-{spec.split('@')[0]}"))  # fmt: skip
    return cases


# where a command words the outcome its own way: (command, role, kind) -> (code, message)
_SHORT = "system 's1' has 12 lines, short.txt 11"
_LONG = "system 's1' has 12 lines, long.txt 13"
_JUDGED = ("correlate", "train-blanc", "train-rose")
FILE_OUTCOMES = {
    **{(c, "ref", "one-line-short"): (2, _SHORT) for c in _JUDGED},
    **{(c, "ref", "one-line-long"): (2, _LONG) for c in _JUDGED},
    ("agree", "ref", "one-line-short"): (2, "short.txt has 11 lines, the first reference 12"),
    ("agree", "ref", "one-line-long"): (2, "long.txt has 13 lines, the first reference 12"),
    ("audit", "ref", "one-line-short"): (2, "r2.txt has 12 lines, the first reference 11"),
    ("audit", "ref", "one-line-long"): (2, "r2.txt has 12 lines, the first reference 13"),
    ("correlate", "judgments", "constant"): (2, "every human score is 1: no correlation"),
    # the audit's human part compares candidates with rated references: none here
    ("audit", "judgments", "constant"): (0, "note: the references were not rated"),
}  # fmt: skip


def _file_cases() -> list:
    cases = []
    for command, slots in LINE_SLOTS.items():
        for slot, role in slots:
            for kind, (bad, message) in BAD_LINE_FILES.items():
                argv = BASE[command].replace(slot, bad, 1)
                code, message = FILE_OUTCOMES.get((command, role, kind), (2, message))
                cases.append(pytest.param(argv, [], code, [message], id=f"{command}-{role}-{kind}"))
    for command in JUDGMENT_COMMANDS:
        for kind, (bad, message) in BAD_JUDGMENTS.items():
            argv = BASE[command].replace("{j_tsv}", bad, 1)
            code, message = FILE_OUTCOMES.get((command, "judgments", kind), (2, message))
            cases.append(pytest.param(argv, [], code, [message], id=f"{command}-judgments-{kind}"))
    return cases


CLI_CASES = [
    *[pytest.param(a, [], c, [m], id=f"issue-{i}") for i, a, c, m in ISSUE_CASES],
    *[
        pytest.param(f"{BASE[c]} {o}", [], 2, [m], id=f"{c}-{'='.join(o.split()[:2])}")
        for c, o, m in BAD_OPTIONS
    ],  # fmt: skip
    *_file_cases(),
    *_metric_cases(),
]


@pytest.mark.parametrize(("argv", "extra", "code", "expected"), CLI_CASES)
def test_command_line(F, monkeypatch, capsys, argv, extra, code, expected):
    names = {k: str(v) for k, v in F.items()}
    args = [a.format(**names) for a in argv.split()] + [a.format(**names) for a in extra]
    got, out, err = run(monkeypatch, capsys, args)
    assert "Traceback" not in err, err
    assert got == code, (got, err[-2000:])
    text = out + err
    for fragment in expected:
        assert fragment.format(**names) in (err if code == 2 else text), (fragment, err[-2000:])
    if code == 2:
        assert err.splitlines()[-1].startswith("mtpalette: error: ") or "Usage:" in err, err
        assert not any(F["out"].iterdir()), "a refused run left an output behind"
