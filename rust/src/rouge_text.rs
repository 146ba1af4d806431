//! ROUGE-N and ROUGE-L from raw text in one pass, tokenized as rouge-score does.
//!
//! Every distinct text of the batch (candidates and references; one Python string passed
//! several times is one text) is tokenized once, in parallel blocks, straight into keys
//! (`rouge_score_tok::KeyBlock`: a token of up to 8 bytes is its own u64 key, one of 9 to
//! 16 bytes its own u128, a longer one its bytes), and the keys are interned to ids in one
//! pass, so that ids are equal exactly when the tokens are. With stemming, each distinct
//! token is stemmed once and the stems interned again. Then, for each (candidate,
//! reference) pair in parallel, the counts are taken on the ids: clipped n-gram matches (a
//! count table for unigrams, a small open-addressing table of packed n-gram keys for longer
//! ones) and the LCS length (bit-parallel, Hyyrö's algorithm, over as many 64-bit words as
//! the shorter side needs). Scratch tables the size of the vocabulary are made once per
//! block of pairs and reset entry by entry.
//!
//! The output per (candidate, reference, statistic) is `[hits, candidate total, reference
//! total]`; the caller turns them into P, R, F and applies the multi-reference policy.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::distinct::SameStrings;
use crate::lcs_bits::LcsBits;
use crate::parallel::texts_per_block;
use crate::porter;
#[cfg(test)]
use crate::rouge_score_tok::tokenize_into;
use crate::rouge_score_tok::{KeyBlock, Options};
use crate::token_keys::Interner;

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
    /// unigram counts, by token id (all zero between uses)
    counts: Vec<i32>,
    /// the LCS's scratch
    bits: LcsBits,
    /// n-gram key + 1 (0: empty) and count
    table: Vec<(u64, u32)>,
}

impl Scratch {
    fn new(vocab: usize) -> Self {
        Scratch {
            counts: vec![0; vocab],
            bits: LcsBits::new(vocab),
            table: Vec::new(),
        }
    }
}

/// The token ids of every text: `(ids, offsets of each text's ids, vocabulary size,
/// letters, dropped letters)`. Equal ids exactly for equal tokens (after stemming, with
/// `stem`).
///
/// The texts are scanned in parallel blocks into keys (`KeyBlock`: a token of up to 8 bytes
/// is its own key), then interned in one pass: short keys in a table of u64, the rare long
/// tokens by their bytes. With `stem`, each distinct token is stemmed once (in parallel) and
/// the stems interned again, instead of stemming every occurrence.
#[allow(clippy::type_complexity)]
fn text_ids<S: AsRef<str> + Sync>(
    texts: &[S],
    stem: bool,
) -> (Vec<u32>, Vec<usize>, usize, Vec<i64>, Vec<i64>) {
    let per_block = texts_per_block(texts.len());
    let blocks: Vec<KeyBlock> = texts
        .par_chunks(per_block)
        .map(|block| {
            let mut kb = KeyBlock::default();
            for t in block {
                kb.push_text(t.as_ref());
            }
            kb
        })
        .collect();
    let n_tokens: usize = blocks.iter().map(|b| b.tokens.keys.len()).sum();
    let mut interner = Interner::with_capacity(1 << 14);
    let mut ids = Vec::with_capacity(n_tokens);
    for (bi, b) in blocks.iter().enumerate() {
        for &key in &b.tokens.keys {
            ids.push(interner.id(&b.tokens, bi as u32, key));
        }
    }
    let words = std::mem::take(&mut interner.firsts);
    let mut vocab = words.len();
    if stem {
        let stems: Vec<Vec<u8>> = words
            .par_iter()
            .with_min_len(256)
            .map(|&(key, bi)| {
                let w = blocks[bi as usize].tokens.token(key);
                if w.len() > 3 {
                    porter::stem(&w)
                } else {
                    w
                }
            })
            .collect();
        let mut index: FxHashMap<&[u8], u32> = FxHashMap::default();
        let remap: Vec<u32> = stems
            .iter()
            .map(|s| {
                let next = index.len() as u32;
                *index.entry(s.as_slice()).or_insert(next)
            })
            .collect();
        vocab = index.len();
        ids.par_iter_mut()
            .with_min_len(4096)
            .for_each(|id| *id = remap[*id as usize]);
    }
    let mut off = Vec::with_capacity(texts.len() + 1);
    off.push(0usize);
    let (mut letters, mut dropped) = (Vec::new(), Vec::new());
    for b in &blocks {
        for &c in &b.counts {
            off.push(off.last().unwrap() + c as usize);
        }
        letters.extend_from_slice(&b.letters);
        dropped.extend_from_slice(&b.dropped);
    }
    (ids, off, vocab, letters, dropped)
}

/// Clipped unigram matches of `a` against `b`.
fn unigram_hits(a: &[u32], b: &[u32], s: &mut Scratch) -> usize {
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
    hits
}

