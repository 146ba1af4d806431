//! The Python binding, the one module that knows PyO3 and numpy: it turns numpy arrays into
//! slices and `Grid`s, runs each compute kernel with the GIL released (a panic becomes a
//! RuntimeError, an `InputError` a ValueError), turns the flat results back into arrays, and
//! registers every function in `_core` (the list at the bottom; the text routes' bindings are
//! in `python/text.rs`). Python reaches these only through `mtpalette.kernels`, which gives
//! each one a wrapper and a slow twin.
use std::panic::{catch_unwind, AssertUnwindSafe};

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{
    Element, IntoPyArray, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use crate::error::{Checked, InputError};
use crate::grid::Grid;
use crate::pairs::Pairs;
use crate::{
    acs, analysis, bleu_text, chrf, chrf_text, distinct, edit, encode_text, gtm, interning,
    legacy_mt, ngram, nist, pairwise, porter, rouge_lsum, rouge_score_tok, rouge_text, scores,
    sign_sums, skipbigram, stats, subsequence, ter, text_pairs, tokenize, vocab,
};

mod text;

// ------------------------------------------------------------------------------ conversion

/// A numpy array handed back to Python.
type Array<'py> = Bound<'py, PyAny>;
type SixArrays<'py> = (
    Array<'py>,
    Array<'py>,
    Array<'py>,
    Array<'py>,
    Array<'py>,
    Array<'py>,
);

fn value_error(e: InputError) -> PyErr {
    PyValueError::new_err(e.0)
}

/// A contiguous 1-d numpy array as a slice, or a ValueError naming the argument.
fn slice<'a, T: Element>(a: &'a PyReadonlyArray1<T>, name: &str) -> PyResult<&'a [T]> {
    a.as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: expected a contiguous 1-d array")))
}

/// Texts grouped by segment (`NAME_ids`, `NAME_off`, `NAME_seg`) as `pairwise::Segmented`.
fn segmented<'a>(
    ids: &'a PyReadonlyArray1<i32>,
    off: &'a PyReadonlyArray1<i64>,
    seg: &'a PyReadonlyArray1<i64>,
    name: &str,
) -> PyResult<pairwise::Segmented<'a>> {
    Ok(pairwise::Segmented {
        ids: slice(ids, &format!("{name}_ids"))?,
        off: slice(off, &format!("{name}_off"))?,
        seg: slice(seg, &format!("{name}_seg"))?,
    })
}

/// A writable contiguous 1-d numpy array as a mutable slice.
fn slice_mut<'a, T: Element>(a: &'a mut PyReadwriteArray1<T>, name: &str) -> PyResult<&'a mut [T]> {
    a.as_slice_mut().map_err(|_| {
        PyValueError::new_err(format!("{name}: expected a contiguous writable 1-d array"))
    })
}

/// A C-contiguous 2-d numpy array as a `Grid`.
fn grid<'a, T: Element>(a: &'a PyReadonlyArray2<T>, name: &str) -> PyResult<Grid<'a, T>> {
    let (rows, cols) = (a.shape()[0], a.shape()[1]);
    let data = a
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name}: expected a C-contiguous 2-d array")))?;
    Grid::new(data, rows, cols, name).map_err(value_error)
}

/// A flat vector as a numpy array of the given shape.
fn array<'py, T: Element>(
    py: Python<'py>,
    v: Vec<T>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    let a = ArrayD::from_shape_vec(IxDyn(shape), v)
        .map_err(|e| PyValueError::new_err(format!("output shape: {e}")))?;
    Ok(a.into_pyarray(py).into_any())
}

