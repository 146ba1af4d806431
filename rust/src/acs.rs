//! ACS, all common skip-n-grams (Lita, Rogati and Lavie 2005), by the decaying grid
//! recurrence described in `mtpalette/kernels/acs.py`: O(m n) per size, exact.
//!
//! A match (node) has a weight: 1 where the words are equal (plain ACS), or, with POS tags,
//! the paper's exponential feature model per matched position (eq. 6): 1 where words and tags
//! agree, `word_only` where the words agree and the tags do not, `tag_only` where only the
//! tags agree, 0 elsewhere. A chain weighs the product of its steps and of its nodes.

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

/// The weight of the match of candidate position `i` with reference position `j` (0: none).
trait Nodes: Sync {
    fn weight(&self, i: usize, j: usize) -> f64;
}

/// Plain ACS: a match is two equal words, weight 1.
struct Words<'a> {
    a: &'a [i32],
    b: &'a [i32],
}

impl Nodes for Words<'_> {
    #[inline(always)]
    fn weight(&self, i: usize, j: usize) -> f64 {
        if self.a[i] == self.b[j] {
            1.0
        } else {
            0.0
        }
    }
}

/// Words and POS tags (aligned with the words), weighted as the module comment says.
struct Tagged<'a> {
    a: &'a [i32],
    b: &'a [i32],
    ta: &'a [i32],
    tb: &'a [i32],
    w: NodeWeights,
}

/// The weights of a position where only the tags agree, and where only the words agree.
#[derive(Clone, Copy)]
pub struct NodeWeights {
    pub tag_only: f64,
    pub word_only: f64,
}

impl Nodes for Tagged<'_> {
    #[inline(always)]
    fn weight(&self, i: usize, j: usize) -> f64 {
        match (self.a[i] == self.b[j], self.ta[i] == self.tb[j]) {
            (true, true) => 1.0,
            (true, false) => self.w.word_only,
            (false, true) => self.w.tag_only,
            (false, false) => 0.0,
        }
    }
}

/// Node weights computed once per pair (the tagged case: every pass reads one number per
/// cell instead of comparing words and tags again).
struct Dense<'a> {
    node: &'a [f64],
    n: usize,
}

impl Nodes for Dense<'_> {
    #[inline(always)]
    fn weight(&self, i: usize, j: usize) -> f64 {
        self.node[i * self.n + j]
    }
}

/// One cell of the recurrence: updates the column sum `hs` and the row sum `vs`, returns
/// `(U, count)` where count is `node * diag` at a match (node weight > 0), else 0.
#[inline(always)]
fn cell(f: f64, hs: &mut f64, vs: &mut f64, diag: f64, node: f64, k: Factors) -> (f64, f64) {
    *hs = f + k.h * *hs;
    *vs = f + k.v * *vs;
    let u = *hs + *vs - f + k.d * diag;
    (
        u,
        if node != 0.0 && diag != 0.0 {
            node * diag
        } else {
            0.0
        },
    )
}

/// Rows `A` and `B` (the next one) of one size at once, `B` one column behind `A`: each
/// row's running sum `vs` is a serial chain, and two chains side by side run about twice as
/// fast. Every cell gets the same operations on the same values as one row at a time.
#[allow(clippy::too_many_arguments)]
fn two_rows<N: Nodes>(
    nodes: &N,
    (ia, ib): (usize, usize),
    n: usize,
    (pa, pb): (&[f64], &[f64]),
    (ca, cb): (&mut [f64], &mut [f64]),
    hs: &mut [f64],
    u_prev: &[f64],
    (u_a, u_b): (&mut [f64], &mut [f64]),
    k: Factors,
) {
    let (pa, pb, ca, cb) = (&pa[..n], &pb[..n], &mut ca[..n], &mut cb[..n]);
    let (hs, u_prev, u_a, u_b) = (&mut hs[..n], &u_prev[..n], &mut u_a[..n], &mut u_b[..n]);
    let (mut vs_a, mut vs_b) = (0.0, 0.0);
    (u_a[0], ca[0]) = cell(pa[0], &mut hs[0], &mut vs_a, 0.0, nodes.weight(ia, 0), k);
    for j in 1..n {
        let node = nodes.weight(ia, j);
        (u_a[j], ca[j]) = cell(pa[j], &mut hs[j], &mut vs_a, u_prev[j - 1], node, k);
        let jb = j - 1;
        let diag = if jb > 0 { u_a[jb - 1] } else { 0.0 };
        let node = nodes.weight(ib, jb);
        (u_b[jb], cb[jb]) = cell(pb[jb], &mut hs[jb], &mut vs_b, diag, node, k);
    }
    let jb = n - 1;
    let diag = if jb > 0 { u_a[jb - 1] } else { 0.0 };
    let node = nodes.weight(ib, jb);
    (u_b[jb], cb[jb]) = cell(pb[jb], &mut hs[jb], &mut vs_b, diag, node, k);
}

