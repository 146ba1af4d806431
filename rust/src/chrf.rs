//! chrF's n-gram statistics against each reference separately, exactly. The method is
//! described in `mtpalette/kernels/chrf.py`: n-grams numbered inside each candidate order by
//! order (`local_ngrams.rs`), counted in an array indexed by id; a reference n-gram takes one
//! of the candidate's remaining copies, which sums `min(candidate count, reference count)`.

use crate::local_ngrams::LocalNgrams;
use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::par_rows;

struct Scratch {
    ng: LocalNgrams,
    /// count of each candidate n-gram id of the current order
    hc: Vec<u32>,
    /// `hc` used up by one reference's matches (several references)
    work: Vec<u32>,
    /// the references the candidate has
    present: Vec<usize>,
}

/// `matches = sum over n-grams g of min(count in candidate, count in reference)`: each
/// reference n-gram found in the candidate takes one of the candidate's remaining copies.
#[inline(always)]
fn take_matches(rid: &[u32], left: &mut [u32]) -> i64 {
    let mut matches = 0;
    for &g in rid {
        let c = &mut left[g as usize];
        let m = (*c > 0) as u32; // without a branch: whether a copy is left
        *c -= m;
        matches += m as i64;
    }
    matches
}

fn pair_stats(s: &mut Scratch, pairs: &Pairs, p: usize, max_n: usize, out: &mut [i64]) {
    let hyp = pairs.hyp_row(p);
    let n_refs = pairs.n_refs();
    let present = &mut s.present;
    present.clear();
    present.extend((0..n_refs).filter(|&k| pairs.ref_row(p, k).is_some()));
    s.ng.start(hyp, present.iter().map(|&k| pairs.ref_row(p, k).unwrap()));
    for n in 0..max_n {
        if n > 0 {
            s.ng.advance();
        }
        let ng = &s.ng;
        let n_hyp = ng.count(ng.h);
        for &g in &ng.hid[..n_hyp] {
            s.hc[g as usize] += 1;
        }
        // (index 0, reference n-grams absent from the candidate, never has a copy)
        let one = s.present.len() == 1;
        for (q, &k) in s.present.iter().enumerate() {
            let (b, len) = ng.refs[q];
            let n_ref = ng.count(len);
            let rid = &ng.rid[b..b + n_ref];
            let matches = if one {
                take_matches(rid, &mut s.hc)
            } else {
                s.work[..=ng.n_ids].copy_from_slice(&s.hc[..=ng.n_ids]);
                take_matches(rid, &mut s.work)
            };
            let o = &mut out[(k * max_n + n) * 3..(k * max_n + n) * 3 + 3];
            o[0] = if n_ref > 0 { n_hyp as i64 } else { 0 };
            o[1] = n_ref as i64;
            o[2] = matches;
        }
        s.hc[..=ng.n_ids].fill(0);
    }
    s.ng.finish(hyp);
}

/// `[candidate n-grams, reference n-grams, matches]` per pair, reference and order:
/// `(P, R, max_n, 3)`, flat.
pub fn chrf_stats(pairs: &Pairs, max_n: usize, direct_max: usize) -> Vec<i64> {
    let n_refs = pairs.n_refs();
    let width = n_refs * max_n * 3;
    let mut out = vec![0i64; pairs.len() * width];
    let vocab = vocab_bound(pairs.hyp);
    let max_h = pairs.max_hyp();
    let max_r = max_refs_total(pairs);
    par_rows(
        &mut out,
        width,
        || Scratch {
            ng: LocalNgrams::new(vocab, max_h, max_r, direct_max),
            hc: vec![0; max_h + 1],
            work: vec![0; max_h + 1],
            present: Vec::with_capacity(n_refs),
        },
        |s, p, row| pair_stats(s, pairs, p, max_n, row),
    );
    out
}

/// The largest number of reference tokens of one segment, all references together.
pub fn max_refs_total(pairs: &Pairs) -> usize {
    let n_refs = pairs.n_refs();
    (0..pairs.n_seg())
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
