"""Training BLANC's parameters against human judgments or against ORANGE.

The parameters (alpha, beta, gamma, bf; ``n`` and the gap mode are fixed per run) are fitted
by :func:`~mtpalette.train.hillclimb.hill_climb`. An objective maps parameters to a number to
maximise:

* :class:`HumanObjective` - a correlation statistic of :mod:`mtpalette.stats.correlation`
  (Pearson, Spearman, Kendall variants, pairwise accuracy...) between BLANC and human scores,
  at segment level (optionally grouped) or at system level (system means of both), averaged
  over one or several data sets (e.g. the seven WMT17 DA language pairs);
* :class:`OrangeObjective` - minus ORANGE (leave-one-out: each reference in turn is held out,
  ranked among the candidates, all scored against the remaining references) on candidate
  lists with at least two references.

ACS counts depend only on (alpha, beta, gap) and the POS weights; they are computed once per
visited point and cached, so steps in gamma and bf cost a few array operations. With the
part-of-speech features inside each match (``pos_feature=True``, English; our instance of the
paper's abstract eq. 6 features, POS being named only as future work in its section 6: BLANC's
``lw`` and ``lt``, :data:`POS_DIMENSIONS`) the counts are over words and tags together and
the two weights are trained with the rest; with the simpler mix (``posmix_feature=True``)
the counts of the POS-tag sequences are cached beside the words' and the mix weight
``posmix`` is one more parameter (:data:`POSMIX_DIMENSION`).

``positive_only=True`` is Lita et al.'s rule (section 5): "when computing the correlation
between metrics and human judgments, we only keep strictly positive scores" - translations
that BLANC scores 0 are left out of the correlation (at segment level; at system level they
are left out of both means).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from mtpalette.errors import UserInputError
from mtpalette.io.runfile import write_json
from mtpalette.kernels.acs import AcsSettings
from mtpalette.metaeval.candidates import CandidateLists
from mtpalette.metaeval.orange import Comparisons, orange_score, segment_ranks
from mtpalette.metaeval.segments import SegmentData, require_varied
from mtpalette.metrics.base import Pairs
from mtpalette.metrics.blanc import BlancCounts, BlancParams, mix_pos, pos_view
from mtpalette.metrics.scoring import TextPairs
from mtpalette.stats.correlation import correlation
from mtpalette.stats.grouping import system_means
from mtpalette.text.encode import TextView
from mtpalette.train.hillclimb import ClimbResult, Dimension, hill_climb

#: the default search box: alpha, beta in [0, 3]; gamma in [-2, 2]; bf in [0.25, 8] (log)
DEFAULT_SPACE = (
    Dimension("alpha", 0.0, 3.0, 0.5),
    Dimension("beta", 0.0, 3.0, 0.5),
    Dimension("gamma", -2.0, 2.0, 0.5),
    Dimension("bf", 0.25, 8.0, 1.0, log=True),
)
#: the POS features inside each match: lw in [0, 6] (a tag-only match weighs exp(-lw)), lt
#: in [0, 3] (a match whose tags differ weighs exp(-lt))
POS_DIMENSIONS = (Dimension("lw", 0.0, 6.0, 1.0), Dimension("lt", 0.0, 3.0, 0.5))
#: the weight of the POS-tag scores mixed into P and R, searched in [0, 4]
POSMIX_DIMENSION = Dimension("posmix", 0.0, 4.0, 0.5)


class _CountCache:
    """BLANC counts of one :class:`Pairs` per (alpha, beta[, node weights]), computed on
    first use; ``tags``: the same sentences as POS tags, for the weights inside the matches."""

    def __init__(self, pairs: Pairs, *, gap: str, n: int, tags: Pairs | None = None) -> None:
        self.pairs, self.gap, self.n, self.tags = pairs, gap, n, tags
        self._cache: dict[tuple, BlancCounts] = {}

    def get(self, alpha: float, beta: float, params: BlancParams | None = None) -> BlancCounts:
        weights = params.weights if params is not None and params.tagged else None
        key = (round(alpha, 12), round(beta, 12), weights)
        if key not in self._cache:
            settings = AcsSettings(alpha, beta, self.n, self.gap)
            if weights is None:
                self._cache[key] = BlancCounts.compute(self.pairs, settings)
            else:
                if self.tags is None:
                    raise ValueError("POS weights inside the matches need the tagged pairs")
                self._cache[key] = BlancCounts.compute(
                    self.pairs, replace(settings, weights=weights), self.tags
                )
        return self._cache[key]


def _params(base: BlancParams, values: dict[str, float]) -> BlancParams:
    return replace(base, **values)


@dataclass
class _HumanTask:
    data: SegmentData
    cache: _CountCache
    where: tuple[np.ndarray, np.ndarray]
    pos_cache: _CountCache | None = None


class HumanObjective:
    """Correlation of BLANC with human scores, averaged over data sets.

    Parameters
    ----------
    datasets:
        :class:`SegmentData` (human scores, translations, references).
    statistic:
        Any statistic of :func:`mtpalette.stats.correlation.correlation`.
    level:
        ``segment`` (``grouping`` as in the correlation module) or ``system`` (the
        ``statistic`` between the systems' mean human score and mean BLANC score).
    """

    def __init__(
        self,
        datasets: Sequence[SegmentData],
        *,
        base: BlancParams,
        statistic: str = "pearson",
        level: str = "segment",
        grouping: str = "none",
        tokenize: str = "13a",
        lowercase: bool = False,
        pos_feature: bool = False,
        posmix_feature: bool = False,
        positive_only: bool = False,
    ) -> None:
        if level not in ("segment", "system"):
            raise UserInputError(f"unknown level {level!r}; expected segment or system")
        if level == "system" and grouping != "none":  # it would be dropped, yet recorded
            raise UserInputError(
                f"--grouping {grouping} groups segment scores; --level system correlates the "
                "systems' means (leave out --grouping)"
            )
        self.base, self.statistic, self.level, self.grouping = base, statistic, level, grouping
        self.positive_only = positive_only
        self.pos_feature = pos_feature or base.tagged
        self.posmix_feature = posmix_feature or base.posmix > 0
        view = TextView(tokenize, lowercase)
        self.tasks = []
        for data in datasets:
            rated = ~np.isnan(data.human)
            require_varied(data.human)
            s_idx, i_idx = np.nonzero(rated)
            texts = [data.hyps[s][i] for s, i in zip(s_idx.tolist(), i_idx.tolist(), strict=True)]
            text_pairs = TextPairs(texts, i_idx.astype(np.int64), data.refs)
            pos_pairs = None
            if self.pos_feature or self.posmix_feature:
                pos_pairs = text_pairs.encoded(pos_view(view))
            cache = _CountCache(text_pairs.encoded(view), gap=base.gap, n=base.n, tags=pos_pairs)
            pos_cache = None
            if self.posmix_feature:
                pos_cache = _CountCache(pos_pairs, gap=base.gap, n=base.n)
            self.tasks.append(_HumanTask(data, cache, (s_idx, i_idx), pos_cache))

    def scores(self, params: BlancParams) -> list[np.ndarray]:
        """BLANC's ``(systems, items)`` score matrix of each data set (NaN where unrated)."""
        out = []
        for task in self.tasks:
            prf = task.cache.get(params.alpha, params.beta, params).prf(params)
            if params.posmix and task.pos_cache is not None:
                tags = task.pos_cache.get(params.alpha, params.beta).prf(params)
                prf = mix_pos(prf, tags, params.posmix, params.bf)
            f = prf[:, 2]
            seg = np.full(task.data.human.shape, np.nan)
            seg[task.where] = f
            out.append(seg)
        return out

    def value_of(self, params: BlancParams) -> float:
        vals = []
        for task, seg in zip(self.tasks, self.scores(params), strict=True):
            human = task.data.human
            if self.positive_only:  # NaN marks the left-out translations, as unrated ones
                keep = seg > 0
                human, seg = np.where(keep, human, np.nan), np.where(keep, seg, np.nan)
            if self.level == "system":
                vals.append(correlation(system_means(human), system_means(seg), self.statistic))
            else:
                vals.append(correlation(human, seg, self.statistic, grouping=self.grouping))
        return float(np.nanmean(vals)) if vals else float("nan")

    def __call__(self, values: dict[str, float]) -> float:
        return self.value_of(_params(self.base, values))

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "human",
            "statistic": self.statistic,
            "level": self.level,
            "grouping": self.grouping,
            "pos_feature": self.pos_feature,
            "posmix_feature": self.posmix_feature,
            "positive_only": self.positive_only,
            "datasets": [
                {"systems": t.data.n_systems, "items": t.data.n_items, "rated": t.data.n_rated}
                for t in self.tasks
            ],
        }


