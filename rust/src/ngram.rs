//! Clipped n-gram matches between candidates and their references, exactly (no hashing):
//! the n-grams are numbered per candidate (`local_ngrams.rs`) and counted in arrays indexed
//! by id, clipped by the best reference (BLEU), by each reference alone (ROUGE-N), or by
//! every reference but one, for each one (ORANGE's leave-one-out).

use crate::chrf::max_refs_total;
use crate::local_ngrams::LocalNgrams;
use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::rows_maybe_par;

/// Scratch of the clipped counts: n-grams numbered per candidate.
struct Clip {
    ng: LocalNgrams,
    /// count of each candidate n-gram id of the current order
    hc: Vec<u32>,
    /// one reference's count of each id, and the largest over the references
    rc: Vec<u32>,
    best: Vec<u32>,
    /// leave-one-out: the reference slot giving `best` (the first), the largest over the
    /// other references
    arg: Vec<usize>,
    second: Vec<u32>,
    present: Vec<usize>,
}

/// BLEU's clipped matches of candidate `p`, order by order: `sum over n-grams g of
/// min(count in candidate, max over references of count in reference)`; with `leave_out`,
/// `out[k * max_n + n]` clips by the references but `k` (ORANGE's leave-one-out), from the
/// largest and second largest count of each n-gram over the references, in one pass.
fn pair_clipped(
    s: &mut Clip,
    pairs: &Pairs,
    p: usize,
    max_n: usize,
    clipping: Clipping,
    out: &mut [i64],
) {
    let leave_out = clipping == Clipping::LeaveOut;
    let hyp = pairs.hyp_row(p);
    if hyp.is_empty() {
        return;
    }
    // the scratch as separate slices: stores through one cannot alias another, so the hot
    // loops keep their pointers in registers
    let Clip {
        ng: ngrams,
        hc,
        rc,
        best,
        arg,
        second,
        present,
    } = s;
    present.clear();
    present.extend((0..pairs.n_refs()).filter(|&k| pairs.ref_row(p, k).is_some()));
    let refs = present.iter().map(|&k| pairs.ref_row(p, k).unwrap());
    ngrams.start(hyp, refs);
    let (hc, rc, best, arg, second) = (
        &mut hc[..],
        &mut rc[..],
        &mut best[..],
        &mut arg[..],
        &mut second[..],
    );
    for n in 0..max_n {
        if n > 0 {
            ngrams.advance();
        }
        let ng = &*ngrams;
        let n_hyp = ng.count(ng.h);
        if n_hyp == 0 {
            break;
        }
        for &g in &ng.hid[..n_hyp] {
            hc[g as usize] += 1;
        }
        let mut matches = 0i64;
        if clipping == Clipping::PerRef {
            // each reference alone: at each live position (its n-gram is the candidate's) the
            // count so far is below the candidate's while copies are left, so the matches
            // are min(candidate count, reference count) per n-gram; `live` is in position
            // order and the references follow one another, so each one's positions are a run
            let mut q = 0;
            for (slot, &(b, len)) in ng.refs.iter().enumerate() {
                let from = q;
                let live = ng.live();
                while q < live.len() && (live[q] as usize) < b + len {
                    q += 1;
                }
                let run = &live[from..q];
                let mut m = 0i64;
                for &j in run {
                    let g = ng.rid[j as usize] as usize;
                    m += (rc[g] < hc[g]) as i64;
                    rc[g] += 1;
                }
                for &j in run {
                    rc[ng.rid[j as usize] as usize] = 0;
                }
                out[present[slot] * max_n + n] = m;
                matches += m;
            }
        } else if leave_out {
            for (slot, &(b, len)) in ng.refs.iter().enumerate() {
                let rid = &ng.rid[b..b + ng.count(len)];
                for &g in rid {
                    rc[g as usize] += 1;
                }
                for &g in rid {
                    let g = g as usize;
                    let c = rc[g];
                    if c > best[g] {
                        second[g] = best[g];
                        best[g] = c;
                        arg[g] = slot;
                    } else if c > second[g] && arg[g] != slot {
                        second[g] = c;
                    }
                }
                for &g in rid {
                    rc[g as usize] = 0;
                }
            }
            for k in 0..pairs.n_refs() {
                // the slot of reference k among the present ones; a missing one leaves all
                let slot = present.iter().position(|&x| x == k).unwrap_or(usize::MAX);
                let mut m = 0i64;
                for g in 1..=ng.n_ids {
                    let clip = if arg[g] == slot { second[g] } else { best[g] };
                    m += hc[g].min(clip) as i64;
                }
                out[k * max_n + n] = m;
                matches += m;
            }
            best[..=ng.n_ids].fill(0);
            second[..=ng.n_ids].fill(0);
            arg[..=ng.n_ids].fill(usize::MAX);
        } else if ng.refs.len() == 1 {
            // one reference: each of its n-grams takes one of the candidate's copies left
            // (only the live positions: the others have no n-gram of the candidate)
            for &j in ng.live() {
                let c = &mut hc[ng.rid[j as usize] as usize];
                let m = (*c > 0) as u32;
                *c -= m;
                matches += m as i64;
            }
        } else {
            // several: the largest count of each id over the references (id 0, absent from
            // the candidate, gathers garbage that is never read), without branches
            for &(b, len) in &ng.refs {
                let rid = &ng.rid[b..b + ng.count(len)];
                for &g in rid {
                    rc[g as usize] += 1;
                }
                for &g in rid {
                    let g = g as usize;
                    best[g] = best[g].max(rc[g]);
                }
                for &g in rid {
                    rc[g as usize] = 0;
                }
            }
            for g in 1..=ng.n_ids {
                matches += hc[g].min(best[g]) as i64;
            }
            best[..=ng.n_ids].fill(0);
        }
        if clipping == Clipping::Best {
            out[n] = matches;
        }
        hc[..=ng.n_ids].fill(0);
        if matches == 0 {
            break; // an n-gram in common has its prefix in common: no longer ones either
        }
    }
    ngrams.finish(hyp);
}

