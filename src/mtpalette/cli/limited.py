"""The feature-ranked Limited ORANGE path of ``mtpalette orange`` (``--pivot``).

One reference, a pivot translation of every source segment, and the features to rank with::

    mtpalette orange --refs ref.zh --systems-dir outputs/ --pivot pivot.zh --source src.en \\
        --features ade,flu,sim --lm-text mono.zh --tm-source train.en --tm-target train.zh \\
        --tokenize jieba --synonyms cilin -m bleus:4 bleus-syn:4 rouge-l rouge-l-syn

See :mod:`mtpalette.metaeval.limited`.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from mtpalette.cli.progress import track
from mtpalette.errors import UserInputError
from mtpalette.io.plain import read_lines
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.limited import LimitedSetup, limited_comparisons, parse_weights
from mtpalette.metaeval.orange import Comparisons
from mtpalette.metrics import Metric
from mtpalette.models.ibm1 import IBMModel1
from mtpalette.models.ngram_lm import KneserNeyLM
from mtpalette.text.synonyms import load_synonyms
from mtpalette.text.tokenizers import get_tokenizer


def run_limited(
    console: Console,
    lists: CandidateLists,
    parsed: list[Metric],
    *,
    pivot: Path,
    source: Path | None,
    features: str,
    weights: str | None,
    mode: str,
    lm_text: list[Path] | None,
    tm_source: list[Path] | None,
    tm_target: list[Path] | None,
    synonyms: str | None,
    tokenize: str,
    source_tokenize: str,
) -> list[Comparisons]:
    """Train what the features need, then one Comparisons per metric."""
    w = parse_weights(features, weights)
    tok = get_tokenizer(tokenize)
    lm = tm = None
    if w.get("flu"):
        if not lm_text:
            raise UserInputError("the fluency feature needs --lm-text FILE... (target language)")
        lines = [tok(x) for p in lm_text for x in read_lines(p) if x.strip()]
        console.print(f"training a 4-gram Kneser-Ney LM on {len(lines)} sentences", style="dim")
        lm = KneserNeyLM.train(lines, order=4)
    if w.get("ade"):
        if not tm_source or not tm_target or len(tm_source) != len(tm_target):
            raise UserInputError(
                "the adequacy feature needs --tm-source and --tm-target files "
                "(parallel, as many of each)"
            )
        src_tok = get_tokenizer(source_tokenize)
        pairs = []
        for s_path, t_path in zip(tm_source, tm_target, strict=True):
            s_lines, t_lines = read_lines(s_path), read_lines(t_path)
            if len(s_lines) != len(t_lines):
                raise UserInputError(
                    f"has {len(t_lines)} lines but {s_path} has {len(s_lines)}", path=str(t_path)
                )
            pairs += [(src_tok(a), tok(b)) for a, b in zip(s_lines, t_lines, strict=True)]
        console.print(f"training IBM Model 1 on {len(pairs)} sentence pairs", style="dim")
        tm, _ = IBMModel1.train(pairs, iterations=5)
    if w.get("ade") and source is None:
        raise UserInputError("the adequacy feature needs --source (the source sentences)")
    sources = read_lines(source) if source is not None else [""] * lists.n_segments
    setup = LimitedSetup(
        w, mode, load_synonyms(synonyms) if synonyms else None, tokenize, source_tokenize, lm, tm
    )
    pivots = read_lines(pivot)
    return [
        limited_comparisons(lists, sources, pivots, m, setup)
        for m in track(parsed, console, "ranking by features")
    ]
