//! ACS, all common skip-n-grams (Lita, Rogati and Lavie 2005), by the decaying grid
//! recurrence described in `mtpalette/kernels/acs.py`: O(m n) per size, exact.

use rayon::prelude::*;

#[derive(Default)]
struct Work {
    prev: Vec<f64>,
    cur: Vec<f64>,
    hs: Vec<f64>,
    u_prev: Vec<f64>,
    u_cur: Vec<f64>,
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
    w.prev.clear();
    w.prev.resize(m * n, 0.0);
    w.cur.clear();
    w.cur.resize(m * n, 0.0);
    for buf in [&mut w.hs, &mut w.u_prev, &mut w.u_cur] {
        buf.clear();
        buf.resize(n, 0.0);
    }
    let mut total = 0.0;
    for i in 0..m {
        for j in 0..n {
            let hit = if b[j] == a[i] { 1.0 } else { 0.0 };
            w.prev[i * n + j] = hit;
            total += hit;
        }
    }
    out[0] = total;
    let top = kmax.min(m).min(n);
    for k in 1..top {
        w.hs.fill(0.0);
        w.u_prev.fill(0.0);
        let mut total = 0.0;
        for (i, &x) in a.iter().enumerate() {
            let prow = &w.prev[i * n..(i + 1) * n];
            let crow = &mut w.cur[i * n..(i + 1) * n];
            let mut vs = 0.0;
            let mut diag = 0.0; // u_prev[j - 1]
            let cells = prow.iter().zip(crow.iter_mut()).zip(w.hs.iter_mut());
            let ups = w.u_cur.iter_mut().zip(w.u_prev.iter()).zip(b.iter());
            for (((&f, c), hs), ((uc, &up), &bj)) in cells.zip(ups) {
                *hs = f + h * *hs;
                vs = f + v * vs;
                *uc = *hs + vs - f + d * diag;
                if bj == x && diag != 0.0 {
                    *c = diag;
                    total += diag;
                } else {
                    *c = 0.0;
                }
                diag = up;
            }
            std::mem::swap(&mut w.u_prev, &mut w.u_cur);
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
) -> Vec<f64> {
    let mut out = vec![0.0; pa.len() * kmax];
    if kmax == 0 {
        return out;
    }
    out.par_chunks_mut(kmax)
        .enumerate()
        .for_each_init(Work::default, |w, (p, o)| {
            acs_pair(a.row(pa[p] as usize), b.row(pb[p] as usize), d, h, v, o, w);
        });
    out
}
