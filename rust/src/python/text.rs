//! The bindings of the text routes: tokenizers and vocabularies (lines to token ids), the
//! statistics straight from text (BLEU, chrF, ROUGE as rouge-score), and the Porter stemmer.
//! The conversions and `run` are the parent module's.

use super::*;

/// Tokenize lines of code points (rewritten in place by 13a's replacements):
/// `(tokens per line, token starts, lengths, hashes)`.
#[pyfunction]
fn tokenize_lines<'py>(
    py: Python<'py>,
    mut cp: PyReadwriteArray1<'py, u32>,
    line_off: PyReadonlyArray1<'py, i64>,
    mode: u8,
    flags: PyReadonlyArray1<'py, u16>,
    parallel: bool,
) -> PyResult<(Array<'py>, Array<'py>, Array<'py>, Array<'py>)> {
    let off = slice(&line_off, "line_off")?;
    let flags = slice(&flags, "flags")?;
    let cp = slice_mut(&mut cp, "cp")?;
    let t = run(py, "tokenize_lines", || {
        tokenize::tokenize(cp, off, mode, flags, parallel)
    })?;
    let (counts, start) = (vector(py, t.counts)?, vector(py, t.start)?);
    Ok((counts, start, vector(py, t.len)?, vector(py, t.hash)?))
}

/// Lines of text to token numbers (see `encode_text::encode_lines`): `(tokens per line,
/// each token's number, the distinct tokens' code points, starts, lengths and hashes)`.
#[pyfunction]
fn encode_text_lines<'py>(
    py: Python<'py>,
    lines: Texts<'py>,
    mode: u8,
    flags: PyReadonlyArray1<'py, u16>,
    parallel: bool,
) -> PyResult<SixArrays<'py>> {
    // `lines` keeps every string alive
    let lines = strs(&lines)?;
    let flags = slice(&flags, "flags")?;
    let (counts, ids, d) = run(py, "encode_text_lines", || {
        encode_text::encode_lines(&lines, mode, flags, parallel)
    })?;
    let (counts, ids, cp) = (vector(py, counts)?, vector(py, ids)?, vector(py, d.cp)?);
    let (start, len, hash) = (
        vector(py, d.start)?,
        vector(py, d.len)?,
        vector(py, d.hash)?,
    );
    Ok((counts, ids, cp, start, len, hash))
}

/// Python strings (and None) as text pairs (see [`strs`]).
fn text_pairs_of<'a, 'py>(
    hyps: &'a Texts<'py>,
    seg: &'a PyReadonlyArray1<'py, i64>,
    refs: &'a RefTexts<'py>,
) -> PyResult<text_pairs::TextPairs<'a>> {
    Ok(text_pairs::TextPairs {
        hyps: strs(hyps)?,
        seg: slice(seg, "seg")?,
        refs: ref_strs(refs)?,
    })
}

/// BLEU's statistics straight from text (see `bleu_text::bleu_text_stats`): `(P, 2 + 2 *
/// max_n)`; `refs[k][s]` is the k-th reference of segment s or None.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn bleu_text_stats<'py>(
    py: Python<'py>,
    hyps: Texts<'py>,
    seg: PyReadonlyArray1<'py, i64>,
    refs: RefTexts<'py>,
    mode: u8,
    flags: PyReadonlyArray1<'py, u16>,
    max_n: usize,
    parallel: bool,
) -> PyResult<Array<'py>> {
    let t = text_pairs_of(&hyps, &seg, &refs)?;
    let flags = slice(&flags, "flags")?;
    let out = run(py, "bleu_text_stats", || {
        bleu_text::bleu_text_stats(&t, mode, flags, max_n, parallel)
    })?;
    array(py, out, &[t.hyps.len(), 2 + 2 * max_n])
}

/// chrF's statistics straight from text (see `chrf_text::chrf_text_stats`): `(P, R, chars
/// + words, 3)`; `refs[k][s]` is the k-th reference of segment s or None.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn chrf_text_stats<'py>(
    py: Python<'py>,
    hyps: Texts<'py>,
    seg: PyReadonlyArray1<'py, i64>,
    refs: RefTexts<'py>,
    flags: PyReadonlyArray1<'py, u16>,
    chars: usize,
    words: usize,
    keep_space: bool,
    direct_max: usize,
    parallel: bool,
) -> PyResult<Array<'py>> {
    let t = text_pairs_of(&hyps, &seg, &refs)?;
    let flags = slice(&flags, "flags")?;
    let orders = chrf_text::Orders {
        chars,
        words,
        keep_space,
    };
    let out = run(py, "chrf_text_stats", || {
        chrf_text::chrf_text_stats(&t, flags, &orders, direct_max, parallel)
    })?;
    array(py, out, &[t.hyps.len(), t.refs.len(), chars + words, 3])
}

