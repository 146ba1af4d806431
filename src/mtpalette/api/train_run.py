"""Training metrics on human judgments or on ORANGE: BLANC's parameters by hill-climbing
(:mod:`mtpalette.train.blanc`) and ROSE by SVM regression or ranking
(:mod:`mtpalette.train.rose`), each described by a run that loads its inputs, trains, writes
the parameter or model file and returns what it found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import CORRELATION, HUMANS, TRAINING, flag
from mtpalette.sources.checks import check_resampling, checked
from mtpalette.sources.inputs import CandidateInputs, JudgedInputs

if TYPE_CHECKING:
    from mtpalette.metrics.blanc import BlancParams
    from mtpalette.train.blanc import BlancTraining
    from mtpalette.train.rose import RoseModel, SvmSettings


@dataclass
class BlancTrainRun(Description):
    """BLANC (alpha, beta, gamma, bf; with ``pos`` the tag weights, with ``posmix`` the mix
    weight) fitted to human judgments (``objective="human"``, the ``inputs``) or to ORANGE
    (``objective="orange"``, the ``candidates``), written to ``output`` (a ``blanc:@FILE``).

    Examples
    --------
    >>> BlancTrainRun(objective="orange", pos=True).validate()
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: --pos, --posmix and --positive-only go with --objective human
    """

    kind = "train-blanc"
    objective: str = flag("--objective", panel=TRAINING, help="human or orange.").field("human")
    inputs: JudgedInputs = field(default_factory=JudgedInputs)
    candidates: CandidateInputs | None = None
    output: Path | None = flag(
        "--output", "-o", panel=TRAINING, help="Parameter file to write (JSON).",
        cli_default=Path("blanc.json"),
    ).field(None)  # fmt: skip
    statistic: str = flags.STATISTICS.but(
        help="Correlation statistic.", cli=None, parse=None
    ).field("pearson")
    level: str = flag("--level", panel=CORRELATION, help="segment or system.").field("segment")
    grouping: str = flags.GROUPING.field("none")
    holdout: float = flags.HOLDOUT.field(0.0)
    holdout_by: str = flag(
        "--holdout-by", panel=TRAINING, help="docs (whole documents, when known) or items."
    ).field("docs")
    n: int = flag(
        "--n", panel=TRAINING, help="Largest skip-n-gram size (0: every size)."
    ).field(4)
    gap: str = flag("--gap", panel=TRAINING, help="Gap decay on max or cand gaps.").field("max")
    pos: bool = flag(
        "--pos", panel=TRAINING, help="Train the POS weights inside each match, lw and lt "
        "(English).",
    ).field(False)  # fmt: skip
    posmix: bool = flag(
        "--posmix", panel=TRAINING, help="Train the weight of the POS-tag scores mixed into P "
        "and R.",
    ).field(False)  # fmt: skip
    positive_only: bool = flag(
        "--positive-only", panel=TRAINING, help="Correlate only strictly positive BLANC scores."
    ).field(False)
    restarts: int = flag("--restarts", panel=TRAINING, help="Hill-climbing starts.").field(4)
    seed: int = flags.SEED.but(help="Seed of the random restarts.").field(0)
    max_evals: int = flag("--max-evals", panel=TRAINING, help="Evaluation budget.").field(600)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)

    def validate(self) -> None:
        from mtpalette.stats import catalogue
        from mtpalette.stats.grouping import GROUPINGS
        from mtpalette.stats.significance import LEVELS

        check_resampling(seed=self.seed)
        if self.restarts < 1 or self.max_evals < 1:
            raise UserInputError(
                f"--restarts and --max-evals must be at least 1 "
                f"(got {self.restarts}, {self.max_evals})"
            )
        if self.objective not in ("human", "orange"):
            raise UserInputError(f"unknown objective {self.objective!r}; expected human or orange")
        checked(catalogue.statistic, self.statistic, interval=True)
        if self.level not in LEVELS or self.grouping not in GROUPINGS:
            raise UserInputError(
                f"--level is one of {', '.join(LEVELS)} (got {self.level!r}), --grouping one of "
                f"{', '.join(GROUPINGS)} (got {self.grouping!r})"
            )
        if self.objective == "orange" and (self.pos or self.posmix or self.positive_only):
            raise UserInputError("--pos, --posmix and --positive-only go with --objective human")
        few_refs = self.candidates is None or len(self.candidates.ref_names()) < 2
        if self.objective == "orange" and few_refs:
            raise UserInputError(
                "--objective orange needs --refs (at least two files; or a --table with two "
                "--ref-col)"
            )
        self.base()
        super().validate()

    def base(self) -> BlancParams:
        """The starting parameters (BLANC's defaults with this run's n, gap and POS use)."""
        from mtpalette.metrics.blanc import BlancParams

        try:
            return BlancParams(
                n=self.n,
                gap=self.gap,
                lw=3.0 if self.pos else None,
                posmix=0.5 if self.posmix else 0.0,
            )
        except ValueError as exc:
            raise UserInputError(f"bad BLANC setting: {exc}") from None


@dataclass
class BlancTrainResult:
    """The trained parameters, the objective's value with the default parameters, and the
    held-out evaluation (``test``) when part of the data was held out."""

    training: BlancTraining
    default_value: float
    test: dict[str, Any] | None
    output: Path | None

    @property
    def params(self) -> BlancParams:
        return self.training.params

    def to_dict(self) -> dict[str, Any]:
        """The parameter file's content (``blanc:@FILE`` reads it)."""
        record = {**self.training.to_dict(), "default_value": self.default_value}
        if self.test is not None:
            record["test"] = self.test
        return record

    def to_pandas(self):
        """One row: the trained parameters, the objective's value with them and with the
        defaults, the held-out evaluation (flat columns; the search history is left out)."""
        from mtpalette.records import frame

        record = {k: v for k, v in self.to_dict().items() if k != "history"}
        return frame([record])

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        from mtpalette.records import dumps

        return dumps(self.to_dict())


