"""Golden values of WMT26's paragraph alignment (merge and split), computed by running the
organisers' own functions, unmodified, on hand cases and on seeded random documents.

Source: https://github.com/wmt-conference/wmt26-general-mt at commit
1fa5211cb0595270a06374b29db0d7c7565a39fa; the rule is ``humeval/wmt_test_alignment.py``
(``align_segments_by_merging_tgt``, ``align_segments_by_splitting_tgt``; last changed in
d2b5ce3). The file is read from a snapshot of that repository (``git show`` into a temporary
folder) and imported; nothing of it is copied into this repository. Its module-level code
only sets paths and defines functions (``main`` runs under ``__name__ == "__main__"``).

Run (writes tests/data/wmt26_alignment/golden.json)::

    python scripts/wmt26_alignment_golden.py \
        --git-dir WMT26_GENERAL_MT_GIT_DIR \
        --commit 1fa5211cb0595270a06374b29db0d7c7565a39fa

The cases are written by this script (hand cases and texts drawn from a small invented
vocabulary); ``tests/text/test_paragraphs.py`` compares ``mtpalette.text.paragraphs`` with
every recorded output.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import subprocess
import tempfile
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "wmt26_alignment" / "golden.json"
PATH = "humeval/wmt_test_alignment.py"

HAND = [
    # (source paragraphs, target paragraphs), project-written
    (["One two three four.", "Five six."], ["Un deux", "trois quatre.", "Cinq six."]),
    (["A.", "B.", "C."], ["X.", "Y.", "Z.", "W."]),
    (
        ["Short.", "A much longer paragraph here."],
        ["Kurz.", "Ein viel", "längerer Absatz", "hier."],
    ),
    (["aa", "aa"], ["x", "x", "x", "x"]),  # ties: the first grouping wins
    (["One. Two.", "Three."], ["Eins. Zwei. Drei."]),
    (
        ["First sentence here. Second one.", "Third.", "Fourth!"],
        ["Erster Satz. Zweiter. Dritter! Vierter?"],
    ),
    (["你好。", "再见。"], ["你好。再见。"]),
    (["He said.", "Go."], ['Er sagte "Geh!" Dann ging er.']),
    (["No.", "Ends."], ["no sentence end at all"]),
    (["A.", "B."], ["Only one. "]),
]


def _load(git_dir: str, commit: str):
    text = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", f"{commit}:{PATH}"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    folder = Path(tempfile.mkdtemp())
    (folder / "wmt_test_alignment.py").write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(
        "wmt_test_alignment", folder / "wmt_test_alignment.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


WORDS = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"]
ENDS = [".", "!", "?", '."', ","]


def _paragraph(rng: random.Random) -> str:
    sents = []
    for _ in range(rng.randint(1, 4)):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))
        sents.append(words.capitalize() + rng.choice(ENDS))
    return " ".join(sents)


def _random_cases(rng: random.Random, count: int) -> list[tuple[list[str], list[str]]]:
    cases = []
    for _ in range(count):
        m = rng.randint(1, 5)
        n = rng.randint(1, 8)
        cases.append(([_paragraph(rng) for _ in range(m)], [_paragraph(rng) for _ in range(n)]))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--git-dir", required=True)
    parser.add_argument("--commit", required=True)
    parser.add_argument("--random", type=int, default=150)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    theirs = _load(args.git_dir, args.commit)
    cases = HAND + _random_cases(random.Random(args.seed), args.random)
    records = []
    for source, target in cases:
        if len(target) > len(source):
            out = theirs.align_segments_by_merging_tgt(source, target)
        elif len(target) < len(source):
            out = theirs.align_segments_by_splitting_tgt(source, target)
        else:
            continue
        records.append({"source": source, "target": target, "aligned": out})
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(
        json.dumps(
            {"repository": "wmt-conference/wmt26-general-mt", "commit": args.commit,
             "path": PATH, "seed": args.seed, "cases": records},
            ensure_ascii=False, indent=1,
        ) + "\n",
        encoding="utf-8",
    )  # fmt: skip
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
