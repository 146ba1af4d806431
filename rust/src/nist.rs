//! NIST's information-weighted n-gram matches, as NLTK computes them; the method is
//! described in `mtpalette/kernels/nist.py`. Matched n-grams are summed in first-occurrence
//! order, as NLTK's Counter intersection, so sums and ties come out bit for bit as NLTK's.

use crate::error::{ensure, Checked};
use crate::grid::Grid;
use crate::pairs::{check_offsets, longest_row};
use crate::parallel::par_rows;
use crate::table::slot;

pub struct NistInput<'a> {
    pub ids: Grid<'a, i64>,
    pub prefix: Grid<'a, i64>,
    pub info: Grid<'a, f64>,
    pub off: &'a [i64],
    pub seg: &'a [i64],
    pub mask: Grid<'a, bool>,
    pub n_hyp: usize,
    /// ORANGE's leave-one-out: one set of statistics per held-out reference `k`, with the
    /// information of rows `k * max_n ..` of `info` (the references but `k`'s), each as a
    /// pass without reference `k` would give it
    pub leave_out: bool,
}

impl NistInput<'_> {
    /// The number of sets of statistics per candidate: one, or one per held-out reference.
    pub fn variants(&self) -> usize {
        if self.leave_out {
            self.mask.dim().0
        } else {
            1
        }
    }

    /// Checks that the rows, segments and n-gram ids fit together.
    fn check(&self) -> Checked<()> {
        let (max_n, n_tok) = self.ids.dim();
        check_offsets(self.off, n_tok, "off")?;
        let (n_refs, n_seg) = self.mask.dim();
        ensure(
            self.off.len() == self.n_hyp + n_refs * n_seg + 1 && self.seg.len() == self.n_hyp,
            || "nist_stats: rows do not match n_hyp and the mask".into(),
        )?;
        ensure(
            self.seg.iter().all(|&s| s >= 0 && (s as usize) < n_seg),
            || "seg: segment number out of range".into(),
        )?;
        let n_ids = self.info.dim().1;
        ensure(
            self.prefix.dim() == (max_n, n_ids) && self.info.dim().0 == max_n * self.variants(),
            || {
                "nist_stats: prefix must be (max_n, number of n-gram ids), info (max_n, ...) or, \
                 leaving references out, (n_refs * max_n, ...)"
                    .into()
            },
        )?;
        ensure(
            (0..max_n).all(|n| self.ids.row(n).iter().all(|&g| g >= -1 && g < n_ids as i64)),
            || "nist_stats: n-gram id out of range".into(),
        )
    }
}

struct Scratch {
    keys: Vec<i64>,
    vals: Vec<usize>,
    prev_keys: Vec<i64>,
    prev_vals: Vec<usize>,
    glob: Vec<i64>,
    hcount: Vec<i64>,
    seg_count: Vec<i64>,
    prev_seg: Vec<i64>,
    /// each present reference's count of every local id (`slot * max_h + id`), this order's
    /// and the previous order's
    rcount: Vec<i64>,
    prev_rcount: Vec<i64>,
    /// the segment information weight of each local id (one held-out reference's)
    weight: Vec<f64>,
    used: Vec<usize>,
    prev_used: Vec<usize>,
}

/// Python's `math.log(numer / denom, 2)`: two natural logs.
#[inline]
pub fn log2_ratio(numer: f64, denom: f64) -> f64 {
    (numer / denom).ln() / 2f64.ln()
}

/// The information weight of every n-gram id: `log2(numer[g] / counts[g])`, 0 where the
/// count is 0; each as Python's `math.log(x, 2)` (two natural logs of the C library's
/// `log`, as NLTK), bit for bit.
pub fn corpus_information(counts: &[i64], numer: &[f64]) -> Checked<Vec<f64>> {
    ensure(counts.len() == numer.len(), || {
        "corpus_information: one numerator per count expected".into()
    })?;
    Ok(counts
        .iter()
        .zip(numer)
        .map(|(&c, &x)| if c > 0 { log2_ratio(x, c as f64) } else { 0.0 })
        .collect())
}

/// Lexicographic `a > b`, as Python compares tuples of floats.
fn tuple_gt(a: &[f64; 4], b: &[f64; 4]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x > y;
        }
    }
    false
}

/// Adds to `counts[local id]` every order-`n` n-gram of row `r` that the candidate has.
fn count_in_row(
    inp: &NistInput,
    n: usize,
    r: usize,
    keys: &[i64],
    vals: &[usize],
    counts: &mut [i64],
) {
    for t in inp.off[r] as usize..inp.off[r + 1] as usize {
        let g = inp.ids[[n, t]];
        if g >= 0 {
            let q = slot(keys, g);
            if keys[q] != -1 {
                counts[vals[q]] += 1;
            }
        }
    }
}

