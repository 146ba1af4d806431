//! Word edit distance (bit-parallel, Myers 1999 in Hyyrö's 2001 form, with a one-row table
//! past 64 words on both sides) and PER's bag-of-words matches; described in
//! `mtpalette/kernels/edit.py`.

use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::par_rows;

/// Levenshtein distance of `pattern` (1..=64 words) and `text`; `peq` comes and goes zero.
fn myers(pattern: &[i32], text: &[i32], peq: &mut [u64]) -> i64 {
    let m = pattern.len();
    for (j, &w) in pattern.iter().enumerate() {
        peq[w as usize] |= 1u64 << j;
    }
    let mut pv = !0u64;
    let mut mv = 0u64;
    let last = 1u64 << (m - 1);
    let mut score = m as i64;
    for &w in text {
        let eq = peq[w as usize];
        let xv = eq | mv;
        let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
        let mut ph = mv | !(xh | pv);
        let mut mh = pv & xh;
        if ph & last != 0 {
            score += 1;
        } else if mh & last != 0 {
            score -= 1;
        }
        ph = (ph << 1) | 1; // row 0 of the table grows by one per text word
        mh <<= 1;
        pv = mh | !(xv | ph);
        mv = ph & xv;
    }
    for &w in pattern {
        peq[w as usize] = 0;
    }
    score
}

/// Levenshtein distance with one row of the table (any lengths).
pub fn table(a: &[i32], b: &[i32], row: &mut [i64]) -> i64 {
    let lb = b.len();
    for (j, x) in row.iter_mut().enumerate().take(lb + 1) {
        *x = j as i64;
    }
    for i in 1..=a.len() {
        let mut diag = row[0];
        row[0] = i as i64;
        let x = a[i - 1];
        for j in 1..=lb {
            let up = row[j];
            let best = if b[j - 1] == x { diag } else { diag + 1 };
            row[j] = best.min(up + 1).min(row[j - 1] + 1);
            diag = up;
        }
    }
    row[lb]
}

fn distance(h: &[i32], r: &[i32], peq: &mut [u64], row: &mut [i64]) -> i64 {
    let (lh, lr) = (h.len(), r.len());
    if lh == 0 || lr == 0 {
        return (lh + lr) as i64;
    }
    if lr <= 64 && (lr <= lh || lh > 64) {
        return myers(r, h, peq);
    }
    if lh <= 64 {
        return myers(h, r, peq);
    }
    table(h, r, row)
}

fn bag(h: &[i32], r: &[i32], counts: &mut [i32]) -> i64 {
    for &w in r {
        counts[w as usize] += 1;
    }
    let mut m = 0;
    for &w in h {
        let c = &mut counts[w as usize];
        if *c > 0 {
            *c -= 1;
            m += 1;
        }
    }
    for &w in r {
        counts[w as usize] = 0;
    }
    m
}

/// `(P, R)` flat: edit distances (`bag == false`) or bag-of-words matches, NaN where missing.
pub fn per_ref(pairs: &Pairs, bag_of_words: bool) -> Vec<f64> {
    let n_refs = pairs.n_refs();
    let mut out = vec![f64::NAN; pairs.len() * n_refs];
    let vocab = vocab_bound(pairs.hyp).max(vocab_bound(pairs.refs)).max(1);
    let width = pairs.max_ref() + 1;
    par_rows(
        &mut out,
        n_refs,
        || {
            if bag_of_words {
                (Vec::new(), vec![0i32; vocab], Vec::new())
            } else {
                (vec![0u64; vocab], Vec::new(), vec![0i64; width])
            }
        },
        |(peq, counts, row), p, o| {
            let h = pairs.hyp_row(p);
            for (k, x) in o.iter_mut().enumerate() {
                if let Some(r) = pairs.ref_row(p, k) {
                    *x = if bag_of_words {
                        bag(h, r, counts)
                    } else {
                        distance(h, r, peq, row)
                    } as f64;
                }
            }
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn distances_and_bag_matches_per_reference() {
        let o = Owned::parallel(&[&[1, 2, 3]], &[&[&[1, 3], &[3, 2, 1]]]);
        assert_eq!(per_ref(&o.pairs(), false), vec![1.0, 2.0]);
        let o = Owned::parallel(&[&[1, 1, 2]], &[&[&[2, 1, 3]]]);
        assert_eq!(per_ref(&o.pairs(), true), vec![2.0]);
    }

    #[test]
    fn kitten_sitting_and_a_missing_reference() {
        let kitten: Vec<i32> = "kitten".bytes().map(i32::from).collect();
        let sitting: Vec<i32> = "sitting".bytes().map(i32::from).collect();
        let o = Owned::new(&[&kitten], &[0], &[vec![Some(&sitting[..])], vec![None]]);
        let out = per_ref(&o.pairs(), false);
        assert_eq!(out[0], 3.0);
        assert!(out[1].is_nan());
        let mut row = vec![0i64; 8];
        assert_eq!(table(&kitten, &sitting, &mut row), 3);
    }

    #[test]
    fn long_sentences_take_the_table_and_agree() {
        // both sides over 64 words: the one-row table; one word dropped, one changed
        let a: Vec<i32> = (0..100).collect();
        let mut b: Vec<i32> = (0..100).filter(|&x| x != 40).collect();
        b[70] = 1000;
        let o = Owned::parallel(&[&a], &[&[&b]]);
        assert_eq!(per_ref(&o.pairs(), false), vec![2.0]);
        // one side under 64 words: the bit-parallel path
        let short: Vec<i32> = (0..50).map(|x| 2 * x).collect();
        let o = Owned::parallel(&[&short], &[&[&a]]);
        let mut row = vec![0i64; 101];
        assert_eq!(
            per_ref(&o.pairs(), false),
            vec![table(&short, &a, &mut row) as f64]
        );
        assert_eq!(per_ref(&o.pairs(), false), vec![50.0]);
    }
}
