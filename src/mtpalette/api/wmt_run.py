"""WMT's meta-evaluation of metrics on an mt-metrics-eval folder: a task set (WMT23, WMT24,
WMT25 or one of your own) run over stored and computed metrics, to per-task tables and the
global ranking.

Each language pair of the folder is read as mt-metrics-eval's ``EvalSet`` reads it
(:func:`mtpalette.io.mtme.read_mtme`); the metrics mtpalette computes (``metrics``) are scored
against the standard reference of the pair, at segment level (sentence scores) and system
level (corpus scores), and sit beside the stored ones (``mtme_metrics``) in every task.
Error metrics (WER, TER...) are negated, as mt-metrics-eval expects higher to be better.

Examples
--------
>>> WmtRun("wmt/", lps=["en-de"], task_set="wmt24", metrics=["chrf"]).validate()
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import flag, split_list
from mtpalette.sources import inputs

if TYPE_CHECKING:
    from mtpalette.metaeval.task_sets import TaskSet
    pass

if TYPE_CHECKING:
    from mtpalette.metaeval.task_results import TaskSetResult
    from mtpalette.metaeval.tasks import LanguagePairData


#: the help section of the task set's options
TASKS = "Tasks"


@dataclass
class WmtRun(Description):
    """What a WMT-style task-set run needs.

    ``task_set`` names a built-in set (``wmt23``, ``wmt24-on-wmt23``, ``wmt24``, ``wmt25``)
    or ``tasks`` a JSON/YAML file of tasks with mt-metrics-eval's ``Task`` field names and a
    ``weight``; ``lps`` restricts a built-in set to some pairs; ``k`` is the number of
    resamples of every significance test (0: none, as mt-metrics-eval's default; WMT uses
    1000); ``draws`` is ``mtme`` (mt-metrics-eval's one stream, its numbers to the draw) or
    ``independent`` (one generator per test, keyed by its question and metrics: the same
    distribution, spread over processes, and ``correlate``'s draws for the same question);
    ``p_convention`` is ``mtme`` (``count / k``) or ``plus-one`` (``(count + 1) / (k + 1)``,
    ``correlate``'s).
    ``backend`` (``inproc``, ``processes``, ``dask``) and ``workers`` spread the metric-pair
    tests of independent draws over workers (:mod:`mtpalette.parallel`).
    """

    kind: ClassVar[str] = "wmt"
    mtme: Path = inputs.MTME.but(help="The test set folder.").field()
    lps: list[str] | None = inputs.LP.but(
        panel=TASKS, help="Language pairs of a built-in set: en-de,zh-en.", parse=split_list
    ).field(None)
    #: a built-in set (``wmt24`` when neither it nor ``tasks`` is given)
    task_set: str | None = flag(
        "--task-set", panel=TASKS, help="wmt23, wmt24-on-wmt23, wmt24 (default) or wmt25."
    ).field(None)
    tasks: Path | None = flag(
        "--tasks", panel=TASKS, help="A JSON/YAML task list (mt-metrics-eval's Task fields)."
    ).field(None)
    metrics: list[str] | None = flags.METRIC_SPECS.field(None)
    #: stored metrics (``all`` when neither they nor ``metrics`` are given)
    mtme_metrics: list[str] | None = inputs.MTME_METRICS.field(None)
    #: resamples per test; None: a built-in set's 0, a task file's own k (else 1000)
    k: int | None = flag(
        "-k", panel=TASKS, help="Resamples per test (WMT: 1000; 0, the default: none; --tasks: "
        "for tasks without k, else their own or 1000).",
    ).field(None)  # fmt: skip
    seed: int = flags.SEED.field(12345)
    draws: str = flag(
        "--draws", panel=TASKS, choices="mtpalette.metaeval.tasks:DRAWS",
        help="mtme (its draws exactly) or independent.",
    ).field("mtme")  # fmt: skip
    p_convention: str = flags.P_CONVENTION.but(
        panel=TASKS, help="mtme (count / k) or plus-one ((count + 1) / (k + 1), correlate's)."
    ).field("mtme")
    primary: bool = flag(
        "--primary", panel=TASKS, help="Stored metrics: primary submissions only."
    ).field(False)
    tokenize: str = flags.TOKENIZE.field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    json: Path | None = flags.JSON.field(None)
    backend: str = flags.BACKEND.field("inproc")
    workers: int = flags.WORKERS.field(1)

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.task_set is None and self.tasks is None:
            self.task_set = "wmt24"
        if self.mtme_metrics is None and not self.metrics:
            self.mtme_metrics = ["all"]

    def validate(self) -> None:
        from mtpalette.parallel import Backend

        super().validate()  # the options' choices first
        if self.mtme is None:
            raise UserInputError("give --mtme FOLDER (an mt-metrics-eval test set folder)")
        if (self.task_set is None) == (self.tasks is None):
            raise UserInputError("give one of --task-set NAME and --tasks FILE")
        if self.k is not None and self.k < 0:
            raise UserInputError(f"-k must be 0 (no tests) or more resamples, got {self.k}")
        if not 0 <= self.seed < 2**32:  # numpy's RandomState, as mt-metrics-eval draws
            raise UserInputError(f"--seed must be between 0 and 2**32 - 1 (got {self.seed})")
        Backend(self.backend, self.workers)  # a clear error for a bad name or count
        if self.backend != "inproc" and self.draws == "mtme":
            raise UserInputError(
                f"--backend {self.backend}: mt-metrics-eval's draws are one sequential stream; "
                "add --draws independent to spread the tests over workers"
            )
        if not self.metrics and not self.mtme_metrics:
            raise UserInputError("no metric: give -m SPEC... or --mtme-metrics NAME...|all")

    def build_task_set(self) -> TaskSet:
        from mtpalette.metaeval.task_sets import TaskSet, task_set

        if self.tasks is not None:  # -k for the tasks that name no k of their own
            return TaskSet.from_file(self.tasks, defaults=None if self.k is None else {"k": self.k})
        return task_set(self.task_set, lps=self.lps, primary=self.primary, k=self.k or 0)


@dataclass
class WmtResult:
    """A task-set run: the result of every task, the global ranking, what was read, and
    ``human_as_systems``: per language pair, the human translations that its tasks with
    ``human=True`` rank as systems (mt-metrics-eval's ``include_human``; ``correlate`` leaves
    them out)."""

    result: TaskSetResult
    task_names: list[str]
    left_out: dict[str, dict[str, str]]
    signatures: dict[str, str]
    outputs: dict[str, str]
    human_as_systems: dict[str, list[str]] = field(default_factory=dict)

    def to_pandas(self):
        """One row per task and metric (flat columns), as :meth:`TaskSetResult.to_pandas`."""
        return self.result.to_pandas()

    def to_json(self) -> str:
        return self.result.to_json()


@dataclass
class WmtData:
    """The language pairs of a folder as the task engine takes them: ``data[lp]``, what each
    pair's reading left out and why, and the signatures of the metrics computed here."""

    data: dict[str, LanguagePairData]
    left_out: dict[str, dict[str, str]]
    signatures: dict[str, str]


def load_wmt(
    root: str | Path,
    lps: str | list[str],
    *,
    mtme_metrics: str | list[str] | None = "all",
    metrics: list[str] | None = None,
    primary: bool = False,
    tokenize: str = "13a",
    lowercase: bool = False,
    progress: bool | Feedback | None = None,
) -> WmtData:
    """Read language pairs of an mt-metrics-eval folder for a task set: stored metrics
    (``mtme_metrics``: base names, globs or ``all``) and metrics computed here (``metrics``,
    spec strings), named by base name in every pair, as ``mtpalette wmt`` reads them (the same
    function). References are kept as systems; a task with ``human=False`` leaves them out.
    ``progress``: a bar counting the pairs read, ``None`` (the default) when standard error is
    a terminal or in a notebook; ``True``: always offered, with notes; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.

    Examples
    --------
    >>> from mtpalette.io.mtme import example_folder
    >>> root = example_folder()
    >>> d = load_wmt(root, ["en-de", "zh-en"], mtme_metrics=["chrF", "BLEU"])
    >>> sorted(d.data["en-de"].metrics) == sorted(d.data["zh-en"].metrics) == ["BLEU", "chrF"]
    True
    """
    from mtpalette.progress import feedback_of
    from mtpalette.sources.checks import as_list
    from mtpalette.sources.folders import wmt_pairs

    feedback = feedback_of(progress)
    lps = [lps] if isinstance(lps, str) else as_list(lps, "lps", "language pairs")
    if isinstance(mtme_metrics, str):
        mtme_metrics = [mtme_metrics]
    return WmtData(*wmt_pairs(root, lps, mtme_metrics=mtme_metrics, metrics=metrics,
                              primary=primary, tokenize=tokenize, lowercase=lowercase,
                              feedback=feedback))  # fmt: skip


def run_wmt(run: WmtRun, progress: bool | Feedback | None = None) -> WmtResult:
    """Run the task set ``run`` describes on its folder; write ``run.json`` when asked.

    ``progress``: bars while reading the pairs and testing the metric pairs of every task,
    ``None`` (the default) when standard error is a terminal or in a notebook; ``True``:
    always offered, with notes; ``False``: silent; or a
    :class:`~mtpalette.feedback.Feedback`.
    """
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.metaeval.task_sets import human_as_systems, run_noted, task_names
    from mtpalette.parallel import Backend
    from mtpalette.progress import feedback_of
    from mtpalette.reporting.run_files import RunFiles

    run.validate()
    check_output_folders({"--json": run.json})  # before any work
    feedback = feedback_of(progress)
    ts = run.build_task_set()
    lps = sorted({lp for t in ts.tasks for lp in t.lang.split(",")})
    loaded = load_wmt(
        run.mtme,
        lps,
        mtme_metrics=run.mtme_metrics,
        metrics=run.metrics,
        primary=run.primary,
        tokenize=run.tokenize,
        lowercase=run.lowercase,
        progress=feedback,
    )
    backend = Backend(run.backend, run.workers)
    result = run_noted(ts, loaded.data, seed=run.seed, draws=run.draws, backend=backend,
                       plus_one=run.p_convention == "plus-one", feedback=feedback)  # fmt: skip
    outputs: dict[str, str] = {}
    # the results' own JSON document
    RunFiles(outputs).table("json", "text", run.json, result.to_json)
    return WmtResult(result, task_names(ts), loaded.left_out, loaded.signatures, outputs,
                     human_as_systems(ts, loaded.data))
