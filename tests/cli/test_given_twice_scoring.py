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
