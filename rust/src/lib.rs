//! `mtpalette._core`: the compiled kernels of mtpalette, loops over int-encoded tokens.
//!
//! Rust does the loops over int arrays; Python keeps the API, validation, metric definitions
//! and the slow twins each kernel is tested against (`mtpalette.kernels`, `mtpalette.text`,
//! `mtpalette.stats`). Every function releases the GIL while it works, runs its parallel
//! loops on rayon's pool, and turns a panic into a RuntimeError. No `unsafe` code.

// the kernels follow their papers' index-based recurrences
#![allow(clippy::needless_range_loop)]

mod acs;
mod chrf;
mod common;
mod edit;
mod gtm;
mod interning;
mod ngram;
mod nist;
mod scores;
mod skipbigram;
mod stats;
mod subsequence;
mod table;
mod ter;
mod tokenize;
mod vocab;

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{Element, IntoPyArray, PyReadonlyArray1, PyReadonlyArray2, PyReadwriteArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use common::{check_offsets, run, slice, Pairs};

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

macro_rules! pairs {
    ($a:expr) => {
        Pairs::new(&$a.0, &$a.1, &$a.2, &$a.3, &$a.4, &$a.5)?
    };
}

/// Clipped n-gram matches `(P, 1 or R, max_n)` (see `mtpalette.kernels.ngram`).
#[pyfunction]
fn ngram_matches<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
    max_n: usize,
    per_ref: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let out = run(py, "ngram_matches", || {
        ngram::ngram_matches(&pairs, max_n, per_ref)
    })?;
    let r = if per_ref { pairs.n_refs() } else { 1 };
    array(py, out, &[pairs.len(), r, max_n])
}

/// chrF statistics `(P, R, max_n, 3)` (see `mtpalette.kernels.chrf`).
#[pyfunction]
fn chrf_stats<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
    max_n: usize,
    direct_max: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let out = run(py, "chrf_stats", || {
        chrf::chrf_stats(&pairs, max_n, direct_max)
    })?;
    array(py, out, &[pairs.len(), pairs.n_refs(), max_n, 3])
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
) -> PyResult<Bound<'py, PyAny>> {
    let inp = nist::NistInput {
        ids: ids.as_array(),
        prefix: prefix.as_array(),
        info: info.as_array(),
        off: slice(&off, "off")?,
        seg: slice(&seg, "seg")?,
        mask: mask.as_array(),
        n_hyp,
    };
    check_offsets(inp.off, inp.ids.dim().1, "off")?;
    let (n_refs, n_seg) = inp.mask.dim();
    if inp.off.len() != n_hyp + n_refs * n_seg + 1 || inp.seg.len() != n_hyp {
        return Err(PyValueError::new_err(
            "nist_stats: rows do not match n_hyp and the mask",
        ));
    }
    if inp.seg.iter().any(|&s| s < 0 || s as usize >= n_seg) {
        return Err(PyValueError::new_err("seg: segment number out of range"));
    }
    let max_n = inp.ids.dim().0;
    let out = run(py, "nist_stats", || nist::nist_stats(&inp))?;
    array(py, out, &[n_hyp, 5 * max_n])
}

