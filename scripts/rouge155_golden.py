"""Regenerate ``tests/data/rouge155/golden.json.gz`` by running the original ROUGE-1.5.5.pl.

The script itself is not part of mtpalette (its licence does not allow redistribution); pass
the path of a copy. See ``tests/data/rouge155/README.md`` for where ours came from, the
one-time setup (XML::DOM, rebuilding the WordNet exception DB) and the JSON schema.

Usage::

    python scripts/extract_mqm_ted.py --out /tmp/mqm_ted       # the real texts, from ../shared
    python scripts/rouge155_golden.py /path/to/ROUGE-1.5.5/ROUGE-1.5.5.pl --mqm-ted /tmp/mqm_ted \\
        [--data-dir /path/to/ROUGE-1.5.5/data] [--out tests/data/rouge155/golden.json.gz]

The real TED texts are scored but not written to the golden file (issue 56: no third-party text
in the repository): ``source`` names the files, and the test rebuilds the strings from the
shared data with :func:`normalise`. Paths in the recorded commands are written as
``$ROUGE_DIR`` (the script's folder) and ``$WORKDIR`` (the inputs' folder), not as one machine's.

What it does:

1. Normalises every sentence so that ROUGE-1.5.5's own preprocessing is a no-op (see
   ``normalise``): the golden file stores exactly the strings that ROUGE scored, and a
   reimplementation scores them with whitespace tokenization.
2. Writes one file per distinct sentence and one ``-z SPL`` pair list per set (one line per
   pair: ``peer model1 [model2]``), so that one Perl process scores all pairs of a set.
3. Runs, for each option group in ``RUNS``, three flavours:
   * ``scores5``: the unmodified script, per-pair R/P/F as printed (5 decimals, ``-d``);
   * ``counts``: the unmodified script with ``-t 2``: per pair the raw model count, peer count
     and hit count (``-d`` prints them in the R:, P:, F: slots);
   * ``scores10``: a copy of the script, written to the work folder, in which every ``%7.5f``
     is replaced by ``%.10f`` (nothing else changed; the ``%07.5f`` used to pick the best
     reference under ``-f B`` is kept), so R/P/F come with 10 decimals.
4. Parses the ``Eval`` lines and writes one gzip-compressed JSON file.

References
----------
Lin, C.-Y. (2004). ROUGE: A Package for Automatic Evaluation of Summaries. ROUGE-1.5.5.pl.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from mtpalette.io.plain import read_lines

NORMALISATION = (
    "Every maximal run of characters outside [A-Za-z0-9] (Python re, on the decoded UTF-8 text) "
    "is replaced by one space, ASCII letters are lowercased, and the tokens are joined by single "
    "spaces with no leading/trailing space. ROUGE-1.5.5 reads bytes, lowercases A-Z, turns '-' "
    "into ' - ' and every other byte outside [A-Za-z0-9-] into a space, and keeps only tokens "
    "starting with [a-z0-9$]; on normalised text this is the identity, so a reimplementation "
    "must score the stored strings with plain whitespace tokenization (mtpalette tokenizer "
    "'none') and no lowercasing, stemming or stopword removal."
)

SOURCE = (
    "https://github.com/andersjo/pyrouge tools/ROUGE-1.5.5/ROUGE-1.5.5.pl "
    "at commit 3b6c415204dbc2c8360a01d92533441f4aae95eb"
)
SETUP = (
    "Perl 5 with XML::DOM (Debian libxml-dom-perl) and DB_File; the data dir's "
    "WordNet-2.0.exc.db (Berkeley DB 1.85, unreadable by current DB_File; the script dies if it "
    "cannot open it even without -m) rebuilt with "
    "'cd data/WordNet-2.0-Exceptions && perl buildExeptionDB.pl . exc ../WordNet-2.0.exc.db'. "
    "No stemming (-m), no stopword removal (-s), no length limit (-l/-b)."
)

# Each group is one ROUGE invocation; metric names are the tags ROUGE prints.
RUNS: list[tuple[str, list[str]]] = [
    (
        "-n 2 -w 1.2 -2 4 -U",
        ["ROUGE-1", "ROUGE-2", "ROUGE-L", "ROUGE-W-1.2", "ROUGE-S4", "ROUGE-SU4"],
    ),
    ("-x -w 2.0 -2 0 -U", ["ROUGE-W-2.0", "ROUGE-S0", "ROUGE-SU0"]),
    ("-x -w 1.5 -2 1 -U", ["ROUGE-W-1.5", "ROUGE-S1", "ROUGE-SU1"]),
    ("-x -2 9 -U", ["ROUGE-S9", "ROUGE-SU9"]),
    ("-x -2 -1 -U", ["ROUGE-S*", "ROUGE-SU*"]),
]

# Options shared by every run: sentence-per-line pair list, F with alpha = 0.5 (F1), the
# default confidence level and number of bootstrap samples (they do not affect per-pair values).
COMMON = "-z SPL -p 0.5 -c 95 -r 1000 -d"

ZHEN_1REF = ["Facebook-AI", "NiuTrans", "Online-W", "SMU"]
ZHEN_2REF = ["Borderline", "DIDI-NLP"]

# The papers' worked examples (Lin & Och 2004; STYLE.md), reference first.
PAPER_1REF = [
    # ROUGE-W example: X is the reference, Y1 and Y2 the candidates.
    ("paper-w-y1", "a b c d h i k", ["a b c d e f g"]),
    ("paper-w-y2", "a h b k c i d", ["a b c d e f g"]),
    # ROUGE-L / ROUGE-S example: S1 is the reference.
    ("paper-s-s2", "police kill the gunman", ["police killed the gunman"]),
    ("paper-s-s3", "the gunman kill police", ["police killed the gunman"]),
    ("paper-s-s4", "the gunman police killed", ["police killed the gunman"]),
]

# Synthetic (invented, NOT real data) pairs that pin down edge behaviour of the script.
SYNTHETIC_1REF = [
    ("w-roles-swapped", "a b c d e f g", ["a h b k c i d"]),
    ("w-gap-in-peer", "a x b", ["a b"]),
    ("w-gap-in-model", "a b", ["a x b"]),
    ("clip-repeats", "the the the the", ["the cat sat on the mat"]),
    ("lcs-ties", "a b a b", ["b a b a"]),
    ("one-token-peer", "gunman", ["police killed the gunman"]),
    ("one-token-both", "gunman", ["gunman"]),
    ("two-tokens", "police gunman", ["police gunman"]),
    ("identical", "police killed the gunman", ["police killed the gunman"]),
    ("no-overlap", "a b c", ["d e f"]),
    ("empty-peer", "", ["police killed the gunman"]),
    ("long-gap", "a b c d e f g h i j k l", ["a l"]),
]
SYNTHETIC_2REF = [
    ("recall-tie-first-wins", "a c", ["a b", "a c d e"]),
    ("recall-tie-second-better-p", "a c", ["a c d e", "a b"]),
    (
        "second-ref-better",
        "police kill the gunman",
        ["the gunman was shot", "police killed the gunman"],
    ),
    (
        "paper-s2-two-refs",
        "police kill the gunman",
        ["police killed the gunman", "the gunman kill police"],
    ),
    ("one-token-ref", "police killed the gunman", ["gunman", "police killed the gunman"]),
]

_EVAL = re.compile(r"^(\S+) (ROUGE-\S+) Eval (\d+)\.(\S+) R:(\S+) P:(\S+) F:(\S+)$")


def normalise(text: str) -> str:
    """Map a sentence to the form on which ROUGE-1.5.5's preprocessing is the identity.

    Examples
    --------
    >>> normalise("Don't -- stop, Café 42!")
    'don t stop caf 42'
    """
    return " ".join(re.sub(r"[^A-Za-z0-9]+", " ", text).lower().split())


def _ted_set(root: Path, systems: list[str], refs: list[str], description: str) -> dict:
    """A set of real TED texts (``root``: ``extract_mqm_ted.py``'s ``zhen`` folder)."""
    references = [
        list(r)
        for r in zip(
            *[[normalise(x) for x in read_lines(root / f"{n}.txt")] for n in refs], strict=True
        )
    ]
    cand, seg, sysname = [], [], []
    for s in systems:
        for i, line in enumerate(read_lines(root / f"{s}.txt")):
            cand.append(normalise(line))
            seg.append(i)
            sysname.append(s)
    return {
        "description": description,
        "real_data": True,
        "source": {
            "files": [f"mqm_ted/zhen/{n}.txt" for n in systems + refs],
            "systems": systems,
            "reference_files": [f"{n}.txt" for n in refs],
        },
        "references": references,
        "pairs": {"candidate": cand, "segment": seg, "system": sysname},
    }


def without_texts(ds: dict, paths: dict[str, str]) -> dict:
    """``ds`` as written: a real set's strings left out (rebuilt from ``source`` by the
    tests), and the commands' paths replaced by the names in ``paths``."""
    out = json.loads(json.dumps(ds))
    if out.get("real_data"):
        del out["references"]
        del out["pairs"]["candidate"]
        out["texts"] = "not stored: normalise() of source.files (extract_mqm_ted.py's output)"
    for mode in out.get("modes", {}).values():
        for command in mode["commands"]:
            for path, name in sorted(paths.items(), key=lambda kv: -len(kv[0])):
                command["argv"] = command["argv"].replace(path, name)
    return out


def _listed_set(items: list[tuple[str, str, list[str]]], description: str, real: bool) -> dict:
    for _, c, rs in items:
        assert c == normalise(c) and all(r == normalise(r) for r in rs), "not normalised"
    return {
        "description": description,
        "real_data": real,
        "references": [rs for _, _, rs in items],
        "pairs": {
            "candidate": [c for _, c, _ in items],
            "segment": list(range(len(items))),
            "system": [k for k, _, _ in items],
        },
    }


def _patched_copy(script: Path, workdir: Path) -> Path:
    text = script.read_text(encoding="latin-1")
    n = text.count('"%7.5f"')
    out = workdir / "ROUGE-1.5.5-10dec.pl"
    out.write_text(text.replace('"%7.5f"', '"%.10f"'), encoding="latin-1")
    print(f"patched copy: {n} occurrences of %7.5f -> %.10f", file=sys.stderr)
    return out


def _write_inputs(ds: dict, workdir: Path, name: str) -> Path:
    """One file per distinct sentence; one pair list line per pair."""
    texts: dict[str, Path] = {}
    tdir = workdir / name
    tdir.mkdir(parents=True, exist_ok=True)

    def path_of(s: str) -> str:
        if s not in texts:
            p = tdir / f"{len(texts)}.txt"
            p.write_text(s + "\n" if s else "", encoding="ascii")
            texts[s] = p
        return str(texts[s])

    lines = []
    for c, seg in zip(ds["pairs"]["candidate"], ds["pairs"]["segment"], strict=True):
        lines.append(" ".join([path_of(c)] + [path_of(r) for r in ds["references"][seg]]))
    cfg = workdir / f"{name}.lst"
    cfg.write_text("\n".join(lines) + "\n", encoding="ascii")
    return cfg


def _run(perl_script: Path, data_dir: Path, options: str, cfg: Path) -> tuple[str, dict]:
    argv = ["perl", str(perl_script), "-e", str(data_dir), *shlex.split(options), str(cfg)]
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"ROUGE failed ({proc.returncode}): {' '.join(argv)}\n{proc.stderr}")
    if proc.stderr.strip():
        print(f"ROUGE stderr for {' '.join(argv)}:\n{proc.stderr}", file=sys.stderr)
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for line in proc.stdout.splitlines():
        m = _EVAL.match(line)
        if m:
            out.setdefault(m.group(2), {})[int(m.group(3))] = m.group(5, 6, 7)
    return " ".join(argv), out