/// What [`ngram_matches`] counts per candidate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Clipping {
    /// by the largest count over the references (BLEU): `(P, 1, max_n)`
    Best,
    /// against each reference alone (ROUGE-N): `(P, R, max_n)`
    PerRef,
    /// by the largest count over every reference but `k`, for each `k`: `(P, R, max_n)`
    LeaveOut,
}

/// Unigram matches of candidate `p` against each reference alone (or, with `best` and one
/// reference, clipped by it): each reference token takes one of the candidate's copies left,
/// counted in `left`, indexed by the global token id (as long as the candidates'
/// vocabulary; a reference token beyond it is not in the candidate). No local numbering:
/// the order-1 case of [`pair_clipped`] without its scratch. `left` is all zeros on return.
fn pair_unigrams(left: &mut [u32], pairs: &Pairs, p: usize, best: bool, out: &mut [i64]) {
    let hyp = pairs.hyp_row(p);
    if hyp.is_empty() {
        return;
    }
    let vocab = left.len();
    for k in 0..pairs.n_refs() {
        let Some(r) = pairs.ref_row(p, k) else {
            continue;
        };
        for &t in hyp {
            left[t as usize] += 1;
        }
        let mut m = 0i64;
        for &t in r {
            let t = t as usize;
            if t < vocab {
                let c = &mut left[t];
                let take = (*c > 0) as u32;
                *c -= take;
                m += take as i64;
            }
        }
        out[if best { 0 } else { k }] = m;
        // the copies left, cleared for the next reference
        for &t in hyp {
            left[t as usize] = 0;
        }
    }
}

/// Clipped match counts `(P, 1 or R, max_n)`, flat.
pub fn ngram_matches(pairs: &Pairs, max_n: usize, clipping: Clipping) -> Vec<i64> {
    ngram_matches_on(pairs, max_n, clipping, true)
}

