"""Ambiguous inputs of the judged and span runs are refused (or a reference copy left out, said),
never silently read: a reference given twice, a system that copies a reference, a gold file
given as its own ceiling."""

from __future__ import annotations

import pytest

from mtpalette.errors import UserInputError
from mtpalette.io.judgments_mqm import bundled_mqm_ted
from mtpalette.sources.inputs import load_task


def _judged(**kw):
    p = bundled_mqm_ted("zhen")
    return load_task(**{"judgments": p["judgments"], "refs": p["refs"][:1],
                        "systems": p["systems"][:2], "seg_ids": p["seg_ids"],
                        "note": lambda _: None, **kw})  # fmt: skip


def test_a_reference_given_twice_is_refused_by_the_judged_inputs():
    ref = bundled_mqm_ted("zhen")["refs"][0]
    with pytest.raises(UserInputError, match="hold the same text; give each reference once"):
        _judged(refs=[ref, ref])


def test_a_system_that_copies_a_reference_is_left_out_and_said():
    p = bundled_mqm_ted("zhen")
    notes: list[str] = []
    base, _, base_inputs = _judged()
    data, _, inputs = _judged(systems=[*p["systems"][:2], p["refs"][0]], note=notes.append)
    assert any("a copy of a reference: ref (= ref.txt)" in n for n in notes)
    assert data.n_systems == base.n_systems == 2
    assert inputs["systems"] == base_inputs["systems"]