/// W_1..W_kmax of one pair (`m` candidate and `n` reference positions) into `out`.
#[allow(clippy::too_many_arguments)]
fn acs_pair<N: Nodes>(
    nodes: &N,
    (m, n): (usize, usize),
    d: f64,
    h: f64,
    v: f64,
    out: &mut [f64],
    w: &mut Work,
) {
    let kmax = out.len();
    out.fill(0.0);
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
    let mut hits = 0.0; // W_1: the node weights (a count of 1s, exact, for plain ACS)
    for i in 0..m {
        for (j, p) in w.prev[i * n..(i + 1) * n].iter_mut().enumerate() {
            *p = nodes.weight(i, j);
            hits += *p;
        }
    }
    out[0] = hits;
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
                    nodes,
                    (i, i + 1),
                    n,
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
                    for j in 0..n {
                        if nodes.weight(r, j) != 0.0 {
                            total += w.cur[r * n + j];
                        }
                    }
                }
                std::mem::swap(&mut w.u_prev, &mut w.u_next);
                i += 2;
                continue;
            }
            let crow = &mut w.cur[i * n..(i + 1) * n];
            let (mut vs, mut diag) = (0.0, 0.0); // diag: u_prev[j - 1]
            for j in 0..n {
                let (u, c) = cell(
                    w.prev[i * n + j],
                    &mut w.hs[j],
                    &mut vs,
                    diag,
                    nodes.weight(i, j),
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

/// POS tags aligned with the words of `a` and `b` (same offsets), and the node weights.
pub struct Tags<'a> {
    pub a: &'a [i32],
    pub b: &'a [i32],
    pub weights: NodeWeights,
}

/// `(P, kmax)` flat: W_k of rows `pa[p]` of `a` and `pb[p]` of `b`; with `tags`, the
/// matches are weighted by their words and tags (see the module comment).
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
    tags: Option<&Tags>,
) -> Checked<Vec<f64>> {
    check_offsets(a.off, a.ids.len(), "a")?;
    check_offsets(b.off, b.ids.len(), "b")?;
    ensure(pa.len() == pb.len(), || {
        "acs_counts: pa and pb differ in length".into()
    })?;
    check_rows(pa, a.off.len() - 1, "acs_counts: pa")?;
    check_rows(pb, b.off.len() - 1, "acs_counts: pb")?;
    if let Some(t) = tags {
        ensure(t.a.len() == a.ids.len() && t.b.len() == b.ids.len(), || {
            "acs_counts: the tags must be aligned with the words".into()
        })?;
    }
    let mut out = vec![0.0; pa.len() * kmax];
    if kmax == 0 {
        return Ok(out);
    }
    let init = || (Work::default(), Vec::<f64>::new());
    par_rows(&mut out, kmax, init, |(w, dense), p, o| {
        let (ra, rb) = (pa[p] as usize, pb[p] as usize);
        let (x, y) = (a.row(ra), b.row(rb));
        let size = (x.len(), y.len());
        match tags {
            None => acs_pair(&Words { a: x, b: y }, size, d, h, v, o, w),
            Some(t) => {
                let ta = &t.a[a.off[ra] as usize..a.off[ra + 1] as usize];
                let tb = &t.b[b.off[rb] as usize..b.off[rb + 1] as usize];
                let nodes = Tagged {
                    a: x,
                    b: y,
                    ta,
                    tb,
                    w: t.weights,
                };
                dense.clear();
                for i in 0..size.0 {
                    dense.extend((0..size.1).map(|j| nodes.weight(i, j)));
                }
                let nodes = Dense {
                    node: dense,
                    n: size.1,
                };
                acs_pair(&nodes, size, d, h, v, o, w)
            }
        }
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
        let out = acs_counts(&a, &b, &[0], &[0], 1.0, 1.0, 1.0, 5, None).unwrap();
        assert_eq!(out, vec![6.0, 8.0, 4.0, 1.0, 0.0]);
    }

    #[test]
    fn a_sentence_with_itself_counts_its_skip_ngrams() {
        // six distinct words: C(6, k) skip-k-grams (DESIGN.md: 15 skip-bigrams)
        let x = [0, 1, 2, 3, 4, 5];
        let a = rows(&x, &[0, 6]);
        let out = acs_counts(&a, &a, &[0], &[0], 1.0, 1.0, 1.0, 6, None).unwrap();
        assert_eq!(out, vec![6.0, 15.0, 20.0, 15.0, 6.0, 1.0]);
        // gaps decayed to nothing (d tiny, h = v = 0): only contiguous chains, the n-grams
        let out = acs_counts(&a, &a, &[0], &[0], 1e-300, 0.0, 0.0, 3, None).unwrap();
        assert_eq!(out, vec![6.0, 5.0, 4.0]);
    }

    #[test]
    fn rows_out_of_range_are_refused() {
        let x = [1, 2];
        let a = rows(&x, &[0, 2]);
        assert!(acs_counts(&a, &a, &[1], &[0], 1.0, 1.0, 1.0, 2, None).is_err());
        assert!(acs_counts(&a, &a, &[0, 0], &[0], 1.0, 1.0, 1.0, 2, None).is_err());
    }

    #[test]
    fn tagged_matches_weigh_by_their_features() {
        // "the cat sat" / "a dog sat", tags DET NOUN VERB in both, tag-only matches 1/2
        // (the doctest of kernels/acs.py)
        let (x, y, t) = ([1, 2, 3], [4, 5, 3], [7, 8, 9]);
        let (a, b) = (rows(&x, &[0, 3]), rows(&y, &[0, 3]));
        let weights = NodeWeights {
            tag_only: 0.5,
            word_only: 1.0,
        };
        let tags = Tags {
            a: &t,
            b: &t,
            weights,
        };
        let out = acs_counts(&a, &b, &[0], &[0], 1.0, 1.0, 1.0, 3, Some(&tags)).unwrap();
        assert_eq!(out, vec![2.0, 1.25, 0.25]);
        let short = Tags {
            a: &t[..2],
            b: &t,
            weights,
        };
        assert!(acs_counts(&a, &b, &[0], &[0], 1.0, 1.0, 1.0, 3, Some(&short)).is_err());
    }
}