/// Clipped n-gram matches of `a` against `b` (ids below `v`, `v^n` fits in u64): the
/// n-grams of `a`, as base-`v` keys, counted in a small open-addressing table of the
/// scratch, then looked up one by one for `b`.
fn ngram_hits_table(a: &[u32], b: &[u32], n: usize, v: u64, s: &mut Scratch) -> usize {
    let key = |w: &[u32]| w.iter().fold(0u64, |k, &x| k * v + x as u64) + 1; // 0: empty
    let len_a = a.len() + 1 - n;
    let bits = (2 * len_a).next_power_of_two().trailing_zeros().max(4);
    let cap = 1usize << bits;
    let table = &mut s.table;
    table.clear();
    table.resize(cap, (0, 0));
    // the slot holding key `k`, or the free slot where it would go
    let find = |table: &[(u64, u32)], k: u64| {
        let mut i = (k.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - bits)) as usize;
        while table[i].0 != k && table[i].0 != 0 {
            i = (i + 1) & (cap - 1);
        }
        i
    };
    for w in a.windows(n) {
        let k = key(w);
        let i = find(table, k);
        table[i] = (k, table[i].1 + 1); // a free slot holds count 0
    }
    let mut hits = 0;
    for w in b.windows(n) {
        let k = key(w);
        let i = find(table, k);
        let e = &mut table[i];
        if e.0 == k && e.1 > 0 {
            e.1 -= 1;
            hits += 1;
        }
    }
    hits
}

/// Clipped n-gram matches of `a` against `b` counted on the n-grams themselves (orders too
/// high for packed keys; the tests' reference on word strings too).
fn ngram_hits_hashed<T: std::hash::Hash + Eq>(a: &[T], b: &[T], n: usize) -> usize {
    let mut counts: FxHashMap<&[T], i64> = FxHashMap::default();
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
}

/// The token ids of every distinct text: text `i`'s are `ids[off[i]..off[i + 1]]`, all
/// below `vocab`.
struct Texts {
    ids: Vec<u32>,
    off: Vec<usize>,
    vocab: usize,
}

impl Texts {
    fn ids(&self, i: usize) -> &[u32] {
        &self.ids[self.off[i]..self.off[i + 1]]
    }
}

/// `[hits, candidate total, reference total]` per statistic of `spec` for texts `h` and
/// `r`, into `out`.
fn pair_stats(t: &Texts, h: usize, r: usize, spec: &Spec, s: &mut Scratch, out: &mut [f64]) {
    let (a, b) = (t.ids(h), t.ids(r));
    for (k, &n) in spec.orders.iter().enumerate() {
        let hits = if a.len() < n || b.len() < n {
            0
        } else if n == 1 {
            unigram_hits(a, b, s)
        } else if (t.vocab as u64).checked_pow(n as u32).is_some() {
            ngram_hits_table(a, b, n, t.vocab as u64, s)
        } else {
            ngram_hits_hashed(a, b, n)
        };
        out[3 * k] = hits as f64;
        out[3 * k + 1] = a.len().saturating_sub(n - 1) as f64;
        out[3 * k + 2] = b.len().saturating_sub(n - 1) as f64;
    }
    if spec.lcs {
        let k = spec.orders.len();
        out[3 * k] = s.bits.lcs(a, b) as f64;
        out[3 * k + 1] = a.len() as f64;
        out[3 * k + 2] = b.len() as f64;
    }
}