class OrangeObjective:
    """Minus ORANGE (leave-one-out) of BLANC on candidate lists with R >= 2 references."""

    def __init__(
        self,
        lists: CandidateLists,
        *,
        base: BlancParams,
        ties: str = "mid",
        tokenize: str = "13a",
        lowercase: bool = False,
    ) -> None:
        R, S = lists.n_refs, lists.n_segments
        if R < 2:
            raise UserInputError("training on ORANGE needs at least two references per segment")
        self.base, self.ties, self.lists = base, ties, lists
        # every candidate, then every reference as a candidate of its own segment, against
        # all the references; comparison k masks reference k out
        cand_seg = lists.segment_of_candidates()
        texts = list(lists.texts) + [lists.refs[k][s] for k in range(R) for s in range(S)]
        seg = np.r_[cand_seg, np.tile(np.arange(S), R)].astype(np.int64)
        pairs = TextPairs(texts, seg, lists.refs).encoded(TextView(tokenize, lowercase))
        self.cache = _CountCache(pairs, gap=base.gap, n=base.n)
        self.n_cand = len(lists.texts)

    def orange(self, params: BlancParams) -> float:
        R, S = self.lists.n_refs, self.lists.n_segments
        counts = self.cache.get(params.alpha, params.beta)
        P = self.n_cand
        cand_scores = np.empty((R, P))
        oracle_scores = np.empty((R, S))
        for k in range(R):
            present = counts.present.copy()
            present[:, k] = False
            f = BlancCounts(counts.common, counts.cand_self, counts.ref_self, present).prf(params)
            cand_scores[k] = f[:P, 2]
            oracle_scores[k] = f[P + k * S : P + (k + 1) * S, 2]
        comp = Comparisons.from_scores(
            "blanc", cand_scores, oracle_scores, self.lists.offsets, oracle="leave-one-out"
        )
        return orange_score(segment_ranks(comp, ties=self.ties), comp.n_candidates)

    def value_of(self, params: BlancParams) -> float:
        return -self.orange(params)

    def __call__(self, values: dict[str, float]) -> float:
        return self.value_of(_params(self.base, values))

    def describe(self) -> dict[str, Any]:
        return {
            "kind": "orange",
            "oracle": "leave-one-out",
            "ties": self.ties,
            "segments": self.lists.n_segments,
            "candidates": int(self.n_cand),
            "references": self.lists.n_refs,
        }


