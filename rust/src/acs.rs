//! ACS, all common skip-n-grams (Lita, Rogati and Lavie 2005), by the decaying grid
//! recurrence described in `mtpalette/kernels/acs.py`: O(m n) per size, exact.

use crate::error::{ensure, Checked};
use crate::pairs::{check_offsets, check_rows};
use crate::parallel::par_rows;

#[derive(Default)]
struct Work {
    prev: Vec<f64>,
    cur: Vec<f64>,
    hs: Vec<f64>,
    u_prev: Vec<f64>,
    u_cur: Vec<f64>,
    u_next: Vec<f64>,
}

/// The decay factors of one step: diagonal, candidate-only and reference-only moves.
#[derive(Clone, Copy)]
struct Factors {
    d: f64,
    h: f64,
    v: f64,
}

/// One cell of the recurrence: updates the column sum `hs` and the row sum `vs`, returns
/// `(U, count)` where count is `diag` at a match with a nonzero `diag`, else 0.
#[inline(always)]
fn cell(f: f64, hs: &mut f64, vs: &mut f64, diag: f64, hit: bool, k: Factors) -> (f64, f64) {
    *hs = f + k.h * *hs;
    *vs = f + k.v * *vs;
    let u = *hs + *vs - f + k.d * diag;
    (u, if hit && diag != 0.0 { diag } else { 0.0 })
}

/// Rows `A` and `B` (the next one) of one size at once, `B` one column behind `A`: each
/// row's running sum `vs` is a serial chain, and two chains side by side run about twice as
/// fast. Every cell gets the same operations on the same values as one row at a time.
#[allow(clippy::too_many_arguments)]
fn two_rows(
    (xa, xb): (i32, i32),
    b: &[i32],
    (pa, pb): (&[f64], &[f64]),
    (ca, cb): (&mut [f64], &mut [f64]),
    hs: &mut [f64],
    u_prev: &[f64],
    (u_a, u_b): (&mut [f64], &mut [f64]),
    k: Factors,
) {
    let n = b.len();
    let (pa, pb, ca, cb) = (&pa[..n], &pb[..n], &mut ca[..n], &mut cb[..n]);
    let (hs, u_prev, u_a, u_b) = (&mut hs[..n], &u_prev[..n], &mut u_a[..n], &mut u_b[..n]);
    let (mut vs_a, mut vs_b) = (0.0, 0.0);
    (u_a[0], ca[0]) = cell(pa[0], &mut hs[0], &mut vs_a, 0.0, b[0] == xa, k);
    for j in 1..n {
        (u_a[j], ca[j]) = cell(pa[j], &mut hs[j], &mut vs_a, u_prev[j - 1], b[j] == xa, k);
        let jb = j - 1;
        let diag = if jb > 0 { u_a[jb - 1] } else { 0.0 };
        (u_b[jb], cb[jb]) = cell(pb[jb], &mut hs[jb], &mut vs_b, diag, b[jb] == xb, k);
    }
    let jb = n - 1;
    let diag = if jb > 0 { u_a[jb - 1] } else { 0.0 };
    (u_b[jb], cb[jb]) = cell(pb[jb], &mut hs[jb], &mut vs_b, diag, b[jb] == xb, k);
}

/// W_1..W_kmax of one pair into `out`.
#[allow(clippy::too_many_arguments)]
fn acs_pair(a: &[i32], b: &[i32], d: f64, h: f64, v: f64, out: &mut [f64], w: &mut Work) {
    let kmax = out.len();
    out.fill(0.0);
    let (m, n) = (a.len(), b.len());
    if m == 0 || n == 0 || kmax == 0 {
        return;
    }
    // every cell of prev and cur is written before it is read: grow only, no clearing
    for (buf, len) in [(&mut w.prev, m * n), (&mut w.cur, m * n)] {
        if buf.len() < len {
            buf.resize(len, 0.0);
        }
    }
    for buf in [&mut w.hs, &mut w.u_prev, &mut w.u_cur, &mut w.u_next] {
        buf.clear();
        buf.resize(n, 0.0);
    }
    let mut hits = 0usize; // W_1 is a count: summed as an integer, no float chain
    for (i, &x) in a.iter().enumerate() {
        for (p, &y) in w.prev[i * n..(i + 1) * n].iter_mut().zip(b) {
            let hit = y == x;
            *p = if hit { 1.0 } else { 0.0 };
            hits += hit as usize;
        }
    }
    out[0] = hits as f64;
    let factors = Factors { d, h, v };
    let top = kmax.min(m).min(n);
    for k in 1..top {
        w.hs.fill(0.0);
        w.u_prev.fill(0.0);
        let mut total = 0.0;
        let mut i = 0;
        while i < m {
            if i + 1 < m {
                let (done, rest) = w.cur.split_at_mut((i + 1) * n);
                two_rows(
                    (a[i], a[i + 1]),
                    b,
                    (
                        &w.prev[i * n..(i + 1) * n],
                        &w.prev[(i + 1) * n..(i + 2) * n],
                    ),
                    (&mut done[i * n..], &mut rest[..n]),
                    &mut w.hs,
                    &w.u_prev,
                    (&mut w.u_cur, &mut w.u_next),
                    factors,
                );
                // the counts in row order: zeros add nothing, so the sum is the serial one
                for r in [i, i + 1] {
                    for (j, &bj) in b.iter().enumerate() {
                        if bj == a[r] {
                            total += w.cur[r * n + j];
                        }
                    }
                }
                std::mem::swap(&mut w.u_prev, &mut w.u_next);
                i += 2;
                continue;
            }
            let x = a[i];
            let crow = &mut w.cur[i * n..(i + 1) * n];
            let (mut vs, mut diag) = (0.0, 0.0); // diag: u_prev[j - 1]
            for j in 0..n {
                let (u, c) = cell(
                    w.prev[i * n + j],
                    &mut w.hs[j],
                    &mut vs,
                    diag,
                    b[j] == x,
                    factors,
                );
                w.u_cur[j] = u;
                crow[j] = c;
                if c != 0.0 {
                    total += c;
                }
                diag = w.u_prev[j];
            }
            std::mem::swap(&mut w.u_prev, &mut w.u_cur);
            i += 1;
        }
        out[k] = total;
        if total == 0.0 {
            break;
        }
        std::mem::swap(&mut w.prev, &mut w.cur);
    }
}

