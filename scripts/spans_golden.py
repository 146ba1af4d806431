"""Golden values of the span protocols ``wmt25`` and ``wmt23-qe``, computed by running the
organisers' own scorers, unmodified (run, never copied), on project-written span files.

Scorers:

* WMT25 metrics task 2: https://github.com/wmt-conference/wmt25-mteval at commit
  d1f6ab9a58d2fb64a88ba5b260dc371f142d7e1c, ``scripts/scoring/task2/scoring_esa.py``
  (CLI: ``python scoring_esa.py INPUT_DIR OUTPUT_DIR``, reading ``INPUT_DIR/ref/task2_refs.tsv``
  and ``INPUT_DIR/res/predictions.tsv``, writing ``OUTPUT_DIR/scores.txt``).
* WMT23 QE task 2: https://github.com/WMT-QE-Task/qe-eval-scripts at commit
  b7cc5e5ffc38b6047f3dff2ce845882eba82c0bf, ``wmt23/task2_evaluate.py`` (CLI:
  ``python task2_evaluate.py INPUT_DIR OUTPUT_DIR``, reading ``ref/gold_labels_task2_error_span
  .tsv``, ``ref/baseline_predictions_task2.tsv``, ``ref/gold_hallucinations_task1_sentence
  .tsv`` and ``res/predictions.txt``).

Each scorer is taken from the snapshot with ``git show COMMIT:PATH`` into a temporary folder
and run twice per annotator: (1) its own command line, unmodified, in a subprocess; its
``scores.txt`` (4 significant digits) is recorded; (2) the same file imported as a module
(its ``main`` is not run on import) with its scoring function wrapped by a recorder
(``get_char_f1`` resp. ``score_new``: the wrapper calls the original and keeps its return
value), then its unmodified ``main()`` called with the same ``sys.argv``: this gives the
full-precision values behind ``scores.txt``. The script checks that the recorded values,
rounded as ``scores.txt`` prints them, equal the lines of run (1).

Inputs (all project-written, invented texts and spans; CC0 like the rest of tests/data):
three language pairs, two MT systems, seven segments each; gold spans and five annotators:
``near`` (the gold with moved boundaries and some severities changed), ``random``,
``sparse`` (part of the gold), ``none`` (no span at all) and ``all`` (every character one
major span). The first segments of every pair hold the edge cases: no gold span, no predicted
span, overlapping spans on both sides, insertion points (start = end, also at the end of the
text), a severity mismatch, critical and (WMT25) ``undecided`` spans and omissions
(``missing``). WMT23 QE's format has only ``major`` and ``minor``: there critical is written as
major and ``undecided``/omissions are not written; its scorer divides by zero when an
annotator predicts nothing in a pair (``none``), so ``none`` is not run there. One segment per
pair is listed in the hallucination index (left out by their scorer and by our tests).
The WMT25 scorer reads the offsets with pandas, which turns a column whose every row holds
one number into integers and then fails (``AttributeError: 'int' object has no attribute
'split'``): the ``all`` baseline therefore also carries one omission per pair, which every
protocol ignores.

Usage (from the repository root; the snapshots are git directories, e.g. the ones that
``fetch github:wmt-conference/wmt25-mteval`` gives)::

    python scripts/spans_golden.py \\
        --wmt25-git WMT25_MTEVAL_GIT_DIR --qe-git QE_EVAL_SCRIPTS_GIT_DIR

writes ``tests/data/spans/golden_wmt25.json`` and ``tests/data/spans/golden_wmt23_qe.json``
(inputs, commits, commands, their ``scores.txt`` and the full-precision values). Their
scorers need numpy and pandas only (no install).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "spans"
WMT25 = {
    "repo": "wmt-conference/wmt25-mteval",
    "commit": "d1f6ab9a58d2fb64a88ba5b260dc371f142d7e1c",
    "path": "scripts/scoring/task2/scoring_esa.py",
    "function": "get_char_f1",
}
QE23 = {
    "repo": "WMT-QE-Task/qe-eval-scripts",
    "commit": "b7cc5e5ffc38b6047f3dff2ce845882eba82c0bf",
    "path": "wmt23/task2_evaluate.py",
    "function": "score_new",
}
LPS = {
    "en-de": "Haus Baum gelb schnell morgen Brücke Fenster grün über Straße Katze Wasser",
    "cs-uk": "місто річка зелений швидко завтра міст вікно жовтий над вулиця кіт вода",
    "ja-zh": "城市 河流 绿色 快速 明天 桥梁 窗户 黄色 上面 街道 小猫 清水",
}
SYSTEMS = ("sysA", "sysB")
SEGMENTS = 7
ANNOTATORS = ("near", "random", "sparse", "none", "all")
SEVERITIES = ("minor", "major", "critical")


# ----------------------------------------------------------------------------- inputs
def _text(rng: random.Random, words: str) -> str:
    vocab = words.split()
    joiner = "" if rng.random() < 0.5 and not vocab[0].isascii() else " "
    words = [rng.choice(vocab) for _ in range(rng.randint(4, 10))]
    while len(joiner.join(words)) < 14:
        words.append(rng.choice(vocab))
    return joiner.join(words)


def _random_spans(rng: random.Random, n: int, k: int) -> list[list]:
    spans = []
    for _ in range(k):
        s = rng.randint(0, n)
        e = s if rng.random() < 0.1 else rng.randint(s, n)
        spans.append([s, e, rng.choice(SEVERITIES)])
    return sorted(spans)


def _edge_gold(i: int, n: int) -> list[list] | None:
    """Hand-placed gold spans of the first segments of a pair (None: random)."""
    cases = {
        0: [],  # no gold span
        1: [[0, 6, "major"], [3, 9, "minor"], [n - 2, n, "critical"]],  # overlap, critical
        2: [[2, 2, "major"], [n, n, "minor"], [4, 8, "major"]],  # insertion points
        3: [[1, 5, "minor"], [5, 9, "undecided"], [0, 0, "omission"]],
    }
    return cases.get(i)


def _near(rng: random.Random, gold: list[list], n: int) -> list[list]:
    out = []
    for s, e, sev in gold:
        if sev in ("undecided", "omission"):
            continue
        s2 = min(max(0, s + rng.randint(-2, 2)), n)
        e2 = min(max(s2, e + rng.randint(-2, 2)), n)
        if rng.random() < 0.3:
            sev = rng.choice(SEVERITIES)
        out.append([s2, e2, sev])
    return out


def build_inputs(seed: int = 57) -> dict:
    """Segments, gold spans and the annotators' spans (project-written, deterministic)."""
    rng = random.Random(seed)
    segments, gold = [], []
    annotators: dict[str, list] = {a: [] for a in ANNOTATORS}
    for lp, words in LPS.items():
        for system in SYSTEMS:
            for i in range(SEGMENTS):
                text = _text(rng, words)
                n = len(text)
                segments.append(
                    {
                        "lp": lp,
                        "system": system,
                        "doc": f"doc{i // 3}",
                        "segment": i,
                        "domain": "news" if i % 2 else "social",
                        "text": text,
                    }
                )
                g = _edge_gold(i, n) if system == "sysA" else None
                g = g if g is not None else _random_spans(rng, n, rng.randint(0, 3))
                gold.append(g)
                near = _near(rng, g, n)
                if system == "sysA" and i == 1:  # predicted overlap, severity mismatch
                    near = [[0, 9, "minor"], [2, 7, "major"], [n - 2, n, "major"]]
                if system == "sysA" and i == 4:
                    near = []  # no predicted span
                if system == "sysA" and i == 2:
                    near = [[2, 2, "major"], [n, n, "major"], [5, 5, "minor"]]
                annotators["near"].append(near)
                annotators["random"].append(_random_spans(rng, n, rng.randint(0, 4)))
                annotators["sparse"].append([s for s in g if rng.random() < 0.5])
                annotators["none"].append([])
                annotators["all"].append([[0, n, "major"]] if n else [])
            # their scorer reads the offsets with pandas, which makes a column of numbers
            # (and then fails on .split) when every row holds one numeric offset: one
            # omission (ignored by every protocol) keeps the 'all' baseline's columns text
            annotators["all"][-1].append([0, 0, "omission"])
    hallucinated = {lp: 5 for lp in LPS}  # QE segment number (see _qe_id) per pair
    return {
        "segments": segments,
        "gold": gold,
        "annotators": annotators,
        "hallucinated": hallucinated,
    }


