//! Per-reference dynamic programmes over int ids: Levenshtein distance, LCS (bit-parallel,
//! `lcs_bits.rs`), weighted LCS (Lin and Och 2004, section 3.2) and ROUGE-1.5.5's ROUGE-W
//! hit. One table row each, except ROUGE-1.5.5's hit, which needs the full table for its
//! traceback.

use crate::edit;
use crate::error::{ensure, Checked, InputError};
use crate::lcs_bits::LcsBits;
use crate::pairs::{vocab_bound, Pairs};
use crate::parallel::par_rows;

/// The paper's WLCS with f(k) = k^alpha (`a` is the reference X, `b` is Y); `inc[k]` is
/// f(k + 1) - f(k), computed once per alpha.
fn wlcs(a: &[i32], b: &[i32], inc: &[f64], c_row: &mut [f64], w_row: &mut [i64]) -> f64 {
    let n = b.len();
    c_row[..=n].fill(0.0);
    w_row[..=n].fill(0);
    for &x in a {
        let mut c_diag = 0.0;
        let mut w_diag = 0;
        let mut c_left = 0.0; // c_row[j - 1] of this row
        let cells = c_row[1..=n]
            .iter_mut()
            .zip(w_row[1..=n].iter_mut())
            .zip(b.iter());
        for ((c, w), &y) in cells {
            let (c_up, w_up) = (*c, *w);
            if y == x {
                *c = c_diag + inc[w_diag as usize];
                *w = w_diag + 1;
            } else if c_up > c_left {
                *c = c_up;
                *w = 0;
            } else {
                *c = c_left;
                *w = 0;
            }
            c_left = *c;
            c_diag = c_up;
            w_diag = w_up;
        }
    }
    c_row[n]
}

/// [`wlcs`] for several weight functions in one pass over the table: `inc[k * q_n + q]` is
/// the increment of function `q` after a run of `k` (the functions' tables interleaved, so
/// that a match adds one contiguous slice), `out[q]` the WLCS of function `q`. Each cell holds
/// every function's value side by side (`(|b| + 1) * q_n` per row of `f64`), so the
/// comparison of the words and the walk are shared; the previous row and the current one are
/// kept apart (`prev`, `cur`), so that a cell without a match is an elementwise maximum over
/// the functions, which the compiler turns into vector instructions. The run length is one
/// per cell for all functions (`|b| + 1` per row of `i64`): the length of the diagonal run of
/// matches ending there (one more than the diagonal's on a match, else 0), whatever the
/// values. Each function's arithmetic is exactly that of [`wlcs`].
fn wlcs_multi(
    a: &[i32],
    b: &[i32],
    (q_n, inc): (usize, &[f64]),
    prev: (&mut [f64], &mut [i64]),
    cur: (&mut [f64], &mut [i64]),
    out: &mut [f64],
) {
    let n = b.len();
    let width = (n + 1) * q_n;
    let (mut pc, mut pw) = prev;
    let (mut cc, mut cw) = cur;
    pc[..width].fill(0.0);
    pw[..=n].fill(0);
    cc[..q_n].fill(0.0);
    cw[0] = 0;
    for &x in a {
        for (j, &y) in b.iter().enumerate() {
            let (lo, hi) = ((j + 1) * q_n, (j + 2) * q_n);
            if y == x {
                let (diag, w) = (j * q_n, pw[j] as usize);
                let cells = cc[lo..hi]
                    .iter_mut()
                    .zip(&pc[diag..lo])
                    .zip(&inc[w * q_n..(w + 1) * q_n]);
                for ((c, &d), &i) in cells {
                    *c = d + i;
                }
                cw[j + 1] = w as i64 + 1;
            } else {
                let (left, right) = cc.split_at_mut(lo);
                let cells = right[..q_n]
                    .iter_mut()
                    .zip(&pc[lo..hi])
                    .zip(&left[lo - q_n..lo]);
                for ((c, &up), &l) in cells {
                    *c = if up > l { up } else { l };
                }
                cw[j + 1] = 0;
            }
        }
        std::mem::swap(&mut pc, &mut cc);
        std::mem::swap(&mut pw, &mut cw);
    }
    out[..q_n].copy_from_slice(&pc[n * q_n..width]);
}

/// The most weight functions [`wlcs_multi`] takes in one pass (more go in several).
const MULTI_MAX: usize = 16;

/// f(k + 1) - f(k) with f(k) = k^alpha, for k = 0..len, as the WLCS recurrence computes it.
fn increments(alpha: f64, len: usize) -> Vec<f64> {
    (0..=len)
        .map(|k| ((k + 1) as f64).powf(alpha) - (k as f64).powf(alpha))
        .collect()
}

/// The increment tables `incs` interleaved: `(number of tables, entry k * number + q = incs[q][k])`.
fn interleaved(incs: &[Vec<f64>]) -> (usize, Vec<f64>) {
    let len = incs.first().map_or(0, |t| t.len());
    let flat = (0..len)
        .flat_map(|k| incs.iter().map(move |t| t[k]))
        .collect();
    (incs.len(), flat)
}