/// [`ngram_matches`], over the pool's threads when `parallel`, else on this thread.
pub fn ngram_matches_on(
    pairs: &Pairs,
    max_n: usize,
    clipping: Clipping,
    parallel: bool,
) -> Vec<i64> {
    let width = if clipping == Clipping::Best {
        1
    } else {
        pairs.n_refs()
    } * max_n;
    let mut out = vec![0i64; pairs.len() * width];
    // unigrams against each reference alone, or clipped by the only one: no local numbering
    if max_n == 1
        && (clipping == Clipping::PerRef || (clipping == Clipping::Best && pairs.n_refs() == 1))
    {
        let vocab = vocab_bound(pairs.hyp);
        let best = clipping == Clipping::Best;
        rows_maybe_par(
            parallel,
            &mut out,
            width,
            || vec![0u32; vocab],
            |left, p, row| pair_unigrams(left, pairs, p, best, row),
        );
        return out;
    }
    let max_h = pairs.max_hyp();
    let max_r = max_refs_total(pairs);
    let vocab = vocab_bound(pairs.hyp);
    rows_maybe_par(
        parallel,
        &mut out,
        width,
        || Clip {
            ng: LocalNgrams::new(vocab, max_h, max_r, 1 << 18),
            hc: vec![0; max_h + 1],
            rc: vec![0; max_h + 1],
            best: vec![0; max_h + 1],
            arg: vec![usize::MAX; max_h + 1],
            second: vec![0; max_h + 1],
            present: Vec::with_capacity(pairs.n_refs()),
        },
        |s, p, row| pair_clipped(s, pairs, p, max_n, clipping, row),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn clipped_by_the_best_reference_or_per_reference() {
        // candidate 1 2 1; references 1 2 and 1 1 (the doctest of kernels/ngram.py)
        let o = Owned::parallel(&[&[1, 2, 1]], &[&[&[1, 2], &[1, 1]]]);
        // unigram 1 twice (clipped by "1 1"), 2 once: 3; bigram 1 2 once: 1
        assert_eq!(ngram_matches(&o.pairs(), 2, Clipping::Best), vec![3, 1]);
        // "1 2": 1 + 1 unigrams, the bigram 1 2; "1 1": two 1s, no bigram
        assert_eq!(
            ngram_matches(&o.pairs(), 2, Clipping::PerRef),
            vec![2, 1, 2, 0]
        );
    }

    #[test]
    fn leaving_each_reference_out_equals_clipping_by_the_others() {
        // a small deterministic generator: words from a 3-word vocabulary
        fn next(state: &mut u64, m: u64) -> u64 {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*state >> 33) % m
        }
        fn words(state: &mut u64) -> Vec<i32> {
            let n = next(state, 9);
            (0..n).map(|_| next(state, 3) as i32).collect()
        }
        let mut state = 99u64;
        for _ in 0..300 {
            let hyp = words(&mut state);
            let refs = [words(&mut state), words(&mut state), words(&mut state)];
            let all: Vec<&[i32]> = refs.iter().map(|r| r.as_slice()).collect();
            let o = Owned::parallel(&[&hyp], &[&all]);
            let got = ngram_matches(&o.pairs(), 4, Clipping::LeaveOut);
            for k in 0..3 {
                let others: Vec<&[i32]> = (0..3).filter(|&j| j != k).map(|j| all[j]).collect();
                let one = Owned::parallel(&[&hyp], &[&others]);
                let want = ngram_matches(&one.pairs(), 4, Clipping::Best);
                assert_eq!(
                    &got[k * 4..(k + 1) * 4],
                    &want[..],
                    "{hyp:?} {refs:?} k {k}"
                );
            }
        }
    }

    #[test]
    fn unigrams_without_local_numbers_equal_the_general_pass() {
        // order 1 alone takes `pair_unigrams`; order 2's first column is the general pass
        fn next(state: &mut u64, m: u64) -> u64 {
            *state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*state >> 33) % m
        }
        fn words(state: &mut u64) -> Vec<i32> {
            let n = next(state, 7);
            (0..n)
                .map(|_| (next(state, 4) * next(state, 3)) as i32)
                .collect()
        }
        let mut state = 7u64;
        for _ in 0..300 {
            let hyp = words(&mut state);
            let (a, b) = (words(&mut state), words(&mut state));
            let refs: Vec<&[i32]> = vec![&a, &b];
            let two = Owned::parallel(&[&hyp], &[&refs]);
            let one = Owned::parallel(&[&hyp], &[&refs[..1]]);
            for (o, clipping) in [
                (&two, Clipping::PerRef),
                (&one, Clipping::PerRef),
                (&one, Clipping::Best),
            ] {
                let fast = ngram_matches(&o.pairs(), 1, clipping);
                let general = ngram_matches(&o.pairs(), 2, clipping);
                let firsts: Vec<i64> = general.iter().step_by(2).copied().collect();
                assert_eq!(fast, firsts, "{hyp:?} {refs:?}");
            }
        }
        // a reference missing for one candidate, an empty candidate
        let a: &[i32] = &[4, 4, 9];
        let o = Owned::new(
            &[a, &[]],
            &[0, 0],
            &[vec![None, Some(a)], vec![Some(a), None]],
        );
        assert_eq!(
            ngram_matches(&o.pairs(), 1, Clipping::PerRef),
            vec![0, 3, 0, 0]
        );
    }

    #[test]
    fn missing_references_and_empty_candidates_count_nothing() {
        let a: &[i32] = &[4, 4, 4];
        let o = Owned::new(&[a, &[]], &[0, 0], &[vec![Some(a)], vec![None]]);
        assert_eq!(
            ngram_matches(&o.pairs(), 3, Clipping::PerRef),
            vec![3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        // repeated tokens: 4 4 4 against 4 4: 2 unigrams, 1 bigram, 0 trigrams
        let o = Owned::parallel(&[a], &[&[&[4, 4]]]);
        assert_eq!(ngram_matches(&o.pairs(), 3, Clipping::Best), vec![2, 1, 0]);
    }
}