/// `ids[t] = vocab_ids[ids[t]]` for every token, in place (see `vocab::to_vocab_ids`).
#[pyfunction]
fn to_vocab_ids<'py>(
    py: Python<'py>,
    mut ids: PyReadwriteArray1<'py, i32>,
    vocab_ids: PyReadonlyArray1<'py, i32>,
) -> PyResult<()> {
    let ids = slice_mut(&mut ids, "ids")?;
    let vocab_ids = slice(&vocab_ids, "vocab_ids")?;
    run(py, "to_vocab_ids", || vocab::to_vocab_ids(ids, vocab_ids))
}

/// The distinct items of a list by Python's own `hash` and `==` (as dict keys):
/// `(rows, firsts)`, see `distinct::first_occurrences`.
#[pyfunction]
fn first_occurrences<'py>(
    py: Python<'py>,
    items: &Bound<'py, pyo3::types::PyList>,
) -> PyResult<(Array<'py>, Array<'py>)> {
    let items: Vec<Bound<'py, PyAny>> = items.iter().collect();
    let hashes = items
        .iter()
        .map(|x| x.hash().map(|h| h as u64))
        .collect::<PyResult<Vec<u64>>>()?;
    let (rows, firsts) = distinct::first_occurrences(&hashes, |a, b| {
        let (x, y) = (&items[a], &items[b]);
        if x.is(y) {
            Ok(true)
        } else {
            x.eq(y)
        }
    })?;
    Ok((vector(py, rows)?, vector(py, firsts)?))
}

/// chrF's characters of lines of code points: `(characters per line, ids, distinct code
/// points)` (see `tokenize::char_ids`).
#[pyfunction]
fn char_ids<'py>(
    py: Python<'py>,
    cp: PyReadonlyArray1<'py, u32>,
    line_off: PyReadonlyArray1<'py, i64>,
    flags: PyReadonlyArray1<'py, u16>,
) -> PyResult<(Array<'py>, Array<'py>, Array<'py>)> {
    let (cp, off, flags) = (
        slice(&cp, "cp")?,
        slice(&line_off, "line_off")?,
        slice(&flags, "flags")?,
    );
    let (counts, ids, distinct) = run(py, "char_ids", || tokenize::char_ids(cp, off, flags))?;
    Ok((vector(py, counts)?, vector(py, ids)?, vector(py, distinct)?))
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
    let spans = vocab::Spans {
        cp: slice(&cp, "cp")?,
        start: slice(&start, "start")?,
        length: slice(&length, "length")?,
        hashes: slice(&hashes, "hashes")?,
    };
    let ids = slice_mut(&mut ids, "ids")?;
    let arrays = vocab::VocabArrays {
        table: slice_mut(&mut table, "table")?,
        v_hash: slice_mut(&mut v_hash, "v_hash")?,
        v_start: slice_mut(&mut v_start, "v_start")?,
        v_len: slice_mut(&mut v_len, "v_len")?,
        v_cp: slice_mut(&mut v_cp, "v_cp")?,
    };
    run(py, "vocab_intern", || {
        vocab::intern(&spans, t0, ids, arrays, n_vocab, n_cp)
    })
}

/// rouge-score's tokens of every text (`mtpalette.kernels.rouge_score`): `(token code points,
/// starts, lengths, tokens per text, letters per text, dropped letters per text)`.
#[pyfunction]
fn rouge_score_tokenize<'py>(
    py: Python<'py>,
    texts: Vec<String>,
    stem: bool,
    sents: bool,
) -> PyResult<SixArrays<'py>> {
    let opts = rouge_score_tok::Options { stem, sents };
    let b = run(py, "rouge_score_tokenize", || {
        Ok(rouge_score_tok::tokenize_batch(&texts, opts))
    })?;
    let cp: Vec<u32> = b.bytes.iter().map(|&x| x as u32).collect();
    let (n_cp, n_tok, n_text) = (cp.len(), b.start.len(), b.counts.len());
    Ok((
        array(py, cp, &[n_cp])?,
        array(py, b.start, &[n_tok])?,
        array(py, b.len, &[n_tok])?,
        array(py, b.counts, &[n_text])?,
        array(py, b.letters, &[n_text])?,
        array(py, b.dropped, &[n_text])?,
    ))
}

