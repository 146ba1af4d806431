//! Pair counts for Kendall-type correlations: inversions by a bottom-up merge count,
//! O(n log n), and the O(k^2) enumeration for small groups or tolerant ties; described in
//! `mtpalette/stats/correlation.py`.

/// Bottom-up merge sort of `vals` in place; an element taken from a right run is credited
/// (`out[pos[j]]`) with the elements still waiting in the left run, all strictly larger.
use crate::error::{ensure, Checked};
use crate::pairs::check_offsets;

/// Checks that gold and metric scores pair up and that `offsets` split them into groups.
fn check_groups(g: &[f64], m: &[f64], offsets: &[i64]) -> Checked<()> {
    ensure(g.len() == m.len(), || {
        "gold and metric differ in length".into()
    })?;
    check_offsets(offsets, g.len(), "offsets")
}

pub fn merge_count(vals: &mut [f64], pos: &mut [usize], out: &mut [i64]) {
    let n = vals.len();
    let mut src_v = vals.to_vec();
    let mut src_p = pos.to_vec();
    let mut dst_v = vec![0.0; n];
    let mut dst_p = vec![0usize; n];
    let mut w = 1;
    while w < n {
        let mut lo = 0;
        while lo < n {
            let mid = (lo + w).min(n);
            let hi = (lo + 2 * w).min(n);
            let (mut i, mut j, mut k) = (lo, mid, lo);
            while i < mid && j < hi {
                if src_v[j] < src_v[i] {
                    out[src_p[j]] += (mid - i) as i64;
                    dst_v[k] = src_v[j];
                    dst_p[k] = src_p[j];
                    j += 1;
                } else {
                    dst_v[k] = src_v[i];
                    dst_p[k] = src_p[i];
                    i += 1;
                }
                k += 1;
            }
            dst_v[k..k + mid - i].copy_from_slice(&src_v[i..mid]);
            dst_p[k..k + mid - i].copy_from_slice(&src_p[i..mid]);
            k += mid - i;
            dst_v[k..k + hi - j].copy_from_slice(&src_v[j..hi]);
            dst_p[k..k + hi - j].copy_from_slice(&src_p[j..hi]);
            lo = hi;
        }
        std::mem::swap(&mut src_v, &mut dst_v);
        std::mem::swap(&mut src_p, &mut dst_p);
        w *= 2;
    }
    vals.copy_from_slice(&src_v);
    pos.copy_from_slice(&src_p);
}

/// For each j, the number of i < j with v[i] > v[j].
pub fn inversions_per_element(v: &[f64]) -> Vec<i64> {
    let mut out = vec![0i64; v.len()];
    let mut vals = v.to_vec();
    let mut pos: Vec<usize> = (0..v.len()).collect();
    merge_count(&mut vals, &mut pos, &mut out);
    out
}

/// Sum over runs of equal consecutive values of C(run, 2).
fn tied_pairs(len: usize, same: impl Fn(usize) -> bool) -> i64 {
    let mut ties = 0i64;
    let mut run = 1i64;
    for i in 1..=len {
        if i < len && same(i) {
            run += 1;
        } else {
            ties += run * (run - 1) / 2;
            run = 1;
        }
    }
    ties
}

/// `(G, 5)` flat `[C, D, T_gold, T_metric, T_both]` of every group, rows sorted by
/// (group, gold, metric).
pub fn grouped_counts(g: &[f64], m: &[f64], offsets: &[i64]) -> Checked<Vec<i64>> {
    check_groups(g, m, offsets)?;
    let n_groups = offsets.len() - 1;
    let mut out = vec![0i64; n_groups * 5];
    for k in 0..n_groups {
        let (lo, hi) = (offsets[k] as usize, offsets[k + 1] as usize);
        let size = (hi - lo) as i64;
        let (gs, ms) = (&g[lo..hi], &m[lo..hi]);
        let tie_g = tied_pairs(gs.len(), |i| gs[i] == gs[i - 1]);
        let tie_b = tied_pairs(gs.len(), |i| gs[i] == gs[i - 1] && ms[i] == ms[i - 1]);
        let mut vals = ms.to_vec();
        let mut pos: Vec<usize> = (0..vals.len()).collect();
        let mut inv = vec![0i64; vals.len()];
        merge_count(&mut vals, &mut pos, &mut inv);
        let dis: i64 = inv.iter().sum();
        let tie_m = tied_pairs(vals.len(), |i| vals[i] == vals[i - 1]);
        let total = size * (size - 1) / 2;
        let o = &mut out[k * 5..k * 5 + 5];
        o[0] = total - dis - tie_g - tie_m + tie_b;
        o[1] = dis;
        o[2] = tie_g - tie_b;
        o[3] = tie_m - tie_b;
        o[4] = tie_b;
    }
    Ok(out)
}

