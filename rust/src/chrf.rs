//! chrF's n-gram statistics against each reference separately, exactly. The method is
//! described in `mtpalette/kernels/chrf.py`: n-grams numbered inside each candidate, an
//! order-k id found by the exact key `(prefix id) * A + (last token id)`, in a table indexed
//! by the key when small, else in an open-addressing table compared exactly.

use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::par_rows;
use crate::table::slot;

struct Scratch {
    loc: Vec<i64>,
    tl: Vec<i64>,
    hid: Vec<i64>,
    rid: Vec<i64>,
    hc: Vec<i64>,
    rc: Vec<i64>,
    touched: Vec<i64>,
    keys: Vec<i64>,
    vals: Vec<i64>,
    used: Vec<usize>,
}

fn pair_stats(s: &mut Scratch, pairs: &Pairs, p: usize, max_n: usize, out: &mut [i64]) {
    let hyp = pairs.hyp_row(p);
    let h = hyp.len();
    let vocab = s.loc.len();
    let mut a = 0i64;
    for (i, &t) in hyp.iter().enumerate() {
        let t = t as usize;
        if s.loc[t] < 0 {
            s.loc[t] = a;
            a += 1;
        }
        s.tl[i] = s.loc[t];
        s.hid[i] = s.tl[i];
    }
    let direct = (h as i64) * a <= s.vals.len() as i64;
    let mut b = 0;
    for k in 0..pairs.n_refs() {
        if let Some(r) = pairs.ref_row(p, k) {
            for &t in r {
                s.rid[b] = if (t as usize) < vocab {
                    s.loc[t as usize]
                } else {
                    -1
                };
                b += 1;
            }
        }
    }
    for n in 0..max_n {
        let mut n_used = 0;
        if n > 0 {
            for i in 0..h.saturating_sub(n) {
                let key = s.hid[i] * a + s.tl[i + n];
                let q = if direct {
                    key as usize
                } else {
                    slot(&s.keys, key)
                };
                let new = if direct {
                    s.vals[q] == -1
                } else {
                    s.keys[q] == -1
                };
                if new {
                    if !direct {
                        s.keys[q] = key;
                    }
                    s.vals[q] = n_used as i64;
                    s.used[n_used] = q;
                    n_used += 1;
                }
                s.hid[i] = s.vals[q];
            }
        }
        let n_hyp = h.saturating_sub(n);
        for i in 0..n_hyp {
            s.hc[s.hid[i] as usize] += 1;
        }
        let mut b = 0;
        for k in 0..pairs.n_refs() {
            let Some(r) = pairs.ref_row(p, k) else {
                continue;
            };
            let len_r = r.len();
            let n_ref = len_r.saturating_sub(n);
            let mut n_touched = 0;
            for j in 0..n_ref {
                let mut g = s.rid[b + j];
                if n > 0 && g >= 0 {
                    let t = r[j + n] as usize;
                    let last = if t < vocab { s.loc[t] } else { -1 };
                    g = -1;
                    if last >= 0 {
                        let key = s.rid[b + j] * a + last;
                        if direct {
                            g = s.vals[key as usize];
                        } else {
                            let q = slot(&s.keys, key);
                            if s.keys[q] != -1 {
                                g = s.vals[q];
                            }
                        }
                    }
                    s.rid[b + j] = g;
                }
                if g >= 0 {
                    let gu = g as usize;
                    if s.rc[gu] == 0 {
                        s.touched[n_touched] = g;
                        n_touched += 1;
                    }
                    s.rc[gu] += 1;
                }
            }
            let mut matches = 0;
            for q in 0..n_touched {
                let g = s.touched[q] as usize;
                matches += s.hc[g].min(s.rc[g]);
                s.rc[g] = 0;
            }
            let o = &mut out[(k * max_n + n) * 3..(k * max_n + n) * 3 + 3];
            o[0] = if n_ref > 0 { n_hyp as i64 } else { 0 };
            o[1] = n_ref as i64;
            o[2] = matches;
            b += len_r;
        }
        for i in 0..n_hyp {
            s.hc[s.hid[i] as usize] = 0;
        }
        for q in 0..n_used {
            s.vals[s.used[q]] = -1;
            if !direct {
                s.keys[s.used[q]] = -1;
            }
        }
    }
    for &t in hyp {
        s.loc[t as usize] = -1;
    }
}

/// `[candidate n-grams, reference n-grams, matches]` per pair, reference and order:
/// `(P, R, max_n, 3)`, flat.
pub fn chrf_stats(pairs: &Pairs, max_n: usize, direct_max: usize) -> Vec<i64> {
    let n_refs = pairs.n_refs();
    let width = n_refs * max_n * 3;
    let mut out = vec![0i64; pairs.len() * width];
    let vocab = vocab_bound(pairs.hyp);
    let max_h = pairs.max_hyp().max(1);
    let max_r = (0..pairs.n_seg())
        .map(|s| {
            (0..n_refs)
                .filter(|&k| pairs.mask[[k, s]])
                .map(|k| {
                    let r = k * pairs.n_seg() + s;
                    (pairs.ref_off[r + 1] - pairs.ref_off[r]) as usize
                })
                .sum::<usize>()
        })
        .max()
        .unwrap_or(0)
        .max(1);
    let size = (2 * max_h).next_power_of_two();
    let n_vals = size.max((max_h * max_h).min(direct_max));
    par_rows(
        &mut out,
        width,
        || Scratch {
            loc: vec![-1; vocab],
            tl: vec![0; max_h],
            hid: vec![0; max_h],
            rid: vec![0; max_r],
            hc: vec![0; max_h],
            rc: vec![0; max_h],
            touched: vec![0; max_h],
            keys: vec![-1; size],
            vals: vec![-1; n_vals],
            used: vec![0; max_h],
        },
        |s, p, row| pair_stats(s, pairs, p, max_n, row),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn statistics_per_reference_and_order_by_both_tables() {
        // candidate "aba", references "ab" and "a" (the doctest of kernels/chrf.py): the
        // second reference has no bigram, so the candidate's bigrams count 0 there
        let o = Owned::parallel(&[&[1, 2, 1]], &[&[&[1, 2], &[1]]]);
        let want = vec![3, 2, 2, 2, 1, 1, 3, 1, 1, 0, 0, 0];
        assert_eq!(chrf_stats(&o.pairs(), 2, 1 << 18), want);
        // the open-addressing table (direct_max 0) counts the same
        assert_eq!(chrf_stats(&o.pairs(), 2, 0), want);
    }

    #[test]
    fn repeated_characters_are_clipped() {
        // "aaaa" against "aa": unigrams 4 / 2 / 2 matched; bigrams 3 / 1 / 1
        let o = Owned::parallel(&[&[7, 7, 7, 7]], &[&[&[7, 7]]]);
        assert_eq!(chrf_stats(&o.pairs(), 2, 1 << 18), vec![4, 2, 2, 3, 1, 1]);
    }
}
