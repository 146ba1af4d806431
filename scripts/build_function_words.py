"""Build ``src/mtpalette/data/lexical/function_words_100.json``: 100 function words per
language, the size of Song and Cohn (2011)'s lists ("100 common function words list of four
languages", section 4.1), for ROSE's function-word count (``function_words="fw100"``).

For each language the words of the ``stopwordsiso`` list (MIT licence) are ranked by their
frequency in the WMT12 newstest2012 reference of that language (13a tokens, lower-cased; ties
by the word), and the 100 most frequent are kept. Only word frequencies are read from the
text, never a judgment; the texts are the WMT12 test set, so the lists are stated as such in
the NOTICE and in ``results/README.md``.

Usage::

    python scripts/build_function_words.py [--data-dir ../shared/data]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from shared_data import shared_data  # noqa: E402  (scripts/shared_data.py)

LANGS = ("cs", "de", "en", "es", "fr")
OUT = Path(__file__).parents[1] / "src" / "mtpalette" / "data" / "lexical"


def main(argv=None) -> int:
    from importlib.metadata import version

    import stopwordsiso

    from mtpalette.io.plain import read_lines
    from mtpalette.text.tokenizers import tokenize_13a

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data-dir", type=Path, default=shared_data())
    ap.add_argument("--size", type=int, default=100)
    args = ap.parse_args(argv)
    refs = args.data_dir / "wmt12" / "wmt_data" / "wmt12-data" / "plain" / "references"
    if not refs.is_dir():
        print(f"SKIP: {refs} is absent")
        return 0
    out = {
        "source": f"stopwordsiso {version('stopwordsiso')} lists, the 100 most frequent in "
        "WMT12 newstest2012 (13a, lower-cased)",
        "script": "scripts/build_function_words.py",
        "words": {},
    }
    for lang in LANGS:
        stop = {w.lower() for w in stopwordsiso.stopwords(lang)}
        counts = Counter(
            t
            for line in read_lines(refs / f"newstest2012-ref.{lang}")
            for t in tokenize_13a(line.lower())
        )
        ranked = sorted((w for w in stop if counts[w] > 0), key=lambda w: (-counts[w], w))
        out["words"][lang] = ranked[: args.size]
        print(f"{lang}: {len(stop)} stopwordsiso words, kept {len(out['words'][lang])}")
    path = OUT / "function_words_100.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