/// `(G, 5)` flat pair counts of the groups with `use_group`, by enumerating their pairs;
/// metric differences within `epsilon` are ties.
pub fn pairwise_counts(
    g: &[f64],
    m: &[f64],
    offsets: &[i64],
    use_group: &[bool],
    epsilon: f64,
) -> Checked<Vec<i64>> {
    check_groups(g, m, offsets)?;
    ensure(use_group.len() + 1 == offsets.len(), || {
        "use_group: one flag per group expected".into()
    })?;
    let n_groups = offsets.len() - 1;
    let mut out = vec![0i64; n_groups * 5];
    for k in 0..n_groups {
        if !use_group[k] {
            continue;
        }
        let (lo, hi) = (offsets[k] as usize, offsets[k + 1] as usize);
        let o = &mut out[k * 5..k * 5 + 5];
        for i in lo..hi {
            for j in i + 1..hi {
                let dg = g[i] - g[j];
                let dm = m[i] - m[j];
                let tie_g = dg == 0.0;
                let tie_m = dm.abs() <= epsilon;
                let c = if tie_g && tie_m {
                    4
                } else if tie_g {
                    2
                } else if tie_m {
                    3
                } else if (dg > 0.0) == (dm > 0.0) {
                    0
                } else {
                    1
                };
                o[c] += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inversions_of_each_element() {
        assert_eq!(
            inversions_per_element(&[3.0, 1.0, 2.0, 2.0, 0.0]),
            vec![0, 1, 1, 1, 4]
        );
        assert_eq!(inversions_per_element(&[]), Vec::<i64>::new());
        // a descending run of n: n (n - 1) / 2 inversions in all
        let v: Vec<f64> = (0..50).rev().map(f64::from).collect();
        assert_eq!(inversions_per_element(&v).iter().sum::<i64>(), 50 * 49 / 2);
    }

    #[test]
    fn concordant_discordant_and_tied_pairs() {
        // gold 1 2 2 3, metric .5 .1 .1 .9: C 3 (0-3, 1-3, 2-3), D 2 (0-1, 0-2), tie 1-2
        let (g, m) = ([1.0, 2.0, 2.0, 3.0], [0.5, 0.1, 0.1, 0.9]);
        assert_eq!(
            grouped_counts(&g, &m, &[0, 4]).unwrap(),
            vec![3, 2, 0, 0, 1]
        );
        assert_eq!(
            pairwise_counts(&g, &m, &[0, 4], &[true], 0.0).unwrap(),
            vec![3, 2, 0, 0, 1]
        );
        // metric scores within epsilon tie; an unflagged group stays zero
        let out = pairwise_counts(
            &[1.0, 2.0, 3.0, 0.0],
            &[0.0, 0.05, 1.0, 0.0],
            &[0, 3, 4],
            &[true, false],
            0.1,
        );
        assert_eq!(out.unwrap(), vec![2, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
        // two groups by merge counting: [1 2 | 1 2] ascending in both
        let out = grouped_counts(&[1.0, 2.0, 1.0, 2.0], &[2.0, 1.0, 1.0, 2.0], &[0, 2, 4]);
        assert_eq!(out.unwrap(), vec![0, 1, 0, 0, 0, 1, 0, 0, 0, 0]);
    }

    #[test]
    fn mismatched_inputs_are_refused() {
        assert!(grouped_counts(&[1.0], &[1.0, 2.0], &[0, 1]).is_err());
        assert!(grouped_counts(&[1.0, 2.0], &[1.0, 2.0], &[0, 3]).is_err());
        assert!(pairwise_counts(&[1.0], &[1.0], &[0, 1], &[true, true], 0.0).is_err());
    }
}