/// The counts of every candidate against each of its references.
///
/// `refs[k][p]` is the `k`-th reference of candidate `p` (None: missing). Returns the flat
/// `(P, R, width, 3)` array (zeros where a reference is missing) and the letters and dropped
/// letters of every candidate, then every reference, `(P + R * P, 2)`. Sentence markers
/// (`spec.opts.sents`) are not supported here.
pub fn rouge_counts<S: AsRef<str> + Sync>(
    hyps: &[S],
    refs: &[Vec<Option<S>>],
    spec: &Spec,
) -> (Vec<f64>, Vec<i64>) {
    assert!(!spec.opts.sents, "rouge_counts: no sentence markers");
    let n_pairs = hyps.len();
    let n_refs = refs.len();
    // each distinct string once
    let mut unique = SameStrings::default();
    let hyp_ids: Vec<u32> = hyps.iter().map(|t| unique.add(t.as_ref())).collect();
    let ref_ids: Vec<Vec<Option<u32>>> = refs
        .iter()
        .map(|row| {
            row.iter()
                .map(|t| t.as_ref().map(|t| unique.add(t.as_ref())))
                .collect()
        })
        .collect();
    let (ids, off, vocab, t_letters, t_dropped) = text_ids(&unique.texts, spec.opts.stem);
    let texts = Texts { ids, off, vocab };
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
                    let h = hyp_ids[p] as usize;
                    for k in 0..n_refs {
                        if let Some(r) = ref_ids[k][p] {
                            pair_stats(
                                &texts,
                                h,
                                r as usize,
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
        let (l, d) = id.map_or((0, 0), |i| (t_letters[i as usize], t_dropped[i as usize]));
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
    fn ids_equal_exactly_for_equal_tokens() {
        use crate::rouge_score_tok::tokenize;
        let texts = [
            "Running runs runner ran RUNNING; internationalization Internationalization",
            "internationalisation abcdefgh abcdefghi ABCDEFGHI \u{212a}elvin kelvin",
            "the friends had a meeting, meetings and meeting-rooms",
            "北京 İstanbul istanbul 12345678 123456789 123456789",
        ];
        for stem in [false, true] {
            let (ids, off, vocab, letters, _) = text_ids(&texts, stem);
            let mut toks = Vec::new();
            let opts = Options { stem, sents: false };
            for (i, t) in texts.iter().enumerate() {
                let want = tokenize(t, opts);
                assert_eq!(off[i + 1] - off[i], want.len());
                toks.extend(want);
                let (mut b, mut sp) = (Vec::new(), Vec::new());
                assert_eq!(letters[i], tokenize_into(t, opts, &mut b, &mut sp).0);
            }
            assert_eq!(ids.len(), toks.len());
            for x in 0..toks.len() {
                for y in 0..toks.len() {
                    assert_eq!(ids[x] == ids[y], toks[x] == toks[y], "{stem}");
                }
            }
            let distinct: std::collections::HashSet<_> = toks.iter().collect();
            assert_eq!(vocab, distinct.len());
        }
    }

    #[test]
    fn high_orders_count_the_ngrams_themselves() {
        // "a b" repeated: 2 words, so 2^n overflows u64 from n = 64
        let a = "a b ".repeat(40);
        let b = "b a ".repeat(35);
        let s = Spec {
            orders: vec![1, 2, 3, 63, 64, 70],
            lcs: false,
            opts: Options::default(),
        };
        let (out, _) = rouge_counts(&[a.as_str()], &[vec![Some(b.as_str())]], &s);
        // the reference counts the word strings' n-grams, before any packing into keys
        let x: Vec<&str> = a.split_whitespace().collect();
        let y: Vec<&str> = b.split_whitespace().collect();
        for (k, &n) in s.orders.iter().enumerate() {
            assert_eq!(
                out[3 * k] as usize,
                ngram_hits_hashed(&x, &y, n),
                "order {n}"
            );
        }
    }

    #[test]
    fn long_lcs_equals_the_table() {
        let a: String = (0..100).map(|i| format!("w{} ", i % 7)).collect();
        let b: String = (0..90).map(|i| format!("w{} ", i % 5)).collect();
        let s = Spec {
            orders: vec![],
            lcs: true,
            opts: Options::default(),
        };
        let (out, _) = rouge_counts(&[a.as_str()], &[vec![Some(b.as_str())]], &s);
        let x: Vec<&str> = a.split_whitespace().collect();
        let y: Vec<&str> = b.split_whitespace().collect();
        assert_eq!(out[0] as usize, lcs_dp(&x, &y));
    }

    /// The LCS length by the slow dynamic programme over the whole table.
    fn lcs_dp<T: PartialEq>(x: &[T], y: &[T]) -> usize {
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
        t[x.len()][y.len()]
    }

    #[test]
    fn long_lcs_of_every_length() {
        let dp = lcs_dp::<u32>;
        let mut s = Scratch::new(16);
        let mut state = 12345u64;
        let mut next = |v: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) % v) as u32
        };
        for m in [1, 2, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193, 300] {
            for vocab in [2, 5, 16] {
                let a: Vec<u32> = (0..m).map(|_| next(vocab)).collect();
                let n = m + next(60) as usize;
                let b: Vec<u32> = (0..n).map(|_| next(vocab)).collect();
                assert_eq!(s.bits.lcs(&a, &b), dp(&a, &b), "m {m} vocab {vocab}");
                assert_eq!(s.bits.lcs(&b, &a), dp(&a, &b));
                assert!(s.bits.at_rest());
            }
        }
    }

    #[test]
    fn ngrams_with_short_texts_between() {
        let hyps = ["a b c d", "", "x", "a b", "b c d a b c"];
        let refs = vec![vec![
            Some("b c d"),
            Some("a"),
            Some(""),
            Some("a b c"),
            Some("d a b c d"),
        ]];
        let s = Spec {
            orders: vec![1, 2, 3],
            lcs: false,
            opts: Options::default(),
        };
        let (out, _) = rouge_counts(&hyps, &refs, &s);
        let want = [
            [3.0, 4.0, 3.0, 2.0, 3.0, 2.0, 1.0, 2.0, 1.0],
            [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
            [2.0, 2.0, 3.0, 1.0, 1.0, 2.0, 0.0, 0.0, 1.0],
            [4.0, 6.0, 5.0, 4.0, 5.0, 4.0, 3.0, 4.0, 3.0],
        ];
        for (p, w) in want.iter().enumerate() {
            assert_eq!(&out[9 * p..9 * p + 9], w, "pair {p}");
        }
    }
}
