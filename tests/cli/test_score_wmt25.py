"""``mtpalette score --wmt25-testset``: the project-written WMT25-format sample scored per
paragraph, per document and per system equals sacrebleu's sentence and corpus functions on
the same paragraphs and joined documents; the choice of system score is in the signature;
mismatches and impossible combinations are refused with a one-line message."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
import sacrebleu

from mtpalette.cli.app import main
from mtpalette.io.wmt25 import read_system_outputs, read_testset, sample_folder
from mtpalette.text.paragraphs import split_paragraphs, strip_html

S = sample_folder()
BASE = ["score", "--wmt25-testset", S / "testset.jsonl", "--wmt25-systems", S / "systems",
        "--set-id", "general"]  # fmt: skip
SACRE = {
    "bleu": (sacrebleu.sentence_bleu, sacrebleu.corpus_bleu),
    "chrf": (sacrebleu.sentence_chrf, sacrebleu.corpus_chrf),
    "chrf++": (
        lambda h, r: sacrebleu.CHRF(word_order=2).sentence_score(h, r),
        lambda h, r: sacrebleu.CHRF(word_order=2).corpus_score(h, r),
    ),
}


def run(monkeypatch, capsys, *args):
    monkeypatch.setattr(sys, "argv", ["mtpalette", *map(str, args)])
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def texts(lp: str, *, level: str = "paragraph", strip: bool = False):
    """Each kept system's paragraphs and the reference's, per document, read plainly (at
    paragraph level the sample's systems that match the source's paragraph counts on ``lp``,
    at document level every one)."""
    ts = read_testset(S / "testset.jsonl", set_id="general")
    docs = ts.pair(lp)
    (ref_name,) = docs[0].refs
    refs = [d.refs[ref_name].paragraphs for d in docs]
    systems = {}
    for name, out in read_system_outputs([S / "systems"], ts).items():
        hyps = [split_paragraphs(out.documents[d.doc_id].hypothesis) for d in docs]
        same = all(len(h) == len(d.paragraphs) for h, d in zip(hyps, docs, strict=True))
        if same or level == "document":
            systems[name] = [[strip_html(p) if strip else p for p in h] for h in hyps]
    return systems, refs


def _json(monkeypatch, capsys, *args):
    code, out, err = run(monkeypatch, capsys, *BASE, *args, "-f", "json")
    assert code == 0, err
    return {(r["system"], r["metric"]): r for r in json.loads(out)}


@pytest.mark.parametrize("lp", ["en-de_DE", "cs-uk_UA"])
@pytest.mark.parametrize("level", ["paragraph", "document"])
@pytest.mark.parametrize("system_score", ["corpus", "mean"])
def test_equals_sacrebleu(monkeypatch, capsys, lp, level, system_score):
    got = _json(monkeypatch, capsys, "--lp", lp, "-m", "bleu", "chrf", "chrf++", "--level",
                level, "--system-score", system_score, "--paragraph-mismatch", "drop")  # fmt: skip
    systems, refs = texts(lp, level=level)
    assert {s for s, _ in got} == set(systems)
    assert len(systems) == (2 if level == "paragraph" else 3)
    for name, docs in systems.items():
        if level == "paragraph":
            hyps, ref = [p for d in docs for p in d], [p for d in refs for p in d]
        else:
            hyps, ref = ["\n\n".join(d) for d in docs], ["\n\n".join(d) for d in refs]
        for metric, (sentence, corpus) in SACRE.items():
            if system_score == "corpus":
                expected = corpus(hyps, [ref]).score
            else:
                expected = np.mean([sentence(h, [r]).score for h, r in zip(hyps, ref, strict=True)])
            record = got[(name, metric)]
            assert record["score"] == pytest.approx(expected, abs=1e-9), (name, metric)
            assert f"|unit:{level}|sys:{system_score}|" in record["signature"]


@pytest.mark.parametrize("level", ["paragraph", "document"])
def test_segment_scores_equal_sacrebleu(monkeypatch, capsys, level):
    args = ["--lp", "en-de_DE", "-m", "bleu", "chrf", "--level", level, "--sentence",
            "-f", "tsv", "--paragraph-mismatch", "drop", "--strip-html"]  # fmt: skip
    code, out, err = run(monkeypatch, capsys, *BASE, *args)
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines() if not line.startswith("#")]
    assert rows[0] == ["system", "segment", "bleu", "chrf"]
    systems, refs = texts("en-de_DE", level=level, strip=True)
    expected = []
    for name, docs in systems.items():
        if level == "paragraph":
            pairs = list(
                zip([p for d in docs for p in d], [p for d in refs for p in d], strict=True)
            )
        else:
            pairs = [("\n\n".join(d), "\n\n".join(r)) for d, r in zip(docs, refs, strict=True)]
        for k, (h, r) in enumerate(pairs, 1):
            bleu = sacrebleu.sentence_bleu(h, [r]).score
            expected.append((name, k, bleu, sacrebleu.sentence_chrf(h, [r]).score))
    assert len(rows) - 1 == len(expected) == (14 if level == "paragraph" else 9)
    for row, (name, k, bleu, chrf) in zip(rows[1:], expected, strict=True):
        assert (row[0], int(row[1])) == (name, k)
        assert float(row[2]) == pytest.approx(bleu, abs=1e-9)
        assert float(row[3]) == pytest.approx(chrf, abs=1e-9)


def test_align_keeps_every_system_with_a_note(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, *BASE, "--lp", "en-de_DE", "-m", "chrf",
                         "--paragraph-mismatch", "align")  # fmt: skip
    assert code == 0, err
    assert "Tessera: 1 document aligned by WMT26's merge/split rule" in err
    assert "HTML tags kept and scored as text in Quill" in err
    assert [line.split()[0] for line in out.splitlines()[1:4]] == ["Lumen", "Quill", "Tessera"]


def test_a_mismatch_rule_at_document_level_is_named_as_idle(monkeypatch, capsys):
    """At document level a document is scored whole: Tessera's extra paragraph is no mismatch,
    and a rule given for it says that it does nothing, rather than seem to have dropped it."""
    code, out, err = run(monkeypatch, capsys, *BASE, "--lp", "en-de_DE", "-m", "chrf",
                         "--level", "document", "--paragraph-mismatch", "drop")  # fmt: skip
    assert code == 0, err
    assert "--paragraph-mismatch drop does nothing at document level" in err
    assert "Tessera" in out and "left out" not in err


def test_mismatch_refused_naming_the_document(monkeypatch, capsys):
    code, out, err = run(monkeypatch, capsys, *BASE, "--lp", "cs-uk_UA", "-m", "bleu")
    assert code == 2 and out == ""
    assert "Tessera: cs-uk_UA_#_news_#_tram (1 paragraph, the source has 2)" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lp", "en-de_DE", "--level", "system", "--sentence"], "--level system gives"),
        (
            ["--lp", "en-de_DE", "--system-score", "mean", "--paired-bs"],
            "use --system-score corpus",
        ),
        (["-r", "x.txt", "--lp", "en-de_DE"], "--wmt25-testset replaces -r"),
        ([], "needs the language pair: --lp"),
        (["--lp", "en-de_DE", "--set-id", "nope"], "no document of set 'nope'"),
        # one reference twice: one stream was scored, the note named two
        (["--lp", "en-de_DE", "--wmt25-ref", "refA", "refA"], "--wmt25-ref refA is given twice"),
    ],
)
def test_refused(monkeypatch, capsys, args, message):
    code, _, err = run(monkeypatch, capsys, *BASE, "-m", "bleu", *args)
    assert code == 2 and message in err, err


def test_lp_alone_is_refused(monkeypatch, capsys, tmp_path):
    ref = tmp_path / "r.txt"
    ref.write_text("a\n", encoding="utf-8")
    code, _, err = run(monkeypatch, capsys, "score", "-r", ref, "-i", ref, "--lp", "en-de")
    assert code == 2 and "--lp names the language pair of --mtme or --wmt25-testset" in err


def test_system_level_is_the_paragraph_table(monkeypatch, capsys):
    args = ["--lp", "en-de_DE", "-m", "bleu", "chrf", "--paragraph-mismatch", "drop"]
    paragraph = _json(monkeypatch, capsys, *args)
    system = _json(monkeypatch, capsys, *args, "--level", "system")
    assert {k: r["score"] for k, r in system.items()} == {
        k: r["score"] for k, r in paragraph.items()
    }
    assert all("|unit:paragraph|sys:corpus|" in r["signature"] for r in system.values())