# ----------------------------------------------------------------------------- their files
WMT25_FIELDS = [
    "doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id",
    "source_segment", "hypothesis_segment", "reference_segment", "domain_name", "method",
    "start_indices", "end_indices", "error_types",
]  # fmt: skip


def _wmt25_row(seg: dict, spans: list[list]) -> str:
    src, tgt = seg["lp"].split("-")
    if spans:
        starts = ["missing" if sev == "omission" else str(s) for s, _, sev in spans]
        ends = ["missing" if sev == "omission" else str(e) for _, e, sev in spans]
        types = ["major" if sev == "omission" else sev for _, _, sev in spans]
        error = (" ".join(starts), " ".join(ends), " ".join(types))
    else:
        error = ("", "", "no-error")
    values = [
        seg["doc"], str(seg["segment"]), src, tgt, "official", seg["system"],
        "source text", seg["text"], "reference text", seg["domain"], "esa", *error,
    ]  # fmt: skip
    return "\t".join(values)


def write_wmt25(folder: Path, inputs: dict, annotator: str) -> None:
    for sub, name, spans in (
        ("ref", "task2_refs.tsv", inputs["gold"]),
        ("res", "predictions.tsv", inputs["annotators"][annotator]),
    ):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        lines = ["\t".join(WMT25_FIELDS)]
        lines += [_wmt25_row(seg, s) for seg, s in zip(inputs["segments"], spans, strict=True)]
        (folder / sub / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def qe_spans(spans: list[list]) -> list[list]:
    """Spans as WMT23 QE's format can hold them: critical as major, no undecided/omission."""
    kept = [s for s in spans if s[2] in SEVERITIES]
    return [[s, e, "major" if sev == "critical" else sev] for s, e, sev in kept]


def _qe_id(inputs: dict, k: int) -> int:
    """QE segment number of segment ``k``: its rank inside its language pair."""
    lp = inputs["segments"][k]["lp"]
    return sum(1 for seg in inputs["segments"][:k] if seg["lp"] == lp)


def _qe_lines(inputs: dict, spans_of: list[list]) -> list[str]:
    lines = []
    for k, (seg, spans) in enumerate(zip(inputs["segments"], spans_of, strict=True)):
        spans = qe_spans(spans)
        if spans:
            cols = [" ".join(str(x[j]) for x in spans) for j in range(3)]
        else:
            cols = ["-1", "-1", "no-error"]
        lines.append("\t".join([seg["lp"], "esa", str(_qe_id(inputs, k)), seg["text"], *cols]))
    return lines


def write_qe(folder: Path, inputs: dict, annotator: str) -> None:
    (folder / "ref").mkdir(parents=True, exist_ok=True)
    (folder / "res").mkdir(parents=True, exist_ok=True)
    header = "lp\tmethod\tsegid\tmt\tstart\tend\ttype"
    gold = [header, *_qe_lines(inputs, inputs["gold"])]
    (folder / "ref" / "gold_labels_task2_error_span.tsv").write_text("\n".join(gold) + "\n")
    sub = ["project-written", "0", "1", *_qe_lines(inputs, inputs["annotators"][annotator])]
    (folder / "res" / "predictions.txt").write_text("\n".join(sub) + "\n")
    base = ["baseline", "0", "1", *_qe_lines(inputs, inputs["annotators"]["all"])]
    (folder / "ref" / "baseline_predictions_task2.tsv").write_text("\n".join(base) + "\n")
    hal = ["lp\tsegid", *(f"{lp}\t{i}" for lp, i in inputs["hallucinated"].items())]
    (folder / "ref" / "gold_hallucinations_task1_sentence.tsv").write_text("\n".join(hal) + "\n")


# ----------------------------------------------------------------------------- running theirs
def extract(git_dir: Path, spec: dict, into: Path) -> Path:
    """Their scorer file, byte for byte, from the snapshot at the pinned commit."""
    text = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{spec['commit']}:{spec['path']}"],
        check=True,
        capture_output=True,
    ).stdout
    path = into / Path(spec["path"]).name
    path.write_bytes(text)
    return path


