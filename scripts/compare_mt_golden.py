"""Golden values from compare-mt 0.2.10 (Neubig et al., 2019) for ``mtpalette analyze``.

compare-mt is run (never imported, never copied) as a subprocess from its own virtualenv::

    python3 -m venv /tmp/cmt-venv
    /tmp/cmt-venv/bin/pip install compare-mt==0.2.10 six

Usage (from anywhere; paths given to compare-mt are relative to the repository root, which is
used as the working directory)::

    python scripts/compare_mt_golden.py [--compare-mt /tmp/cmt-venv/bin/compare-mt] \\
        [--out tests/data/compare_mt/golden.json]

Data: the WMT21 TED en-de MQM set (``$MQM_TED/ende/``, as ``scripts/extract_mqm_ted.py --out
$MQM_TED`` writes it from the shared data; it was bundled until issue 56): ``ref.txt``
(German references) and the outputs of Facebook-AI, Nemo and UEdin, all 529 lines. compare-mt
reads every line with ``line.strip().split(' ')`` (no lowercasing, no tokenizer); on these files
that equals ``str.split()`` (checked here: no tabs, double spaces, other whitespace or empty
lines), i.e. mtpalette's ``-tok none``, and ``--compat compare-mt`` (the test's setting; it
splits as compare-mt does on any text: scripts/compare_mt_spaces_golden.py checks it there).

Two compare-mt runs:

``default``: compare-mt with all its defaults (4 decimals). Its aggregate BLEU, word F-measure
by frequency bucket, BLEU by reference-length bucket and sentence counts by length-difference
bucket are stored as printed strings (``default_run_printed``).

``precise``: the same analyses with ``--decimals 20`` (so every double prints with >= 17
significant digits and parses back exactly), word accuracy with ``acc_type=prec``, ``rec`` and
``fmeas`` separately, plus ``output_bucket_details=True`` (prints the number of reference words
per bucket; its bootstrap intervals, seeded by ``--seed 0``, are not stored) and BLEU by
length-difference bucket. Sentence counts per reference-length bucket cannot be printed by
compare-mt 0.2.10 (``bucket_type=length`` with the count statistic crashes, and so does
``output_bucket_details=True`` with the score statistic); the script counts them itself.
N-gram and sentence-example reports are switched off (empty option lists).

compare-mt 0.2.10 labels word precision and recall the wrong way round: its table titled
"word prec" holds matches / reference words (recall) and the table titled "word rec" holds
matches / output words (precision); the tuple it builds is (match, ref, out, rec, prec, fmeas)
but its reporter maps prec->3, rec->4. The golden file stores them by their true meaning; the
script checks this (recall times reference count must be an integer in every bucket) and stops
if a compare-mt version behaves differently.

From the printed values the script also derives integer counts (``derived_counts``): matches
= recall x reference words, output words = matches / precision, the output words of buckets
without matches from the output total printed by the length-ratio report. It checks that every
4-decimal string of the default run equals the precise value formatted with 4 decimals, and
that F = 2PR/(P+R).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: ``scripts/extract_mqm_ted.py --out $MQM_TED`` (the data is not in the repository)
DATA_DIR = os.environ.get("MQM_TED", "mqm_ted") + "/ende"
SYSTEMS = ["Facebook-AI", "Nemo", "UEdin"]
DEFAULT_OUT = "tests/data/compare_mt/golden.json"
DEFAULT_CMT = "/tmp/cmt-venv/bin/compare-mt"
DECIMALS = 20

WORD_CUTOFFS = [1, 2, 3, 4, 5, 10, 100, 1000]
LENGTH_CUTOFFS = [10, 20, 30, 40, 50, 60]
LENGTHDIFF_CUTOFFS = [-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21]

PRECISE_OPTIONS = [
    "--decimals",
    str(DECIMALS),
    "--seed",
    "0",
    "--compare_scores",
    "score_type=bleu",
    "score_type=length",
    "--compare_word_accuracies",
    "bucket_type=freq,acc_type=prec",
    "bucket_type=freq,acc_type=rec",
    "bucket_type=freq,acc_type=fmeas",
    "bucket_type=freq,acc_type=fmeas,output_bucket_details=True",
    "--compare_sentence_buckets",
    "bucket_type=length,statistic_type=score,score_measure=bleu",
    "bucket_type=lengthdiff",
    "bucket_type=lengthdiff,statistic_type=score,score_measure=bleu",
    "--compare_ngrams",
    "--compare_sentence_examples",
]

HEADER_PREFIX, HEADER_SUFFIX = "*" * 22 + " ", " " + "*" * 24


def bucket_labels(cutoffs: list[int]) -> list[str]:
    """Our own statement of compare-mt's integer bucket labels (checked against its output)."""
    labels = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            labels.append(f"<{x}")
        elif x - 1 == cutoffs[i - 1]:
            labels.append(f"{x - 1}")
        else:
            labels.append(f"[{cutoffs[i - 1]},{x})")
    labels.append(f">={cutoffs[-1]}")
    return labels


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check_data(files: dict[str, str]) -> dict:
    info, counts = {}, set()
    for name, rel in files.items():
        path = REPO / rel
        with open(path, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f]
        counts.add(len(lines))
        for i, line in enumerate(lines, 1):
            if line.strip().split(" ") != line.split():
                sys.exit(f"{rel}:{i}: compare-mt's split(' ') differs from whitespace split")
        info[name] = {
            "path": rel,
            "sha256": sha256(path),
            "lines": len(lines),
            "whitespace_tokens": sum(len(line.split()) for line in lines),
        }
    if len(counts) != 1:
        sys.exit(f"unequal line counts: { {k: v['lines'] for k, v in info.items()} }")
    return info