/// A vector as a 1-d numpy array.
fn vector<T: Element>(py: Python<'_>, v: Vec<T>) -> PyResult<Array<'_>> {
    let n = v.len();
    array(py, v, &[n])
}

/// Python strings (one per line or candidate)
type Texts<'py> = Vec<Bound<'py, pyo3::types::PyString>>;
/// reference streams of Python strings or None
type RefTexts<'py> = Vec<Vec<Option<Bound<'py, pyo3::types::PyString>>>>;

/// Python strings as their own UTF-8, borrowed (no copy for ASCII strings; one Python string
/// passed twice is one address); a lone surrogate raises UnicodeEncodeError.
fn strs<'a>(texts: &'a Texts<'_>) -> PyResult<Vec<&'a str>> {
    texts.iter().map(|s| s.to_str()).collect()
}

/// [`strs`] of every reference stream, None kept.
fn ref_strs<'a>(refs: &'a RefTexts<'_>) -> PyResult<Vec<Vec<Option<&'a str>>>> {
    refs.iter()
        .map(|row| {
            row.iter()
                .map(|s| s.as_ref().map(|s| s.to_str()).transpose())
                .collect()
        })
        .collect()
}

/// Runs the checks and the work of `f` with the GIL released: an `InputError` becomes a
/// ValueError, a panic a RuntimeError naming the kernel instead of aborting the interpreter.
fn run<T: Send, F: FnOnce() -> Checked<T> + Send>(
    py: Python<'_>,
    kernel: &str,
    f: F,
) -> PyResult<T> {
    match py.detach(|| catch_unwind(AssertUnwindSafe(|| crate::parallel::in_pool(f)))) {
        Ok(result) => result.map_err(value_error),
        Err(e) => {
            let msg = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(PyRuntimeError::new_err(format!(
                "mtpalette._core.{kernel}: internal error: {msg}"
            )))
        }
    }
}

/// The numpy arguments of a pairs kernel, in the order of `Pairs.arrays()`.
type PairsArgs<'py> = (
    PyReadonlyArray1<'py, i32>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray1<'py, i32>,
    PyReadonlyArray1<'py, i64>,
    PyReadonlyArray2<'py, bool>,
);

/// The pairs of a pairs kernel's arrays, not yet checked (`run` checks them, without the GIL).
fn pairs<'a>(a: &'a PairsArgs) -> PyResult<Pairs<'a>> {
    Ok(Pairs {
        hyp: slice(&a.0, "hyp ids")?,
        hyp_off: slice(&a.1, "hyp offsets")?,
        seg: slice(&a.2, "seg")?,
        refs: slice(&a.3, "ref ids")?,
        ref_off: slice(&a.4, "ref offsets")?,
        mask: grid(&a.5, "mask")?,
    })
}

/// Runs the pairs kernel `f` on the checked pairs of `a`; its flat output becomes an array
/// of shape `(P, *tail(R))` for `P` candidates with `R` references each.
fn on_pairs<'py, T, S, F>(
    py: Python<'py>,
    a: &PairsArgs<'py>,
    kernel: &str,
    tail: S,
    f: F,
) -> PyResult<Bound<'py, PyAny>>
where
    T: Element + Send,
    S: FnOnce(usize) -> Vec<usize>,
    F: FnOnce(&Pairs) -> Checked<Vec<T>> + Send,
{
    let p = pairs(a)?;
    let out = run(py, kernel, || f(&p.check()?))?;
    let mut shape = vec![p.len()];
    shape.extend(tail(p.n_refs()));
    array(py, out, &shape)
}

// ------------------------------------------------------------------------- pairs kernels

/// Clipped n-gram matches `(P, 1 or R, max_n)` (see `mtpalette.kernels.ngram`).
#[pyfunction]
fn ngram_matches<'py>(
    py: Python<'py>,
    a: PairsArgs<'py>,
    max_n: usize,
    clipping: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let clipping = match clipping {
        "best" => ngram::Clipping::Best,
        "per-ref" => ngram::Clipping::PerRef,
        "leave-out" => ngram::Clipping::LeaveOut,
        other => {
            return Err(PyValueError::new_err(format!(
                "ngram_matches: unknown clipping {other:?} (best, per-ref, leave-out)"
            )))
        }
    };
    let tail = |r| {
        vec![
            if clipping == ngram::Clipping::Best {
                1
            } else {
                r
            },
            max_n,
        ]
    };
    on_pairs(py, &a, "ngram_matches", tail, |p| {
        Ok(ngram::ngram_matches(p, max_n, clipping))
    })
}

/// chrF statistics `(P, R, max_n, 3)` (see `mtpalette.kernels.chrf`).
#[pyfunction]
fn chrf_stats<'py>(
    py: Python<'py>,
    a: PairsArgs<'py>,
    max_n: usize,
    direct_max: usize,
) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(
        py,
        &a,
        "chrf_stats",
        |r| vec![r, max_n, 3],
        |p| Ok(chrf::chrf_stats(p, max_n, direct_max)),
    )
}

