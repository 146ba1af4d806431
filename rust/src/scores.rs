//! Sentence scores from rows of sufficient statistics, the same operations in the same order
//! as the Python definitions (`bleu_from_stats`, `NIST.score_row`), and two small loops the
//! metrics and ragged arrays share.

use rayon::prelude::*;

use crate::error::{ensure, Checked};
use crate::grid::Grid;
use crate::pairs::{check_offsets, check_rows, Pairs};

const LOG_ZERO: f64 = -9_999_999_999.0;

/// `[P, R, F]` of each candidate's present reference with the largest `key` (the first on
/// ties; reference 0 when none is present, as numpy's `argmax` over `-inf`): `(1, P, 3)`, or
/// with `leave_out` `(n_refs, P, 3)`, row block `k` chosen among the references but `k`.
/// `prf` holds the three `(P, n_refs)` grids P, R and F.
pub fn best_of_references(
    prf: [Grid<f64>; 3],
    key: Grid<f64>,
    present: Grid<bool>,
    leave_out: bool,
) -> Checked<Vec<f64>> {
    let (n_cand, n_refs) = key.dim();
    ensure(
        prf.iter().all(|g| g.dim() == (n_cand, n_refs)) && present.dim() == (n_cand, n_refs),
        || "best_of_references: P, R, F, key and present must all be (candidates, refs)".into(),
    )?;
    let variants = if leave_out { n_refs } else { 1 };
    let mut out = vec![0.0; variants * n_cand * 3];
    for v in 0..variants {
        for i in 0..n_cand {
            let (mut best, mut at) = (f64::NEG_INFINITY, 0);
            for j in 0..n_refs {
                let k = if present[[i, j]] && !(leave_out && j == v) {
                    key[[i, j]]
                } else {
                    f64::NEG_INFINITY
                };
                if k > best {
                    best = k;
                    at = j;
                }
            }
            let o = &mut out[(v * n_cand + i) * 3..(v * n_cand + i) * 3 + 3];
            for (slot, g) in o.iter_mut().zip(&prf) {
                *slot = g[[i, at]];
            }
        }
    }
    Ok(out)
}

/// BLEU of every row `[hyp_len, ref_len, correct_1..n, total_1..n]`; `smooth`: 0 none,
/// 1 floor, 2 add-k, 3 exp (sacrebleu's methods).
pub fn bleu_rows(
    stats: Grid<f64>,
    max_n: usize,
    smooth: u8,
    value: f64,
    effective: bool,
) -> Checked<Vec<f64>> {
    ensure(max_n > 0 && stats.dim().1 >= 2 + 2 * max_n, || {
        "bleu_rows: rows shorter than 2 + 2 * max_n".into()
    })?;
    let mut precisions = vec![0.0f64; max_n];
    Ok(stats
        .rows()
        .map(|row| {
            let (hyp_len, ref_len) = (row[0], row[1]);
            let mut bp = 1.0;
            if hyp_len < ref_len {
                bp = if hyp_len > 0.0 {
                    (1.0 - ref_len / hyp_len).exp()
                } else {
                    0.0
                };
            }
            if (0..max_n).all(|n| row[2 + n] == 0.0) {
                return 0.0;
            }
            precisions.fill(0.0);
            let mut mteval = 1.0;
            let mut eff_order = max_n;
            for n in 0..max_n {
                let mut correct = row[2 + n];
                let mut total = row[2 + max_n + n];
                if smooth == 2 && n > 0 {
                    correct += value;
                    total += value;
                }
                if total == 0.0 {
                    break;
                }
                if effective {
                    eff_order = n + 1;
                }
                if correct == 0.0 {
                    if smooth == 3 {
                        mteval *= 2.0;
                        precisions[n] = 100.0 / (mteval * total);
                    } else if smooth == 1 {
                        precisions[n] = 100.0 * value / total;
                    }
                } else {
                    precisions[n] = 100.0 * correct / total;
                }
            }
            let mut logs = 0.0;
            for &p in &precisions[..eff_order] {
                logs += if p != 0.0 { p.ln() } else { LOG_ZERO };
            }
            bp * (logs / eff_order as f64).exp()
        })
        .collect())
}

