"""Fit the bundled UPOS tagger of :mod:`mtpalette.text.pos` on UD English-EWT.

Trains a multinomial logistic regression (scikit-learn) on ``en_ewt-ud-dev.conllu``, reports
token accuracy on the held-out ``en_ewt-ud-test.conllu``, keeps the features seen at least
``--min-count`` times, and writes ``src/mtpalette/data/pos/en_ewt_upos.npz``::

    python scripts/train_pos_tagger.py --data ../shared/data/pos
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from mtpalette.text.pos import PosTagger, read_tagger, token_features


def read_conllu(path: Path) -> list[tuple[list[str], list[str]]]:
    """(words, UPOS tags) of every sentence; multi-word token lines and empty nodes skipped."""
    out, words, tags = [], [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if words:
                out.append((words, tags))
            words, tags = [], []
        elif not line.startswith("#"):
            cols = line.split("\t")
            if "-" in cols[0] or "." in cols[0]:
                continue
            words.append(cols[1])
            tags.append(cols[3])
    if words:
        out.append((words, tags))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=Path("../shared/data/pos"))
    ap.add_argument("--out", type=Path, default=Path("src/mtpalette/data/pos/en_ewt_upos.npz"))
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--C", type=float, default=5.0)
    args = ap.parse_args()
    train = read_conllu(args.data / "en_ewt-ud-dev.conllu")
    test = read_conllu(args.data / "en_ewt-ud-test.conllu")
    counts = Counter(f for w, _ in train for i in range(len(w)) for f in token_features(w, i))
    keep = {f for f, c in counts.items() if c >= args.min_count}
    X = [{f: 1 for f in token_features(w, i) if f in keep} for w, _ in train for i in range(len(w))]
    y = [t for _, tags in train for t in tags]
    vec = DictVectorizer()
    Xs = vec.fit_transform(X)
    t0 = time.time()
    clf = LogisticRegression(C=args.C, max_iter=300)
    clf.fit(Xs, y)
    print(f"fitted in {time.time() - t0:.1f}s, {Xs.shape[1]} features, {len(y)} tokens")
    names = list(vec.get_feature_names_out())
    W = clf.coef_.T.astype(np.float32)
    tagger = PosTagger(names, W, clf.intercept_, list(clf.classes_))
    gold = [t for _, tags in test for t in tags]
    # accuracy of the model as stored (float16 weights), read back from the file
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tagger.save(args.out, names)
    stored = read_tagger(args.out)
    pred = [t for w, _ in test for t in stored.tag(w)]
    acc = float(np.mean([p == g for p, g in zip(pred, gold, strict=True)]))
    tagger.info = {
        "train": "UD_English-EWT dev (r2.x), " + f"{len(train)} sentences, {len(y)} tokens",
        "test": f"UD_English-EWT test, {len(test)} sentences, {len(gold)} tokens",
        "test_accuracy": round(acc, 4),
        "model": f"sklearn LogisticRegression C={args.C}, features seen >= {args.min_count}x",
    }
    tagger.save(args.out, names)
    print(f"held-out UPOS accuracy {acc:.4f} on {len(gold)} tokens; wrote {args.out}")
    print(f"size {args.out.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