/// Per-reference dynamic programmes `(P, R, n_out)` (see `mtpalette.kernels.subsequence`).
#[pyfunction]
fn dp_per_ref<'py>(
    py: Python<'py>,
    kind: &str,
    a: PairsArgs<'py>,
    alphas: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let alphas = slice(&alphas, "alphas")?;
    let kind = subsequence::Kind::parse(kind, alphas).map_err(value_error)?;
    on_pairs(
        py,
        &a,
        "dp_per_ref",
        |r| vec![r, kind.n_out(alphas)],
        |p| Ok(subsequence::per_ref(p, kind, alphas)),
    )
}

/// Skip-bigram matches `(P, R, n_buckets)` (see `mtpalette.kernels.skipbigram`).
#[pyfunction]
fn skip_matches<'py>(
    py: Python<'py>,
    a: PairsArgs<'py>,
    vocab: i64,
    n_buckets: usize,
    any_gap: bool,
) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(
        py,
        &a,
        "skip_matches",
        |r| vec![r, n_buckets],
        |p| skipbigram::skip_matches(p, vocab, n_buckets, any_gap),
    )
}

/// Word edit distances (or, with `bag`, PER's bag-of-words matches) `(P, R)`.
#[pyfunction]
fn edit_per_ref<'py>(py: Python<'py>, a: PairsArgs<'py>, bag: bool) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(
        py,
        &a,
        "edit_per_ref",
        |r| vec![r],
        |p| Ok(edit::per_ref(p, bag)),
    )
}

/// TER edits `(P, R)` (see `mtpalette.kernels.ter`).
#[pyfunction]
fn ter_per_ref<'py>(py: Python<'py>, a: PairsArgs<'py>) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(py, &a, "ter_per_ref", |r| vec![r], |p| Ok(ter::per_ref(p)))
}

/// TER edits of one candidate against one reference.
#[pyfunction]
fn ter_edits(
    py: Python<'_>,
    h: PyReadonlyArray1<'_, i32>,
    r: PyReadonlyArray1<'_, i32>,
) -> PyResult<i64> {
    let (h, r) = (slice(&h, "h")?, slice(&r, "r")?);
    run(py, "ter_edits", || Ok(ter::ter_edits(h, r)))
}

/// gtm 1.4's maximum match size `(P, len(exponents))`.
#[pyfunction]
fn gtm_mms<'py>(
    py: Python<'py>,
    a: PairsArgs<'py>,
    exponents: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let exponents = slice(&exponents, "exponents")?;
    on_pairs(
        py,
        &a,
        "gtm_mms",
        |_| vec![exponents.len()],
        |p| Ok(gtm::mms(p, exponents)),
    )
}

/// The closest reference length of each candidate (sacrebleu's rule).
#[pyfunction]
fn closest_ref_lengths<'py>(py: Python<'py>, a: PairsArgs<'py>) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(
        py,
        &a,
        "closest_ref_lengths",
        |_| vec![],
        |p| Ok(scores::closest_ref_lengths(p)),
    )
}

// ------------------------------------------------------------------------- other kernels

/// The information weight of every n-gram id (see `nist::corpus_information`).
#[pyfunction]
fn nist_information<'py>(
    py: Python<'py>,
    counts: PyReadonlyArray1<'py, i64>,
    numer: PyReadonlyArray1<'py, f64>,
) -> PyResult<Array<'py>> {
    let (counts, numer) = (slice(&counts, "counts")?, slice(&numer, "numer")?);
    let out = run(py, "nist_information", || {
        nist::corpus_information(counts, numer)
    })?;
    vector(py, out)
}

/// NIST statistics `(n_hyp, 5 * max_n)` (see `mtpalette.kernels.nist`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn nist_stats<'py>(
    py: Python<'py>,
    ids: PyReadonlyArray2<'py, i64>,
    prefix: PyReadonlyArray2<'py, i64>,
    info: PyReadonlyArray2<'py, f64>,
    off: PyReadonlyArray1<'py, i64>,
    seg: PyReadonlyArray1<'py, i64>,
    mask: PyReadonlyArray2<'py, bool>,
    n_hyp: usize,
    leave_out: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let inp = nist::NistInput {
        ids: grid(&ids, "ids")?,
        prefix: grid(&prefix, "prefix")?,
        info: grid(&info, "info")?,
        off: slice(&off, "off")?,
        seg: slice(&seg, "seg")?,
        mask: grid(&mask, "mask")?,
        n_hyp,
        leave_out,
    };
    let out = run(py, "nist_stats", || nist::nist_stats(&inp))?;
    if leave_out {
        array(py, out, &[n_hyp, inp.mask.dim().0, 5 * inp.ids.dim().0])
    } else {
        array(py, out, &[n_hyp, 5 * inp.ids.dim().0])
    }
}