/// Rows of a ragged array.
pub struct Rows<'a> {
    pub ids: &'a [i32],
    pub off: &'a [i64],
}

impl Rows<'_> {
    fn row(&self, r: usize) -> &[i32] {
        &self.ids[self.off[r] as usize..self.off[r + 1] as usize]
    }
}

/// `(P, kmax)` flat: W_k of rows `pa[p]` of `a` and `pb[p]` of `b`.
#[allow(clippy::too_many_arguments)]
pub fn acs_counts(
    a: &Rows,
    b: &Rows,
    pa: &[i64],
    pb: &[i64],
    d: f64,
    h: f64,
    v: f64,
    kmax: usize,
) -> Checked<Vec<f64>> {
    check_offsets(a.off, a.ids.len(), "a")?;
    check_offsets(b.off, b.ids.len(), "b")?;
    ensure(pa.len() == pb.len(), || {
        "acs_counts: pa and pb differ in length".into()
    })?;
    check_rows(pa, a.off.len() - 1, "acs_counts: pa")?;
    check_rows(pb, b.off.len() - 1, "acs_counts: pb")?;
    let mut out = vec![0.0; pa.len() * kmax];
    if kmax == 0 {
        return Ok(out);
    }
    par_rows(&mut out, kmax, Work::default, |w, p, o| {
        acs_pair(a.row(pa[p] as usize), b.row(pb[p] as usize), d, h, v, o, w);
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows<'a>(ids: &'a [i32], off: &'a [i64]) -> Rows<'a> {
        Rows { ids, off }
    }

    #[test]
    fn common_skip_ngrams_of_to_be_or_not_to_be() {
        // "to be or not to be" against "to exist or not be", no decay (the doctest of
        // kernels/acs.py)
        let (x, y) = ([1, 2, 3, 4, 1, 2], [1, 5, 3, 4, 2]);
        let (a, b) = (rows(&x, &[0, 6]), rows(&y, &[0, 5]));
        let out = acs_counts(&a, &b, &[0], &[0], 1.0, 1.0, 1.0, 5).unwrap();
        assert_eq!(out, vec![6.0, 8.0, 4.0, 1.0, 0.0]);
    }

    #[test]
    fn a_sentence_with_itself_counts_its_skip_ngrams() {
        // six distinct words: C(6, k) skip-k-grams (DESIGN.md: 15 skip-bigrams)
        let x = [0, 1, 2, 3, 4, 5];
        let a = rows(&x, &[0, 6]);
        let out = acs_counts(&a, &a, &[0], &[0], 1.0, 1.0, 1.0, 6).unwrap();
        assert_eq!(out, vec![6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
        // gaps decayed to nothing (d tiny, h = v = 0): only contiguous chains, the n-grams
        let out = acs_counts(&a, &a, &[0], &[0], 1e-300, 0.0, 0.0, 3).unwrap();
        assert_eq!(out, vec![6.0, 5.0, 4.0]);
    }

    #[test]
    fn rows_out_of_range_are_refused() {
        let x = [1, 2];
        let a = rows(&x, &[0, 2]);
        assert!(acs_counts(&a, &a, &[1], &[0], 1.0, 1.0, 1.0, 2).is_err());
        assert!(acs_counts(&a, &a, &[0, 0], &[0], 1.0, 1.0, 1.0, 2).is_err());
    }
}
