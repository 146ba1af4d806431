"""SPA's permuted system totals are float32 sums in one fixed order (OpenBLAS's AVX-512 sgemm,
the machine mt-metrics-eval's goldens come from), whatever BLAS kernel computes the product.

mt-metrics-eval's ``compute_pairwise_p_values`` takes them from a float32 ``np.matmul``: with
``OPENBLAS_CORETYPE=Haswell`` (or on a CPU OpenBLAS gives its Haswell kernel) the items are
summed in other blocks, a permuted difference that ties the observed one to the last bit
goes the other way, and a p-value moves by ``1/k`` (WMT21 TED en-de: SPA off by 1/78000).
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from real_data import mqm_ted_human

from mtpalette.stats import pairwise as pw

DATA = Path(__file__).resolve().parents[1] / "data" / "mtme_tasks" / "inputs.json.gz"


def _reference(x: np.ndarray, k: int, seed: int) -> np.ndarray:
    """p-values with every permuted total summed in the reference order."""
    n_sys, n_items = x.shape
    signs = pw._spa_signs(k, n_items, seed)
    s32 = np.ascontiguousarray(x, dtype=np.float32)
    totals = s32.sum(axis=1)
    rows, cols = np.repeat(np.arange(k), n_sys), np.tile(np.arange(n_sys), k)
    part = pw.sign_products(signs, s32, rows, cols).reshape(k, n_sys)
    p = np.full((n_sys, n_sys), np.nan)
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            p[i, j] = np.sum((part[:, i] - part[:, j]) >= (totals[i] - totals[j])) / k
    return p


def _human_en_de() -> np.ndarray:
    """The real MQM scores of en-de (shared data; the systems named in the inputs file)."""
    with gzip.open(DATA, "rt") as fh:
        systems = json.load(fh)["en-de"]["systems"]
    return np.array(mqm_ted_human("ende", systems), dtype=np.float64)


def _cases() -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(7)
    tenth = -np.round(rng.exponential(2.0, (6, 529)), 1)  # MQM-like: many exact ties
    shared = np.repeat(np.round(rng.normal(size=(1, 1000)), 2), 5, axis=0)
    shared[:, rng.integers(0, 1000, 4)] += 0.01  # systems that differ on a few items
    wide = rng.normal(size=(4, 1337)) * 10.0 ** rng.integers(-3, 7, (4, 1337))
    odd = -np.round(rng.exponential(2.0, (5, 300)), 1)
    odd[1, 3], odd[2, 4], odd[3] = np.nan, np.inf, 3e38  # NaN, inf, float32 overflow
    return [
        ("wmt21-ted-en-de-mqm", _human_en_de()),
        ("tenths", tenth),
        ("shared-3-blocks", shared),
        ("wide-magnitudes", wide),
        ("nan-inf-overflow", odd),
    ]


@pytest.mark.parametrize(("name", "x"), _cases(), ids=[c[0] for c in _cases()])
@pytest.mark.parametrize("k", [1000, 300])
def test_p_values_are_the_reference_order_sums(name, x, k):
    iu = np.triu_indices(x.shape[0], 1)
    with np.errstate(invalid="ignore", over="ignore"):
        got, want = pw.pairwise_p_values(x, n_permutations=k, seed=4), _reference(x, k, 4)
    np.testing.assert_array_equal(got[iu], want[iu])


def _reversed_order(signs: np.ndarray, flat: np.ndarray) -> np.ndarray:
    return np.matmul(signs[:, ::-1], flat[:, ::-1].T)


def _rounded_once(signs: np.ndarray, flat: np.ndarray) -> np.ndarray:
    return np.matmul(signs.astype(np.float64), flat.astype(np.float64).T).astype(np.float32)


@pytest.mark.parametrize("product", [_reversed_order, _rounded_once])
def test_another_blas_order_changes_nothing(monkeypatch, product):
    """The BLAS product only screens the draws: summed in another order (reversed items, or
    exactly and rounded once), the p-values stay the reference order's."""
    cases = _cases()[:4]
    expected = [pw.pairwise_p_values(x) for _, x in cases]
    monkeypatch.setattr(pw, "_blas_product", product)
    for (name, x), want in zip(cases, expected, strict=True):
        np.testing.assert_array_equal(pw.pairwise_p_values(x), want, err_msg=name)


def test_reference_blocks_are_openblas_avx512s():
    assert pw.sign_product_blocks(448) == [(0, 448)]
    assert pw.sign_product_blocks(529) == [(0, 272), (272, 529)]  # halved, up to 16
    assert pw.sign_product_blocks(895) == [(0, 448), (448, 895)]
    assert pw.sign_product_blocks(896) == [(0, 448), (448, 896)]
    assert pw.sign_product_blocks(3001)[-2:] == [(2240, 2624), (2624, 3001)]


def _openblas() -> bool:
    from threadpoolctl import threadpool_info

    return any(i.get("internal_api") == "openblas" for i in threadpool_info())


def _avx512() -> bool:
    try:
        return " avx512f" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not _openblas(), reason="numpy's BLAS is not OpenBLAS")
def test_same_spa_with_any_openblas_kernel(tmp_path):
    """The failure this guards against: SPA of WMT21 TED en-de under OpenBLAS's Haswell kernel
    (``OPENBLAS_CORETYPE=Haswell``) was 1/78000 off the AVX-512 kernel's (mt-metrics-eval's)."""
    human = tmp_path / "human.json"  # the real MQM scores, from the shared data
    human.write_text(json.dumps(np.where(np.isnan(_human_en_de()), None, _human_en_de()).tolist()))
    code = (
        "import gzip, json, numpy as np\n"
        "from mtpalette.stats.pairwise import soft_pairwise_accuracy as spa\n"
        f"d = json.load(gzip.open({str(DATA)!r}, 'rt'))['en-de']\n"
        f"h = np.array(json.load(open({str(human)!r})), float)\n"
        "print(json.dumps([spa(h, np.array(m, float)) for m in d['metrics_seg'].values()]))\n"
    )
    kernels = ["Haswell", "Prescott"] + (["SkylakeX"] if _avx512() else [])
    seen = {}
    for kernel in kernels:
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel, "OPENBLAS_NUM_THREADS": "1"}
        run = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        seen[kernel] = json.loads(run.stdout)
    assert all(v == seen["Haswell"] for v in seen.values()), seen
    # chrF, chrF++, BLEU, TER as mt-metrics-eval computes them with the AVX-512 kernel
    assert seen["Haswell"] == pytest.approx(
        [0.6686923076923078, 0.6688461538461539, 0.6689102564102564, 0.5558846153846154],
        abs=1e-15,
    )