/// ACS counts `(P, kmax)` of rows `pa[p]` of `a` and `pb[p]` of `b`; `tags`: POS tags
/// aligned with `a_ids` and `b_ids` and the node weights `(tag_only, word_only)`.
#[pyfunction]
#[pyo3(signature = (a_ids, a_off, b_ids, b_off, pa, pb, factors, kmax, tags=None))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn acs_counts<'py>(
    py: Python<'py>,
    a_ids: PyReadonlyArray1<'py, i32>,
    a_off: PyReadonlyArray1<'py, i64>,
    b_ids: PyReadonlyArray1<'py, i32>,
    b_off: PyReadonlyArray1<'py, i64>,
    pa: PyReadonlyArray1<'py, i64>,
    pb: PyReadonlyArray1<'py, i64>,
    factors: (f64, f64, f64),
    kmax: usize,
    tags: Option<(
        PyReadonlyArray1<'py, i32>,
        PyReadonlyArray1<'py, i32>,
        (f64, f64),
    )>,
) -> PyResult<Bound<'py, PyAny>> {
    let a = acs::Rows {
        ids: slice(&a_ids, "a_ids")?,
        off: slice(&a_off, "a_off")?,
    };
    let b = acs::Rows {
        ids: slice(&b_ids, "b_ids")?,
        off: slice(&b_off, "b_off")?,
    };
    let (pa, pb) = (slice(&pa, "pa")?, slice(&pb, "pb")?);
    let tagged = match &tags {
        None => None,
        Some((ta, tb, (tag_only, word_only))) => Some(acs::Tags {
            a: slice(ta, "a_tags")?,
            b: slice(tb, "b_tags")?,
            weights: acs::NodeWeights {
                tag_only: *tag_only,
                word_only: *word_only,
            },
        }),
    };
    let (d, h, v) = factors;
    let out = run(py, "acs_counts", || {
        acs::acs_counts(&a, &b, pa, pb, d, h, v, kmax, tagged.as_ref())
    })?;
    array(py, out, &[pa.len(), kmax])
}

/// For each j, the number of i < j with v[i] > v[j].
#[pyfunction]
fn inversions_per_element<'py>(
    py: Python<'py>,
    v: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = slice(&v, "v")?;
    let out = run(py, "inversions_per_element", || {
        Ok(stats::inversions_per_element(v))
    })?;
    array(py, out, &[v.len()])
}

/// `(G, 5)` pair counts by merge counting (rows sorted by group, gold, metric).
#[pyfunction]
fn grouped_pair_counts<'py>(
    py: Python<'py>,
    g: PyReadonlyArray1<'py, f64>,
    m: PyReadonlyArray1<'py, f64>,
    offsets: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (g, m, offsets) = (
        slice(&g, "g")?,
        slice(&m, "m")?,
        slice(&offsets, "offsets")?,
    );
    let out = run(py, "grouped_pair_counts", || {
        stats::grouped_counts(g, m, offsets)
    })?;
    array(py, out, &[offsets.len() - 1, 5])
}

/// `(G, 5)` pair counts of the groups `use_group` by enumeration, ties within `epsilon`.
#[pyfunction]
fn pairwise_counts<'py>(
    py: Python<'py>,
    g: PyReadonlyArray1<'py, f64>,
    m: PyReadonlyArray1<'py, f64>,
    offsets: PyReadonlyArray1<'py, i64>,
    use_group: PyReadonlyArray1<'py, bool>,
    epsilon: f64,
) -> PyResult<Bound<'py, PyAny>> {
    let (g, m, offsets) = (
        slice(&g, "g")?,
        slice(&m, "m")?,
        slice(&offsets, "offsets")?,
    );
    let use_group = slice(&use_group, "use_group")?;
    let out = run(py, "pairwise_counts", || {
        stats::pairwise_counts(g, m, offsets, use_group, epsilon)
    })?;
    array(py, out, &[offsets.len() - 1, 5])
}