/// Per-reference dynamic programmes `(P, R, n_out)`: kind `levenshtein`, `lcs`, `wlcs`,
/// `wlcs-table` (`alphas` is one weight function's increment table) or `wlcs-rouge155` (see
/// `mtpalette.kernels.subsequence`).
#[pyfunction]
fn dp_per_ref<'py>(
    py: Python<'py>,
    kind: &str,
    a: common::PairsArgs<'py>,
    alphas: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let alphas = slice(&alphas, "alphas")?;
    let kind = match kind {
        "levenshtein" => subsequence::Kind::Levenshtein,
        "lcs" => subsequence::Kind::Lcs,
        "wlcs" => subsequence::Kind::Wlcs,
        "wlcs-table" if alphas.is_empty() || alphas.iter().any(|x| !x.is_finite()) => {
            return Err(PyValueError::new_err(
                "wlcs-table needs a non-empty table of finite increments",
            ))
        }
        "wlcs-table" => subsequence::Kind::WlcsTable,
        "wlcs-rouge155" => subsequence::Kind::WlcsRouge155,
        other => {
            return Err(PyValueError::new_err(format!(
                "unknown programme {other:?}"
            )))
        }
    };
    let n_out = match kind {
        subsequence::Kind::Wlcs | subsequence::Kind::WlcsRouge155 => alphas.len(),
        _ => 1,
    };
    let out = run(py, "dp_per_ref", || {
        subsequence::per_ref(&pairs, kind, alphas)
    })?;
    array(py, out, &[pairs.len(), pairs.n_refs(), n_out])
}

/// Skip-bigram matches `(P, R, n_buckets)` (see `mtpalette.kernels.skipbigram`).
#[pyfunction]
fn skip_matches<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
    vocab: i64,
    n_buckets: usize,
    any_gap: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let bound = common::vocab_bound(pairs.hyp).max(common::vocab_bound(pairs.refs)) as i64;
    if vocab < bound || n_buckets == 0 {
        return Err(PyValueError::new_err(
            "skip_matches: vocab below the largest id, or no bucket",
        ));
    }
    let out = run(py, "skip_matches", || {
        skipbigram::skip_matches(&pairs, vocab, n_buckets, any_gap)
    })?;
    array(py, out, &[pairs.len(), pairs.n_refs(), n_buckets])
}

/// Word edit distances (or, with `bag`, PER's bag-of-words matches) `(P, R)`.
#[pyfunction]
fn edit_per_ref<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
    bag: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let out = run(py, "edit_per_ref", || edit::per_ref(&pairs, bag))?;
    array(py, out, &[pairs.len(), pairs.n_refs()])
}

/// TER edits `(P, R)` (see `mtpalette.kernels.ter`).
#[pyfunction]
fn ter_per_ref<'py>(py: Python<'py>, a: common::PairsArgs<'py>) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let out = run(py, "ter_per_ref", || ter::per_ref(&pairs))?;
    array(py, out, &[pairs.len(), pairs.n_refs()])
}

/// TER edits of one candidate against one reference.
#[pyfunction]
fn ter_edits(
    py: Python<'_>,
    h: PyReadonlyArray1<'_, i32>,
    r: PyReadonlyArray1<'_, i32>,
) -> PyResult<i64> {
    let (h, r) = (slice(&h, "h")?, slice(&r, "r")?);
    run(py, "ter_edits", || ter::ter_edits(h, r))
}

/// Where a shifted block lands (Tercom's rule), exposed for the slow twin.
#[pyfunction]
fn ter_insert_at(n: usize, start: usize, length: usize, target: usize) -> PyResult<usize> {
    if start + length > n {
        return Err(PyValueError::new_err("block past the end"));
    }
    Ok(ter::insert_at(n, start, length, target))
}

/// gtm 1.4's maximum match size `(P, len(exponents))`.
#[pyfunction]
fn gtm_mms<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
    exponents: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let exponents = slice(&exponents, "exponents")?;
    let out = run(py, "gtm_mms", || gtm::mms(&pairs, exponents))?;
    array(py, out, &[pairs.len(), exponents.len()])
}

