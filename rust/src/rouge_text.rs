//! ROUGE-N and ROUGE-L from raw text in one pass, tokenized as rouge-score does.
//!
//! Every distinct text of the batch (candidates and references) is tokenized once, in
//! parallel (`rouge_score_tok.rs`, one flat array for the batch), each token hashed in
//! parallel, and the tokens interned to ids in one pass: an id is shared only by tokens of
//! equal bytes (a hash hit is confirmed by comparing the bytes; a collision gets its own id),
//! so no two words are merged. Then, for each (candidate, reference) pair in parallel, the
//! counts are taken on the ids: clipped n-gram matches (a count table for unigrams, sorted
//! n-gram keys for longer ones) and the LCS length (bit-parallel when the shorter side has at
//! most 64 tokens, else one table row). Scratch tables the size of the vocabulary are made
//! once per block of pairs and reset entry by entry.
//!
//! The output per (candidate, reference, statistic) is `[hits, candidate total, reference
//! total]`; the caller turns them into P, R, F and applies the multi-reference policy.

use std::hash::Hasher;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHasher};

use crate::rouge_score_tok::{tokenize_batch, Options};

/// What to count: ROUGE-N for each order, then the LCS when `lcs`.
#[derive(Clone, Debug)]
pub struct Spec {
    pub orders: Vec<usize>,
    pub lcs: bool,
    pub opts: Options,
}

impl Spec {
    pub fn width(&self) -> usize {
        self.orders.len() + usize::from(self.lcs)
    }
}

/// Scratch of one block of pairs.
struct Scratch {
    keys_a: Vec<u64>,
    keys_b: Vec<u64>,
    /// unigram counts, by token id (all zero between uses)
    counts: Vec<i32>,
    /// LCS match masks, by token id (all zero between uses)
    pm: Vec<u64>,
    row: Vec<u32>,
}

impl Scratch {
    fn new(vocab: usize) -> Self {
        Scratch {
            keys_a: Vec::new(),
            keys_b: Vec::new(),
            counts: vec![0; vocab],
            pm: vec![0; vocab],
            row: Vec::new(),
        }
    }
}

/// Token ids of a flat batch: equal ids exactly for equal bytes; returns (ids, vocabulary).
fn intern_tokens(bytes: &[u8], start: &[i64], len: &[i64]) -> (Vec<u32>, usize) {
    let token = |t: usize| &bytes[start[t] as usize..(start[t] + len[t]) as usize];
    let hashes: Vec<u64> = (0..start.len())
        .into_par_iter()
        .with_min_len(4096)
        .map(|t| {
            let mut h = FxHasher::default();
            h.write(token(t));
            h.finish()
        })
        .collect();
    let mut by_hash: FxHashMap<u64, u32> = FxHashMap::default();
    let mut first: Vec<usize> = Vec::new(); // a token of each id
    let mut collided: FxHashMap<&[u8], u32> = FxHashMap::default();
    let mut ids = Vec::with_capacity(start.len());
    for (t, &h) in hashes.iter().enumerate() {
        let next = first.len() as u32;
        let id = *by_hash.entry(h).or_insert(next);
        let id = if id == next {
            first.push(t);
            id
        } else if token(first[id as usize]) == token(t) {
            id
        } else {
            // two different tokens with one hash: ids by bytes
            let next = first.len() as u32;
            let id = *collided.entry(token(t)).or_insert(next);
            if id == next {
                first.push(t);
            }
            id
        };
        ids.push(id);
    }
    (ids, first.len())
}

/// Sorted keys of the n-grams of `ids` (base-`v` digits); false when they do not fit in u64.
fn ngram_keys(ids: &[u32], n: usize, v: u64, out: &mut Vec<u64>) -> bool {
    out.clear();
    if ids.len() < n {
        return true;
    }
    let Some(_) = v.checked_pow(n as u32) else {
        return false;
    };
    out.extend(
        ids.windows(n)
            .map(|w| w.iter().fold(0u64, |k, &x| k * v + x as u64)),
    );
    out.sort_unstable();
    true
}

/// Sum over keys of min(count in a, count in b), both sorted.
fn merged_min(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut hits) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                hits += 1;
                i += 1;
                j += 1;
            }
        }
    }
    hits
}

