//! Sentence scores from rows of sufficient statistics, the same operations in the same order
//! as the Python definitions (`bleu_from_stats`, `NIST.score_row`), and two small loops the
//! metrics and ragged arrays share.

use numpy::ndarray::ArrayView2;

use crate::common::Pairs;

const LOG_ZERO: f64 = -9_999_999_999.0;

/// BLEU of every row `[hyp_len, ref_len, correct_1..n, total_1..n]`; `smooth`: 0 none,
/// 1 floor, 2 add-k, 3 exp (sacrebleu's methods).
pub fn bleu_rows(
    stats: ArrayView2<f64>,
    max_n: usize,
    smooth: u8,
    value: f64,
    effective: bool,
) -> Vec<f64> {
    let mut precisions = vec![0.0f64; max_n];
    stats
        .outer_iter()
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
        .collect()
}

/// `x ** 2` as Python computes it: the C library's `pow`, which is not always `x * x` to the
/// last bit (`black_box` keeps the compiler from turning the call into a multiplication).
fn squared(x: f64) -> f64 {
    x.powf(std::hint::black_box(2.0))
}

/// NIST of every row of NIST statistics (`which`: 0 corpus weights, 1 segment weights).
pub fn nist_rows(stats: ArrayView2<f64>, n: usize, which: u8) -> Vec<f64> {
    let beta = 0.5f64.ln() / squared(1.5f64.ln());
    let num0 = if which == 0 { 0 } else { 2 * n };
    let refl0 = if which == 0 { n } else { 3 * n };
    stats
        .outer_iter()
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
        .collect()
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

/// Rows `rows` of a ragged array, concatenated: the new ids and offsets.
pub fn gather(ids: &[i32], offsets: &[i64], rows: &[i64]) -> (Vec<i32>, Vec<i64>) {
    let mut out_off = Vec::with_capacity(rows.len() + 1);
    out_off.push(0i64);
    let mut out = Vec::new();
    for &r in rows {
        let r = r as usize;
        out.extend_from_slice(&ids[offsets[r] as usize..offsets[r + 1] as usize]);
        out_off.push(out.len() as i64);
    }
    (out, out_off)
}
