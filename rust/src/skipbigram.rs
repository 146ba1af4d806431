//! Skip-bigram matches for every maximum skip distance at once (ROUGE-S0..9, S*, SU); the
//! method is described in `mtpalette/kernels/skipbigram.py`: each sentence's pairs as sorted
//! keys `(first * V + second) * B + bucket`, merged per pair of sentences.

use rayon::prelude::*;

use crate::error::{ensure, Checked};
use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::par_rows;

/// The sorted keys of a sentence's skip-bigrams, `(first * V + second) << shift | bucket`
/// (`1 << shift` at least `n_buckets`: the pair of a key is a shift away, not a division);
/// with `any_gap` false only those with a gap below the last bucket (O(n * buckets) instead
/// of O(n^2)).
fn pairs_sorted(
    tokens: &[i32],
    vocab: i64,
    n_buckets: i64,
    shift: u32,
    any_gap: bool,
    keys: &mut Vec<i64>,
) {
    keys.clear();
    let n = tokens.len();
    for i in 0..n {
        let stop = if any_gap {
            n
        } else {
            n.min(i + n_buckets as usize)
        };
        for j in i + 1..stop {
            let gap = ((j - i - 1) as i64).min(n_buckets - 1);
            keys.push(((tokens[i] as i64 * vocab + tokens[j] as i64) << shift) | gap);
        }
    }
    keys.sort_unstable();
}

/// Clipped matches `(P, R, n_buckets)` flat: column d counts pairs with gap <= d (the last
/// column: any gap, or, without `any_gap`, nothing beyond the previous column); NaN where the
/// reference is missing.
pub fn skip_matches(
    pairs: &Pairs,
    vocab: i64,
    n_buckets: usize,
    any_gap: bool,
) -> Checked<Vec<f64>> {
    let bound = vocab_bound(pairs.hyp).max(vocab_bound(pairs.refs)) as i64;
    ensure(vocab >= bound && n_buckets > 0, || {
        "skip_matches: vocab below the largest id, or no bucket".into()
    })?;
    let nb = n_buckets as i64;
    let shift = (n_buckets as u64).next_power_of_two().trailing_zeros();
    ensure(
        ((vocab.max(1) as i128) * (vocab.max(1) as i128)) << shift < i64::MAX as i128,
        || "skip_matches: vocabulary too large for the pair keys".into(),
    )?;
    let low = (1i64 << shift) - 1;
    // every reference row's keys, once, however many candidates share it
    let n_rows = pairs.ref_off.len() - 1;
    let ref_keys: Vec<Vec<i64>> = (0..n_rows)
        .into_par_iter()
        .map(|r| {
            let mut keys = Vec::new();
            let row = &pairs.refs[pairs.ref_off[r] as usize..pairs.ref_off[r + 1] as usize];
            pairs_sorted(row, vocab, nb, shift, any_gap, &mut keys);
            keys
        })
        .collect();
    let n_refs = pairs.n_refs();
    let width = n_refs * n_buckets;
    let mut out = vec![f64::NAN; pairs.len() * width];
    par_rows(
        &mut out,
        width,
        || {
            (
                Vec::new(),
                vec![0i64; n_buckets],
                vec![0i64; n_buckets],
                vec![0i64; n_buckets],
            )
        },
        |(hk, hc, rc, total), p, o| {
            pairs_sorted(pairs.hyp_row(p), vocab, nb, shift, any_gap, hk);
            let s = pairs.seg[p] as usize;
            for k in 0..n_refs {
                if !pairs.mask[[k, s]] {
                    continue;
                }
                let rk = &ref_keys[k * pairs.n_seg() + s];
                total.fill(0);
                let (mut i, mut j) = (0, 0);
                while i < hk.len() && j < rk.len() {
                    let gh = hk[i] >> shift;
                    let gr = rk[j] >> shift;
                    if gh < gr {
                        i += 1;
                    } else if gh > gr {
                        j += 1;
                    } else {
                        hc.fill(0);
                        rc.fill(0);
                        while i < hk.len() && hk[i] >> shift == gh {
                            hc[(hk[i] & low) as usize] += 1;
                            i += 1;
                        }
                        while j < rk.len() && rk[j] >> shift == gh {
                            rc[(rk[j] & low) as usize] += 1;
                            j += 1;
                        }
                        let (mut ch, mut cr) = (0, 0);
                        for b in 0..n_buckets {
                            ch += hc[b];
                            cr += rc[b];
                            total[b] += ch.min(cr);
                        }
                    }
                }
                for b in 0..n_buckets {
                    o[k * n_buckets + b] = total[b] as f64;
                }
            }
        },
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    // police 0, killed 1, the 2, gunman 3, kill 4
    const REF: &[i32] = &[0, 1, 2, 3];

    #[test]
    fn every_skip_distance_of_the_rouge_paper() {
        // "police kill the gunman": S0 1 of 3 bigrams, S1 2 of 5, S* 3 of 6 (DESIGN.md:
        // 0.333, 0.4, 0.5)
        let o = Owned::parallel(&[&[0, 4, 2, 3]], &[&[REF]]);
        assert_eq!(
            skip_matches(&o.pairs(), 5, 3, true).unwrap(),
            vec![1.0, 2.0, 3.0]
        );
        // without any_gap the last column stops at gap 1
        assert_eq!(
            skip_matches(&o.pairs(), 5, 3, false).unwrap(),
            vec![1.0, 2.0, 2.0]
        );
        // "the gunman police killed": S* 2 (the paper's S4 = 1/6 ... 2/6)
        let o = Owned::parallel(&[&[2, 3, 0, 1]], &[&[REF]]);
        assert_eq!(skip_matches(&o.pairs(), 5, 1, true).unwrap(), vec![2.0]);
    }

    #[test]
    fn a_vocabulary_below_the_ids_is_refused() {
        let o = Owned::parallel(&[&[0, 4, 2, 3]], &[&[REF]]);
        assert!(skip_matches(&o.pairs(), 4, 3, true).is_err());
        assert!(skip_matches(&o.pairs(), 5, 0, true).is_err());
    }
}