/// A given increment table, its last value repeated up to index `len`.
fn extended(table: &[f64], len: usize) -> Vec<f64> {
    let last = *table.last().expect("checked non-empty by dp_per_ref");
    (0..=len)
        .map(|k| table.get(k).copied().unwrap_or(last))
        .collect()
}

/// ROUGE-1.5.5's ROUGE-W hit (`a` is the reference): the WLCS table with its tie rule
/// ("up" when c[i-1][j] >= c[i][j-1]), one traceback from the corner marking the matched
/// reference positions, and f summed over runs consecutive in the reference.
fn wlcs_rouge155(a: &[i32], b: &[i32], alpha: f64) -> f64 {
    let m = a.len();
    let n = b.len();
    let w1 = n + 1;
    let mut c = vec![0.0f64; (m + 1) * w1];
    let mut w = vec![0i64; (m + 1) * w1];
    let mut mv = vec![0u8; (m + 1) * w1]; // 1 diagonal, 2 up (i - 1), 3 left (j - 1)
    for i in 1..=m {
        let x = a[i - 1];
        for j in 1..=n {
            let at = i * w1 + j;
            if b[j - 1] == x {
                let k = w[at - w1 - 1];
                c[at] = c[at - w1 - 1] + ((k + 1) as f64).powf(alpha) - (k as f64).powf(alpha);
                w[at] = k + 1;
                mv[at] = 1;
            } else if c[at - w1] >= c[at - 1] {
                c[at] = c[at - w1];
                mv[at] = 2;
            } else {
                c[at] = c[at - 1];
                mv[at] = 3;
            }
        }
    }
    let mut marked = vec![false; m + 1];
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        match mv[i * w1 + j] {
            1 => {
                marked[i] = true;
                i -= 1;
                j -= 1;
            }
            2 => i -= 1,
            _ => j -= 1,
        }
    }
    let mut hit = 0.0;
    let mut run = 0i64;
    for i in 1..=m + 1 {
        if i <= m && marked[i] {
            run += 1;
        } else if run > 0 {
            hit += (run as f64).powf(alpha);
            run = 0;
        }
    }
    hit
}

/// Which programme `per_ref` runs.
#[derive(Clone, Copy)]
pub enum Kind {
    Levenshtein,
    Lcs,
    Wlcs,
    /// WLCS with any weight function: `alphas` holds its increments f(k + 1) - f(k), the
    /// last one repeated for longer runs
    WlcsTable,
    WlcsRouge155,
}

impl Kind {
    /// The programme named `kind` (`levenshtein`, `lcs`, `wlcs`, `wlcs-table`,
    /// `wlcs-rouge155`), checked against its table `alphas`.
    pub fn parse(kind: &str, alphas: &[f64]) -> Checked<Kind> {
        let kind = match kind {
            "levenshtein" => Kind::Levenshtein,
            "lcs" => Kind::Lcs,
            "wlcs" => Kind::Wlcs,
            "wlcs-table" => Kind::WlcsTable,
            "wlcs-rouge155" => Kind::WlcsRouge155,
            other => return Err(InputError(format!("unknown programme {other:?}"))),
        };
        if let Kind::WlcsTable = kind {
            ensure(
                !alphas.is_empty() && alphas.iter().all(|x| x.is_finite()),
                || "wlcs-table needs a non-empty table of finite increments".into(),
            )?;
        }
        Ok(kind)
    }

    /// The number of values per (candidate, reference).
    pub fn n_out(self, alphas: &[f64]) -> usize {
        match self {
            Kind::Wlcs | Kind::WlcsRouge155 => alphas.len(),
            _ => 1,
        }
    }
}