fn candidate(s: &mut Scratch, inp: &NistInput, p: usize, max_h: usize, out: &mut [f64]) {
    let max_n = inp.ids.dim().0;
    let (n_refs, n_seg) = inp.mask.dim();
    let sg = inp.seg[p] as usize;
    let h0 = inp.off[p] as usize;
    let h1 = inp.off[p + 1] as usize;
    // the present references (index, row)
    let rows: Vec<(usize, usize)> = (0..n_refs)
        .filter(|&k| inp.mask[[k, sg]])
        .map(|k| (k, inp.n_hyp + k * n_seg + sg))
        .collect();
    let words = |r: usize| inp.off[r + 1] - inp.off[r];
    let seg_words: i64 = rows.iter().map(|&(_, r)| words(r)).sum();
    let mut n_prev = 0;
    for n in 0..max_n {
        let mut n_loc = 0;
        let mut den = 0i64;
        for t in h0..h1 {
            let g = inp.ids[[n, t]];
            if g < 0 {
                continue;
            }
            den += 1;
            let q = slot(&s.keys, g);
            if s.keys[q] == -1 {
                s.keys[q] = g;
                s.vals[q] = n_loc;
                s.used[n_loc] = q;
                s.glob[n_loc] = g;
                n_loc += 1;
            }
            s.hcount[s.vals[q]] += 1;
        }
        for (i, &(_, r)) in rows.iter().enumerate() {
            let counts = &mut s.rcount[i * max_h..(i + 1) * max_h];
            count_in_row(inp, n, r, &s.keys, &s.vals, counts);
            for a in 0..n_loc {
                s.seg_count[a] += counts[a];
            }
        }
        for v in 0..inp.variants() {
            // the slot of the held-out reference among the present ones (none: all count)
            let held = if inp.leave_out {
                rows.iter().position(|&(k, _)| k == v)
            } else {
                None
            };
            let minus = |counts: &[i64], a: usize| held.map_or(0, |d| counts[d * max_h + a]);
            let words_v = seg_words - held.map_or(0, |d| words(rows[d].1));
            // the segment weight of each local n-gram, once for all the references (the
            // same operands, so the same value, as computed at each match)
            for a in 0..n_loc {
                let seg = s.seg_count[a] - minus(&s.rcount, a);
                s.weight[a] = if seg > 0 {
                    let numer = if n == 0 {
                        words_v
                    } else {
                        let g = s.glob[a] as usize;
                        let pa = s.prev_vals[slot(&s.prev_keys, inp.prefix[[n, g]])];
                        s.prev_seg[pa] - minus(&s.prev_rcount, pa)
                    };
                    log2_ratio(numer as f64, seg as f64)
                } else {
                    0.0
                };
            }
            let mut best_c = [-1.0f64; 4];
            let mut best_s = [-1.0f64; 4];
            for (i, &(_, r)) in rows.iter().enumerate() {
                if Some(i) == held {
                    continue;
                }
                let counts = &s.rcount[i * max_h..(i + 1) * max_h];
                let mut num_c = 0.0;
                let mut num_s = 0.0;
                for a in 0..n_loc {
                    if counts[a] == 0 {
                        continue;
                    }
                    let m = s.hcount[a].min(counts[a]);
                    let g = s.glob[a] as usize;
                    num_c += inp.info[[v * max_n + n, g]] * m as f64;
                    num_s += s.weight[a] * m as f64;
                }
                let ref_len = words(r) as f64;
                let d = den as f64;
                let prec_c = if den > 0 { num_c / d } else { 0.0 };
                let prec_s = if den > 0 { num_s / d } else { 0.0 };
                let cand_c = [prec_c, num_c, d, ref_len];
                let cand_s = [prec_s, num_s, d, ref_len];
                if tuple_gt(&cand_c, &best_c) {
                    best_c = cand_c;
                }
                if tuple_gt(&cand_s, &best_s) {
                    best_s = cand_s;
                }
            }
            let o = &mut out[v * 5 * max_n..(v + 1) * 5 * max_n];
            o[n] = best_c[1];
            o[max_n + n] = best_c[3];
            o[2 * max_n + n] = best_s[1];
            o[3 * max_n + n] = best_s[3];
            o[4 * max_n + n] = den as f64;
        }
        // this order's table becomes the previous one (same keys inserted in the same
        // order: the same slots); the old previous one is cleared
        for a in 0..n_prev {
            s.prev_keys[s.prev_used[a]] = -1;
        }
        for a in 0..n_loc {
            let q = s.used[a];
            s.prev_keys[q] = s.keys[q];
            s.prev_vals[q] = a;
            s.prev_seg[a] = s.seg_count[a];
            s.prev_used[a] = q;
            s.keys[q] = -1;
            s.hcount[a] = 0;
            s.seg_count[a] = 0;
        }
        for i in 0..rows.len() {
            let (now, before) = (
                &mut s.rcount[i * max_h..i * max_h + n_loc],
                &mut s.prev_rcount[i * max_h..i * max_h + n_loc],
            );
            before.copy_from_slice(now);
            now.fill(0);
        }
        n_prev = n_loc;
    }
    for a in 0..n_prev {
        s.prev_keys[s.prev_used[a]] = -1;
    }
}

