//! ROUGE-N and ROUGE-L from raw text in one pass, tokenized as rouge-score does.
//!
//! Every distinct text of the batch (candidates and references) is tokenized once, in
//! parallel (`rouge_score_tok.rs`); each token keeps a 64-bit hash of its bytes. Then, for each
//! (candidate, reference) pair in parallel, the tokens of the two texts are given dense ids by
//! sorting them on (hash, bytes) -- equal ids only for equal bytes, so no hash collision can
//! merge two words -- and the counts are taken on those small ids: clipped n-gram matches
//! (sorted n-gram keys, merged) and the LCS length (bit-parallel when the shorter side has at
//! most 64 tokens, else one table row).
//!
//! The output per (candidate, reference, statistic) is `[hits, candidate total, reference
//! total]`; the caller turns them into P, R, F and applies the multi-reference policy.

use std::hash::Hasher;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHasher};

use crate::rouge_score_tok::{tokenize_into, Options};

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

/// One tokenized text: token `t` is `bytes[span[t].1 .. span[t].1 + span[t].2]`, hash `.0`.
#[derive(Default)]
struct Text {
    bytes: Vec<u8>,
    toks: Vec<(u64, usize, usize)>,
    /// the token indices in (hash, bytes) order
    sorted: Vec<u32>,
    letters: i64,
    dropped: i64,
}

fn tokenize_text(text: &str, opts: Options) -> Text {
    let mut t = Text::default();
    let mut spans = Vec::new();
    let (letters, dropped) = tokenize_into(text, opts, &mut t.bytes, &mut spans);
    t.toks = spans
        .into_iter()
        .map(|(s, l)| {
            let mut h = FxHasher::default();
            h.write(&t.bytes[s..s + l]);
            (h.finish(), s, l)
        })
        .collect();
    let mut keyed: Vec<(u64, u32)> = t
        .toks
        .iter()
        .enumerate()
        .map(|(i, tok)| (tok.0, i as u32))
        .collect();
    // by hash; equal hashes by bytes (a repeated word, or in principle a collision)
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| t.token(a.1 as usize).1.cmp(t.token(b.1 as usize).1))
    });
    t.sorted = keyed.into_iter().map(|(_, i)| i).collect();
    t.letters = letters;
    t.dropped = dropped;
    t
}

impl Text {
    fn token(&self, i: usize) -> (u64, &[u8]) {
        let (h, s, l) = self.toks[i];
        (h, &self.bytes[s..s + l])
    }
}

/// Scratch reused across the pairs of one block.
#[derive(Default)]
struct Scratch {
    a: Vec<u32>,
    b: Vec<u32>,
    keys_a: Vec<u64>,
    keys_b: Vec<u64>,
    counts: Vec<i32>,
    pm: Vec<u64>,
    row: Vec<u32>,
}

/// Dense ids of the tokens of `x` (into `s.a`) and `y` (into `s.b`), by merging the two
/// texts' tokens in (hash, bytes) order; returns the number of distinct tokens.
fn dense_ids(x: &Text, y: &Text, s: &mut Scratch) -> usize {
    s.a.clear();
    s.a.resize(x.toks.len(), 0);
    s.b.clear();
    s.b.resize(y.toks.len(), 0);
    let (mut i, mut j) = (0, 0);
    let mut next = 0u32;
    let mut prev: Option<(u64, &[u8])> = None;
    loop {
        // the smaller head of the two sorted lists (x first on ties)
        let from_x = match (x.sorted.get(i), y.sorted.get(j)) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some(&a), Some(&b)) => x.token(a as usize) <= y.token(b as usize),
        };
        let t = if from_x {
            x.token(x.sorted[i] as usize)
        } else {
            y.token(y.sorted[j] as usize)
        };
        if prev.is_some_and(|p| p != t) {
            next += 1;
        }
        prev = Some(t);
        if from_x {
            s.a[x.sorted[i] as usize] = next;
            i += 1;
        } else {
            s.b[y.sorted[j] as usize] = next;
            j += 1;
        }
    }
    if prev.is_none() {
        0
    } else {
        next as usize + 1
    }
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
        s.counts.clear();
        s.counts.resize(v, 0);
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

/// LCS length of `a` and `b` (ids below `v`).
fn lcs(a: &[u32], b: &[u32], v: usize, s: &mut Scratch) -> usize {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let m = short.len();
    if m == 0 {
        return 0;
    }
    if m <= 64 {
        // Allison-Dix / Hyyro bit-parallel LCS
        s.pm.clear();
        s.pm.resize(v, 0);
        for (j, &w) in short.iter().enumerate() {
            s.pm[w as usize] |= 1u64 << j;
        }
        let mut x = !0u64;
        for &w in long {
            let u = x & s.pm[w as usize];
            x = x.wrapping_add(u) | (x - u);
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
fn pair_stats(h: &Text, r: &Text, spec: &Spec, s: &mut Scratch, out: &mut [f64]) {
    let v = dense_ids(h, r, s);
    let (a, b) = (std::mem::take(&mut s.a), std::mem::take(&mut s.b));
    for (k, &n) in spec.orders.iter().enumerate() {
        let hits = ngram_hits(&a, &b, n, v, s);
        out[3 * k] = hits as f64;
        out[3 * k + 1] = a.len().saturating_sub(n - 1) as f64;
        out[3 * k + 2] = b.len().saturating_sub(n - 1) as f64;
    }
    if spec.lcs {
        let k = spec.orders.len();
        out[3 * k] = lcs(&a, &b, v, s) as f64;
        out[3 * k + 1] = a.len() as f64;
        out[3 * k + 2] = b.len() as f64;
    }
    s.a = a;
    s.b = b;
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
/// `(P, R, width, 3)` array (zeros where a reference is missing) and, per distinct text in
/// order of first appearance (candidates first), nothing else: the letters and dropped
/// letters of every candidate and reference, `(P + R * P, 2)`.
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
    let texts: Vec<Text> = unique
        .par_iter()
        .with_min_len(64)
        .map(|t| tokenize_text(t, spec.opts))
        .collect();
    let w = spec.width();
    let mut out = vec![0.0; n_pairs * n_refs * w * 3];
    let row = (n_refs * w * 3).max(1);
    out.par_chunks_mut(row)
        .enumerate()
        .with_min_len(32)
        .for_each_init(Scratch::default, |s, (p, chunk)| {
            let h = &texts[hyp_ids[p] as usize];
            for k in 0..n_refs {
                if let Some(r) = ref_ids[k][p] {
                    pair_stats(
                        h,
                        &texts[r as usize],
                        spec,
                        s,
                        &mut chunk[k * w * 3..(k + 1) * w * 3],
                    );
                }
            }
        });
    let mut letters = Vec::with_capacity(2 * n_pairs * (1 + n_refs));
    let mut push = |id: Option<u32>| {
        let (l, d) = id.map_or((0, 0), |i| {
            (texts[i as usize].letters, texts[i as usize].dropped)
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