/// One value per (candidate, reference[, alpha]): `(P, R, n_out)` flat, NaN where the
/// reference is missing.
pub fn per_ref(pairs: &Pairs, kind: Kind, alphas: &[f64]) -> Vec<f64> {
    let n_refs = pairs.n_refs();
    let n_out = kind.n_out(alphas);
    let width = n_refs * n_out;
    let mut out = vec![f64::NAN; pairs.len() * width];
    let cols = pairs.max_hyp().max(pairs.max_ref()) + 1;
    let incs: Vec<Vec<f64>> = match kind {
        Kind::Wlcs => alphas.iter().map(|&a| increments(a, cols)).collect(),
        Kind::WlcsTable => vec![extended(alphas, cols)],
        _ => Vec::new(),
    };
    let vocab = match kind {
        Kind::Lcs => vocab_bound(pairs.hyp).max(vocab_bound(pairs.refs)),
        _ => 0,
    };
    let q_n = incs.len().clamp(1, MULTI_MAX);
    let parts: Vec<(usize, Vec<f64>)> = incs.chunks(MULTI_MAX).map(interleaved).collect();
    par_rows(
        &mut out,
        width,
        || {
            (
                vec![0i64; cols],
                vec![0.0f64; cols * q_n],
                LcsBits::new(vocab),
                (vec![0.0f64; cols * q_n], vec![0i64; cols]),
            )
        },
        |(row, c_row, bits, (c2, w2)), p, o| {
            let hyp = pairs.hyp_row(p);
            for k in 0..n_refs {
                let Some(r) = pairs.ref_row(p, k) else {
                    continue;
                };
                let o = &mut o[k * n_out..(k + 1) * n_out];
                match kind {
                    Kind::Levenshtein => o[0] = edit::table(hyp, r, row) as f64,
                    Kind::Lcs => o[0] = bits.lcs(r, hyp) as f64,
                    Kind::Wlcs if incs.len() > 1 => {
                        for (part, (n, inc)) in parts.iter().enumerate() {
                            let at = part * MULTI_MAX;
                            let out = &mut o[at..at + n];
                            let prev = (&mut c_row[..], &mut row[..]);
                            let cur = (&mut c2[..], &mut w2[..]);
                            wlcs_multi(r, hyp, (*n, inc), prev, cur, out);
                        }
                    }
                    Kind::Wlcs | Kind::WlcsTable => {
                        for (q, inc) in incs.iter().enumerate() {
                            o[q] = wlcs(r, hyp, inc, c_row, row);
                        }
                    }
                    Kind::WlcsRouge155 => {
                        for (q, &alpha) in alphas.iter().enumerate() {
                            o[q] = wlcs_rouge155(r, hyp, alpha);
                        }
                    }
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

    fn letters(s: &str) -> Vec<i32> {
        s.bytes().map(i32::from).collect()
    }

    #[test]
    fn lcs_of_the_rouge_paper() {
        // police killed the gunman / police kill the gunman / the gunman kill police
        let o = Owned::parallel(
            &[&[0, 4, 2, 3], &[2, 3, 4, 0]],
            &[&[&[0, 1, 2, 3]], &[&[0, 1, 2, 3]]],
        );
        assert_eq!(per_ref(&o.pairs(), Kind::Lcs, &[]), vec![3.0, 2.0]);
    }

    #[test]
    fn wlcs_of_the_orange_paper() {
        // X = ABCDEFG; Y1 = ABCDHIK: one run of 4, f(4) = 16; Y2 = AHBKCID: four runs of 1
        let x = letters("ABCDEFG");
        let (y1, y2) = (letters("ABCDHIK"), letters("AHBKCID"));
        let o = Owned::parallel(&[&y1, &y2], &[&[&x], &[&x]]);
        let out = per_ref(&o.pairs(), Kind::Wlcs, &[2.0, 1.0]);
        assert_eq!(out, vec![16.0, 4.0, 4.0, 4.0]);
        // f(k) = 2k - 1 by its increments [1, 2]: f(4) = 7
        assert_eq!(per_ref(&o.pairs(), Kind::WlcsTable, &[1.0, 2.0])[0], 7.0);
    }

    #[test]
    fn several_weights_in_one_pass_equal_one_pass_each() {
        // a small deterministic generator: words from a 4-word vocabulary, lengths 0..12
        let mut state = 12345u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let alphas: Vec<f64> = (0..20).map(|q| 1.0 + 0.1 * q as f64).collect();
        for _ in 0..300 {
            let a: Vec<i32> = (0..next(12)).map(|_| next(4) as i32).collect();
            let b: Vec<i32> = (0..next(12)).map(|_| next(4) as i32).collect();
            let o = Owned::parallel(&[&b], &[&[&a]]);
            let fused = per_ref(&o.pairs(), Kind::Wlcs, &alphas);
            for (q, &alpha) in alphas.iter().enumerate() {
                let one = per_ref(&o.pairs(), Kind::Wlcs, &[alpha]);
                assert_eq!(
                    fused[q].to_bits(),
                    one[0].to_bits(),
                    "{a:?} {b:?} alpha {alpha}"
                );
            }
        }
    }

    #[test]
    fn rouge155_hit_counts_runs_in_the_reference() {
        // reference ABCDEFG, candidate AHBKCID: a b c d consecutive in the reference: f(4)
        let (x, y) = (letters("ABCDEFG"), letters("AHBKCID"));
        let o = Owned::parallel(&[&y, &x], &[&[&x], &[&y]]);
        assert_eq!(
            per_ref(&o.pairs(), Kind::WlcsRouge155, &[2.0]),
            vec![16.0, 4.0]
        );
    }

    #[test]
    fn levenshtein_and_programme_names() {
        let o = Owned::parallel(&[&letters("kitten")], &[&[&letters("sitting")]]);
        assert_eq!(per_ref(&o.pairs(), Kind::Levenshtein, &[]), vec![3.0]);
        assert!(Kind::parse("nope", &[]).is_err());
        assert!(Kind::parse("wlcs-table", &[]).is_err());
        assert!(Kind::parse("wlcs-table", &[1.0, f64::NAN]).is_err());
        assert_eq!(
            Kind::parse("wlcs", &[1.0, 2.0]).unwrap().n_out(&[1.0, 2.0]),
            2
        );
        assert_eq!(
            Kind::parse("lcs", &[1.0, 2.0]).unwrap().n_out(&[1.0, 2.0]),
            1
        );
    }
}