/// The pairs test's swaps from numpy's legacy stream (`key`, numpy's MT19937 key, advanced in
/// place; `pos`, its position): `((n_perm, len(upper)) uint8, new pos)`.
#[pyfunction]
fn legacy_pair_swaps<'py>(
    py: Python<'py>,
    mut key: PyReadwriteArray1<'py, u32>,
    pos: usize,
    n_perm: usize,
    n_draws: usize,
    upper: PyReadonlyArray1<'py, i64>,
) -> PyResult<(Bound<'py, PyAny>, usize)> {
    let upper = slice(&upper, "upper")?;
    let key = slice_mut(&mut key, "key")?;
    let (out, pos) = run(py, "legacy_pair_swaps", || {
        let mut mt = legacy_mt::Mt { key, pos };
        let out = legacy_mt::pair_swaps(&mut mt, n_perm, n_draws, upper)?;
        Ok((out, mt.pos))
    })?;
    Ok((array(py, out, &[n_perm, upper.len()])?, pos))
}

/// SPA's permuted totals in the fixed float32 order (see `mtpalette.kernels.sign_sums`).
#[pyfunction]
fn sign_products<'py>(
    py: Python<'py>,
    signs: PyReadonlyArray2<'py, f32>,
    values: PyReadonlyArray2<'py, f32>,
    rows: PyReadonlyArray1<'py, i64>,
    cols: PyReadonlyArray1<'py, i64>,
    bounds: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (signs, values) = (grid(&signs, "signs")?, grid(&values, "values")?);
    let (rows, cols) = (slice(&rows, "rows")?, slice(&cols, "cols")?);
    let bounds = slice(&bounds, "bounds")?;
    let out = run(py, "sign_products", || {
        sign_sums::sign_products(signs, values, rows, cols, bounds)
    })?;
    vector(py, out)
}

/// SPA's screen of permuted differences (see `mtpalette.kernels.sign_sums`): sure hits
/// `(batches, pairs)` and the near-ties' draw, batch and pair.
#[pyfunction]
fn spa_screen<'py>(
    py: Python<'py>,
    partial: PyReadonlyArray2<'py, f32>,
    n_sys: usize,
    above: PyReadonlyArray2<'py, f32>,
    below: PyReadonlyArray2<'py, f32>,
    odd: PyReadonlyArray1<'py, bool>,
) -> PyResult<(Array<'py>, Array<'py>, Array<'py>, Array<'py>)> {
    let partial = grid(&partial, "partial")?;
    let (above, below) = (grid(&above, "above")?, grid(&below, "below")?);
    let odd = slice(&odd, "odd")?;
    let shape = [above.dim().0, above.dim().1];
    let (hits, t, b, p) = run(py, "spa_screen", || {
        sign_sums::spa_screen(partial, n_sys, above, below, odd)
    })?;
    Ok((
        array(py, hits, &shape)?,
        vector(py, t)?,
        vector(py, b)?,
        vector(py, p)?,
    ))
}

/// BLEU of every statistics row (see `mtpalette.kernels.scores`).
#[pyfunction]
fn bleu_rows<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    max_n: usize,
    smooth: u8,
    value: f64,
    effective: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let stats = grid(&stats, "stats")?;
    let out = run(py, "bleu_rows", || {
        scores::bleu_rows(stats, max_n, smooth, value, effective)
    })?;
    array(py, out, &[stats.dim().0])
}

/// compare-mt's clipped matches by system and id, every layer of ids in one pass (see
/// `mtpalette.kernels.matches`): `(systems, sum of n_ids)` int64.
#[pyfunction]
fn clipped_matches<'py>(
    py: Python<'py>,
    ids: PyReadonlyArray2<'py, i64>,
    offsets: PyReadonlyArray1<'py, i64>,
    n_rows: usize,
    n_ids: Vec<usize>,
) -> PyResult<Bound<'py, PyAny>> {
    let (ids, offsets) = (grid(&ids, "ids")?, slice(&offsets, "offsets")?);
    let out = run(py, "clipped_matches", || {
        analysis::clipped_matches(ids, offsets, n_rows, &n_ids)
    })?;
    // checked by the kernel: offsets.len() - 1 rows, parts of n_rows rows, the reference first
    let systems = (offsets.len() - 1) / n_rows - 1;
    let width = n_ids.iter().sum();
    array(py, out, &[systems, width])
}

