//! The maximum match size of the General Text Matcher, as gtm 1.4 computes it; the greedy
//! rules are described in `mtpalette/kernels/gtm.py`.

use crate::pairs::Pairs;
use crate::parallel::par_rows;

/// Lengths of the blocks gtm 1.4 takes for candidate `h` against the references `refs`,
/// into `taken`.
fn taken_runs(h: &[i32], refs: &[&[i32]], taken: &mut Vec<f64>) {
    taken.clear();
    let n_h = h.len();
    let total: usize = refs.iter().map(|r| r.len()).sum();
    if n_h == 0 || total == 0 {
        return;
    }
    let width = total + refs.len(); // one break column after each reference
    let w1 = width + 1;
    let mut budget = (n_h as f64).min(total as f64 / refs.len() as f64);
    // run[i, c] = length of the diagonal stretch of hits starting at (i, c)
    let mut run = vec![0i32; (n_h + 1) * w1];
    let mut col0 = 0;
    let mut longest = 0;
    let mut n_hits = 0;
    for r in refs {
        for i in (0..n_h).rev() {
            let x = h[i];
            for j in (0..r.len()).rev() {
                if r[j] == x {
                    let v = run[(i + 1) * w1 + col0 + j + 1] + 1;
                    run[i * w1 + col0 + j] = v;
                    n_hits += 1;
                    longest = longest.max(v);
                }
            }
        }
        col0 += r.len() + 1;
    }
    // the hits in gtm's tie order: later candidate position, then later column
    let mut hits = Vec::with_capacity(n_hits);
    for i in (0..n_h).rev() {
        for c in (0..width).rev() {
            if run[i * w1 + c] > 0 {
                hits.push((i, c));
            }
        }
    }
    let mut row_used = vec![false; n_h];
    let mut col_used = vec![false; width];
    for length in (1..=longest).rev() {
        for &(i, c) in &hits {
            if run[i * w1 + c] < length {
                continue;
            }
            let size = (length as f64).min(budget);
            let cells = size.ceil() as usize;
            if (0..cells).any(|d| row_used[i + d] || col_used[c + d]) {
                continue;
            }
            for d in 0..cells {
                row_used[i + d] = true;
                col_used[c + d] = true;
            }
            taken.push(size);
            budget -= size;
            if budget <= 0.0 {
                return;
            }
        }
    }
}

/// `(P, n_exponents)` flat: `(sum over taken blocks of L^e)^(1/e)` for each exponent.
pub fn mms(pairs: &Pairs, exponents: &[f64]) -> Vec<f64> {
    let n_e = exponents.len();
    let mut out = vec![0.0; pairs.len() * n_e];
    par_rows(&mut out, n_e, Vec::new, |taken, p, o| {
        let refs: Vec<&[i32]> = (0..pairs.n_refs())
            .filter_map(|k| pairs.ref_row(p, k))
            .collect();
        taken_runs(pairs.hyp_row(p), &refs, taken);
        for (x, &e) in o.iter_mut().zip(exponents) {
            let acc: f64 = taken.iter().fold(0.0, |acc, &t| acc + t.powf(e));
            *x = acc.powf(1.0 / e);
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn runs_of_two_and_three() {
        // candidate 1 2 3 4 5 against 1 2 9 3 4 5: runs of 2 and 3; e = 1: 5, e = 2: sqrt(13)
        let o = Owned::parallel(&[&[1, 2, 3, 4, 5]], &[&[&[1, 2, 9, 3, 4, 5]]]);
        let out = mms(&o.pairs(), &[1.0, 2.0]);
        assert_eq!(out[0], 5.0);
        assert!((out[1] - 13f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn capped_by_the_mean_reference_length() {
        // references of 2 and 3 words (mean 2.5): at most 2.5 hits, the last cut to 0.5
        let o = Owned::parallel(&[&[1, 2, 3]], &[&[&[1, 2], &[1, 2, 3]]]);
        assert_eq!(mms(&o.pairs(), &[1.0]), vec![2.5]);
        let o = Owned::parallel(&[&[]], &[&[&[1, 2]]]);
        assert_eq!(mms(&o.pairs(), &[1.0]), vec![0.0]);
    }
}