/// ACS counts `(P, kmax)` of rows `pa[p]` of `a` and `pb[p]` of `b`.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
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
) -> PyResult<Bound<'py, PyAny>> {
    let a = acs::Rows {
        ids: slice(&a_ids, "a_ids")?,
        off: slice(&a_off, "a_off")?,
    };
    let b = acs::Rows {
        ids: slice(&b_ids, "b_ids")?,
        off: slice(&b_off, "b_off")?,
    };
    check_offsets(a.off, a.ids.len(), "a")?;
    check_offsets(b.off, b.ids.len(), "b")?;
    let (pa, pb) = (slice(&pa, "pa")?, slice(&pb, "pb")?);
    let in_range = |p: &[i64], rows: usize| p.iter().all(|&x| x >= 0 && (x as usize) < rows);
    if pa.len() != pb.len() || !in_range(pa, a.off.len() - 1) || !in_range(pb, b.off.len() - 1) {
        return Err(PyValueError::new_err(
            "acs_counts: row numbers out of range",
        ));
    }
    let (d, h, v) = factors;
    let out = run(py, "acs_counts", || {
        acs::acs_counts(&a, &b, pa, pb, d, h, v, kmax)
    })?;
    array(py, out, &[pa.len(), kmax])
}

/// Tokenize lines of code points (rewritten in place by 13a's replacements):
/// `(tokens per line, token starts, lengths, hashes)`.
#[pyfunction]
#[allow(clippy::type_complexity)]
fn tokenize_lines<'py>(
    py: Python<'py>,
    mut cp: PyReadwriteArray1<'py, u32>,
    line_off: PyReadonlyArray1<'py, i64>,
    mode: u8,
    flags: PyReadonlyArray1<'py, u16>,
    parallel: bool,
) -> PyResult<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
)> {
    let off = slice(&line_off, "line_off")?;
    let flags = slice(&flags, "flags")?;
    let cp = cp
        .as_slice_mut()
        .map_err(|_| PyValueError::new_err("cp: expected a contiguous writable array"))?;
    check_offsets(off, cp.len(), "line_off")?;
    if mode > tokenize::MODE_INTL || flags.len() < 0x110000 || cp.iter().any(|&c| c >= 0x110000) {
        return Err(PyValueError::new_err(
            "tokenize: bad mode, flags table or code point",
        ));
    }
    let t = run(py, "tokenize_lines", || {
        tokenize::tokenize(cp, off, mode, flags, parallel)
    })?;
    let (n_lines, n_tok) = (t.counts.len(), t.start.len());
    Ok((
        array(py, t.counts, &[n_lines])?,
        array(py, t.start, &[n_tok])?,
        array(py, t.len, &[n_tok])?,
        array(py, t.hash, &[n_tok])?,
    ))
}

fn check_spans(cp: &[u32], start: &[i64], length: &[i64]) -> PyResult<()> {
    let ok = start.len() == length.len()
        && start
            .iter()
            .zip(length)
            .all(|(&s, &n)| s >= 0 && n >= 0 && (s + n) as usize <= cp.len());
    if ok {
        Ok(())
    } else {
        Err(PyValueError::new_err("token spans out of range"))
    }
}

/// The hash of every token span.
#[pyfunction]
fn hash_spans<'py>(
    py: Python<'py>,
    cp: PyReadonlyArray1<'py, u32>,
    start: PyReadonlyArray1<'py, i64>,
    length: PyReadonlyArray1<'py, i64>,
) -> PyResult<Bound<'py, PyAny>> {
    let (cp, start, length) = (
        slice(&cp, "cp")?,
        slice(&start, "start")?,
        slice(&length, "length")?,
    );
    check_spans(cp, start, length)?;
    let out = run(py, "hash_spans", || vocab::hash_spans(cp, start, length))?;
    array(py, out, &[start.len()])
}

/// A vocabulary table of `size` slots holding ids `0..n_vocab`.
#[pyfunction]
fn vocab_rehash<'py>(
    py: Python<'py>,
    size: usize,
    v_hash: PyReadonlyArray1<'py, u64>,
    n_vocab: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let v_hash = slice(&v_hash, "v_hash")?;
    if !size.is_power_of_two() || n_vocab > v_hash.len() || n_vocab >= size {
        return Err(PyValueError::new_err("vocab_rehash: bad table size"));
    }
    let out = run(py, "vocab_rehash", || vocab::rehash(size, v_hash, n_vocab))?;
    array(py, out, &[size])
}