def run_recorded(script: str, function: str, input_dir: str, output_dir: str) -> list:
    """Import their scorer, wrap ``function`` with a recorder, run its ``main()``."""
    spec = importlib.util.spec_from_file_location("their_scorer", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    original, calls = getattr(module, function), []

    def recorder(*args, **kwargs):
        value = original(*args, **kwargs)
        calls.append(value)
        return value

    setattr(module, function, recorder)
    sys.argv = [script, input_dir, output_dir]
    module.main()
    return calls


def _run(script: Path, folder: Path, spec: dict) -> tuple[str, list, list[str]]:
    cli_out, rec_out = folder / "cli_out", folder / "rec_out"
    cli_out.mkdir()
    rec_out.mkdir()
    # their language pairs come from a set: one hash seed keeps both runs in the same order
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    command = [sys.executable, str(script), str(folder), str(cli_out)]
    subprocess.run(command, check=True, capture_output=True, cwd=folder, env=env)
    scores = (cli_out / "scores.txt").read_text()
    recorded = subprocess.run(
        [
            sys.executable,
            __file__,
            "record",
            str(script),
            spec["function"],
            str(folder),
            str(rec_out),
        ],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout
    command = ["PYTHONHASHSEED=0", "python", Path(spec["path"]).name, "INPUT_DIR", "OUTPUT_DIR"]
    return scores, json.loads(recorded.strip().splitlines()[-1]), command


def _lines(scores: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in scores.splitlines() if ": " in line)


def wmt25_golden(git_dir: Path, inputs: dict) -> dict:
    outputs = {}
    with tempfile.TemporaryDirectory(prefix="wmt25-golden-") as tmp:
        script = extract(git_dir, WMT25, Path(tmp))
        for annotator in ANNOTATORS:
            folder = Path(tmp) / annotator
            write_wmt25(folder, inputs, annotator)
            scores, calls, command = _run(script, folder, WMT25)
            lines = _lines(scores)
            lps = [k[: -len("_f1")] for k in lines if k.endswith("_f1") and k != "avg_f1"]
            per_lp = {}
            for key, (p, r, f) in zip(lps, calls, strict=True):
                lp = next(x for x in LPS if x.replace("-", "") == key)
                per_lp[lp] = {"precision": p, "recall": r, "f1": f}
                assert lines[f"{key}_f1"] == f"{f:.4}" and lines[f"{key}_prec"] == f"{p:.4}"
            outputs[annotator] = {"per_lp": per_lp, "scores_txt": scores}
    return {"scorer": {**WMT25, "command": command}, "outputs": outputs}


def qe_golden(git_dir: Path, inputs: dict) -> dict:
    outputs = {}
    with tempfile.TemporaryDirectory(prefix="qe23-golden-") as tmp:
        script = extract(git_dir, QE23, Path(tmp))
        for annotator in (a for a in ANNOTATORS if a != "none"):
            folder = Path(tmp) / annotator
            write_qe(folder, inputs, annotator)
            scores, calls, command = _run(script, folder, QE23)
            baseline, system = calls  # main scores the baseline first
            lines = _lines(scores)
            per_lp = {}
            for lp, (r, p, f) in system.items():
                per_lp[lp] = {"precision": p, "recall": r, "f1": f}
                key = lp.replace("-", "")
                assert lines[f"{key}_f1"] == f"{f:.4}" and lines[f"{key}_rec"] == f"{r:.4}"
            outputs[annotator] = {"per_lp": per_lp, "scores_txt": scores}
    qe_inputs = {**inputs, "gold": [qe_spans(s) for s in inputs["gold"]]}
    qe_inputs["annotators"] = {
        a: [qe_spans(s) for s in spans] for a, spans in inputs["annotators"].items()
    }
    qe_inputs["qe_ids"] = [_qe_id(inputs, k) for k in range(len(inputs["segments"]))]
    return {"scorer": {**QE23, "command": command}, "outputs": outputs, "inputs": qe_inputs}


def _versions() -> dict:
    import numpy
    import pandas

    return {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
    }


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "record":  # child process: run theirs, print the recorded values
        calls = run_recorded(*argv[1:5])
        print(json.dumps([c if isinstance(c, dict) else [float(x) for x in c] for c in calls]))
        return
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wmt25-git", type=Path, required=True)
    ap.add_argument("--qe-git", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    inputs = build_inputs()
    args.out.mkdir(parents=True, exist_ok=True)
    note = "inputs are project-written (invented texts and spans); outputs are the scorers'"
    w25 = {"note": note, "versions": _versions(), "inputs": inputs}
    w25.update(wmt25_golden(args.wmt25_git, inputs))
    qe = {"note": note, "versions": _versions(), **qe_golden(args.qe_git, inputs)}
    for name, data in (("golden_wmt25.json", w25), ("golden_wmt23_qe.json", qe)):
        (args.out / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {args.out / name}")


if __name__ == "__main__":
    main()
