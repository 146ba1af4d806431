"""Golden values from compare-mt 0.2.10 on text with double spaces, tabs and empty lines, for
``mtpalette analyze --compat compare-mt`` (issue 54).

compare-mt reads a line as ``line.strip().split(' ')``: two spaces make an empty word and an
empty line is one empty word, where a whitespace split folds them. The text here is
project-written (invented words, written by :func:`write_text` from a fixed seed, nothing
from any corpus) into ``tests/data/compare_mt/spaces/``: a reference and three systems of 160
lines, with double and triple spaces, leading and trailing spaces, a tab and a no-break space
inside lines, lines of spaces only and empty lines, in the reference and in the outputs.

compare-mt is run (never imported, never copied) as a subprocess from its own virtualenv::

    python3 -m venv /tmp/cmt-venv
    /tmp/cmt-venv/bin/pip install compare-mt==0.2.10 six

    python scripts/compare_mt_spaces_golden.py [--compare-mt /tmp/cmt-venv/bin/compare-mt]

One run with ``--decimals 20`` (every double parses back exactly): corpus BLEU, word
precision, recall and F-measure by reference frequency (compare-mt's tables "word prec" and
"word rec" hold recall and precision, as ``scripts/compare_mt_golden.py`` explains and checks;
stored here by what they are), the number of reference words per frequency bucket, BLEU by
reference length, sentence counts and BLEU by length difference, and sentence counts and BLEU
the mean sentence BLEU by bucket of compare-mt's sentence BLEU (``sentbleu``: NLTK's
``sentence_bleu`` with method2; the NLTK version is recorded; compare-mt takes one measure for
both, so corpus BLEU by sentence-BLEU bucket cannot be asked of it). Written to
``tests/data/compare_mt/spaces_golden.json``; the same on real text, WMT21 newstest en-de
(reference A, 43 of whose lines have runs of spaces, and three systems) from the shared data
(``$MTPALETTE_SHARED_DATA`` or ``../shared/data``; paths recorded relative to it, the text
never copied), to ``tests/data/compare_mt/wmt21_ende_golden.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shlex
import subprocess
import sys
from pathlib import Path

from compare_mt_golden import aggregate_table, bucket_table, find, split_sections
from shared_data import shared_data

REPO = Path(__file__).resolve().parent.parent
DATA = REPO / "tests" / "data" / "compare_mt" / "spaces"
OUT = REPO / "tests" / "data" / "compare_mt" / "spaces_golden.json"
#: the real text (../shared/data, never committed): WMT21 newstest en-de, reference A (43 of
#: its 1,002 lines read otherwise by compare-mt) and three systems
WMT21 = Path("wmt21") / "txt"
WMT21_REF = "newstest2021.en-de.ref.A.de"
WMT21_SYSTEMS = ["Facebook-AI", "Online-W", "UEdin"]
WMT21_OUT = REPO / "tests" / "data" / "compare_mt" / "wmt21_ende_golden.json"
SYSTEMS = ["A", "B", "C"]
KEEP = {"A": 0.8, "B": 0.65, "C": 0.5}
N_LINES, SEED = 160, 54
OPTIONS = [
    "--decimals", "20",
    "--compare_scores", "score_type=bleu",
    "--compare_word_accuracies", "bucket_type=freq,acc_type=prec",
    "bucket_type=freq,acc_type=rec", "bucket_type=freq,acc_type=fmeas",
    "bucket_type=freq,acc_type=fmeas,output_bucket_details=True",
    "--compare_sentence_buckets", "bucket_type=length,statistic_type=score,score_measure=bleu",
    "bucket_type=lengthdiff", "bucket_type=lengthdiff,statistic_type=score,score_measure=bleu",
    "bucket_type=score", "bucket_type=score,statistic_type=score",
    "--compare_ngrams", "--compare_sentence_examples",
]  # fmt: skip


def _words(rng: random.Random) -> list[str]:
    syllables = ["ka", "lo", "mi", "ne", "tu", "ra", "si", "po", "de", "gu", "fe", "zo"]
    words = {"".join(rng.choice(syllables) for _ in range(rng.randint(1, 3))) for _ in range(400)}
    return sorted(words) + [",", ".", "?"]


def _damage(words: list[str], rng: random.Random) -> str:
    """A line of ``words`` with compare-mt's traps: runs of spaces, a tab or a no-break space
    inside, spaces at the ends, or nothing but spaces."""
    r = rng.random()
    if not words or r < 0.04:
        return rng.choice(["", "", "   "])
    gaps = [rng.choice([" "] * 12 + ["  ", "   ", "\t", "\u00a0"]) for _ in words[1:]]
    line = words[0] + "".join(g + w for g, w in zip(gaps, words[1:], strict=True))
    if r < 0.15:
        line = " " + line + "  "
    return line


def write_text(folder: Path) -> dict[str, list[str]]:
    """The project-written reference and outputs (a fixed seed), one file each."""
    rng = random.Random(SEED)
    vocab = _words(rng)
    weights = [1 / (k + 1) for k in range(len(vocab))]  # Zipf: every frequency bucket used
    refs = []
    for i in range(N_LINES):
        n = rng.choice([0, 3, 8, 12, 17, 25, 33, 45, 65]) + rng.randint(0, 4)
        refs.append(rng.choices(vocab, weights, k=n) if i % 37 else [])
    texts = {"ref": [_damage(r, rng) for r in refs]}
    for name in SYSTEMS:
        lines = []
        for ref in refs:
            out = [w if rng.random() < KEEP[name] else rng.choices(vocab, weights)[0] for w in ref]
            out = [w for w in out if rng.random() > 0.05] + rng.choices(vocab, k=rng.randint(0, 2))
            lines.append(_damage(out, rng))
        texts[name] = lines
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "README").write_text(
        "Project-written text (invented words from a fixed seed, no corpus): "
        "scripts/compare_mt_spaces_golden.py writes it.\n", encoding="utf-8"
    )  # fmt: skip
    for name, lines in texts.items():
        with open(folder / f"{name}.txt", "w", encoding="utf-8", newline="\n") as f:
            f.write("".join(line + "\n" for line in lines))
    return texts


def _values(section: dict, names: list[str], with_counts: bool = False) -> tuple:
    labels, cells, counts = bucket_table(section, names, with_counts)
    return labels, {s: [float(c) for c in v] for s, v in cells.items()}, counts


def golden(cmt: Path, files: dict[str, Path], cwd: Path, shown: dict[str, str]) -> dict:
    """compare-mt's values on ``files`` (``ref`` first, then the systems by name), run in
    ``cwd``; ``shown``: each file as the golden file records it."""
    names = [n for n in files if n != "ref"]
    version = subprocess.run([cmt, "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()  # fmt: skip
    if version != "compare-mt 0.2.10":
        sys.exit(f"expected compare-mt 0.2.10, got {version!r}")
    nltk = subprocess.run([cmt.parent / "python", "-c", "import nltk; print(nltk.__version__)"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    command = [str(cmt), *(str(files[n]) for n in ["ref", *names]), "--sys_names", *names,
               *OPTIONS]  # fmt: skip
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"compare-mt failed:\n{proc.stderr}")
    sec = split_sections(proc.stdout)
    agg, word, sent = "Aggregate Scores", "Word Accuracy Analysis", "Sentence Bucket Analysis"
    bleu = {s: float(c) for s, c in aggregate_table(find(sec, agg, "BLEU:")[0], names).items()}
    title = "--- word {} by frequency bucket"
    labels, recall, _ = _values(find(sec, word, title.format("prec"))[0], names)
    _, precision, _ = _values(find(sec, word, title.format("rec"))[0], names)
    _, fmeas, _ = _values(find(sec, word, title.format("fmeas"))[0], names)
    _, _, ref_words = _values(find(sec, word, title.format("fmeas"))[-1], names, True)
    buckets = {}
    for key, what in [
        ("length_bleu", "length, statistic type: BLEU"),
        ("lengthdiff_count", "len(output)-len(reference), statistic type: count"),
        ("lengthdiff_bleu", "len(output)-len(reference), statistic type: BLEU"),
        ("score_count", "sentence-level BLEU, statistic type: count"),
        ("score_sentbleu", "sentence-level BLEU, statistic type: sentence-level BLEU"),
    ]:
        bucket_labels, values, _ = _values(find(sec, sent, f"--- bucket type: {what}")[0], names)
        buckets[key] = {"labels": bucket_labels, "values": values}
    return {
        "compare_mt_version": version.split()[-1],
        "nltk_version": nltk,
        "command": shlex.join(
            ["compare-mt", *(shown[n] for n in ["ref", *names]), *command[2 + len(names) :]]
        ),  # fmt: skip
        "files": {
            n: {
                "path": shown[n],
                "sha256": hashlib.sha256(files[n].read_bytes()).hexdigest(),
                "lines": files[n].read_text(encoding="utf-8").count("\n"),
                "folded_lines": sum(
                    1
                    for line in files[n].read_text(encoding="utf-8").split("\n")[:-1]
                    if line.split() != line.strip().split(" ")
                ),  # fmt: skip
            }
            for n in files
        },
        "bleu": bleu,
        "word_accuracy": {
            "labels": labels,
            "ref_words": ref_words,
            "precision": precision,
            "recall": recall,
            "fmeasure": fmeas,
        },  # fmt: skip
        "sentence_buckets": buckets,
        "note": "compare-mt prints 0 for an empty bucket; its 'word prec' table holds recall "
        "and 'word rec' precision (stored here by what they are)",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare-mt", default="/tmp/cmt-venv/bin/compare-mt")
    args = ap.parse_args()
    cmt = Path(args.compare_mt)
    write_text(DATA)
    files = {n: DATA / f"{n}.txt" for n in ["ref", *SYSTEMS]}
    out = golden(cmt, files, REPO, {n: str(p.relative_to(REPO)) for n, p in files.items()})
    out["description"] = ("compare-mt 0.2.10 on project-written text with double spaces, tabs "
                          "and empty lines; scripts/compare_mt_spaces_golden.py")  # fmt: skip
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}", file=sys.stderr)
    root = shared_data()
    wmt = root / WMT21
    if not wmt.is_dir():
        print(f"{wmt} absent (the shared data): the WMT21 golden file is not rewritten")
        return
    files = {"ref": wmt / "references" / WMT21_REF,
             **{n: wmt / "system-outputs" / f"newstest2021.en-de.hyp.{n}.de"
                for n in WMT21_SYSTEMS}}  # fmt: skip
    out = golden(cmt, files, wmt, {n: str(p.relative_to(root)) for n, p in files.items()})
    out["description"] = ("compare-mt 0.2.10 on WMT21 newstest en-de (the shared data, paths "
                          "relative to it; not in the repository): reference A, with lines "
                          "of double spaces, and three systems; "
                          "scripts/compare_mt_spaces_golden.py")  # fmt: skip
    WMT21_OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {WMT21_OUT.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