/// NLTK's smoothed sentence BLEU of every statistics row (see `mtpalette.kernels.matches`).
#[pyfunction]
fn nltk_sentence_bleu<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    n: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let stats = grid(&stats, "stats")?;
    let out = run(py, "nltk_sentence_bleu", || {
        analysis::nltk_sentence_bleu(stats, n)
    })?;
    array(py, out, &[stats.dim().0])
}

/// NIST of every statistics row (see `mtpalette.kernels.scores`).
#[pyfunction]
fn nist_rows<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    n: usize,
    which: u8,
) -> PyResult<Bound<'py, PyAny>> {
    let stats = grid(&stats, "stats")?;
    let out = run(py, "nist_rows", || scores::nist_rows(stats, n, which))?;
    array(py, out, &[stats.dim().0])
}

/// `[P, R, F]` of the best reference (see `scores::best_of_references`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn best_of_references<'py>(
    py: Python<'py>,
    p: PyReadonlyArray2<'py, f64>,
    r: PyReadonlyArray2<'py, f64>,
    f: PyReadonlyArray2<'py, f64>,
    key: PyReadonlyArray2<'py, f64>,
    present: PyReadonlyArray2<'py, bool>,
    leave_out: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let prf = [grid(&p, "p")?, grid(&r, "r")?, grid(&f, "f")?];
    let (key, present) = (grid(&key, "key")?, grid(&present, "present")?);
    let (n_cand, n_refs) = key.dim();
    let out = run(py, "best_of_references", || {
        scores::best_of_references(prf, key, present, leave_out)
    })?;
    let variants = if leave_out { n_refs } else { 1 };
    array(py, out, &[variants, n_cand, 3])
}

/// Rows of a ragged array, concatenated: `(ids, offsets)`.
#[pyfunction]
fn gather<'py>(
    py: Python<'py>,
    ids: PyReadonlyArray1<'py, i32>,
    offsets: PyReadonlyArray1<'py, i64>,
    rows: PyReadonlyArray1<'py, i64>,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let (ids, offsets, rows) = (
        slice(&ids, "ids")?,
        slice(&offsets, "offsets")?,
        slice(&rows, "rows")?,
    );
    let (out, off) = run(py, "gather", || scores::gather(ids, offsets, rows))?;
    let (n, k) = (out.len(), off.len());
    Ok((array(py, out, &[n])?, array(py, off, &[k])?))
}

