"""``mtpalette score``: corpus or sentence scores of one or several systems, with signatures,
bootstrap intervals and paired significance tests, in the spirit of the sacrebleu command
line (same option names where sacrebleu has them).

Inputs:

* plain files: ``-i SYS [SYS ...] -r REF [REF ...]``, one segment per line; ``-`` (the
  default for ``-i``) is standard input; ``--systems-dir DIR`` takes every system output of
  a folder (references, sources and id lists left out, with a note);
* one table: ``--table data.tsv --hyp-col mt --ref-col ref1 ref2`` (TSV with a header row,
  or JSON Lines with those fields, chosen by the extension or ``--table-format``).

``-i``, ``-r``, ``-m`` and ``--ref-col`` take several values after one flag, or the flag
repeated. Output goes to stdout or, written atomically, to ``-o FILE``.
"""

# No ``from __future__ import annotations`` here: with it, typer would turn each of the
# options' annotation strings back into objects (typing.get_type_hints: a compile and an eval
# each), 8 ms of every ``mtpalette score`` run; evaluated once at import they cost 1 ms.

# The options are the fields of score's descriptions (ScoreInputs, ScoreRun, ScoreTests,
# Wmt25Inputs) and the rendering options below; the descriptions' modules import no numpy, so
# `score --help` needs none, and the scoring path is imported by the command when it runs.

import shutil
from pathlib import Path
from typing import Annotated

import typer

from mtpalette.api.score_run import ScoreRun
from mtpalette.api.score_tests import ScoreTests
from mtpalette.cli.options import OUTPUT_FORMATS, Group, opt, options_of, with_options
from mtpalette.errors import UserInputError
from mtpalette.flags import OUTPUTS, choice
from mtpalette.sources.score_inputs import ScoreInputs
from mtpalette.sources.wmt25 import Wmt25Inputs

#: output formats (see :mod:`mtpalette.cli.render`)
OutputFormat = choice(*OUTPUT_FORMATS)

#: how the scores are shown: options of the command line only, not of the run
RENDERING: Group = {
    "fmt": (Annotated[OutputFormat, opt("--format", "-f", panel=OUTPUTS, help="Output format.")],
            OutputFormat.text),
    "digits": (Annotated[int | None, opt("--width", "-w", min=0, max=17, panel=OUTPUTS,
                                         help="Decimals printed (default: 4 in text, all in "
                                         "tsv and json).")], None),
    "details": (Annotated[bool, opt("--details", "-d", panel=OUTPUTS,
                                    help="BLEU's precisions, BP, ratio, lengths; chrF's, "
                                    "TER's...")], False),
    "signatures": (Annotated[bool, opt("--signatures", panel=OUTPUTS,
                                       help="Every metric's signature in full.")], False),
    "output": (Annotated[Path | None, opt("--output", "-o", panel=OUTPUTS,
                                          help="Write here (atomically).")], None),
}  # fmt: skip
#: the WMT25/26 options (none set: no WMT25/26 inputs)
WMT25 = options_of(Wmt25Inputs)


@with_options(ScoreInputs, RENDERING, ScoreRun, ScoreTests, WMT25)
def score(**options) -> None:
    """Score system outputs against one or more references; every score carries a signature.

    Examples: `mtpalette score -i hyp.txt -r ref1.txt ref2.txt -m bleu chrf 'bleus:1..9'`;
    `mtpalette score -i base.txt A.txt B.txt -r ref.txt -m bleu chrf ter --paired-bs`;
    `mtpalette score -i hyp.txt -r ref.txt -m bleu --confidence --details`;
    `cat hyp.txt | mtpalette score -r ref.txt -m wer --sentence -f tsv`;
    `mtpalette score --table data.tsv --hyp-col mt --ref-col ref1 ref2 -f json -o scores.json`
    (`--hyp-col A B C`: one system per column).

    With several systems the table has one row per system. --paired-bs and --paired-ar test
    each system against the baseline as sacrebleu does, drawing the same resamples for the
    same --seed (p-value: the share of resamples or trials whose difference is as large as
    the observed one; * marks p < 0.05); --confidence adds each score's bootstrap interval.
    """
    from mtpalette.api.score_run import run_score
    from mtpalette.cli.options import fill, set_away
    from mtpalette.io.writers import opened

    wmt25 = fill(Wmt25Inputs, options) if set_away(options, WMT25) else None
    inputs = fill(ScoreInputs, options, wmt25=wmt25)
    run = fill(ScoreRun, options, inputs=inputs, tests=fill(ScoreTests, options))
    fmt, digits, output = str(options["fmt"]), options["digits"], options["output"]
    if run.sentence and fmt == "latex":
        raise UserInputError("-f latex is for corpus scores (a paper's table); drop --sentence")
    # opened before the scoring: an output that cannot be written is refused before the work
    with opened("text", "-" if output is None else output) as put:
        result = run_score(run)  # an output that is one of the inputs is refused at the end
        named, signatures = len(result.scored) > 1, options["signatures"]
        if run.sentence:
            put(_sentences(result.scored, fmt, digits, signatures, named))
            return
        width = shutil.get_terminal_size().columns if output is None else None
        put(_corpus(result, fmt, digits, options["details"], signatures, named, width))


def _corpus(result, fmt: str, digits, details: bool, full_signatures: bool, named: bool,
            width: int | None) -> str:  # fmt: skip
    """The corpus scores' table (with the tests' and intervals' columns) in ``fmt``."""
    from mtpalette.cli.render import corpus_records, records_report

    records, sigs = corpus_records(result.scored, result.comparison, named=named)
    return records_report(records, fmt, signatures=sigs, digits=digits, details=details,
                          full_signatures=full_signatures, width=width)  # fmt: skip


def _sentences(scored, fmt: str, digits, full_signatures: bool, named: bool) -> str:
    import numpy as np

    from mtpalette.cli.render import sentence_report

    first = next(iter(scored.values()))
    columns = {
        name: np.concatenate([s.sentence[name] for s in scored.values()]) for name in first.names
    }
    systems = [name for name, s in scored.items() for _ in range(s.n_segments)] if named else None
    if fmt != "text":  # the numbers stay machine-readable; signatures go to stderr
        for signature in first.signatures.values():
            typer.echo(f"# {signature}", err=True)
        return sentence_report(columns, fmt, systems=systems, digits=digits)
    return sentence_report(
        columns,
        fmt,
        systems=systems,
        signatures=first.signatures,
        digits=digits,
        full_signatures=full_signatures,
        lower=[s.metric for s in first.corpus if not s.higher_is_better],
    )
