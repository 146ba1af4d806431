"""Limited ORANGE ranked by features (Yu et al.): one reference, a pivot translation of every
source segment, and the features to rank with; what to train them on is part of the run::

    mtpalette orange --refs ref.zh --systems-dir outputs/ --pivot pivot.zh --source src.en \\
        --features ade,flu,sim --lm-text mono.zh --tm-source train.en --tm-target train.zh \\
        --tokenize jieba --synonyms cilin -m bleus:4 bleus-syn:4 rouge-l rouge-l-syn

See :mod:`mtpalette.metaeval.limited`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import SILENT, Feedback
from mtpalette.flags import LIMITED, flag

if TYPE_CHECKING:
    from mtpalette.metaeval.candidates import CandidateLists
    from mtpalette.metaeval.orange import Comparisons
    from mtpalette.metrics import Metric
    from mtpalette.models.ibm1 import IBMModel1


@dataclass
class LimitedFeatures(Description):
    """The pivot and the features of feature-ranked Limited ORANGE.

    Examples
    --------
    >>> LimitedFeatures(Path("pivot.txt"), features="sim").validate()
    """

    kind = "limited"
    pivot: Path = flag(
        "--pivot", panel=LIMITED, help="A pivot translation (one reference)."
    ).field()
    features: str = flag("--features", panel=LIMITED, help="ade,flu,sim.").field("ade,flu,sim")
    weights: str | None = flag(
        "--feature-weights", panel=LIMITED, help="One weight per feature."
    ).field(None)
    mode: str = flag("--feature-mode", panel=LIMITED, help="pivot (paper) or direct.").field(
        "pivot"
    )
    lm_text: list[Path] | None = flag("--lm-text", panel=LIMITED, help="LM training text.").field(
        None
    )
    tm_source: list[Path] | None = flag(
        "--tm-source", panel=LIMITED, help="TM source side."
    ).field(None)
    tm_target: list[Path] | None = flag(
        "--tm-target", panel=LIMITED, help="TM target side."
    ).field(None)
    synonyms: str | None = flag(
        "--synonyms", panel=LIMITED, help="Similarity: cilin, wordnet, @FILE."
    ).field(None)
    source_tokenize: str = flag(
        "--source-tokenize", panel=LIMITED, help="Source tokenizer."
    ).field("13a")

    def validate(self) -> None:
        from mtpalette.metaeval.limited import parse_weights

        parse_weights(self.features, self.weights)

    def comparisons(
        self,
        lists: CandidateLists,
        parsed: list[Metric],
        *,
        source: Path | None,
        tokenize: str,
        feedback: Feedback = SILENT,
    ) -> list[Comparisons]:
        """Train what the features need, then one Comparisons per metric."""
        from mtpalette.io.plain import read_lines
        from mtpalette.metaeval.limited import LimitedSetup, limited_comparisons, parse_weights
        from mtpalette.models.ngram_lm import KneserNeyLM
        from mtpalette.text.synonyms import load_synonyms
        from mtpalette.text.tokenizers import get_tokenizer

        w = parse_weights(self.features, self.weights)
        tok = get_tokenizer(tokenize)
        lm = tm = None
        if w.get("flu"):
            if not self.lm_text:
                raise UserInputError(
                    "the fluency feature needs --lm-text FILE... (target language)"
                )
            lines = [tok(x) for p in self.lm_text for x in read_lines(p) if x.strip()]
            feedback.note(f"training a 4-gram Kneser-Ney LM on {len(lines)} sentences")
            lm = KneserNeyLM.train(lines, order=4)
        if w.get("ade"):
            tm = self._translation_model(tok, feedback)
        if w.get("ade") and source is None:
            raise UserInputError("the adequacy feature needs --source (the source sentences)")
        sources = read_lines(source) if source is not None else [""] * lists.n_segments
        synonyms = load_synonyms(self.synonyms) if self.synonyms else None
        setup = LimitedSetup(w, self.mode, synonyms, tokenize, self.source_tokenize, lm, tm)
        pivots = read_lines(self.pivot)
        return [
            limited_comparisons(lists, sources, pivots, m, setup)
            for m in feedback.track(parsed, "ranking by features")
        ]

    def _translation_model(self, tok, feedback: Feedback) -> IBMModel1:
        from mtpalette.io.plain import read_lines
        from mtpalette.models.ibm1 import IBMModel1
        from mtpalette.text.tokenizers import get_tokenizer

        if not self.tm_source or not self.tm_target or len(self.tm_source) != len(self.tm_target):
            raise UserInputError(
                "the adequacy feature needs --tm-source and --tm-target files "
                "(parallel, as many of each)"
            )
        src_tok = get_tokenizer(self.source_tokenize)
        pairs = []
        for s_path, t_path in zip(self.tm_source, self.tm_target, strict=True):
            s_lines, t_lines = read_lines(s_path), read_lines(t_path)
            if len(s_lines) != len(t_lines):
                raise UserInputError(
                    f"has {len(t_lines)} lines but {s_path} has {len(s_lines)}", path=str(t_path)
                )
            pairs += [(src_tok(a), tok(b)) for a, b in zip(s_lines, t_lines, strict=True)]
        feedback.note(f"training IBM Model 1 on {len(pairs)} sentence pairs")
        tm, _ = IBMModel1.train(pairs, iterations=5)
        return tm