/// Intern token spans into the vocabulary's arrays (see `Vocabulary.intern_spans`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn vocab_intern<'py>(
    py: Python<'py>,
    cp: PyReadonlyArray1<'py, u32>,
    start: PyReadonlyArray1<'py, i64>,
    length: PyReadonlyArray1<'py, i64>,
    hashes: PyReadonlyArray1<'py, u64>,
    t0: usize,
    mut ids: PyReadwriteArray1<'py, i32>,
    mut table: PyReadwriteArray1<'py, i32>,
    mut v_hash: PyReadwriteArray1<'py, u64>,
    mut v_start: PyReadwriteArray1<'py, i64>,
    mut v_len: PyReadwriteArray1<'py, i64>,
    mut v_cp: PyReadwriteArray1<'py, u32>,
    n_vocab: usize,
    n_cp: usize,
) -> PyResult<(usize, usize, usize)> {
    let (cp, start, length, hashes) = (
        slice(&cp, "cp")?,
        slice(&start, "start")?,
        slice(&length, "length")?,
        slice(&hashes, "hashes")?,
    );
    check_spans(cp, start, length)?;
    let bad = || PyValueError::new_err("vocab_intern: expected contiguous writable arrays");
    let ids = ids.as_slice_mut().map_err(|_| bad())?;
    let arrays = vocab::VocabArrays {
        table: table.as_slice_mut().map_err(|_| bad())?,
        v_hash: v_hash.as_slice_mut().map_err(|_| bad())?,
        v_start: v_start.as_slice_mut().map_err(|_| bad())?,
        v_len: v_len.as_slice_mut().map_err(|_| bad())?,
        v_cp: v_cp.as_slice_mut().map_err(|_| bad())?,
    };
    let sizes_ok = hashes.len() == start.len()
        && ids.len() == start.len()
        && arrays.table.len().is_power_of_two()
        && arrays.v_start.len() >= arrays.v_hash.len()
        && arrays.v_len.len() >= arrays.v_hash.len()
        && n_vocab <= arrays.v_hash.len()
        && n_cp <= arrays.v_cp.len();
    if !sizes_ok {
        return Err(PyValueError::new_err(
            "vocab_intern: inconsistent array sizes",
        ));
    }
    run(py, "vocab_intern", || {
        vocab::intern(cp, start, length, hashes, t0, ids, arrays, n_vocab, n_cp)
    })
}

/// For each j, the number of i < j with v[i] > v[j].
#[pyfunction]
fn inversions_per_element<'py>(
    py: Python<'py>,
    v: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let v = slice(&v, "v")?;
    let out = run(py, "inversions_per_element", || {
        stats::inversions_per_element(v)
    })?;
    array(py, out, &[v.len()])
}

fn check_groups(g: &[f64], m: &[f64], offsets: &[i64]) -> PyResult<()> {
    if g.len() != m.len() {
        return Err(PyValueError::new_err("gold and metric differ in length"));
    }
    check_offsets(offsets, g.len(), "offsets")
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
    check_groups(g, m, offsets)?;
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
    check_groups(g, m, offsets)?;
    if use_group.len() + 1 != offsets.len() {
        return Err(PyValueError::new_err(
            "use_group: one flag per group expected",
        ));
    }
    let out = run(py, "pairwise_counts", || {
        stats::pairwise_counts(g, m, offsets, use_group, epsilon)
    })?;
    array(py, out, &[offsets.len() - 1, 5])
}

/// BLEU of every statistics row (see `mtpalette.metrics.bleu.bleu_scores`).
#[pyfunction]
fn bleu_rows<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    max_n: usize,
    smooth: u8,
    value: f64,
    effective: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let view = stats.as_array();
    if view.dim().1 < 2 + 2 * max_n || max_n == 0 {
        return Err(PyValueError::new_err(
            "bleu_rows: rows shorter than 2 + 2 * max_n",
        ));
    }
    let out = run(py, "bleu_rows", || {
        scores::bleu_rows(view, max_n, smooth, value, effective)
    })?;
    array(py, out, &[view.dim().0])
}