def run_train_blanc(
    run: BlancTrainRun, progress: bool | Feedback | None = None
) -> BlancTrainResult:
    """Train BLANC as ``run`` says, write its parameter file and return the result.

    ``progress``: a bar counting the evaluations (and with ``True`` notes) on standard error,
    ``None`` (the default) the bar alone when it is a terminal or in a notebook; ``False``:
    silent; or a :class:`~mtpalette.feedback.Feedback`.
    """
    from mtpalette.io.runfile import check_output_folders, write_json
    from mtpalette.progress import feedback_of
    from mtpalette.train.blanc import trained_blanc

    run.validate()
    check_output_folders({"-o": run.output})  # before any work
    training, default_value, test = trained_blanc(run, feedback_of(progress))
    result = BlancTrainResult(training, default_value, test, run.output)
    if run.output is not None:
        write_json(run.output, result.to_dict())
    return result


@dataclass
class RoseTrainRun(Description):
    """ROSE fitted to human judgments: ``objective="reg"`` (support vector regression on the
    scores) or ``"rank"`` (a ranking SVM on preference pairs: those the scores imply, or
    WMT12's relative ``rankings``); the SVM's C, epsilon, gamma and degree chosen by grouped
    cross-validation unless given; the model written to ``output`` (a ``rose:@FILE``).

    Examples
    --------
    >>> RoseTrainRun(objective="rank", C=0.0).validate()
    Traceback (most recent call last):
    mtpalette.errors.UserInputError: --C must be a positive number (got 0.0)
    """

    kind = "train-rose"
    objective: str = flag(
        "--objective", panel=TRAINING, help="reg (SVR) or rank (ranking SVM)."
    ).field("reg")
    inputs: JudgedInputs = field(default_factory=JudgedInputs)
    rankings: Path | None = flag(
        "--rankings", panel=HUMANS, help="WMT12 relative rankings (RNK_results.csv)."
    ).field(None)
    output: Path | None = flag(
        "--output", "-o", panel=TRAINING, help="Model file to write.", cli_default=Path("rose.json")
    ).field(None)
    lang: str = flag("--lang", panel=TRAINING, help="Target language (function words).").field(
        "en"
    )
    function_words: str = flag(
        "--function-words", panel=TRAINING, help="fw100 (100 words, the paper) or stopwordsiso."
    ).field("fw100")
    pos: bool = flag("--pos", panel=TRAINING, help="Add the POS features (English).").field(False)
    holdout: float = flags.HOLDOUT.field(0.0)
    loss: str | None = flag(
        "--loss", panel=TRAINING, help="reg: epsilon (default) or squared; rank: hinge or squared."
    ).field(None)
    kernel: str = flag("--kernel", panel=TRAINING, help="linear, poly or rbf.").field("linear")
    epsilon: float | None = flag(
        "--epsilon", panel=TRAINING,
        help="SVR tube in standard deviations of the human scores (default: chosen by "
        "cross-validation; 0 with --loss squared).",
    ).field(None)  # fmt: skip
    degree: int | None = flag(
        "--degree", panel=TRAINING, help="Polynomial kernel degree (default: chosen by CV)."
    ).field(None)
    gamma: float | None = flag(
        "--gamma", panel=TRAINING, help="Kernel gamma (default: chosen by CV)."
    ).field(None)
    approx: str = flag(
        "--approx", panel=TRAINING, help="auto, exact or nystroem (kernel machines)."
    ).field("auto")
    components: int = flag("--components", panel=TRAINING, help="Nystroem landmarks.").field(300)
    C: float | None = flag(
        "--C", panel=TRAINING, help="SVM soft-margin cost (default: chosen by CV)."
    ).field(None)
    folds: int = flag(
        "--folds", panel=TRAINING, help="Cross-validation folds (grouped by segment) of the search."
    ).field(5)
    seed: int = flags.SEED.but(help="Seed of the SVM solver, sampling and the CV folds.").field(0)
    tokenize: str = flags.TOKENIZE.field("13a")

    def validate(self) -> None:
        check_resampling(seed=self.seed)
        if self.C is not None and (not self.C > 0 or self.C == float("inf")):
            raise UserInputError(f"--C must be a positive number (got {self.C})")
        if self.objective not in ("reg", "rank"):
            raise UserInputError(f"unknown objective {self.objective!r}; expected reg or rank")
        if self.folds < 2:
            raise UserInputError(f"--folds must be at least 2 (got {self.folds})")
        if self.rankings is not None:
            i = self.inputs
            if i.bundled or i.judgments or i.systems or i.mtme:
                raise UserInputError(
                    "--rankings replaces --bundled, --judgments, --mtme and --systems"
                )
            if i.lp is None or not i.refs or i.systems_dir is None:
                raise UserInputError("--rankings needs --lp, --refs and --systems-dir")
        self.settings()
        super().validate()

    def fixed(self) -> list[str]:
        """The SVM settings given by hand (left out of the cross-validated search)."""
        given = {"C": self.C, "epsilon": self.epsilon, "gamma": self.gamma, "degree": self.degree}
        return [k for k, v in given.items() if v is not None]

    def settings(self) -> SvmSettings:
        """The SVM settings before the search (checked against the objective)."""
        from mtpalette.train.rose import SvmSettings

        return SvmSettings(
            loss=self.loss,
            kernel=self.kernel,
            C=1.0 if self.C is None else self.C,
            epsilon=self.epsilon,
            degree=2 if self.degree is None else self.degree,
            gamma=self.gamma,
            approx=self.approx,
            components=self.components,
            seed=self.seed,
        ).checked(self.objective)

    def source(self) -> str:
        """What the model is trained on, as its file records it."""
        i = self.inputs
        where = self.rankings or i.judgments or i.mtme or f"bundled MQM TED {i.bundled}"
        return str(where) + (f" ({i.lp})" if i.lp else "")