def _num(s: str) -> int | float:
    v = float(s)
    return int(v) if v.is_integer() and "e" not in s.lower() else v


def _score_set(
    ds: dict, name: str, mode: str, script: Path, patched: Path, data_dir: Path, workdir: Path
) -> dict:
    cfg = _write_inputs(ds, workdir, name)
    n = len(ds["pairs"]["candidate"])
    metrics: dict[str, dict[str, list]] = {}
    commands = []
    flavours = [("scores5", script, ""), ("counts", script, "-t 2"), ("scores10", patched, "")]
    for opts, names in RUNS:
        for flavour, prog, extra in flavours:
            options = f"{COMMON} -f {mode} {extra} {opts}".replace("  ", " ")
            cmd, out = _run(prog, data_dir, options, cfg)
            commands.append({"flavour": flavour, "argv": cmd})
            if sorted(out) != sorted(names):
                raise RuntimeError(f"expected metrics {names}, got {sorted(out)}")
            for metric, rows in out.items():
                if sorted(rows) != list(range(1, n + 1)):
                    raise RuntimeError(f"{metric}: {len(rows)} evals for {n} pairs")
                col = metrics.setdefault(metric, {})
                vals = [rows[i + 1] for i in range(n)]
                if flavour == "counts":
                    for j, k in enumerate(("model_count", "peer_count", "hit")):
                        col[k] = [_num(v[j]) for v in vals]
                else:
                    sfx = "5" if flavour == "scores5" else ""
                    for j, k in enumerate("RPF"):
                        col[k + sfx] = [float(v[j]) for v in vals]
        print(f"{name} -f {mode}: {opts} done", file=sys.stderr)
    return {"commands": commands, "metrics": metrics}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rouge", type=Path, help="path to ROUGE-1.5.5.pl")
    ap.add_argument("--data-dir", type=Path, help="ROUGE data dir (default: <script dir>/data)")
    ap.add_argument("--out", type=Path, default=Path("tests/data/rouge155/golden.json.gz"))
    ap.add_argument("--workdir", type=Path, help="keep the inputs here (default: a temp dir)")
    ap.add_argument("--source", default=SOURCE, help="where the script came from (recorded)")
    ap.add_argument("--mqm-ted", type=Path, required=True, help="extract_mqm_ted.py's --out")
    args = ap.parse_args(argv)
    zhen = args.mqm_ted / "zhen"
    script = args.rouge.resolve()
    data_dir = (args.data_dir or script.parent / "data").resolve()

    sets = {
        "zhen_1ref": (
            _ted_set(
                zhen,
                ZHEN_1REF,
                ["ref"],
                "WMT21 TED zh-en, 4 systems x 529 segments, reference ref.txt",
            ),
            ["A"],
        ),
        "zhen_2ref": (
            _ted_set(
                zhen,
                ZHEN_2REF,
                ["ref", "refB"],
                "WMT21 TED zh-en, 2 other systems x 529 segments, references ref.txt "
                "and refB.txt (in that order; order matters for -f B ties)",
            ),
            ["A", "B"],
        ),
        "paper": (
            _listed_set(
                PAPER_1REF,
                "Worked examples of Lin & Och (2004) as listed in STYLE.md (reference X / S1)",
                real=False,
            ),
            ["A"],
        ),
        "synthetic_1ref": (
            _listed_set(SYNTHETIC_1REF, "Invented edge cases (not real data)", real=False),
            ["A"],
        ),
        "synthetic_2ref": (
            _listed_set(SYNTHETIC_2REF, "Invented multi-reference cases (not real data)", False),
            ["A", "B"],
        ),
    }

    with tempfile.TemporaryDirectory() as tmp:
        workdir = (args.workdir or Path(tmp)).resolve()
        workdir.mkdir(parents=True, exist_ok=True)
        patched = _patched_copy(script, workdir)
        out_sets = {}
        for name, (ds, modes) in sets.items():
            ds["modes"] = {
                m: _score_set(ds, name, m, script, patched, data_dir, workdir) for m in modes
            }
            out_sets[name] = without_texts(ds, {str(script.parent): "$ROUGE_DIR",
                                                str(workdir): "$WORKDIR"})  # fmt: skip
        golden = {
            "schema": 1,
            "generator": "scripts/rouge155_golden.py",
            "rouge": {
                "script": "ROUGE-1.5.5.pl",
                "version_line": next(
                    ln
                    for ln in script.read_text(encoding="latin-1").splitlines()
                    if ln.startswith("# Version:")
                ),
                "sha256": hashlib.sha256(script.read_bytes()).hexdigest(),
                "source": args.source,
                "perl": subprocess.run(
                    ["perl", "-e", "print $^V"], capture_output=True, text=True, check=True
                ).stdout,
                "setup": SETUP,
                "common_options": COMMON,
                "runs": [{"options": o, "metrics": m} for o, m in RUNS],
                "flavours": {
                    "scores5": "unmodified script; R5/P5/F5 as printed by -d (5 decimals; F5 is "
                    "computed by ROUGE from the already rounded R5 and P5)",
                    "counts": "unmodified script with -t 2; model_count/peer_count/hit per pair "
                    "(Perl's default number formatting, 15 significant digits)",
                    "scores10": "copy of the script with every '%7.5f' replaced by '%.10f'; R/P/F "
                    "with 10 decimals (F computed from the 10-decimal R and P)",
                },
                "decimals": {"R5": 5, "P5": 5, "F5": 5, "R": 10, "P": 10, "F": 10},
            },
            "normalisation": NORMALISATION,
            "sets": out_sets,
        }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(golden, separators=(",", ":"), sort_keys=False).encode()
    with (
        open(args.out, "wb") as fh,
        gzip.GzipFile(filename="", fileobj=fh, mode="wb", mtime=0) as gz,
    ):
        gz.write(raw)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