def run(cmt: str, args: list[str]) -> tuple[str, float]:
    t0 = time.perf_counter()
    proc = subprocess.run([cmt, *args], cwd=REPO, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"compare-mt failed ({proc.returncode}):\n{proc.stderr}")
    return proc.stdout, elapsed


def split_sections(stdout: str) -> list[dict]:
    """Sections of compare-mt's text output: header, title, table rows (cells as strings)."""
    sections = []
    for line in stdout.split("\n"):
        if line.startswith(HEADER_PREFIX) and line.endswith(HEADER_SUFFIX):
            sections.append({"header": line[len(HEADER_PREFIX) : -len(HEADER_SUFFIX)], "lines": []})
        elif sections:
            sections[-1]["lines"].append(line)
    for s in sections:
        lines = s.pop("lines")
        s["title"] = lines[0]
        table = []
        for line in lines[1:]:
            if line == "":
                break
            table.append(line.split("\t"))
        s["table"] = table
    return sections


def find(sections: list[dict], header: str, title: str) -> list[dict]:
    hits = [s for s in sections if s["header"] == header and s["title"] == title]
    if not hits:
        sys.exit(f"section {header!r} / {title!r} not found in compare-mt output")
    return hits


def bucket_table(section: dict, systems: list[str], with_counts: bool = False):
    """Return labels, per-system cells (value part only) and, if printed, the count column."""
    head = section["table"][0]
    count_col = "# words" if "word" in section["title"] else "# sents"
    want = [head[0], *([count_col] if with_counts else []), *systems]
    if head != want:
        sys.exit(f"unexpected table header {head} (wanted {want}) in {section['title']!r}")
    off = 2 if with_counts else 1
    labels, counts, cells = [], [], {s: [] for s in systems}
    for row in section["table"][1:]:
        labels.append(row[0])
        if with_counts:
            counts.append(int(row[1]))
        for s, cell in zip(systems, row[off:], strict=True):
            cells[s].append(cell.split(" [")[0])  # drop a bootstrap interval " [lo, hi]"
    return labels, cells, counts


def aggregate_table(section: dict, systems: list[str]):
    head, row = section["table"][0], section["table"][1]
    if head != [""] + systems:
        sys.exit(f"unexpected aggregate header {head}")
    return {s: cell for s, cell in zip(systems, row[1:], strict=True)}


def num(cell: str) -> float:
    return float(cell)


