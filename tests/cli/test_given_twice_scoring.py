"""One input given twice under two spellings, in the scoring commands (score, analyze, rank):
refused with the two spellings, where it was once scored (or ranked) twice without a word."""

from __future__ import annotations

import pytest

HYPS = ["the cat sat on the mat", "a dog barked", "it rained all day"]
OTHER = ["the cat sat", "a dog barked loudly", "it rained"]
REFS = ["the cat sat on the mat", "the dog barked", "it rained all day long"]


@pytest.fixture
def files(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, lines in (("A.txt", HYPS), ("B.txt", OTHER), ("C.txt", HYPS[::-1]),
                        ("ref.txt", REFS)):  # fmt: skip
        (tmp_path / name).write_text("\n".join(lines) + "\n")
    return tmp_path


@pytest.mark.parametrize("command", ["score", "analyze"])
@pytest.mark.parametrize("spelled", [["A.txt", "./A.txt"], ["A*.txt", "?.txt"]])
def test_one_system_file_under_two_spellings_is_refused(cli, files, command, spelled):
    args = ["-m", "bleu"] if command == "score" else ["-a", "length"]
    code, out, err = cli(command, "-i", *spelled, "-r", "ref.txt", *args)
    assert code != 0 and "Traceback" not in err
    assert "the same system file is given twice: A.txt and " in err


def test_two_files_of_one_name_in_two_folders_are_two_systems(cli, files):
    (files / "sub").mkdir()
    (files / "sub" / "A.txt").write_text("\n".join(OTHER) + "\n")
    code, out, err = cli("score", "-i", "A.txt", "sub/A.txt", "-r", "ref.txt", "-m", "bleu")
    assert code == 0, err
    assert "sub/A.txt" in out


@pytest.mark.parametrize(
    "specs", [["chrf", "chrf:n=6"], ["chrf", "chrf"], ["bleus:1..2", "bleus:2"]]
)
def test_rank_refuses_one_metric_given_twice(cli, files, specs):
    """Each spelling was ranked on its own and AutoRank counted the metric twice."""
    code, out, err = cli("rank", "-s", "A.txt", "B.txt", "C.txt", "-r", "ref.txt", "-m", *specs)
    assert code != 0 and "Traceback" not in err
    assert f"-m {specs[0]} and -m {specs[1]} are the same metric" in err


def test_rank_ranks_each_metric_of_a_grid(cli, files):
    code, out, err = cli("rank", "-s", "A.txt", "B.txt", "C.txt", "-r", "ref.txt",
                         "-m", "bleus:1..2", "chrf")  # fmt: skip
    assert code == 0, err
    assert "mean(sentence bleus:1)\tmean(sentence bleus:2)\tmean(sentence chrf)" in out


def test_the_rank_api_refuses_a_grid():
    from mtpalette import rank
    from mtpalette.errors import UserInputError

    with pytest.raises(UserInputError, match="names 2 metrics"):
        rank(systems={"A": HYPS, "B": OTHER}, refs=[REFS], metric="bleus:1..2", progress=False)


def test_rank_refuses_an_autorank_metric_given_twice(cli, tmp_path):
    """The mean z counted it twice: m1 m1 m2 ranked A first where m1 m2 rank B first."""
    import json

    folder = tmp_path / "automatic_scores"
    folder.mkdir()
    for name, (m1, m2) in {"A": (3.0, 1.0), "B": (2.0, 3.0), "C": (1.0, 2.0)}.items():
        row = {"language_pair": "en-xx_XX", "domain": "news", "document_id": "n1",
               "metric_scores": {"m1": [m1], "m2": [m2]}}  # fmt: skip
        (folder / f"{name}.jsonl").write_text(json.dumps(row) + "\n")
    code, out, err = cli("rank", "--wmt25-scores", folder, "--lp", "en-xx_XX",
                         *[a for m in ("m1", "m1", "m2") for a in ("--autorank-metrics", m)])
    assert code != 0 and "Traceback" not in err
    assert "AutoRank metric(s) m1 given twice" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--alpha", "0.5"], "--alpha is an option of --decoder pruning"),
        (["--decoder", "aggregate", "--schedule", "2,4"], "--schedule is an option of"),
        (["--bootstrap", "10"], "--bootstrap is an option of --decoder pruning"),
        (["--diversity", "0.5"], "--diversity is an option of --selector diverse"),
        (["-r", "ref.txt", "--exclude-self"], "are options of MBR"),
    ],
)
def test_mbr_refuses_an_option_its_decoder_would_not_read(cli, files, args, message):
    """Each was dropped without a word: the selection and signature were the defaults'."""
    (files / "nb.txt").write_text("".join(f"{i} ||| {a}\n{i} ||| {b}\n" for i, (a, b)
                                          in enumerate(zip(HYPS, OTHER, strict=True))))  # fmt: skip
    code, out, err = cli("mbr", "nb.txt", *args)
    assert code != 0 and "Traceback" not in err
    assert message in err