@dataclass
class RoseTrainResult:
    """The trained model (its ``info`` holds the search and any held-out evaluation)."""

    model: RoseModel
    output: Path | None

    def to_dict(self) -> dict[str, Any]:
        """The model file's content (``rose:@FILE`` reads it)."""
        return self.model.to_dict()

    def to_pandas(self):
        """One row per feature: its name, the standardisation's mean and scale, and its
        weight (a linear kernel; NaN for an RBF kernel's model, whose weights are support
        vectors)."""
        from mtpalette.records import frame

        m = self.model
        weights = list(m.weights) if m.kernel == "linear" and m.weights else []
        weights += [float("nan")] * (len(m.features) - len(weights))
        return frame(
            {"feature": f, "mean": float(mu), "scale": float(sd), "weight": float(w)}
            for f, mu, sd, w in zip(m.features, m.mean, m.scale, weights, strict=True)
        )

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON."""
        from mtpalette.records import dumps

        return dumps(self.to_dict())


def searched(run: RoseTrainRun) -> str:
    """The settings the cross-validated search chooses, in words.

    Examples
    --------
    >>> searched(RoseTrainRun(C=1.0))
    'epsilon'
    >>> searched(RoseTrainRun(C=1.0, epsilon=0.1))
    'nothing (every parameter given)'
    """
    from mtpalette.train import rose_training

    return rose_training.searched(run)


def run_train_rose(run: RoseTrainRun, progress: bool | Feedback | None = None) -> RoseTrainResult:
    """Train ROSE as ``run`` says, write its model file and return the result.

    ``progress``: a bar counting the settings cross-validated (and with ``True`` notes, each
    setting's score) on standard error, ``None`` (the default) the bar alone when it is a
    terminal or in a notebook; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.progress import feedback_of
    from mtpalette.train import rose_training

    run.validate()
    check_output_folders({"-o": run.output})  # before any work
    model = rose_training.trained_rose(run, feedback_of(progress))
    if run.output is not None:
        model.save(run.output)
    return RoseTrainResult(model, run.output)