/// Clipped n-gram matches of `a` against `b` (ids below `v`).
fn ngram_hits(a: &[u32], b: &[u32], n: usize, v: usize, s: &mut Scratch) -> usize {
    if a.len() < n || b.len() < n {
        return 0;
    }
    if n == 1 {
        for &x in a {
            s.counts[x as usize] += 1;
        }
        let mut hits = 0;
        for &y in b {
            let c = &mut s.counts[y as usize];
            if *c > 0 {
                *c -= 1;
                hits += 1;
            }
        }
        for &x in a {
            s.counts[x as usize] = 0;
        }
        return hits;
    }
    let (mut ka, mut kb) = (std::mem::take(&mut s.keys_a), std::mem::take(&mut s.keys_b));
    let hits = if ngram_keys(a, n, v as u64, &mut ka) && ngram_keys(b, n, v as u64, &mut kb) {
        merged_min(&ka, &kb)
    } else {
        // orders too high for packed keys: count the n-grams themselves
        let mut counts: FxHashMap<&[u32], i64> = FxHashMap::default();
        for w in a.windows(n) {
            *counts.entry(w).or_insert(0) += 1;
        }
        let mut hits = 0;
        for w in b.windows(n) {
            if let Some(c) = counts.get_mut(w) {
                if *c > 0 {
                    *c -= 1;
                    hits += 1;
                }
            }
        }
        hits
    };
    s.keys_a = ka;
    s.keys_b = kb;
    hits
}

/// LCS length of `a` and `b`.
fn lcs(a: &[u32], b: &[u32], s: &mut Scratch) -> usize {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = short.len();
    if m == 0 {
        return 0;
    }
    if m <= 64 {
        // Allison-Dix / Hyyro bit-parallel LCS
        for (j, &w) in short.iter().enumerate() {
            s.pm[w as usize] |= 1u64 << j;
        }
        let mut x = !0u64;
        for &w in long {
            let u = x & s.pm[w as usize];
            x = x.wrapping_add(u) | (x - u);
        }
        for &w in short {
            s.pm[w as usize] = 0;
        }
        let mask = if m == 64 { !0u64 } else { (1u64 << m) - 1 };
        return (!x & mask).count_ones() as usize;
    }
    let row = &mut s.row;
    row.clear();
    row.resize(m + 1, 0);
    for &x in long {
        let mut diag = 0;
        for j in 1..=m {
            let up = row[j];
            row[j] = if short[j - 1] == x {
                diag + 1
            } else {
                up.max(row[j - 1])
            };
            diag = up;
        }
    }
    row[m] as usize
}

/// `[hits, candidate total, reference total]` per statistic of `spec`, into `out`.
fn pair_stats(a: &[u32], b: &[u32], v: usize, spec: &Spec, s: &mut Scratch, out: &mut [f64]) {
    for (k, &n) in spec.orders.iter().enumerate() {
        out[3 * k] = ngram_hits(a, b, n, v, s) as f64;
        out[3 * k + 1] = a.len().saturating_sub(n - 1) as f64;
        out[3 * k + 2] = b.len().saturating_sub(n - 1) as f64;
    }
    if spec.lcs {
        let k = spec.orders.len();
        out[3 * k] = lcs(a, b, s) as f64;
        out[3 * k + 1] = a.len() as f64;
        out[3 * k + 2] = b.len() as f64;
    }
}

/// The index of `t` among the distinct texts, adding it when new.
fn intern<'a>(index: &mut FxHashMap<&'a str, u32>, unique: &mut Vec<&'a str>, t: &'a str) -> u32 {
    *index.entry(t).or_insert_with(|| {
        unique.push(t);
        (unique.len() - 1) as u32
    })
}