/// `x ** 2` as Python computes it: the C library's `pow`, which is not always `x * x` to the
/// last bit (`black_box` keeps the compiler from turning the call into a multiplication).
fn squared(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// NIST of every row of NIST statistics (`which`: 0 corpus weights, 1 segment weights).
pub fn nist_rows(stats: Grid<f64>, n: usize, which: u8) -> Checked<Vec<f64>> {
    ensure(stats.dim().1 > 5 * n, || {
        "nist_rows: rows shorter than 5 * n + 1".into()
    })?;
    let beta = 0.5f64.ln() / squared(1.5f64.ln());
    let num0 = if which == 0 { 0 } else { 2 * n };
    let refl0 = if which == 0 { n } else { 3 * n };
    Ok(stats
        .rows()
        .map(|row| {
            let mut precision = 0.0;
            let mut ref_len = 0.0;
            for k in 0..n {
                let den = row[4 * n + k];
                if den > 0.0 {
                    precision += row[num0 + k] / den;
                }
                ref_len += row[refl0 + k];
            }
            let hyp_len = row[5 * n] * n as f64;
            let ratio = if ref_len > 0.0 {
                hyp_len / ref_len
            } else {
                0.0
            };
            let penalty = if 0.0 < ratio && ratio < 1.0 {
                (beta * squared(ratio.ln())).exp()
            } else {
                ratio.clamp(0.0, 1.0)
            };
            precision * penalty
        })
        .collect())
}

/// The reference length closest to each candidate's (the shorter on ties), 0 without one.
pub fn closest_ref_lengths(pairs: &Pairs) -> Vec<i64> {
    (0..pairs.len())
        .map(|p| {
            let h = pairs.hyp_row(p).len() as i64;
            let mut best: Option<(i64, i64)> = None;
            for k in 0..pairs.n_refs() {
                if let Some(r) = pairs.ref_row(p, k) {
                    let len = r.len() as i64;
                    let diff = (h - len).abs();
                    if best.is_none_or(|(d, l)| diff < d || (diff == d && len < l)) {
                        best = Some((diff, len));
                    }
                }
            }
            best.map_or(0, |(_, l)| l)
        })
        .collect()
}

/// Rows `rows` of a ragged array, concatenated: the new ids and offsets. The offsets come
/// first; then the rows are copied in parallel, in chunks of rows (a large gather copies
/// megabytes).
pub fn gather(ids: &[i32], offsets: &[i64], rows: &[i64]) -> Checked<(Vec<i32>, Vec<i64>)> {
    check_offsets(offsets, ids.len(), "offsets")?;
    check_rows(rows, offsets.len() - 1, "rows")?;
    let mut out_off = Vec::with_capacity(rows.len() + 1);
    out_off.push(0i64);
    let mut end = 0i64;
    for &r in rows {
        end += offsets[r as usize + 1] - offsets[r as usize];
        out_off.push(end);
    }
    let mut out = vec![0i32; end as usize];
    // chunks of rows of about 64k ids each, cut where a row ends
    const IDS_PER_CHUNK: i64 = 1 << 16;
    let mut parts = Vec::new();
    let (mut rest, mut lo) = (out.as_mut_slice(), 0usize);
    while lo < rows.len() {
        let target = out_off[lo] + IDS_PER_CHUNK;
        let hi = lo
            + 1
            + out_off[lo + 1..]
                .partition_point(|&o| o < target)
                .min(rows.len() - lo - 1);
        let (part, tail) = rest.split_at_mut((out_off[hi] - out_off[lo]) as usize);
        parts.push((lo..hi, part));
        rest = tail;
        lo = hi;
    }
    parts.into_par_iter().for_each(|(range, part)| {
        let mut at = 0;
        for &r in &rows[range] {
            let row = &ids[offsets[r as usize] as usize..offsets[r as usize + 1] as usize];
            part[at..at + row.len()].copy_from_slice(row);
            at += row.len();
        }
    });
    Ok((out, out_off))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairs::testing::Owned;

    #[test]
    fn bleu_rows_with_add_k_and_without_matches() {
        // 4 words, matches 3 1 0 0 of 4 3 2 1; add-1 from order 2: 3/4 2/4 1/3 1/2, BP 1:
        // the geometric mean of 75, 50, 33.3, 50 is 50
        let rows = [
            4.0, 4.0, 3.0, 1.0, 0.0, 0.0, 4.0, 3.0, 2.0, 1.0, 0.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0,
            0.0, 0.0, 0.0,
        ];
        let stats = Grid::new(&rows, 2, 10, "stats").unwrap();
        let out = bleu_rows(stats, 4, 2, 1.0, false).unwrap();
        assert!((out[0] - 50.0).abs() < 1e-9, "{out:?}");
        assert_eq!(out[1], 0.0);
        // exp smoothing: the first zero precision becomes 100 / (2 * total)
        let one = Grid::new(&rows[..10], 1, 10, "stats").unwrap();
        let exp = bleu_rows(one, 4, 3, 0.0, false).unwrap()[0];
        let want = (75f64.ln() + (100.0f64 / 3.0).ln() + 25f64.ln() + 25f64.ln()) / 4.0;
        assert!((exp - want.exp()).abs() < 1e-9, "{exp}");
        assert!(bleu_rows(one, 5, 3, 0.0, false).is_err());
    }

    #[test]
    fn nist_rows_length_penalty_halves_at_two_thirds() {
        // one order: 2 of 2 n-grams matched with weight 1 each, reference 3 words, candidate
        // 2: NIST's penalty is 0.5 at a length ratio of 2/3
        let row = [2.0, 3.0, 2.0, 3.0, 2.0, 2.0];
        let stats = Grid::new(&row, 1, 6, "stats").unwrap();
        let out = nist_rows(stats, 1, 0).unwrap();
        assert!((out[0] - 0.5).abs() < 1e-12, "{out:?}");
        let full = [2.0, 2.0, 2.0, 2.0, 2.0, 2.0];
        assert_eq!(
            nist_rows(Grid::new(&full, 1, 6, "s").unwrap(), 1, 1).unwrap(),
            vec![1.0]
        );
        assert!(nist_rows(stats, 2, 0).is_err());
    }

    #[test]
    fn closest_reference_length_prefers_the_shorter() {
        let o = Owned::parallel(
            &[&[1, 2, 3], &[1]],
            &[&[&[1, 2], &[1, 2, 3, 4]], &[&[1, 2], &[5, 6, 7]]],
        );
        assert_eq!(closest_ref_lengths(&o.pairs()), vec![2, 2]);
        let o = Owned::new(&[&[1]], &[0], &[vec![None]]);
        assert_eq!(closest_ref_lengths(&o.pairs()), vec![0]);
    }

    #[test]
    fn best_reference_first_on_ties_and_each_held_out() {
        static VALS: [f64; 6] = [0.1, 0.9, 0.5, 0.3, 0.3, 0.0];
        static KEY: [f64; 6] = [0.2, 0.8, 0.8, 0.3, 0.3, 0.0];
        let (vals, key) = (&VALS, &KEY);
        let present = [true, true, true, false, true, true];
        let g = |d: &'static [f64]| Grid::new(d, 2, 3, "x").unwrap();
        let prf = || [g(vals), g(vals), g(vals)];
        let mask = Grid::new(&present, 2, 3, "present").unwrap();
        let one = best_of_references(prf(), g(key), mask, false).unwrap();
        // row 0: references 1 and 2 tie at 0.8, the first wins; row 1: reference 0 missing
        assert_eq!(
            one.iter().step_by(3).copied().collect::<Vec<_>>(),
            vec![0.9, 0.3]
        );
        let mask = Grid::new(&present, 2, 3, "present").unwrap();
        let each = best_of_references(prf(), g(key), mask, true).unwrap();
        let first: Vec<f64> = each.iter().step_by(3).copied().collect();
        // held out 0: 0.9, 0.3; held out 1: 0.5, and reference 2 alone: 0.0; held out 2: 0.9, 0.3
        assert_eq!(first, vec![0.9, 0.3, 0.5, 0.0, 0.9, 0.3]);
    }

    #[test]
    fn gather_rows_in_any_order() {
        let (ids, off) = gather(&[1, 2, 3], &[0, 2, 2, 3], &[2, 0, 2, 1]).unwrap();
        assert_eq!(ids, vec![3, 1, 2, 3]);
        assert_eq!(off, vec![0, 1, 3, 4, 4]);
        assert!(gather(&[1, 2, 3], &[0, 2, 2, 3], &[3]).is_err());
        assert!(gather(&[1, 2, 3], &[0, 2], &[0]).is_err());
        // many chunks of rows: the copy in parallel equals the row-by-row one
        let ids: Vec<i32> = (0..5000).collect();
        let offsets: Vec<i64> = (0..=5000).step_by(7).chain([5000]).collect();
        let n_rows = offsets.len() as i64 - 1;
        let rows: Vec<i64> = (0..100_000).map(|i| (i * 7919) % n_rows).collect();
        let (got, off) = gather(&ids, &offsets, &rows).unwrap();
        let want: Vec<i32> = rows
            .iter()
            .flat_map(|&r| {
                ids[offsets[r as usize] as usize..offsets[r as usize + 1] as usize].to_vec()
            })
            .collect();
        assert!(want.len() > 4 << 16);
        assert_eq!(
            (got, off.len(), *off.last().unwrap()),
            (want.clone(), rows.len() + 1, want.len() as i64)
        );
    }
}
