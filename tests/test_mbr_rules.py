"""Decision rules on stored scores (issue 53): MBR from stored matrices, QE reranking, QE top-k
then MBR, and mbrs's diverse n-best selector.

The diverse selector is checked as mbrs 0.1.8 checks its own (``mbrs/selectors/
diverse_test.py``: the objective's formula, greedy best-first against every set, the local
search reaching one solution from every start) and against brute force over all sets.
The texts are project-written.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtpalette import mbr, pairwise
from mtpalette.api.mbr_run import MbrOutputs, MbrRun, run_mbr
from mtpalette.errors import UserInputError
from mtpalette.io.utility_matrix import read_utility_matrices
from mtpalette.metrics.mbr_rules import qe_rerank, qe_then_mbr, stored_mbr
from mtpalette.metrics.mbr_select import (
    diverse_nbest,
    diverse_objective,
    greedy_best_first,
    local_search,
)

SEGS = [
    ["the cat sat on the mat", "a cat sat on the mat", "the cat sat", "the dog sat on a mat"],
    ["it is raining today", "it rains today", "today it is raining", "rain today", "sunny"],
]


@pytest.fixture()
def nbest(tmp_path):
    path = tmp_path / "samples.txt"
    path.write_text("".join(f"{s} ||| {h}\n" for s, seg in enumerate(SEGS) for h in seg))
    return path


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.floats(0, 10), st.data())
def test_objective_as_mbrs_defines_it(n, lam, data):
    u = np.array(data.draw(st.lists(st.floats(-100, 100), min_size=n, max_size=n)))
    d = np.array(data.draw(st.lists(st.floats(-100, 100), min_size=n * n, max_size=n * n)))
    d = d.reshape(n, n)
    mask = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if not mask.any():
        mask[0] = True
    k = mask.sum()
    masked = d.copy()
    np.fill_diagonal(masked, 0.0)
    masked[~mask] = 0.0
    masked[:, ~mask] = 0.0
    expected = u[mask].sum() / k + lam * masked.sum() / k / max(k - 1, 1)
    assert diverse_objective(u, d, mask, lam) == pytest.approx(expected, rel=1e-12, abs=1e-9)


def _best_set(u, d, k, lam, within=None):
    sets = [np.isin(np.arange(len(u)), c) for c in itertools.combinations(range(len(u)), k)]
    if within is not None:
        sets = [s for s in sets if (s & within).any()]
    return max(sets, key=lambda s: diverse_objective(u, d, s, lam))


def test_greedy_and_local_search_as_mbrs_tests():
    u = np.arange(4.0) + 1.0
    d = np.tile(np.arange(4.0, 0.0, -1.0), (4, 1))
    np.fill_diagonal(d, 0.0)
    one = greedy_best_first(u, d, np.zeros(4, dtype=bool), 1.1, 1)
    assert one.tolist() == _best_set(u, d, 1, 1.1).tolist()
    two = greedy_best_first(u, d, np.zeros(4, dtype=bool), 1.1, 2)
    assert two.tolist() == _best_set(u, d, 2, 1.1, within=one).tolist()
    starts = [[False, False, True, True], [False, True, False, True], [True, False, False, True]]
    ends = {tuple(local_search(u, d, np.array(m), lam=1.1).tolist()) for m in starts}
    assert ends == {tuple(_best_set(u, d, 2, 1.1).tolist())}


def test_diverse_selector_in_mbr():
    plain = mbr(SEGS, nbest=3)
    same = mbr(SEGS, nbest=3, selector="diverse", diversity=0.0)
    for a, b in zip(plain.nbest, same.nbest, strict=True):
        assert sorted(a.tolist()) == sorted(b.tolist())  # no diversity: the best three
    sel = mbr(SEGS, nbest=3, selector="diverse", diversity=1.0)
    for s, seg in enumerate(SEGS):
        u = sel.utilities[s]
        d = -pairwise([seg], metric="bleu")[0]
        chosen = np.isin(np.arange(len(seg)), sel.nbest[s])
        assert diverse_objective(u, d, chosen, 1.0) == pytest.approx(
            diverse_objective(u, d, _best_set(u, d, 3, 1.0), 1.0)
        )
        assert sel.nbest[s].tolist() == diverse_nbest(u, d, 3, lam=1.0).tolist()
    assert "selector:diverse|lambda:1.0" in sel.signature
    with pytest.raises(UserInputError, match="pruning takes nbest only"):
        mbr(SEGS, selector="diverse", decoder="pruning")


def test_stored_matrix_round_trip(nbest, tmp_path):
    exact = mbr(SEGS, nbest=2)
    run_mbr(MbrRun(nbest, outputs=MbrOutputs(tmp_path / "sel.txt", matrix=tmp_path / "u.npz")))
    matrices = read_utility_matrices(tmp_path / "u.npz", [len(s) for s in SEGS])
    stored = stored_mbr(SEGS, matrices, nbest=2)
    assert stored.index.tolist() == exact.index.tolist()
    for a, b in zip(stored.utilities, exact.utilities, strict=True):
        np.testing.assert_array_equal(a, b)
    assert stored.signature.fields["rule"] == "stored"
    # the same cells as a TSV of pairwise scores written by another tool
    rows = ["segment\tcandidate\treference\tscore"] + [
        f"{s}\t{i}\t{j}\t{float(m[i, j])!r}"
        for s, m in enumerate(matrices)
        for i, j in itertools.product(range(m.shape[0]), range(m.shape[1]))
    ]
    (tmp_path / "u.tsv").write_text("\n".join(rows) + "\n")
    sel = run_mbr(MbrRun(nbest, from_matrix=tmp_path / "u.tsv"))
    assert sel.text == exact.text and "rule:stored|matrix:" in sel.signature


def test_stored_tables_refused(nbest, tmp_path):
    head = "segment\tcandidate\treference\tscore\n"
    cases = {
        "0\t0\t0\t1\n0\t0\t0\t2\n": "given twice",
        "0\t9\t0\t1\n": "the segment has 4",
        "0\t0\t0\tx\n": "not a finite number",
        "7\t0\t0\t1\n": "not among",
    }
    for body, message in cases.items():
        path = tmp_path / "bad.tsv"
        path.write_text(head + body)
        with pytest.raises(UserInputError, match=message) as e:
            read_utility_matrices(path, [4, 5])
        assert "bad.tsv" in str(e.value)
    path.write_text(head + "".join(f"0\t{i}\t0\t1\n" for i in range(3)))
    with pytest.raises(UserInputError, match="candidate 3, reference 0 has no score"):
        read_utility_matrices(path, [4])
    with pytest.raises(UserInputError, match="segment_1"):
        np.savez(tmp_path / "short.npz", segment_0=np.zeros((4, 4)))
        read_utility_matrices(tmp_path / "short.npz", [4, 5])


def test_qe_rules():
    qe = [[0.1, 0.9, 0.3, 0.2], [0.5, 0.1, 0.4, 0.45, 0.0]]
    sel = qe_rerank(SEGS, qe, nbest=2)
    assert sel.index.tolist() == [1, 0] and [k.tolist() for k in sel.nbest] == [[1, 2], [0, 3]]
    both = qe_then_mbr(SEGS, qe, 3, metric="chrf", nbest=2)
    kept = [[1, 2, 3], [0, 2, 3]]
    inner = mbr([[seg[i] for i in k] for seg, k in zip(SEGS, kept, strict=True)], nbest=2)
    assert both.index.tolist() == [k[i] for k, i in zip(kept, inner.index, strict=True)]
    assert both.text == inner.text
    assert np.isnan(both.utilities[0][0]) and not np.isnan(both.utilities[0][1])
    assert "rule:qe-top|top:3" in both.signature and "decoder:pairwise" in both.signature
    everyone = qe_then_mbr(SEGS, qe, 10, decoder="aggregate")
    assert everyone.index.tolist() == mbr(SEGS, decoder="aggregate").index.tolist()
    with pytest.raises(UserInputError, match="expected 4 finite QE scores"):
        qe_rerank(SEGS, [[0.1, 0.2], qe[1]])


def test_qe_top_on_the_command_line(nbest, tmp_path):
    qe = tmp_path / "kiwi.txt"
    qe.write_text("0.1\n0.9\n0.3\n0.2\n0.5\n0.1\n0.4\n0.45\n0.0\n")
    done = subprocess.run(
        [sys.executable, "-m", "mtpalette", "mbr", str(nbest), "--qe-scores", str(qe),
         "--qe-top", "3", "--decoder", "aggregate", "--scores", "-"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    expected = qe_then_mbr(SEGS, [[0.1, 0.9, 0.3, 0.2], [0.5, 0.1, 0.4, 0.45, 0.0]], 3,
                           decoder="aggregate")  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0] == "segment\tindex\tutility\tcandidate"
    assert [int(x.split("\t")[1]) for x in lines[1:]] == expected.index.tolist()
    qe.write_text("0.1\n")
    done = subprocess.run(
        [sys.executable, "-m", "mtpalette", "mbr", str(nbest), "--qe-scores", str(qe)],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode != 0 and "1 line(s) for 9 candidates: one QE score per" in done.stderr


def test_weights_from_files(tmp_path):
    lps = [[-1.0, -2.0, -0.5, -3.0], [-0.1, -4.0, -2.0, -1.0, -0.2]]
    path = tmp_path / "scored.txt"
    # not in segment order: the weights follow the candidate lines
    lines = [(s, h, lp) for s, seg in enumerate(SEGS) for h, lp in zip(seg, lps[s], strict=True)]
    order = [4, 0, 5, 1, 6, 2, 7, 3, 8]
    path.write_text("".join(f"{lines[k][0]} ||| {lines[k][1]} ||| f=0 ||| {lines[k][2]}\n"
                            for k in order))  # fmt: skip
    (tmp_path / "lp.txt").write_text("".join(f"{lines[k][2]}\n" for k in order))
    expected = mbr(SEGS, reference_lprobs=lps, decoder="aggregate", nbest=2)
    by_scores = run_mbr(MbrRun(path, weights_from_scores=True, decoder="aggregate", nbest=2))
    by_file = run_mbr(MbrRun(path, reference_lprobs=tmp_path / "lp.txt", decoder="aggregate"))
    assert by_scores.text == by_file.text == expected.text
    assert "decoder:aggregate" in by_file.signature and "weights:lprobs" in by_file.signature
    assert expected.text != mbr(SEGS, decoder="aggregate").text  # the weights matter here
    (tmp_path / "bad.txt").write_text("-1\n-2\nnan\n" + "-1\n" * 6)
    with pytest.raises(UserInputError, match="bad.txt:3: 'nan' is not a finite log-prob"):
        run_mbr(MbrRun(path, reference_lprobs=tmp_path / "bad.txt"))
    with pytest.raises(UserInputError, match=r"8 line\(s\) for 9 candidates: one log-prob"):
        (tmp_path / "short.txt").write_text("-1\n" * 8)
        run_mbr(MbrRun(path, reference_lprobs=tmp_path / "short.txt"))