@dataclass
class BlancTraining:
    """A trained BLANC: its parameters, the objective's value, the search record."""

    params: BlancParams
    value: float
    climb: ClimbResult
    objective: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        from mtpalette._version import __version__

        return {
            "metric": "blanc",
            "params": self.params.to_dict(),
            "objective": self.objective,
            "value": self.value,
            "search": {
                "method": "hill-climbing",
                "seed": self.climb.seed,
                "restarts": self.climb.restarts,
                "evaluations": self.climb.n_evaluations,
            },
            "history": self.climb.history,
            "version": __version__,
        }

    def save(self, path: str | Path) -> None:
        """Write the parameters and the search record atomically (JSON, ``blanc:@PATH``)."""
        write_json(path, self.to_dict())


def train_blanc(
    objective: HumanObjective | OrangeObjective,
    *,
    space: Sequence[Dimension] = DEFAULT_SPACE,
    restarts: int = 4,
    seed: int = 0,
    halvings: int = 3,
    max_evaluations: int = 2000,
    on_evaluation=None,
) -> BlancTraining:
    """Fit BLANC's parameters by hill-climbing with seeded restarts.

    With the POS weights inside the matches in ``space`` (``lw``, ``lt``: every step in them
    recomputes the ACS counts, as a step in alpha or beta does), training runs in two stages:
    first the other parameters with the POS weights off (tag-only positions do not match:
    the climb without POS, ``restarts`` starts), then every parameter together from that
    point with the POS weights at their starting values (one start, the rest of the
    evaluation budget). The better of the two stages is kept, so a data set on which the tags
    do not help gets word-only BLANC (``lw`` None). The record's ``history`` marks each
    evaluation's ``stage``.
    """
    base = objective.base
    start = {d.name: getattr(base, d.name) for d in space}
    kw = dict(seed=seed, halvings=halvings, on_evaluation=on_evaluation)
    pos_dims = [d for d in space if d.name in ("lw", "lt")]
    if not pos_dims:
        climb = hill_climb(
            objective, space, start=start, restarts=restarts, max_evaluations=max_evaluations, **kw
        )
        best = _params(base, climb.best)
    else:
        words = [d for d in space if d not in pos_dims]
        off = {"lw": None, "lt": 0.0}
        first = hill_climb(
            lambda values: objective({**values, **off}),
            words,
            start={d.name: start[d.name] for d in words},
            restarts=restarts,
            max_evaluations=max_evaluations,
            **kw,
        )
        budget = max(max_evaluations - first.n_evaluations, 1)
        second = hill_climb(
            objective,
            space,
            start={**start, **first.best},
            restarts=1,
            max_evaluations=budget,
            **kw,
        )
        history = [{**r, "stage": 1} for r in first.history]
        history += [{**r, "stage": 2} for r in second.history]
        if second.value > first.value:
            climb = ClimbResult(second.best, second.value, history, seed, restarts)
        else:
            climb = ClimbResult({**first.best, **off}, first.value, history, seed, restarts)
        best = _params(base, climb.best)
    value = climb.value if isinstance(objective, HumanObjective) else -climb.value
    return BlancTraining(best, value, climb, objective.describe())