/// `(n_hyp, 5 * max_n)` NIST statistics, flat (see `nist_kernel` in Python); leaving
/// references out, `(n_hyp, n_refs, 5 * max_n)`.
pub fn nist_stats(inp: &NistInput) -> Checked<Vec<f64>> {
    inp.check()?;
    let max_n = inp.ids.dim().0;
    let width = 5 * max_n * inp.variants();
    let n_refs = inp.mask.dim().0;
    let mut out = vec![0.0; inp.n_hyp * width];
    let max_h = longest_row(&inp.off[..=inp.n_hyp]).max(1);
    let size = (2 * max_h).next_power_of_two();
    par_rows(
        &mut out,
        width,
        || Scratch {
            keys: vec![-1; size],
            vals: vec![0; size],
            prev_keys: vec![-1; size],
            prev_vals: vec![0; size],
            glob: vec![0; max_h],
            hcount: vec![0; max_h],
            seg_count: vec![0; max_h],
            prev_seg: vec![0; max_h],
            rcount: vec![0; max_h * n_refs],
            prev_rcount: vec![0; max_h * n_refs],
            weight: vec![0.0; max_h],
            used: vec![0; max_h],
            prev_used: vec![0; max_h],
        },
        |s, p, row| candidate(s, inp, p, max_h, row),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn information_weights_and_zero_counts() {
        let info = corpus_information(&[2, 0, 1, 3], &[4.0, 4.0, 2.0, 10.0]).unwrap();
        assert_eq!(&info[..3], &[1.0, 0.0, 1.0]);
        assert_eq!(info[3], (10.0f64 / 3.0).ln() / 2f64.ln());
        assert!(corpus_information(&[1], &[]).is_err());
    }

    #[test]
    fn two_words_against_three() {
        // candidate "a b" (ids 0 1), one reference "a b c" (0 1 2), orders 1-2 (the doctest
        // of kernels/nist.py): unigrams weigh log2(3 / 1) each, bigram "a b" log2(1 / 1)
        let ids = [0, 1, 0, 1, 2, 0, -1, 0, 1, -1];
        let prefix = [-1, -1, -1, 0, 1, -1];
        let l3 = 3f64.log2();
        let info = [l3, l3, l3, 0.0, 0.0, 0.0];
        let mask = [true];
        let inp = NistInput {
            ids: Grid::new(&ids, 2, 5, "ids").unwrap(),
            prefix: Grid::new(&prefix, 2, 3, "prefix").unwrap(),
            info: Grid::new(&info, 2, 3, "info").unwrap(),
            off: &[0, 2, 5],
            seg: &[0],
            mask: Grid::new(&mask, 1, 1, "mask").unwrap(),
            n_hyp: 1,
            leave_out: false,
        };
        let out = nist_stats(&inp).unwrap();
        let want = [2.0 * l3, 0.0, 3.0, 3.0, 2.0 * l3, 0.0, 3.0, 3.0, 2.0, 1.0];
        for (g, w) in out.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{out:?}");
        }
        // an n-gram id past the weights, or rows that do not match the mask, are refused
        let bad = [0, 1, 0, 1, 3, 0, -1, 0, 1, -1];
        let inp2 = NistInput {
            ids: Grid::new(&bad, 2, 5, "ids").unwrap(),
            ..inp
        };
        assert!(nist_stats(&inp2).is_err());
        let inp3 = NistInput { n_hyp: 2, ..inp };
        assert!(nist_stats(&inp3).is_err());
    }

    #[test]
    fn python_log2_and_tuple_order() {
        assert_eq!(log2_ratio(8.0, 2.0), 2.0);
        assert!(tuple_gt(&[1.0, 2.0, 0.0, 0.0], &[1.0, 1.0, 9.0, 9.0]));
        assert!(!tuple_gt(&[1.0; 4], &[1.0; 4]));
    }
}