/// The counts of every candidate against each of its references.
///
/// `refs[k][p]` is the `k`-th reference of candidate `p` (None: missing). Returns the flat
/// `(P, R, width, 3)` array (zeros where a reference is missing) and the letters and dropped
/// letters of every candidate, then every reference, `(P + R * P, 2)`.
pub fn rouge_counts<S: AsRef<str> + Sync>(
    hyps: &[S],
    refs: &[Vec<Option<S>>],
    spec: &Spec,
) -> (Vec<f64>, Vec<i64>) {
    let n_pairs = hyps.len();
    let n_refs = refs.len();
    // each distinct text once
    let mut index: FxHashMap<&str, u32> = FxHashMap::default();
    let mut unique: Vec<&str> = Vec::new();
    let hyp_ids: Vec<u32> = hyps
        .iter()
        .map(|t| intern(&mut index, &mut unique, t.as_ref()))
        .collect();
    let ref_ids: Vec<Vec<Option<u32>>> = refs
        .iter()
        .map(|row| {
            row.iter()
                .map(|t| {
                    t.as_ref()
                        .map(|t| intern(&mut index, &mut unique, t.as_ref()))
                })
                .collect()
        })
        .collect();
    let batch = tokenize_batch(&unique, spec.opts);
    let (ids, vocab) = intern_tokens(&batch.bytes, &batch.start, &batch.len);
    let mut text_off = Vec::with_capacity(unique.len() + 1);
    text_off.push(0usize);
    for &c in &batch.counts {
        text_off.push(text_off.last().unwrap() + c as usize);
    }
    let text = |i: u32| &ids[text_off[i as usize]..text_off[i as usize + 1]];
    let w = spec.width();
    let row = n_refs * w * 3;
    let mut out = vec![0.0; n_pairs * row];
    if row > 0 && n_pairs > 0 {
        let per_block = n_pairs.div_ceil(4 * rayon::current_num_threads()).max(256);
        out.par_chunks_mut(row * per_block)
            .enumerate()
            .for_each(|(blk, chunk)| {
                let mut s = Scratch::new(vocab);
                for (q, cells) in chunk.chunks_mut(row).enumerate() {
                    let p = blk * per_block + q;
                    let h = text(hyp_ids[p]);
                    for k in 0..n_refs {
                        if let Some(r) = ref_ids[k][p] {
                            pair_stats(
                                h,
                                text(r),
                                vocab,
                                spec,
                                &mut s,
                                &mut cells[k * w * 3..(k + 1) * w * 3],
                            );
                        }
                    }
                }
            });
    }
    let mut letters = Vec::with_capacity(2 * n_pairs * (1 + n_refs));
    let mut push = |id: Option<u32>| {
        let (l, d) = id.map_or((0, 0), |i| {
            (batch.letters[i as usize], batch.dropped[i as usize])
        });
        letters.push(l);
        letters.push(d);
    };
    for &i in &hyp_ids {
        push(Some(i));
    }
    for row in &ref_ids {
        for &i in row {
            push(i);
        }
    }
    (out, letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec {
            orders: vec![1, 2],
            lcs: true,
            opts: Options::default(),
        }
    }

    #[test]
    fn rouge_scorer_test_cases() {
        // rouge-score testRouge2 / testRougeLConsecutive: target "testing one two",
        // prediction "testing one": bigram 1 of 1 / 2, LCS 2 of 2 / 3
        let (out, _) = rouge_counts(&["testing one"], &[vec![Some("testing one two")]], &spec());
        assert_eq!(out, [2.0, 2.0, 3.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0]);
    }

    #[test]
    fn clipped_and_missing() {
        let refs = vec![vec![Some("a a b"), None]];
        let (out, letters) = rouge_counts(&["A a a c", "x"], &refs, &spec());
        assert_eq!(&out[..3], &[2.0, 4.0, 3.0]);
        assert_eq!(&out[9..], &[0.0; 9]);
        assert_eq!(letters, [4, 0, 1, 0, 3, 0, 0, 0]);
    }

    #[test]
    fn interning_is_exact() {
        let bytes = b"abcab";
        let (ids, v) = intern_tokens(bytes, &[0, 1, 3, 2, 0], &[2, 1, 2, 1, 1]);
        // "ab", "b", "ab", "c", "a"
        assert_eq!(ids, [0, 1, 0, 2, 3]);
        assert_eq!(v, 4);
    }

    #[test]
    fn long_lcs_uses_the_table() {
        let a: String = (0..100).map(|i| format!("w{} ", i % 7)).collect();
        let b: String = (0..90).map(|i| format!("w{} ", i % 5)).collect();
        let s = Spec {
            orders: vec![],
            lcs: true,
            opts: Options::default(),
        };
        let (out, _) = rouge_counts(&[a.as_str()], &[vec![Some(b.as_str())]], &s);
        // the slow DP
        let x: Vec<&str> = a.split_whitespace().collect();
        let y: Vec<&str> = b.split_whitespace().collect();
        let mut t = vec![vec![0usize; y.len() + 1]; x.len() + 1];
        for i in 1..=x.len() {
            for j in 1..=y.len() {
                t[i][j] = if x[i - 1] == y[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        assert_eq!(out[0] as usize, t[x.len()][y.len()]);
    }
}