def trained_blanc(run: Any, feedback: Any) -> tuple[BlancTraining, float, dict[str, Any] | None]:
    """BLANC trained as ``run`` (a BLANC training run's description) says: on its judged
    inputs (a part held out) or on ORANGE over its candidates, with a bar counting the
    evaluations. Returns the training, the objective's value with the default parameters and
    the held-out evaluation (None: nothing held out)."""
    from mtpalette.train.split import holdout_split

    base = run.base()
    common = dict(base=base, tokenize=run.tokenize, lowercase=run.lowercase)
    test_obj = split = None
    if run.objective == "human":
        data = run.inputs.load(note=feedback.warn).data
        train_data, test_data = holdout_split(data, run.holdout, by=run.holdout_by)
        split = train_data.info.get("split")
        kw = dict(
            statistic=run.statistic,
            level=run.level,
            grouping=run.grouping,
            pos_feature=run.pos,
            posmix_feature=run.posmix,
            positive_only=run.positive_only,
            **common,
        )
        obj: HumanObjective | OrangeObjective = HumanObjective([train_data], **kw)
        if test_data is not None:
            test_obj = HumanObjective([test_data], **kw)
    else:
        assert run.candidates is not None  # the run's validate() checked it
        lists, _ = run.candidates.load()
        obj = OrangeObjective(lists, **common)
    space = (
        *DEFAULT_SPACE,
        *(POS_DIMENSIONS if run.pos else ()),
        *((POSMIX_DIMENSION,) if run.posmix else ()),
    )
    with feedback.counter("training BLANC", total=run.max_evals) as advance:
        training = train_blanc(
            obj,
            space=space,
            restarts=run.restarts,
            seed=run.seed,
            max_evaluations=run.max_evals,
            on_evaluation=lambda record: advance(),
        )
    default_value = obj.value_of(base)
    if run.objective == "orange":
        default_value = -default_value
    test = None
    if test_obj is not None:
        test = {
            "value": test_obj.value_of(training.params),
            "default_value": test_obj.value_of(base),
            "items": test_obj.tasks[0].data.n_items,
            "split": split,
        }
    return training, default_value, test

