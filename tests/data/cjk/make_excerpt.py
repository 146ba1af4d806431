"""Choose the lines of the CJK test excerpt from the full texts; see README.md. Only the line
numbers are written (``*.line_numbers``): the tests read the lines from the shared data.

Usage::

    python tests/data/cjk/make_excerpt.py ../shared/data/wmt21/txt NTREX-128/

Per language the first 100 segments and the next 50 that contain both Latin letters and
digits (mixed-script lines are where the tokenizers differ most), in the original order; the
same segments of the reference and of one system output (Chinese, Japanese).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
FIRST, MIXED = 100, 50
SYSTEM = "Facebook-AI"


def pick(lines: list[str]) -> list[int]:
    """Indices: the first FIRST lines and the next MIXED with Latin letters and digits."""
    mixed = [
        i
        for i in range(FIRST, len(lines))
        if re.search("[A-Za-z]", lines[i]) and re.search("[0-9]", lines[i])
    ]
    return list(range(FIRST)) + mixed[:MIXED]


def read(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def write(name: str, lines: list[str]) -> None:
    (HERE / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")


def main(wmt21_txt: Path, ntrex: Path) -> None:
    for lang in ("zh", "ja"):
        ref = read(wmt21_txt / "references" / f"newstest2021.en-{lang}.ref.A.{lang}")
        hyp = read(wmt21_txt / "system-outputs" / f"newstest2021.en-{lang}.hyp.{SYSTEM}.{lang}")
        rows = pick(ref)
        assert len(hyp) == len(ref)
        write(f"wmt21.en-{lang}.line_numbers", [str(i + 1) for i in rows])
    ref = read(ntrex / "newstest2019-ref.kor.txt")
    rows = pick(ref)
    write("ntrex.kor.line_numbers", [str(i + 1) for i in rows])


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
