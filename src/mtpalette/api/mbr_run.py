"""Minimum Bayes risk decisions on files, as ``mtpalette mbr`` makes them: :class:`MbrRun`
names the n-best (or samples) file, the utility metric, the decoder or the rule on stored
scores, and the outputs; :func:`run_mbr` reads the inputs (:mod:`mtpalette.sources.mbr`),
decides (:func:`~mtpalette.metrics.mbr.mbr` and the rules of
:mod:`mtpalette.metrics.mbr_rules`) and writes every output named, atomically.

Examples
--------
>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "c.txt").write_text("0 ||| a b c\\n0 ||| a b d\\n0 ||| a b c\\n")
>>> run = MbrRun(d / "c.txt", metric="chrf")
>>> run_mbr(run).text
['a b c']
>>> MbrRun.load(run.save(d / "mbr.json")) == run
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mtpalette import flags
from mtpalette.description import Description
from mtpalette.errors import UserInputError
from mtpalette.feedback import Feedback
from mtpalette.flags import INPUTS, METRICS, flag
from mtpalette.reporting.outputs import MbrOutputs
from mtpalette.sources import inputs

if TYPE_CHECKING:
    from mtpalette.metrics.mbr import MbrSelection

#: the help section of the decoder's options
DECODING = "Decoding"


def parse_schedule(text: str | None) -> list[int] | None:
    """``--schedule 8,16,32`` as integers (None: the decoder's default).

    Examples
    --------
    >>> parse_schedule("8,16,32"), parse_schedule(None)
    ([8, 16, 32], None)
    """
    if text is None:
        return None
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise UserInputError(
            f"--schedule {text!r}: expected reference counts separated by commas (8,16,32)"
        ) from None


@dataclass
class MbrRun(Description):
    """An MBR decision (or a reranking against ``refs``) over an n-best file.

    ``candidates``: Moses ``id ||| hypothesis ||| ...`` or JSONL, read as ``orange`` reads
    them (``nbest_format``), segment ids from ``id_base``; ``segments``: their count (default:
    the references' lines, else the highest id + 1). ``metric``: the utility. ``decoder``
    (``pairwise``, ``aggregate``, ``pruning``) and its options as
    :func:`~mtpalette.metrics.mbr.mbr` takes them; ``reference_lprobs`` (one number per
    candidate line) or ``weights_from_scores`` (the file's score fields) weight the
    pseudo-references. The rules on stored scores: ``from_matrix`` (MBR on stored utilities),
    ``qe_scores`` (QE reranking) and ``qe_scores`` with ``qe_top`` (QE top K, then MBR).
    """

    kind = "mbr"
    candidates: Path = flag(
        panel=INPUTS, help="n-best or samples file (Moses or JSONL)."
    ).field()
    refs: list[Path] | None = inputs.REFS.but(
        help="Rerank against these references instead of MBR."
    ).field(None)
    metric: str = flag("--metric", "-m", panel=METRICS, help="The utility metric spec.").field(
        "chrf"
    )
    nbest_format: str = inputs.NBEST_FORMAT.field("auto")
    id_base: int = inputs.NBEST_ID_BASE.but(help="The first segment id.").field(0)
    segments: int | None = flag(
        "--segments", panel=INPUTS, help="Number of segments (default: the highest id + 1)."
    ).field(None)
    include_self: bool | None = flag(
        "--include-self/--exclude-self", panel=DECODING,
        help="Count a candidate against itself (default: pairwise no; aggregate and pruning "
        "always do, as mbrs).",
    ).field(None)  # fmt: skip
    tokenize: str = flags.TOKENIZE.but(help="Tokenizer.").field("13a")
    lowercase: bool = flags.LOWERCASE.field(False)
    decoder: str = flag(
        "--decoder", panel=DECODING, help="pairwise, aggregate or pruning."
    ).field("pairwise")
    partitions: int = flag(
        "--partitions", panel=DECODING, help="aggregate: reference blocks."
    ).field(1)
    nbest: int = flag(
        "--nbest", panel=DECODING, help="Rank this many (the --scores table)."
    ).field(1)
    alpha: float = flag(
        "--alpha", panel=DECODING, help="pruning: confidence threshold."
    ).field(0.99)
    #: pruning's reference counts per step (None: the decoder's default)
    schedule: list[int] | None = flag(
        "--schedule", panel=DECODING, cli=str | None, parse=parse_schedule,
        help="pruning: reference counts per step (8,16,32,64,128,256).",
    ).field(None)  # fmt: skip
    bootstrap: int = flag(
        "--bootstrap", panel=DECODING, help="pruning: resamples per step."
    ).field(500)
    seed: int = flag("--seed", panel=DECODING, help="pruning: the resamples' seed.").field(0)
    reference_lprobs: Path | None = flag(
        "--reference-lprobs", panel=DECODING, help="Log-probability per candidate line (weights)."
    ).field(None)
    weights_from_scores: bool = flag(
        "--weights-from-scores", panel=DECODING, help="Weights: the n-best's score fields."
    ).field(False)
    selector: str = flag(
        "--selector", panel=DECODING, help="nbest or diverse (with --nbest)."
    ).field("nbest")
    diversity: float = flag(
        "--diversity", panel=DECODING, help="diverse: the weight lambda."
    ).field(0.1)
    from_matrix: Path | None = flag(
        "--from-matrix", panel=DECODING,
        help="MBR on stored utilities (.npz of --matrix, or TSV/JSONL segment, candidate, "
        "reference, score).",
    ).field(None)  # fmt: skip
    qe_scores: Path | None = flag(
        "--qe-scores", panel=DECODING, help="Rerank by a QE score per candidate line."
    ).field(None)
    qe_top: int | None = flag(
        "--qe-top", panel=DECODING, help="With --qe-scores: MBR among the top K."
    ).field(None)
    outputs: MbrOutputs = field(default_factory=MbrOutputs)

    def validate(self) -> None:
        if self.segments is not None and self.segments < 1:
            raise UserInputError(f"--segments must be at least 1 (got {self.segments})")
        super().validate()


def run_mbr(run: MbrRun, progress: bool | Feedback | None = None) -> MbrSelection:
    """Read the inputs ``run`` names, decide, write every output named (before any work, a
    folder that cannot take one is refused) and return the :class:`MbrSelection` (its
    ``text``: one line per segment; its ``signature``: the rule, decoder and options).
    ``progress``: as every run's (a bar per stage: reading, deciding)."""
    from mtpalette.io.runfile import check_output_folders
    from mtpalette.metrics.mbr_rules import decide
    from mtpalette.progress import feedback_of
    from mtpalette.sources.mbr import mbr_inputs

    run.validate()
    feedback = feedback_of(progress)
    out = run.outputs
    check_output_folders({"-o": out.output, "--scores": out.scores, "--matrix": out.matrix})
    with feedback.stage(f"reading {run.candidates}"):
        lists, references, lprobs, qe = mbr_inputs(
            run.candidates, run.refs, run.nbest_format, run.id_base, run.segments,
            run.reference_lprobs, run.weights_from_scores, run.qe_scores,
        )  # fmt: skip
    options = dict(
        decoder=run.decoder, partitions=run.partitions, nbest=run.nbest, alpha=run.alpha,
        bootstrap=run.bootstrap, seed=run.seed, selector=run.selector, diversity=run.diversity,
        lowercase=run.lowercase, tokenize=run.tokenize, from_matrix=run.from_matrix,
        qe_scores=None if qe is None else (run.qe_scores, qe), qe_top=run.qe_top,
    )  # fmt: skip
    if run.schedule is not None:
        options["schedule"] = run.schedule
    with feedback.stage(f"{len(lists):,} segments: {run.metric}, {run.decoder}"):
        sel = decide(lists, references, run.metric, run.include_self, lprobs, run.id_base,
                      options)  # fmt: skip
    _write(sel, "".join(f"{t}\n" for t in sel.text), run.id_base, out.output, out.scores,
           out.matrix)  # fmt: skip
    return sel


def _write(
    sel: MbrSelection,
    text: str,
    id_base: int,
    output: Path | None,
    scores: Path | None,
    matrix: Path | None,
) -> None:
    """The outputs of a run that are named (:class:`MbrOutputs`)."""
    from mtpalette.io.writers import write
    from mtpalette.metrics.mbr import score_rows

    if output is not None:
        write("text", text, output)
    if scores is not None:  # with --nbest, every rank
        rows, columns = score_rows(sel, id_base)
        write("tsv", rows, scores, columns=columns)
    if matrix is not None:  # as every output: a link followed, a full disk one error
        write("npz", {f"segment_{s + id_base}": m for s, m in enumerate(sel.matrices)}, matrix)