def test_analyze_refuses_an_analysis_given_twice(cli, files):
    """Its table was printed twice, and its rows were in the CSV twice under one name."""
    code, out, err = cli("analyze", "-i", "A.txt", "B.txt", "-r", "ref.txt",
                         "-a", "length", "words", "length")  # fmt: skip
    assert code != 0 and "Traceback" not in err
    assert "analysis 'length' is given twice" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--degree", "3"], "--degree is a parameter of --kernel poly, not linear"),
        (["--kernel", "rbf", "--degree", "3"], "--degree is a parameter of --kernel poly"),
        (["--gamma", "0.1"], "--gamma is a parameter of --kernel poly and rbf"),
        (["--objective", "rank", "--epsilon", "0.2"], "ROSE-rank does not read it"),
    ],
)
def test_train_rose_refuses_a_setting_the_fit_would_not_read(cli, tmp_path, args, message):
    """Each was dropped without a word (and --epsilon recorded in the model's info)."""
    code, out, err = cli("train-rose", "--bundled", "zhen", "-o", tmp_path / "m.json", "-q",
                         *args)  # fmt: skip
    assert code != 0 and "Traceback" not in err
    assert message in err


def test_train_blanc_refuses_a_grouping_at_system_level(cli, tmp_path):
    """The grouping was dropped at system level, yet written into the parameter file."""
    code, out, err = cli("train-blanc", "--bundled", "zhen", "-o", tmp_path / "b.json",
                         "--restarts", "1", "--max-evals", "5", "--level", "system",
                         "--grouping", "item")  # fmt: skip
    assert code != 0 and "Traceback" not in err
    assert "--grouping item groups segment scores" in err


def test_rank_refuses_an_lp_that_nothing_reads(cli, tmp_path):
    """A table of several pairs was ranked whole, pooled, under --lp zh-en."""
    table = tmp_path / "t.tsv"
    rows = [f"{s}\t{i}\t{x}\t{lp}" for lp in ("en-de", "zh-en") for i in range(1, 4)
            for s, x in (("A", 0.1 * i), ("B", 0.3))]  # fmt: skip
    table.write_text("system\titem\tscore\tlp\n" + "\n".join(rows) + "\n")
    code, out, err = cli("rank", "--table", table, "--lp", "zh-en")
    assert code != 0 and "Traceback" not in err
    assert "--lp names the language pair of --mtme or --wmt25-scores" in err


@pytest.mark.parametrize("columns", [["A", "B", "A"], [1, "B", "1"]])
@pytest.mark.parametrize("call", ["score_systems", "analyze", "rank"])
def test_the_api_refuses_a_dataframe_naming_one_system_twice(columns, call):
    """score_systems stopped with an AttributeError; analyze and (for 1 and "1") the others
    kept one of the two columns without a word."""
    import mtpalette
    from mtpalette.errors import UserInputError

    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({k: col for k, col in enumerate((HYPS, OTHER, HYPS[::-1]))})
    df.columns = columns
    run = {
        "score_systems": lambda: mtpalette.score_systems(df, [REFS], ["bleu"]),
        "analyze": lambda: mtpalette.analyze(df, [REFS], analyses=["length"], progress=False),
        "rank": lambda: mtpalette.rank(systems=df, refs=[REFS], metric="bleu", progress=False),
    }[call]
    with pytest.raises(UserInputError, match="the DataFrame has two columns named"):
        run()


@pytest.mark.parametrize("call", ["score_systems", "analyze", "rank"])
def test_the_api_refuses_two_keys_of_one_name(call):
    """{1: ..., "1": ...}: score_systems kept one system without a word, rank said it had
    fewer than two."""
    import mtpalette
    from mtpalette.errors import UserInputError

    systems = {1: HYPS, "1": OTHER}
    run = {
        "score_systems": lambda: mtpalette.score_systems(systems, [REFS], ["bleu"]),
        "analyze": lambda: mtpalette.analyze(systems, [REFS], analyses=["length"],
                                             progress=False),
        "rank": lambda: mtpalette.rank(systems=systems, refs=[REFS], metric="bleu",
                                       progress=False),
    }[call]  # fmt: skip
    with pytest.raises(UserInputError, match="two systems are named 1"):
        run()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--alpha", "0.5"], "(a stored matrix or QE scores would not read it)"),
        (["--diversity", "0.5"], "--diversity is an option of --selector diverse"),
    ],
)
def test_mbr_qe_reranking_refuses_a_decoder_option(cli, files, args, message):
    (files / "nb.txt").write_text("0 ||| a b\n0 ||| a c\n")
    (files / "qe.txt").write_text("0.1\n0.9\n")
    code, out, err = cli("mbr", "nb.txt", "--qe-scores", "qe.txt", *args)
    assert code != 0 and "Traceback" not in err
    assert message in err
