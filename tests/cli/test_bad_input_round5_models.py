"""The round-5 bad-input matrix (issue 51), model and parameter files: ROSE models and BLANC
parameter files validated field by field (:mod:`mtpalette.metrics.fields`), with types,
ranges and the finite limits of each formula, and BLANC's spec parameters by the same rules.

Once, a ROSE RBF model with kernel gamma -5 or NaN scored every sentence (NaN or 1e19) with
exit 0, one without gamma or with gamma "abc" gave a traceback, and ``"lowercase": "no"`` was
read as true; a BLANC parameter file holding an array, a string or null gave a traceback,
``"n": 2.7`` was read as 2 and ``true`` as 1; ``blanc:gamma=1e308`` scored 0.0 (its size
weights inf - inf) where the limit, the ratio at each sentence's largest size, is well defined.
Each case through the command line (exit 2, one line naming the file and the field, nothing
written, no input changed; or exit 0 and the value) and through the Python API.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from bad_input_files import (
    case_params,
    check_api_case,
    inputs_with,
    lines,
    run_case,
    snapshot,
)

import mtpalette
from mtpalette.metrics.blanc import BlancParams
from mtpalette.metrics.rose_features import feature_names

N_FEATURES = len(feature_names(False))


def _rose(edit=None, kernel: str = "rbf") -> str:
    """A valid ROSE model (an RBF expansion of two vectors, or linear), edited by ``edit``."""
    vectors = [[0.0] * N_FEATURES, [1.0] + [0.0] * (N_FEATURES - 1)]
    obj = {
        "metric": "rose", "version": "0.1.0", "kind": "reg", "lang": "en", "pos": False,
        "tokenize": "13a", "lowercase": True, "features": feature_names(False),
        "mean": [0.0] * N_FEATURES, "scale": [1.0] * N_FEATURES, "weights": [], "bias": 0.5,
        "info": {}, "loss": "epsilon", "kernel": kernel, "function_words": "fw100",
        "kernel_params": {"gamma": 0.5}, "vectors": vectors, "coef": [1.0, -2.0],
    }  # fmt: skip
    if kernel == "linear":
        obj.update(kernel_params={}, vectors=[], coef=[], weights=[0.1] * N_FEATURES)
    if edit is not None:
        edit(obj)
    return json.dumps(obj)


def _set(key: str, value, inside: str | None = None):
    return lambda o: (o[inside] if inside else o).__setitem__(key, value)


def _drop(key: str, inside: str | None = None):
    return lambda o: (o[inside] if inside else o).pop(key)


def _poly(**params):
    return lambda o: o.update(kernel="poly", kernel_params={"gamma": 0.5, "degree": 2,
                                                           "coef0": 1.0, **params})  # fmt: skip


#: name: content of the model and parameter files (the ``{name}`` of the case tables)
FILES = {
    "rbf.json": _rose(),
    "linear.json": _rose(kernel="linear"),
    "rbf_gamma_negative.json": _rose(_set("gamma", -5, "kernel_params")),
    "rbf_gamma_nan.json": _rose().replace('"gamma": 0.5', '"gamma": NaN'),
    "rbf_gamma_zero.json": _rose(_set("gamma", 0, "kernel_params")),
    "rbf_no_gamma.json": _rose(_drop("gamma", "kernel_params")),
    "rbf_gamma_text.json": _rose(_set("gamma", "abc", "kernel_params")),
    "rbf_gamma_true.json": _rose(_set("gamma", True, "kernel_params")),
    "rbf_gamma_typo.json": _rose(_set("kernel_params", {"gama": 0.5})),
    "rbf_params_list.json": _rose(_set("kernel_params", [0.5])),
    "poly_degree_float.json": _rose(_poly(degree=2.5)),
    "poly_degree_0.json": _rose(_poly(degree=0)),
    "poly_no_coef0.json": _rose(lambda o: (_poly()(o), o["kernel_params"].pop("coef0"))),
    "linear_params.json": _rose(_set("kernel_params", {"gamma": 0.5}), kernel="linear"),
    "lowercase_no.json": _rose(_set("lowercase", "no")),
    "lowercase_1.json": _rose(_set("lowercase", 1)),
    "pos_text.json": _rose(_set("pos", "false")),
    "kind_text.json": _rose(_set("kind", "regression")),
    "loss_of_rank.json": _rose(_set("loss", "hinge")),
    "bias_true.json": _rose(_set("bias", True)),
    "bias_text.json": _rose(_set("bias", "0.5")),
    "scale_negative.json": _rose(lambda o: o["scale"].__setitem__(3, -1.0)),
    "coef_text.json": _rose(lambda o: o["coef"].__setitem__(1, "x")),
    "vectors_flat.json": _rose(_set("vectors", [0.0, 1.0])),
    "no_lowercase.json": _rose(_drop("lowercase")),
    "field_typo.json": _rose(lambda o: o.__setitem__("lowercse", o.pop("lowercase"))),
    "tokenizer_unknown.json": _rose(_set("tokenize", "nosuch")),
    "language_unknown.json": _rose(_set("lang", "xx")),
    "rose_overflow.json": _rose(_set("weights", [1e308] * N_FEATURES), kernel="linear"),
    "b_array.json": "[1, 2]",
    "b_string.json": '"alpha=0.5"',
    "b_null.json": "null",
    "b_number.json": "3",
    "b_n_float.json": '{"n": 2.7}',
    "b_n_true.json": '{"n": true}',
    "b_n_text.json": '{"n": "2"}',
    "b_n_60.json": '{"n": 60}',
    "b_n_2.json": '{"n": 2.0, "lw": null}',
    "b_n_every.json": '{"n": 0}',
    "b_gamma_text.json": '{"gamma": "abc"}',
    "b_gamma_nan.json": '{"gamma": NaN}',
    "b_gamma_huge.json": '{"gamma": 1e308}',
    "b_alpha_negative.json": '{"alpha": -0.5}',
    "b_alpha_true.json": '{"alpha": true}',
    "b_bf_0.json": '{"bf": 0}',
    "b_gap_typo.json": '{"gap": "mx"}',
    "b_typo.json": '{"gama": 1}',
    "b_params_list.json": '{"metric": "blanc", "params": [1, 2]}',
    "b_params_n_float.json": '{"metric": "blanc", "params": {"n": 2.5}, "value": 0.4}',
    "b_rose_model.json": _rose(),
    "b_redundant_alpha.json": '{"redundant": "drop", "alpha": 0.5, "n": 2}',
}  # fmt: skip

SCORE = "score -r {r1} -i {s1} -f json -o out.json -m"
FIELD = "{file}: {says}"
#: (id, command line, exit code, what the message says (with exit 0: the output file holds))
CASES = [
    # ROSE: the kernel's parameters, in the ranges that keep exp(-gamma |z - v|^2) finite
    ("rose-rbf-gamma-negative", f"{SCORE} rose:@{{rbf_gamma_negative}}", 2,
     '{rbf_gamma_negative}: "kernel_params.gamma" is -5; expected a number > 0'),
    ("rose-rbf-gamma-nan", f"{SCORE} rose:@{{rbf_gamma_nan}}", 2,
     '{rbf_gamma_nan}: "kernel_params.gamma" is NaN; expected a number > 0'),
    ("rose-rbf-gamma-zero", f"{SCORE} rose:@{{rbf_gamma_zero}}", 2,
     '{rbf_gamma_zero}: "kernel_params.gamma" is 0; expected a number > 0'),
    ("rose-rbf-no-gamma", f"{SCORE} rose:@{{rbf_no_gamma}}", 2,
     '{rbf_no_gamma}: no "kernel_params.gamma" field; expected a number > 0'),
    ("rose-rbf-gamma-text", f"{SCORE} rose:@{{rbf_gamma_text}}", 2,
     '{rbf_gamma_text}: "kernel_params.gamma" is "abc"; expected a number > 0'),
    ("rose-rbf-gamma-true", f"{SCORE} rose:@{{rbf_gamma_true}}", 2,
     '{rbf_gamma_true}: "kernel_params.gamma" is true; expected a number > 0'),
    ("rose-rbf-gamma-typo", f"{SCORE} rose:@{{rbf_gamma_typo}}", 2,
     "{rbf_gamma_typo}: unknown kernel parameter \"kernel_params.gama\"; expected gamma. "
     "Did you mean 'gamma'?"),
    ("rose-rbf-params-a-list", f"{SCORE} rose:@{{rbf_params_list}}", 2,
     '{rbf_params_list}: "kernel_params" is [0.5]; expected a JSON object'),
    ("rose-poly-degree-float", f"{SCORE} rose:@{{poly_degree_float}}", 2,
     '{poly_degree_float}: "kernel_params.degree" is 2.5; expected an integer >= 1'),
    ("rose-poly-degree-0", f"{SCORE} rose:@{{poly_degree_0}}", 2,
     '{poly_degree_0}: "kernel_params.degree" is 0; expected an integer >= 1'),
    ("rose-poly-no-coef0", f"{SCORE} rose:@{{poly_no_coef0}}", 2,
     '{poly_no_coef0}: no "kernel_params.coef0" field; expected a finite number'),
    ("rose-linear-with-gamma", f"{SCORE} rose:@{{linear_params}}", 2,
     '{linear_params}: unknown kernel parameter "kernel_params.gamma"; expected no kernel'),
    # ROSE: every other field's type, never coerced
    ("rose-lowercase-no", f"{SCORE} rose:@{{lowercase_no}}", 2,
     '{lowercase_no}: "lowercase" is "no"; expected true or false'),
    ("rose-lowercase-1", f"{SCORE} rose:@{{lowercase_1}}", 2,
     '{lowercase_1}: "lowercase" is 1; expected true or false'),
    ("rose-pos-text", f"{SCORE} rose:@{{pos_text}}", 2,
     '{pos_text}: "pos" is "false"; expected true or false'),
    ("rose-kind-unknown", f"{SCORE} rose:@{{kind_text}}", 2,
     '{kind_text}: "kind" is "regression"; expected one of reg, rank'),
    ("rose-loss-of-the-other-kind", f"{SCORE} rose:@{{loss_of_rank}}", 2,
     '{loss_of_rank}: "loss" is "hinge"; expected epsilon or squared for ROSE-reg'),
    ("rose-bias-true", f"{SCORE} rose:@{{bias_true}}", 2,
     '{bias_true}: "bias" is true; expected a finite number'),
    ("rose-bias-text", f"{SCORE} rose:@{{bias_text}}", 2,
     '{bias_text}: "bias" is "0.5"; expected a finite number'),
    ("rose-scale-negative", f"{SCORE} rose:@{{scale_negative}}", 2,
     '{scale_negative}: "scale" holds -1.0; expected numbers > 0 (standard deviations)'),
    ("rose-coef-text", f"{SCORE} rose:@{{coef_text}}", 2,
     '{coef_text}: "coef" holds "x"; expected finite numbers'),
    ("rose-vectors-flat", f"{SCORE} rose:@{{vectors_flat}}", 2,
     '{vectors_flat}: "vectors" holds 0.0; expected lists of finite numbers'),
    ("rose-no-lowercase", f"{SCORE} rose:@{{no_lowercase}}", 2,
     '{no_lowercase}: no "lowercase" field; expected true or false'),
    ("rose-field-typo", f"{SCORE} rose:@{{field_typo}}", 2,
     "{field_typo}: unknown ROSE model field \"lowercse\"; expected metric, version, kind"),
    ("rose-field-typo-hint", f"{SCORE} rose:@{{field_typo}}", 2, "Did you mean 'lowercase'?"),
    ("rose-tokenizer-unknown", f"{SCORE} rose:@{{tokenizer_unknown}}", 2,
     "{tokenizer_unknown}: unknown tokenizer 'nosuch'"),
    ("rose-language-unknown", f"{SCORE} rose:@{{language_unknown}}", 2,
     "{language_unknown}: no fw100 function-word list for language 'xx'"),
    # ROSE: fields each finite whose arithmetic overflows: refused when scored
    ("rose-score-overflows", f"{SCORE} rose:@{{rose_overflow}}", 2,
     "{rose_overflow}: the model's value for segment 1 is inf: its weights, kernel "
     "parameters or scaler overflow a float"),
    ("rose-rbf-valid", f"{SCORE} rose:@{{rbf}}", 0, '"metric": "rose:@'),
    ("rose-linear-valid", f"{SCORE} rose:@{{linear}}", 0, '"metric": "rose:@'),
    # BLANC parameter files
    ("blanc-file-array", f"{SCORE} blanc:@{{b_array}}", 2,
     "{b_array}: holds an array; expected a JSON object of BLANC parameters"),
    ("blanc-file-string", f"{SCORE} blanc:@{{b_string}}", 2,
     "{b_string}: holds a string; expected a JSON object of BLANC parameters"),
    ("blanc-file-null", f"{SCORE} blanc:@{{b_null}}", 2,
     "{b_null}: holds null; expected a JSON object of BLANC parameters"),
    ("blanc-file-number", f"{SCORE} blanc:@{{b_number}}", 2,
     "{b_number}: holds a number; expected a JSON object of BLANC parameters"),
    ("blanc-n-float", f"{SCORE} blanc:@{{b_n_float}}", 2,
     '{b_n_float}: "n" is 2.7; expected an integer from 1 to 50, or 0 for every size'),
    ("blanc-n-true", f"{SCORE} blanc:@{{b_n_true}}", 2,
     '{b_n_true}: "n" is true; expected an integer from 1 to 50'),
    ("blanc-n-text", f"{SCORE} blanc:@{{b_n_text}}", 2,
     '{b_n_text}: "n" is "2"; expected an integer from 1 to 50'),
    ("blanc-n-60", f"{SCORE} blanc:@{{b_n_60}}", 2,
     '{b_n_60}: "n" is 60; expected an integer from 1 to 50, or 0 for every size'),
    ("blanc-gamma-text", f"{SCORE} blanc:@{{b_gamma_text}}", 2,
     '{b_gamma_text}: "gamma" is "abc"; expected a finite number'),
    ("blanc-gamma-nan", f"{SCORE} blanc:@{{b_gamma_nan}}", 2,
     '{b_gamma_nan}: "gamma" is NaN; expected a finite number'),
    ("blanc-alpha-negative", f"{SCORE} blanc:@{{b_alpha_negative}}", 2,
     '{b_alpha_negative}: "alpha" is -0.5; expected a number >= 0'),
    ("blanc-alpha-true", f"{SCORE} blanc:@{{b_alpha_true}}", 2,
     '{b_alpha_true}: "alpha" is true; expected a number >= 0'),
    ("blanc-bf-0", f"{SCORE} blanc:@{{b_bf_0}}", 2,
     '{b_bf_0}: "bf" is 0; expected a number > 0'),
    ("blanc-gap-typo", f"{SCORE} blanc:@{{b_gap_typo}}", 2,
     "{b_gap_typo}: \"gap\" is \"mx\"; expected one of max, cand. Did you mean 'max'?"),
    ("blanc-unknown-parameter", f"{SCORE} blanc:@{{b_typo}}", 2,
     "{b_typo}: unknown BLANC parameter \"gama\"; expected alpha, beta, gamma"),
    ("blanc-unknown-parameter-hint", f"{SCORE} blanc:@{{b_typo}}", 2,
     "Did you mean 'gamma'?"),
    ("blanc-record-params-a-list", f"{SCORE} blanc:@{{b_params_list}}", 2,
     '{b_params_list}: "params" is an array; expected a JSON object of BLANC parameters'),
    ("blanc-record-n-float", f"{SCORE} blanc:@{{b_params_n_float}}", 2,
     '{b_params_n_float}: "params.n" is 2.5; expected an integer from 1 to 50'),
    ("blanc-file-is-a-rose-model", f"{SCORE} blanc:@{{b_rose_model}}", 2,
     '{b_rose_model}: not BLANC parameters ("metric" is "rose"; expected "blanc")'),
    ("blanc-drop-with-alpha", f"{SCORE} blanc:@{{b_redundant_alpha}}", 2,
     "{b_redundant_alpha}: bad BLANC parameters: redundant=drop"),
    ("blanc-n-2.0-valid", f"{SCORE} blanc:@{{b_n_2}}", 0, "gamma=0,bf=1,n=2,gap=max"),
    ("blanc-n-0-valid", f"{SCORE} blanc:@{{b_n_every}}", 0, "gamma=0,bf=1,n=*,gap=max"),
    ("blanc-file-gamma-huge", f"{SCORE} blanc:@{{b_gamma_huge}}", 0, '"score": 0.0821608900'),
    # BLANC spec parameters: the same rules
    ("blanc-spec-gamma-huge", f"{SCORE} blanc:gamma=1e308", 0, '"score": 0.0821608900'),
    ("blanc-spec-gamma-huge-name", f"{SCORE} blanc:gamma=1e308", 0,
     '"spec": "blanc:alpha=0,beta=0,gamma=1e+308,bf=1,n=4,gap=max"'),
    ("blanc-spec-gamma-minus-huge", f"{SCORE} blanc:gamma=-1.7e308", 0,
     '"score": 0.5844302089'),  # its limit: all weight on unigrams, blanc:n=1
    ("blanc-spec-bf-huge", f"{SCORE} blanc:bf=1e200", 0, '"score": 0.'),
    ("blanc-spec-gamma-inf", f"{SCORE} blanc:gamma=inf", 2,
     "bad value 'inf' for 'gamma' in 'blanc:gamma=inf': not finite"),
    ("blanc-spec-gamma-nan", f"{SCORE} blanc:gamma=nan", 2, "bad value 'nan' for 'gamma'"),
    ("blanc-spec-gamma-text", f"{SCORE} blanc:gamma=abc", 2,
     "bad value 'abc' for 'gamma' in 'blanc:gamma=abc': expected a finite number"),
    ("blanc-spec-n-float", f"{SCORE} blanc:n=2.7", 2,
     "bad value '2.7' for 'n' in 'blanc:n=2.7': expected an integer from 1 to 50"),
    ("blanc-spec-n-60", f"{SCORE} blanc:n=60", 2, "bad value '60' for 'n'"),
    ("blanc-spec-gama", f"{SCORE} blanc:gama=1", 2, "metric 'blanc' has no option 'gama'"),
]  # fmt: skip


@pytest.fixture(scope="module")
def names(tmp_path_factory) -> dict[str, str]:
    return inputs_with(tmp_path_factory.mktemp("inputs"), FILES)


@pytest.mark.parametrize(("argv", "code", "expected"), case_params(CASES))
def test_model_files(names, tmp_path, monkeypatch, capsys, argv, code, expected):
    before = snapshot(Path(names["r1"]).parent)
    out, err = run_case(names, tmp_path, monkeypatch, capsys, argv, code)
    if code == 2:
        assert expected.format(**names) in err, err[-2000:]
        assert len(err.strip().splitlines()) == 1, err  # one line
        assert err.startswith("mtpalette: error: "), err
        assert list(tmp_path.iterdir()) == []  # nothing written (out.json)
    else:
        written = (tmp_path / "out.json").read_text(encoding="utf-8")
        assert expected.format(**names) in written, written
        assert all(np.isfinite(row["score"]) for row in json.loads(written))
    assert snapshot(Path(names["r1"]).parent) == before  # no input changed


# --------------------------------------------------------------------------------------------
# the Python API: the same files and specs, the same messages
H, R = lines("SMU"), lines("ref")


def _scores(spec: str) -> np.ndarray:
    return mtpalette.sentence_scores(H, [R], [spec])[spec]


def _corpus(spec: str) -> float:
    return mtpalette.corpus_score(H, [R], spec)[0].value


API_CASES = [  # (id, call on the files' paths, ("error", message) or ("value"/"equal", ...))
    ("rose-rbf-gamma-negative", lambda f: _scores(f"rose:@{f['rbf_gamma_negative']}"),
     ("error", '"kernel_params.gamma" is -5; expected a number > 0')),
    ("rose-rbf-gamma-nan", lambda f: _scores(f"rose:@{f['rbf_gamma_nan']}"),
     ("error", '"kernel_params.gamma" is NaN; expected a number > 0')),
    ("rose-rbf-no-gamma", lambda f: _scores(f"rose:@{f['rbf_no_gamma']}"),
     ("error", 'no "kernel_params.gamma" field')),
    ("rose-rbf-gamma-text", lambda f: _scores(f"rose:@{f['rbf_gamma_text']}"),
     ("error", '"kernel_params.gamma" is "abc"')),
    ("rose-lowercase-no", lambda f: _scores(f"rose:@{f['lowercase_no']}"),
     ("error", '"lowercase" is "no"; expected true or false')),
    ("rose-load-lowercase-no",
     lambda f: mtpalette.metrics.rose_model.RoseModel.load(f["lowercase_no"]),
     ("error", '"lowercase" is "no"; expected true or false')),
    ("rose-overflow", lambda f: _scores(f"rose:@{f['rose_overflow']}"),
     ("error", "the model's value for segment 1 is inf")),
    ("rose-valid", lambda f: _scores(f"rose:@{f['rbf']}"),
     ("value", lambda s: len(s) == 12 and np.isfinite(s).all())),
    ("blanc-array", lambda f: _scores(f"blanc:@{f['b_array']}"),
     ("error", "holds an array; expected a JSON object of BLANC parameters")),
    ("blanc-string", lambda f: _scores(f"blanc:@{f['b_string']}"), ("error", "holds a string")),
    ("blanc-null", lambda f: _scores(f"blanc:@{f['b_null']}"), ("error", "holds null")),
    ("blanc-n-float", lambda f: _scores(f"blanc:@{f['b_n_float']}"),
     ("error", '"n" is 2.7; expected an integer from 1 to 50, or 0 for every size')),
    ("blanc-n-true", lambda f: _scores(f"blanc:@{f['b_n_true']}"), ("error", '"n" is true')),
    ("blanc-load-n-float", lambda f: BlancParams.load(f["b_n_float"]), ("error", '"n" is 2.7')),
    ("blanc-from-dict-array", lambda f: BlancParams.from_dict([1, 2], path="p.json"),
     ("error", "p.json: holds an array; expected a JSON object of BLANC parameters")),
    ("blanc-from-dict-null", lambda f: BlancParams.from_dict(None),
     ("error", "holds null; expected a JSON object of BLANC parameters")),
    ("blanc-n-2.0", lambda f: _scores(f"blanc:@{f['b_n_2']}").tolist(),
     ("equal", lambda: _scores("blanc:n=2").tolist())),
    ("blanc-gamma-huge-file", lambda f: _corpus(f"blanc:@{f['b_gamma_huge']}"),
     ("equal", lambda: _corpus("blanc:gamma=1000"))),
    ("blanc-spec-gamma-huge", lambda f: _scores("blanc:gamma=1e308").tolist(),
     ("equal", lambda: _scores("blanc:gamma=1000").tolist())),
    ("blanc-spec-gamma-minus-huge", lambda f: _scores("blanc:gamma=-1.7e308").tolist(),
     ("equal", lambda: _scores("blanc:n=1").tolist())),
    ("blanc-spec-gamma-huge-value", lambda f: _corpus("blanc:gamma=1e308"),
     ("value", lambda v: abs(v - 0.0821608900290605) < 1e-12)),
    ("blanc-spec-n-float", lambda f: _scores("blanc:n=2.7"),
     ("error", "bad value '2.7' for 'n' in 'blanc:n=2.7': expected an integer from 1 to 50")),
    ("blanc-spec-gamma-inf", lambda f: _scores("blanc:gamma=inf"), ("error", "not finite")),
]  # fmt: skip


@pytest.mark.parametrize(("call", "expected"), [pytest.param(c, e, id=i) for i, c, e in API_CASES])
def test_python_api(names, call, expected):
    check_api_case(lambda: call(names), expected)


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"n": 2.7}, "n must be an integer (an integer from 1 to 50, or 0 for every size)"),
        ({"n": True}, "n must be an integer"),
        ({"n": 60}, "n must be at most 50, or 0 for every size"),
        ({"gamma": True}, "gamma must be a number, got True"),
        ({"alpha": "0.5"}, "alpha must be a number, got '0.5'"),
        ({"gamma": float("inf")}, "gamma must be finite"),
    ],
    ids=["n-float", "n-true", "n-60", "gamma-true", "alpha-text", "gamma-inf"],
)
def test_blanc_params_refuse_what_a_file_may_not_hold(kwargs, says):
    """The dataclass (the Python API's own BLANC parameters, and what train-blanc writes)
    refuses what a file or a spec may not hold, so nothing is written that cannot be read."""
    with pytest.raises(ValueError, match=says.replace("(", r"\(").replace(")", r"\)")):
        BlancParams(**kwargs)


def test_a_trained_file_reads_back(tmp_path):
    """Every field a parameter file written by train-blanc holds is read back as it was."""
    p = BlancParams(alpha=0.5, beta=0.25, gamma=-1.5, bf=2.0, n=3, gap="cand", lw=2.0, lt=1.0)
    record = {"metric": "blanc", "params": p.to_dict(), "objective": {}, "value": 0.3,
              "search": {}, "history": [], "version": mtpalette.__version__}  # fmt: skip
    path = tmp_path / "p.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert BlancParams.load(path) == p