def as_int(x: float, what: str) -> int:
    r = round(x)
    if abs(x - r) > 1e-6:
        sys.exit(f"{what}: {x!r} is not an integer")
    return int(r)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare-mt", default=DEFAULT_CMT, help="compare-mt executable (own venv)")
    ap.add_argument("--out", default=DEFAULT_OUT, help="output JSON, relative to the repository")
    args = ap.parse_args()

    systems = SYSTEMS
    files = {"ref": f"{DATA_DIR}/ref.txt", **{s: f"{DATA_DIR}/{s}.txt" for s in systems}}
    data = check_data(files)
    n_sents = data["ref"]["lines"]

    version = subprocess.run(
        [args.compare_mt, "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    if version != "compare-mt 0.2.10":
        sys.exit(f"expected compare-mt 0.2.10, got {version!r}")

    base = [files["ref"], *(files[s] for s in systems), "--sys_names", *systems]
    default_out, t_default = run(args.compare_mt, base)
    precise_out, t_precise = run(args.compare_mt, base + PRECISE_OPTIONS)
    print(
        f"compare-mt elapsed: default run {t_default:.2f} s, precise run {t_precise:.2f} s",
        file=sys.stderr,
    )
    commands = {
        "default": shlex.join(["compare-mt", *base]),
        "precise": shlex.join(["compare-mt", *base, *PRECISE_OPTIONS]),
    }

    d_sec, p_sec = split_sections(default_out), split_sections(precise_out)
    AGG, WORD, SENT = "Aggregate Scores", "Word Accuracy Analysis", "Sentence Bucket Analysis"

    # ---- aggregate scores
    bleu_cells = aggregate_table(find(p_sec, AGG, "BLEU:")[0], systems)
    len_cells = aggregate_table(find(p_sec, AGG, "length ratio:")[0], systems)
    bleu = {s: num(c) for s, c in bleu_cells.items()}
    length_ratio, hyp_words, ref_words = {}, {}, set()
    for s, c in len_cells.items():
        value, aux = c.split(" (")
        length_ratio[s] = num(value)
        kv = dict(x.split("=") for x in aux.rstrip(")").split(", "))
        ref_words.add(int(kv["ref"]))
        hyp_words[s] = int(kv["out"])
    (ref_words,) = ref_words

    # ---- word accuracy by frequency bucket
    w_labels = bucket_labels(WORD_CUTOFFS)
    printed = {}
    for at in ("prec", "rec", "fmeas"):
        secs = find(p_sec, WORD, f"--- word {at} by frequency bucket")
        labels, cells, _ = bucket_table(secs[0], systems)
        if labels != w_labels:
            sys.exit(f"word bucket labels {labels} != {w_labels}")
        printed[at] = {s: [num(c) for c in v] for s, v in cells.items()}
    # the last fmeas section carries the '# words' column (output_bucket_details=True)
    detail = find(p_sec, WORD, "--- word fmeas by frequency bucket")[-1]
    _, detail_cells, ref_counts = bucket_table(detail, systems, with_counts=True)
    if {s: [num(c) for c in v] for s, v in detail_cells.items()} != printed["fmeas"]:
        sys.exit("fmeas differs between the runs with and without bucket details")
    if sum(ref_counts) != ref_words:
        sys.exit(f"bucket reference counts sum to {sum(ref_counts)}, not {ref_words}")

    # compare-mt 0.2.10 swaps the labels: 'prec' table = recall, 'rec' table = precision
    recall, precision, fmeas = printed["prec"], printed["rec"], printed["fmeas"]
    derived = {}
    for s in systems:
        matches = [
            as_int(r * n, f"{s} bucket {lab}: recall x ref words (label swap?)") if n else 0
            for r, n, lab in zip(recall[s], ref_counts, w_labels, strict=True)
        ]
        # output words per bucket: matches / precision where there are matches; 0 in a bucket
        # no reference word falls in (no word type has such a frequency), except '<1' (types
        # absent from the references, never matched), which gets the remainder of the total
        outs = []
        for m, p, n, lab in zip(matches, precision[s], ref_counts, w_labels, strict=True):
            if m:
                outs.append(as_int(m / p, f"{s} bucket {lab}: matches / precision"))
            elif n == 0 and lab != "<1":
                outs.append(0)
            else:
                outs.append(None)
        unknown = [i for i, o in enumerate(outs) if o is None]
        if len(unknown) > 1:
            sys.exit(f"{s}: output words of buckets {unknown} cannot be derived")
        if unknown:
            outs[unknown[0]] = hyp_words[s] - sum(o for o in outs if o is not None)
        if sum(outs) != hyp_words[s]:
            sys.exit(f"{s}: derived output words {sum(outs)} != {hyp_words[s]}")
        for p, r, f in zip(precision[s], recall[s], fmeas[s], strict=True):
            want = 2 * p * r / (p + r) if p + r else 0.0
            if not math.isclose(f, want, rel_tol=1e-12, abs_tol=1e-15):
                sys.exit(f"{s}: F {f} != 2PR/(P+R) {want}")
        derived[s] = {"matches": matches, "hyp_words": outs}

    # ---- sentence buckets
    def sent_table(title: str, labels_want: list[str], as_count: bool):
        labels, cells, _ = bucket_table(find(p_sec, SENT, title)[0], systems)
        if labels != labels_want:
            sys.exit(f"sentence bucket labels {labels} != {labels_want}")
        conv = (lambda c: int(c)) if as_count else num
        return {s: [conv(c) for c in v] for s, v in cells.items()}

    len_labels, ld_labels = bucket_labels(LENGTH_CUTOFFS), bucket_labels(LENGTHDIFF_CUTOFFS)
    len_bleu = sent_table("--- bucket type: length, statistic type: BLEU", len_labels, False)
    # compare-mt 0.2.10 cannot print these: 'bucket_type=length' with the default
    # statistic_type=count sets ref=None, then buckets by output length and crashes
    # (AttributeError: 'NoneType' object has no attribute 'append'); output_bucket_details=True
    # with statistic_type=score crashes too (TypeError in a lambda). Counted here instead.
    with open(REPO / files["ref"], encoding="utf-8") as f:
        ref_lens = [len(line.split()) for line in f]
    len_cnt_ref = [0] * len(len_labels)
    for n in ref_lens:
        below = [i for i, c in enumerate(LENGTH_CUTOFFS) if n < c]
        len_cnt_ref[below[0] if below else len(LENGTH_CUTOFFS)] += 1
    ld_cnt = sent_table(
        "--- bucket type: len(output)-len(reference), statistic type: count", ld_labels, True
    )
    ld_bleu = sent_table(
        "--- bucket type: len(output)-len(reference), statistic type: BLEU", ld_labels, False
    )
    for s in systems:
        if sum(ld_cnt[s]) != n_sents:
            sys.exit(f"{s}: sentence counts sum to {sum(ld_cnt[s])}, not {n_sents}")

    # ---- default run (4 decimals): keep printed strings, check against the precise values
    def printed_rows(section, with_counts=False):
        labels, cells, _ = bucket_table(section, systems, with_counts)
        return {"bucket_labels": labels, "values": cells}

    d_bleu = aggregate_table(find(d_sec, AGG, "BLEU:")[0], systems)
    d_word = printed_rows(find(d_sec, WORD, "--- word fmeas by frequency bucket")[0])
    d_len = printed_rows(find(d_sec, SENT, "--- bucket type: length, statistic type: BLEU")[0])
    d_ld = printed_rows(
        find(d_sec, SENT, "--- bucket type: len(output)-len(reference), statistic type: count")[0]
    )

    def fmt4(x: float) -> str:
        # compare-mt prints a Python int 0 (corpus BLEU with no unigram match) as "0"
        return f"{x:.4f}"

    for s in systems:
        pairs = [(d_bleu[s], bleu[s])]
        pairs += list(zip(d_word["values"][s], fmeas[s], strict=True))
        pairs += list(zip(d_len["values"][s], len_bleu[s], strict=True))
        for shown, value in pairs:
            if shown != fmt4(value) and not (shown == "0" and value == 0):
                sys.exit(f"{s}: default run printed {shown}, precise value {value!r}")
        if [int(c) for c in d_ld["values"][s]] != ld_cnt[s]:
            sys.exit(f"{s}: lengthdiff counts differ between runs")

    golden = {
        "description": (
            "Golden values from compare-mt 0.2.10 (Neubig et al. 2019) on the bundled WMT21 TED "
            "en-de MQM data, whitespace tokens (mtpalette -tok none), case-sensitive. Generated "
            "by scripts/compare_mt_golden.py, which runs compare-mt as a subprocess and parses "
            "its printed text output; see that script's docstring."
        ),
        "compare_mt_version": version.split()[-1],
        "data": {"n_sentences": n_sents, "systems": systems, "files": data},
        "tokenization": (
            "compare-mt: each line .strip().split(' '); no lowercasing (case_insensitive "
            "defaults to False). Identical to str.split() on these files."
        ),
        "commands": commands,
        "aggregate": {
            "bleu": bleu,
            "bleu_scale": "0-100 (--scorer_scale default 100)",
            "length_ratio": length_ratio,
            "ref_words": ref_words,
            "hyp_words": hyp_words,
        },
        "word_accuracy": {
            "bucket_type": "freq",
            "frequency_source": "reference (no --freq_corpus_file/--freq_count_file)",
            "bucket_cutoffs": WORD_CUTOFFS,
            "bucket_labels": w_labels,
            "ref_words_per_bucket": ref_counts,
            "precision": precision,
            "recall": recall,
            "fmeasure": fmeas,
            "derived_counts": derived,
            "derived_counts_note": (
                "Not printed by compare-mt: matches = recall x ref_words_per_bucket, hyp_words "
                "= matches / precision; hyp words in bucket '<1' (types absent from all "
                "references, never matched) = total hyp words (length-ratio report) minus the "
                "others."
            ),
            "label_note": (
                "compare-mt 0.2.10 prints recall in the table titled 'word prec' and precision "
                "in the table titled 'word rec' (swapped index map in its WordReport); stored "
                "here by true meaning: precision = matches / hyp words, recall = matches / ref "
                "words. A bucket with 0 matches prints 0 for P, R and F."
            ),
        },
        "sentence_buckets": {
            "length": {
                "bucket_on": "len(reference tokens)",
                "bucket_cutoffs": LENGTH_CUTOFFS,
                "bucket_labels": len_labels,
                "sentence_counts": len_cnt_ref,
                "sentence_counts_note": (
                    "Counted by this script from ref.txt (whitespace tokens), not printed by "
                    "compare-mt: its count statistic for bucket_type=length crashes in 0.2.10."
                ),
                "bleu": len_bleu,
            },
            "lengthdiff": {
                "bucket_on": "len(output tokens) - len(reference tokens)",
                "bucket_cutoffs": LENGTHDIFF_CUTOFFS,
                "bucket_labels": ld_labels,
                "sentence_counts": ld_cnt,
                "bleu": ld_bleu,
                "bleu_note": "empty buckets print 0.0 (compare-mt's value for an empty corpus)",
            },
            "bleu_note": (
                "Per bucket: compare-mt's own corpus BLEU of the bucket's sentences (sums of "
                "clipped n-gram counts, n=1..4, uniform weights, no smoothing, brevity penalty "
                "from summed lengths), 0-100. Quirks: each sentence adds max(1, #hyp n-grams) "
                "to the order-n denominator; an order with zero matches contributes log p = 0 "
                "(factor 1) instead of zeroing the score; the score is 0 only if no unigram "
                "matches; BP = min(1, exp(1 - ref_len/hyp_len)), 0 if hyp_len = 0."
            ),
        },
        "default_run_printed": {
            "note": "Strings exactly as printed by the 'default' command (4 decimals).",
            "bleu": d_bleu,
            "word_fmeas_by_frequency": d_word,
            "bleu_by_length": d_len,
            "count_by_lengthdiff": d_ld,
        },
    }

    out = REPO / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(golden, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
