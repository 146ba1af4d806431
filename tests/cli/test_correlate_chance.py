"""``correlate --chance on|off``: the chance level of a pairwise statistic under the table with
its precision (random metrics and standard error), or not computed; the API's
``CorrelationRun(chance=...)`` records which (on the bundled example data, invented)."""

import json
import re

from typer.testing import CliRunner

from mtpalette.api import JudgedInputs
from mtpalette.api.correlation_run import CorrelationRun, run_correlation
from mtpalette.cli.app import app

ARGS = ["correlate", "--bundled", "zhen", "-m", "chrf", "--stat", "acc-eq", "--grouping", "item",
        "--bootstrap", "0", "--no-baselines"]  # fmt: skip


def test_the_note_gives_the_precision_and_off_skips_it():
    on = CliRunner().invoke(app, ARGS)
    assert on.exit_code == 0, on.output
    note = re.search(r"chance level of acc-eq: ([0-9.]+) \(simulation: (\d+) random metrics, "
                     r"standard error ([0-9.e-]+), stopping at 0.002\)", on.output)  # fmt: skip
    assert note, on.output
    assert 20 <= int(note[2]) and float(note[3]) <= 0.002
    off = CliRunner().invoke(app, [*ARGS, "--chance", "off"])
    assert off.exit_code == 0, off.output
    assert "chance level" not in off.output
    bad = CliRunner().invoke(app, [*ARGS, "--chance", "maybe"])
    assert bad.exit_code != 0 and "--chance" in bad.output


def test_the_api_records_the_chance_level_or_that_it_is_off():
    def chance_of(**kw):
        run = CorrelationRun(JudgedInputs(bundled="zhen"), metrics=["chrf"],
                             statistics=["acc-eq"], grouping="item", bootstrap=0,
                             baselines=False, **kw)  # fmt: skip
        [table] = run_correlation(run).tables
        return json.loads(json.dumps(table.info["chance"]))

    on = chance_of()
    assert on["method"] == "simulation" and on["std_error"] <= on["tolerance"] == 0.002
    assert on["simulations"] >= 20
    assert chance_of(chance=False) == {"off": "not computed (chance off)"}