/// NLTK's Porter stem of each lower-case ASCII word (for tests).
#[pyfunction]
fn porter_stem(words: Vec<String>) -> PyResult<Vec<String>> {
    words
        .iter()
        .map(|w| {
            if !w
                .bytes()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            {
                return Err(PyValueError::new_err(format!(
                    "porter_stem: {w:?} is not a lower-case ASCII word"
                )));
            }
            Ok(String::from_utf8(porter::stem(w.as_bytes())).expect("ASCII in, ASCII out"))
        })
        .collect()
}

/// Summary-level LCS `(P, R, 3)`: hits, candidate tokens, reference tokens, with `marker` the
/// sentence-break id (see `mtpalette.kernels.rouge_score`).
#[pyfunction]
fn rouge_lsum_per_ref<'py>(
    py: Python<'py>,
    a: PairsArgs<'py>,
    marker: i32,
) -> PyResult<Bound<'py, PyAny>> {
    on_pairs(
        py,
        &a,
        "rouge_lsum_per_ref",
        |r| vec![r, 3],
        |p| {
            let r = p.n_refs();
            let mut out = vec![0.0f64; p.len() * r * 3];
            crate::parallel::par_rows(
                &mut out,
                r * 3,
                || (),
                |_, i, row| {
                    for k in 0..r {
                        if let Some(reference) = p.ref_row(i, k) {
                            let (h, n, m) =
                                rouge_lsum::summary_lcs(p.hyp_row(i), reference, marker);
                            row[3 * k..3 * k + 3].copy_from_slice(&[h as f64, n as f64, m as f64]);
                        }
                    }
                },
            );
            Ok(out)
        },
    )
}

/// ROUGE-N (each of `orders`) and ROUGE-L counts from raw text, rouge-score's tokens:
/// `((P, R, width, 3) [hits, candidate total, reference total], (P + R * P, 2) [letters,
/// dropped letters])`; `refs[k][p]` is the k-th reference of candidate p or None.
#[pyfunction]
fn rouge_text_counts<'py>(
    py: Python<'py>,
    hyps: Texts<'py>,
    refs: RefTexts<'py>,
    orders: Vec<usize>,
    lcs: bool,
    stem: bool,
) -> PyResult<(Array<'py>, Array<'py>)> {
    // one Python string passed twice is one text
    let (hyps, refs) = (strs(&hyps)?, ref_strs(&refs)?);
    if refs.iter().any(|row| row.len() != hyps.len()) {
        return Err(PyValueError::new_err(
            "rouge_text_counts: every reference list needs one entry per candidate",
        ));
    }
    if orders.contains(&0) {
        return Err(PyValueError::new_err(
            "rouge_text_counts: n-gram orders start at 1",
        ));
    }
    let spec = rouge_text::Spec {
        orders,
        lcs,
        opts: rouge_score_tok::Options { stem, sents: false },
    };
    let (out, letters) = run(py, "rouge_text_counts", || {
        Ok(rouge_text::rouge_counts(&hyps, &refs, &spec))
    })?;
    let n_texts = letters.len() / 2;
    Ok((
        array(py, out, &[hyps.len(), refs.len(), spec.width(), 3])?,
        array(py, letters, &[n_texts, 2])?,
    ))
}

/// Adds this module's functions to the extension module.
pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(tokenize_lines, m)?)?;
    m.add_function(wrap_pyfunction!(encode_text_lines, m)?)?;
    m.add_function(wrap_pyfunction!(bleu_text_stats, m)?)?;
    m.add_function(wrap_pyfunction!(chrf_text_stats, m)?)?;
    m.add_function(wrap_pyfunction!(to_vocab_ids, m)?)?;
    m.add_function(wrap_pyfunction!(first_occurrences, m)?)?;
    m.add_function(wrap_pyfunction!(char_ids, m)?)?;
    m.add_function(wrap_pyfunction!(hash_spans, m)?)?;
    m.add_function(wrap_pyfunction!(vocab_rehash, m)?)?;
    m.add_function(wrap_pyfunction!(vocab_intern, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_score_tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_lsum_per_ref, m)?)?;
    m.add_function(wrap_pyfunction!(rouge_text_counts, m)?)?;
    Ok(())
}