/// Exact ids of every n-gram of order 1..max_n, in order of first occurrence:
/// `(ids (max_n, T), [prefix ids of each order])` (see `mtpalette.kernels.interning`).
#[pyfunction]
fn intern_ngrams<'py>(
    py: Python<'py>,
    tokens: PyReadonlyArray1<'py, i32>,
    offsets: PyReadonlyArray1<'py, i64>,
    max_n: usize,
) -> PyResult<(Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>)> {
    let (tokens, offsets) = (slice(&tokens, "tokens")?, slice(&offsets, "offsets")?);
    let (ids, prefixes) = run(py, "intern_ngrams", || {
        interning::intern_ngrams(tokens, offsets, max_n)
    })?;
    let ids = array(py, ids, &[max_n, tokens.len()])?;
    let prefixes = prefixes
        .into_iter()
        .map(|p| {
            let n = p.len();
            array(py, p, &[n])
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((ids, prefixes))
}

// ------------------------------------------- rouge-score compatibility, text to scores

/// Pairwise n-gram statistics within segments (`mtpalette.kernels.pairwise`): for every
/// segment, candidate, reference and order `[candidate n-grams, reference n-grams, matches]`,
/// flat, with the offsets of each segment's block.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn pairwise_ngram_stats<'py>(
    py: Python<'py>,
    h_ids: PyReadonlyArray1<'py, i32>,
    h_off: PyReadonlyArray1<'py, i64>,
    h_seg: PyReadonlyArray1<'py, i64>,
    r_ids: PyReadonlyArray1<'py, i32>,
    r_off: PyReadonlyArray1<'py, i64>,
    r_seg: PyReadonlyArray1<'py, i64>,
    max_n: usize,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let h = segmented(&h_ids, &h_off, &h_seg, "h")?;
    let r = segmented(&r_ids, &r_off, &r_seg, "r")?;
    let (flat, offsets) = run(py, "pairwise_ngram_stats", || {
        pairwise::all_segments(h, r, max_n)
    })?;
    let (n_flat, n_off) = (flat.len(), offsets.len());
    Ok((array(py, flat, &[n_flat])?, array(py, offsets, &[n_off])?))
}

/// Reference aggregation within segments (see `mtpalette.kernels.pairwise`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn aggregate_ngram_stats<'py>(
    py: Python<'py>,
    h_ids: PyReadonlyArray1<'py, i32>,
    h_off: PyReadonlyArray1<'py, i64>,
    h_seg: PyReadonlyArray1<'py, i64>,
    r_ids: PyReadonlyArray1<'py, i32>,
    r_off: PyReadonlyArray1<'py, i64>,
    r_seg: PyReadonlyArray1<'py, i64>,
    weight: PyReadonlyArray1<'py, f64>,
    group: PyReadonlyArray1<'py, i64>,
    count: PyReadonlyArray1<'py, i64>,
    max_n: usize,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let h = segmented(&h_ids, &h_off, &h_seg, "h")?;
    let r = segmented(&r_ids, &r_off, &r_seg, "r")?;
    let g = pairwise::Groups {
        weight: slice(&weight, "weight")?,
        group: slice(&group, "group")?,
        count: slice(&count, "count")?,
    };
    let (flat, offsets) = run(py, "aggregate_ngram_stats", || {
        pairwise::all_aggregates(h, r, g, max_n)
    })?;
    let (n_flat, n_off) = (flat.len(), offsets.len());
    Ok((array(py, flat, &[n_flat])?, array(py, offsets, &[n_off])?))
}

/// The number of threads the kernels' parallel loops use.
#[pyfunction]
fn num_threads() -> usize {
    crate::parallel::threads()
}

/// Run the kernels on `n` threads from now on (0: rayon's global pool again).
#[pyfunction]
fn set_threads(n: usize) -> PyResult<()> {
    crate::parallel::set_threads(n).map_err(PyValueError::new_err)
}

// ------------------------------------------------------------------------------ registry

/// `mtpalette._core`: every function the binding exports, registered here and only here.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    text::register(m)?;
    m.add_function(wrap_pyfunction!(ngram_matches, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_stats, m)?)?;
    m.add_function(wrap_pyfunction!(dp_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(skip_matches, m)?)?;
    m.add_function(wrap_pyfunction!(edit_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(ter_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(ter_edits, m)?)?;
    m.add_function(wrap_pyfunction!(gtm_mms, m)?)?;
    m.add_function(wrap_pyfunction!(closest_ref_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(nist_stats, m)?)?;
    m.add_function(wrap_pyfunction!(best_of_references, m)?)?;
    m.add_function(wrap_pyfunction!(nist_information, m)?)?;
    m.add_function(wrap_pyfunction!(acs_counts, m)?)?;
    m.add_function(wrap_pyfunction!(inversions_per_element, m)?)?;
    m.add_function(wrap_pyfunction!(grouped_pair_counts, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_counts, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_rows, m)?)?;
    m.add_function(wrap_pyfunction!(nist_rows, m)?)?;
    m.add_function(wrap_pyfunction!(gather, m)?)?;
    m.add_function(wrap_pyfunction!(intern_ngrams, m)?)?;
    m.add_function(wrap_pyfunction!(clipped_matches, m)?)?;
    m.add_function(wrap_pyfunction!(nltk_sentence_bleu, m)?)?;
    m.add_function(wrap_pyfunction!(num_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_threads, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_ngram_stats, m)?)?;
    m.add_function(wrap_pyfunction!(aggregate_ngram_stats, m)?)?;
    m.add_function(wrap_pyfunction!(legacy_pair_swaps, m)?)?;
    m.add_function(wrap_pyfunction!(sign_products, m)?)?;
    m.add_function(wrap_pyfunction!(spa_screen, m)?)?;
    Ok(())
}