/// NIST of every statistics row (see `mtpalette.metrics.nist`).
#[pyfunction]
fn nist_rows<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, f64>,
    n: usize,
    which: u8,
) -> PyResult<Bound<'py, PyAny>> {
    let view = stats.as_array();
    if view.dim().1 < 5 * n + 1 {
        return Err(PyValueError::new_err(
            "nist_rows: rows shorter than 5 * n + 1",
        ));
    }
    let out = run(py, "nist_rows", || scores::nist_rows(view, n, which))?;
    array(py, out, &[view.dim().0])
}

/// The closest reference length of each candidate (sacrebleu's rule).
#[pyfunction]
fn closest_ref_lengths<'py>(
    py: Python<'py>,
    a: common::PairsArgs<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let pairs = pairs!(a);
    let out = run(py, "closest_ref_lengths", || {
        scores::closest_ref_lengths(&pairs)
    })?;
    array(py, out, &[pairs.len()])
}

/// Rows of a ragged array, concatenated: `(ids, offsets)`.
#[pyfunction]
fn gather<'py>(
    py: Python<'py>,
    ids: PyReadonlyArray1<'py, i32>,
    offsets: PyReadonlyArray1<'py, i64>,
    rows: PyReadonlyArray1<'py, i64>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let (ids, offsets, rows) = (
        slice(&ids, "ids")?,
        slice(&offsets, "offsets")?,
        slice(&rows, "rows")?,
    );
    check_offsets(offsets, ids.len(), "offsets")?;
    if rows
        .iter()
        .any(|&r| r < 0 || r as usize >= offsets.len() - 1)
    {
        return Err(PyValueError::new_err("row number out of range"));
    }
    let (out, off) = run(py, "gather", || scores::gather(ids, offsets, rows))?;
    let n = out.len();
    let k = off.len();
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
    check_offsets(offsets, tokens.len(), "offsets")?;
    common::check_ids(tokens, "tokens")?;
    if max_n == 0 {
        return Err(PyValueError::new_err("max_n must be at least 1"));
    }
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

/// The number of threads the kernels' parallel loops use.
#[pyfunction]
fn num_threads() -> usize {
    rayon::current_num_threads()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ngram_matches, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_stats, m)?)?;
    m.add_function(wrap_pyfunction!(nist_stats, m)?)?;
    m.add_function(wrap_pyfunction!(dp_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(skip_matches, m)?)?;
    m.add_function(wrap_pyfunction!(edit_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(ter_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(ter_edits, m)?)?;
    m.add_function(wrap_pyfunction!(ter_insert_at, m)?)?;
    m.add_function(wrap_pyfunction!(gtm_mms, m)?)?;
    m.add_function(wrap_pyfunction!(acs_counts, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize_lines, m)?)?;
    m.add_function(wrap_pyfunction!(hash_spans, m)?)?;
    m.add_function(wrap_pyfunction!(vocab_rehash, m)?)?;
    m.add_function(wrap_pyfunction!(vocab_intern, m)?)?;
    m.add_function(wrap_pyfunction!(inversions_per_element, m)?)?;
    m.add_function(wrap_pyfunction!(grouped_pair_counts, m)?)?;
    m.add_function(wrap_pyfunction!(pairwise_counts, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_rows, m)?)?;
    m.add_function(wrap_pyfunction!(nist_rows, m)?)?;
    m.add_function(wrap_pyfunction!(closest_ref_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(gather, m)?)?;
    m.add_function(wrap_pyfunction!(intern_ngrams, m)?)?;
    m.add_function(wrap_pyfunction!(num_threads, m)?)?;
    Ok(())
}
