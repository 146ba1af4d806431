//! Pairwise n-gram statistics within segments: every candidate of a segment against every
//! reference of it (MBR, reranking), each text's n-grams counted once.
//!
//! For each order n, the n-grams of all texts of a segment get dense ids (order-1 ids are the
//! segment's distinct tokens; an order-n id is looked up by the exact key `(id of its
//! (n-1)-gram prefix) * A + (its last token)`, A the number of distinct tokens). The k-th
//! occurrence of n-gram g in a text is then one bit, `(g, k)`, of a bit set over the segment:
//! for two texts, the sum over g of min(count in one, count in the other) -- chrF's matches
//! -- is exactly the number of bits the two sets share, `popcount(a & b)`. A pair of texts
//! costs one AND and popcount per 64 n-gram occurrences of the segment, whatever the texts.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::error::{ensure, Checked};
use crate::pairs::check_offsets;

/// Texts grouped in segments: text `t` is `ids[off[t]..off[t + 1]]`; segment `s` holds the
/// texts `seg[s]..seg[s + 1]`.
#[derive(Clone, Copy)]
pub struct Segmented<'a> {
    pub ids: &'a [i32],
    pub off: &'a [i64],
    pub seg: &'a [i64],
}

impl<'a> Segmented<'a> {
    pub fn n_segments(&self) -> usize {
        self.seg.len() - 1
    }

    pub fn texts(&self, s: usize) -> Vec<&'a [i32]> {
        (self.seg[s] as usize..self.seg[s + 1] as usize)
            .map(|t| &self.ids[self.off[t] as usize..self.off[t + 1] as usize])
            .collect()
    }
}

/// Calls `f(o, grams, n_ids)` for every order `o + 1` in `1..=max_n`, where `grams[t]` holds
/// the dense ids (`< n_ids`) of the order's n-grams of text `t`, in text order. Order-1 ids are
/// the texts' distinct tokens; an order-n id is looked up by the exact key `(id of its
/// (n-1)-gram prefix) * A + (its last token)`, A the number of distinct tokens.
pub fn each_order(texts: &[&[i32]], max_n: usize, mut f: impl FnMut(usize, &[Vec<u32>], usize)) {
    let mut dense: FxHashMap<i32, u32> = FxHashMap::default();
    let mut prev: Vec<Vec<u32>> = texts
        .iter()
        .map(|t| {
            t.iter()
                .map(|&x| {
                    let next = dense.len() as u32;
                    *dense.entry(x).or_insert(next)
                })
                .collect()
        })
        .collect();
    let tokens: Vec<Vec<u32>> = prev.clone();
    let alphabet = dense.len() as u64;
    // an order has at most as many distinct n-grams as the texts have tokens
    let mut keys: FxHashMap<u64, u32> =
        FxHashMap::with_capacity_and_hasher(tokens.iter().map(Vec::len).sum(), Default::default());
    for order in 1..=max_n {
        // this order's n-gram ids (order 1: the token ids themselves)
        let grams: Vec<Vec<u32>> = if order == 1 {
            prev.clone()
        } else {
            keys.clear();
            (0..texts.len())
                .map(|t| {
                    let len = tokens[t].len();
                    if len < order {
                        return Vec::new();
                    }
                    (0..=len - order)
                        .map(|p| {
                            let key =
                                prev[t][p] as u64 * alphabet + tokens[t][p + order - 1] as u64;
                            let next = keys.len() as u32;
                            *keys.entry(key).or_insert(next)
                        })
                        .collect()
                })
                .collect()
        };
        let n_ids = grams
            .iter()
            .flatten()
            .map(|&g| g as usize + 1)
            .max()
            .unwrap_or(0);
        f(order - 1, &grams, n_ids);
        prev = grams;
    }
}

/// `[candidate n-grams, reference n-grams, matches]` for every (candidate, reference, order)
/// of segment `s`, flat in that order (`N * M * max_n * 3`).
pub fn segment_stats(hyp: Segmented, refs: Segmented, s: usize, max_n: usize) -> Vec<f64> {
    let hyps = hyp.texts(s);
    let rs = refs.texts(s);
    let (n, m) = (hyps.len(), rs.len());
    let mut out = vec![0.0; n * m * max_n * 3];
    if n == 0 || m == 0 || max_n == 0 {
        return out;
    }
    let (texts, which) = distinct(hyps.iter().chain(rs.iter()).copied());
    let mut counts: Vec<u32> = Vec::new();
    let mut max_count: Vec<u32> = Vec::new();
    let mut occ: Vec<Vec<u32>> = vec![Vec::new(); texts.len()];
    each_order(&texts, max_n, |o, grams, n_ids| {
        // occurrence number of each n-gram within its text, and the most in any text
        counts.clear();
        counts.resize(n_ids, 0);
        max_count.clear();
        max_count.resize(n_ids, 0);
        for (t, g) in grams.iter().enumerate() {
            occ[t].clear();
            for &x in g {
                occ[t].push(counts[x as usize]);
                counts[x as usize] += 1;
                max_count[x as usize] = max_count[x as usize].max(counts[x as usize]);
            }
            for &x in g {
                counts[x as usize] = 0;
            }
        }
        // bit (g, k) at base[g] + k
        let mut base = Vec::with_capacity(n_ids);
        let mut total = 0usize;
        for &c in &max_count {
            base.push(total);
            total += c as usize;
        }
        let words = total.div_ceil(64).max(1);
        let mut bits = vec![0u64; texts.len() * words];
        for (t, g) in grams.iter().enumerate() {
            let row = &mut bits[t * words..(t + 1) * words];
            for (&x, &k) in g.iter().zip(&occ[t]) {
                let b = base[x as usize] + k as usize;
                row[b / 64] |= 1u64 << (b % 64);
            }
        }
        let mut first = vec![usize::MAX; texts.len()];
        for i in 0..n {
            let t = which[i];
            if first[t] != usize::MAX {
                // the same text as candidate first[t]: the same numbers
                for j in 0..m {
                    let (a, b) = (
                        ((first[t] * m + j) * max_n + o) * 3,
                        ((i * m + j) * max_n + o) * 3,
                    );
                    out.copy_within(a..a + 3, b);
                }
                continue;
            }
            first[t] = i;
            let a = &bits[t * words..(t + 1) * words];
            let h_count = grams[t].len() as f64;
            for j in 0..m {
                let r = which[n + j];
                let b = &bits[r * words..(r + 1) * words];
                let shared: u32 = a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum();
                let cell = ((i * m + j) * max_n + o) * 3;
                out[cell] = h_count;
                out[cell + 1] = grams[r].len() as f64;
                out[cell + 2] = shared as f64;
            }
        }
    });
    out
}

/// The distinct texts (in order of first appearance) and, for every text, its position
/// among them: samples repeat, and in MBR the candidates are the references.
fn distinct<'a>(all: impl Iterator<Item = &'a [i32]>) -> (Vec<&'a [i32]>, Vec<usize>) {
    let mut seen: FxHashMap<&[i32], usize> = FxHashMap::default();
    let mut texts: Vec<&[i32]> = Vec::new();
    let which = all
        .map(|t| {
            *seen.entry(t).or_insert_with(|| {
                texts.push(t);
                texts.len() - 1
            })
        })
        .collect();
    (texts, which)
}

/// Weighted references of a segment in groups (reference aggregation): reference `j` has
/// weight `weight[j]` in group `group[j]` (`-1`: in none).
#[derive(Clone, Copy)]
pub struct Groups<'a> {
    pub weight: &'a [f64],
    pub group: &'a [i64],
    /// per segment, its number of groups
    pub count: &'a [i64],
}

/// Reference aggregation of segment `s`: for every (candidate i, group G, order), the flat
/// `[candidate n-grams, sum_j w_j * (reference j's n-grams), sum_g min(c_i(g), A_G(g))]`
/// (`N * G * max_n * 3`), where `A_G(g) = sum_{j in G} w_j c_j(g)` is the group's weighted
/// n-gram count (Vamvas and Sennrich 2024; DeNero et al. 2009). The matches are summed over
/// the candidate's distinct n-grams in the order of their first occurrence. A group of one
/// reference of weight 1 gives exactly [`segment_stats`]'s numbers.
pub fn segment_aggregate(
    hyp: Segmented,
    refs: Segmented,
    groups: Groups,
    s: usize,
    max_n: usize,
) -> Vec<f64> {
    let hyps = hyp.texts(s);
    let rs = refs.texts(s);
    let (n, m, g_n) = (hyps.len(), rs.len(), groups.count[s] as usize);
    let first = refs.seg[s] as usize;
    let weight = &groups.weight[first..first + m];
    let group = &groups.group[first..first + m];
    let mut out = vec![0.0; n * g_n * max_n * 3];
    if n == 0 || g_n == 0 || max_n == 0 {
        return out;
    }
    // each distinct text once (samples repeat; in MBR the candidates are the references)
    let (texts, which) = distinct(hyps.iter().chain(rs.iter()).copied());
    let mut counts: Vec<u32> = Vec::new();
    let mut agg: Vec<f64> = Vec::new();
    let mut matches = vec![0.0; g_n];
    let mut done: Vec<usize> = vec![usize::MAX; texts.len()];
    each_order(&texts, max_n, |o, grams, n_ids| {
        // the groups' weighted counts, [n-gram * G + group], and reference n-grams
        agg.clear();
        agg.resize(n_ids * g_n, 0.0);
        let mut ref_total = vec![0.0; g_n];
        for j in 0..m {
            if group[j] < 0 {
                continue;
            }
            let (gj, w, r) = (group[j] as usize, weight[j], &grams[which[n + j]]);
            for &x in r {
                agg[x as usize * g_n + gj] += w;
            }
            ref_total[gj] += w * r.len() as f64;
        }
        counts.clear();
        counts.resize(n_ids, 0);
        done.iter_mut().for_each(|d| *d = usize::MAX);
        for i in 0..n {
            let t = which[i];
            if done[t] != usize::MAX {
                // the same text as candidate done[t]: the same numbers
                let (from, to) = (done[t] * g_n, i * g_n);
                for g in 0..g_n {
                    let (a, b) = (((from + g) * max_n + o) * 3, ((to + g) * max_n + o) * 3);
                    out.copy_within(a..a + 3, b);
                }
                continue;
            }
            done[t] = i;
            let h = &grams[t];
            for &x in h {
                counts[x as usize] += 1;
            }
            matches.iter_mut().for_each(|v| *v = 0.0);
            for &x in h {
                let c = counts[x as usize];
                if c == 0 {
                    continue; // counted at its first occurrence
                }
                counts[x as usize] = 0;
                let row = &agg[x as usize * g_n..(x as usize + 1) * g_n];
                for (v, &a) in matches.iter_mut().zip(row) {
                    if a > 0.0 {
                        *v += (c as f64).min(a);
                    }
                }
            }
            let h_count = h.len() as f64;
            for g in 0..g_n {
                let cell = ((i * g_n + g) * max_n + o) * 3;
                out[cell] = h_count;
                out[cell + 1] = ref_total[g];
                out[cell + 2] = matches[g];
            }
        }
    });
    out
}

/// [`segment_aggregate`] of every segment (in parallel), flat, with each segment's offsets;
/// the arrays are checked first.
pub fn all_aggregates(
    hyp: Segmented,
    refs: Segmented,
    groups: Groups,
    max_n: usize,
) -> Checked<(Vec<f64>, Vec<i64>)> {
    check_segments(hyp, refs, "aggregate_ngram_stats")?;
    let n_refs = refs.off.len() - 1;
    ensure(
        groups.weight.len() == n_refs && groups.group.len() == n_refs,
        || {
            format!(
                "aggregate_ngram_stats: {n_refs} references but {} weights and {} groups",
                groups.weight.len(),
                groups.group.len()
            )
        },
    )?;
    ensure(groups.count.len() == hyp.n_segments(), || {
        "aggregate_ngram_stats: one group count per segment".to_string()
    })?;
    for s in 0..refs.n_segments() {
        let (lo, hi) = (refs.seg[s] as usize, refs.seg[s + 1] as usize);
        let count = groups.count[s];
        ensure(
            count >= 0 && groups.group[lo..hi].iter().all(|&g| g >= -1 && g < count),
            || format!("aggregate_ngram_stats: segment {s}: a group outside -1..{count}"),
        )?;
        ensure(
            groups.weight[lo..hi]
                .iter()
                .all(|w| w.is_finite() && *w >= 0.0),
            || format!("aggregate_ngram_stats: segment {s}: a weight not finite and >= 0"),
        )?;
    }
    let blocks: Vec<Vec<f64>> = (0..hyp.n_segments())
        .into_par_iter()
        .map(|s| segment_aggregate(hyp, refs, groups, s, max_n))
        .collect();
    Ok(flatten(blocks))
}

fn flatten(blocks: Vec<Vec<f64>>) -> (Vec<f64>, Vec<i64>) {
    let mut offsets = vec![0i64];
    for b in &blocks {
        offsets.push(offsets.last().unwrap() + b.len() as i64);
    }
    (blocks.concat(), offsets)
}

fn check_segments(hyp: Segmented, refs: Segmented, kernel: &str) -> Checked<()> {
    check_offsets(hyp.off, hyp.ids.len(), "h_off")?;
    check_offsets(refs.off, refs.ids.len(), "r_off")?;
    check_offsets(hyp.seg, hyp.off.len() - 1, "h_seg")?;
    check_offsets(refs.seg, refs.off.len() - 1, "r_seg")?;
    ensure(hyp.seg.len() == refs.seg.len(), || {
        format!("{kernel}: candidates and references differ in segments")
    })
}

/// Every segment's statistics (in parallel over segments), flat, with the offsets of each
/// segment's block; the arrays are checked first.
pub fn all_segments(
    hyp: Segmented,
    refs: Segmented,
    max_n: usize,
) -> Checked<(Vec<f64>, Vec<i64>)> {
    check_segments(hyp, refs, "pairwise_ngram_stats")?;
    let blocks: Vec<Vec<f64>> = (0..hyp.n_segments())
        .into_par_iter()
        .map(|s| segment_stats(hyp, refs, s, max_n))
        .collect();
    Ok(flatten(blocks))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn slow(h: &[i32], r: &[i32], n: usize) -> [f64; 3] {
        let grams = |t: &[i32]| {
            let mut c: HashMap<Vec<i32>, usize> = HashMap::new();
            if t.len() >= n {
                for w in t.windows(n) {
                    *c.entry(w.to_vec()).or_default() += 1;
                }
            }
            c
        };
        let (a, b) = (grams(h), grams(r));
        let m: usize = a.iter().map(|(g, &x)| x.min(*b.get(g).unwrap_or(&0))).sum();
        [
            a.values().sum::<usize>() as f64,
            b.values().sum::<usize>() as f64,
            m as f64,
        ]
    }

    #[test]
    fn aggregate_of_single_references_is_pairwise() {
        let texts: Vec<Vec<i32>> = vec![vec![1, 2, 1, 2, 1], vec![2, 1, 2], vec![], vec![1, 1, 3]];
        let ids: Vec<i32> = texts.iter().flatten().copied().collect();
        let mut off = vec![0i64];
        for t in &texts {
            off.push(off.last().unwrap() + t.len() as i64);
        }
        let all = Segmented {
            ids: &ids,
            off: &off,
            seg: &[0, 4],
        };
        let groups = Groups {
            weight: &[1.0; 4],
            group: &[0, 1, 2, 3],
            count: &[4],
        };
        assert_eq!(
            segment_aggregate(all, all, groups, 0, 3),
            segment_stats(all, all, 0, 3)
        );
        // one group of all four, uniform: the expected counts
        let quarter = [0.25; 4];
        let one = Groups {
            weight: &quarter,
            group: &[0, 0, 0, 0],
            count: &[1],
        };
        let out = segment_aggregate(all, all, one, 0, 1);
        // text 0 has 1 x3, 2 x2; expected counts: 1 -> (3+1+0+2)/4, 2 -> (2+2)/4
        assert_eq!(&out[0..3], &[5.0, 11.0 / 4.0, 1.5 + 1.0]);
    }

    #[test]
    fn repeated_texts_equal_counting() {
        let texts: Vec<Vec<i32>> = vec![vec![1, 2, 1], vec![1, 2, 1], vec![2, 2], vec![1, 2, 1]];
        let ids: Vec<i32> = texts.iter().flatten().copied().collect();
        let mut off = vec![0i64];
        for t in &texts {
            off.push(off.last().unwrap() + t.len() as i64);
        }
        let hyp = Segmented {
            ids: &ids,
            off: &off,
            seg: &[0, 3],
        };
        let refs = Segmented {
            ids: &ids,
            off: &off,
            seg: &[1, 4],
        };
        let out = segment_stats(hyp, refs, 0, 2);
        for i in 0..3 {
            for j in 0..3 {
                for n in 1..=2 {
                    let cell = ((i * 3 + j) * 2 + n - 1) * 3;
                    assert_eq!(&out[cell..cell + 3], &slow(&texts[i], &texts[1 + j], n));
                }
            }
        }
    }

    #[test]
    fn equals_counting() {
        // two segments; texts with repeats, short texts and an empty one
        let texts: Vec<Vec<i32>> = vec![
            vec![1, 2, 1, 2, 1],
            vec![2, 1, 2],
            vec![],
            vec![1, 1, 1, 1],
            vec![5, 1, 2, 1, 2, 1, 2],
            vec![7],
            vec![1, 2, 1],
        ];
        let ids: Vec<i32> = texts.iter().flatten().copied().collect();
        let mut off = vec![0i64];
        for t in &texts {
            off.push(off.last().unwrap() + t.len() as i64);
        }
        // hyps: segment 0 = texts 0..3, segment 1 = text 3; refs: segment 0 = 4..6, 1 = 6..7
        let hyp = Segmented {
            ids: &ids,
            off: &off,
            seg: &[0, 3, 4],
        };
        let refs = Segmented {
            ids: &ids,
            off: &off,
            seg: &[4, 6, 7],
        };
        for s in 0..2 {
            let max_n = 4;
            let out = segment_stats(hyp, refs, s, max_n);
            let (hs, rs) = (hyp.texts(s), refs.texts(s));
            for (i, h) in hs.iter().enumerate() {
                for (j, r) in rs.iter().enumerate() {
                    for n in 1..=max_n {
                        let cell = ((i * rs.len() + j) * max_n + n - 1) * 3;
                        assert_eq!(&out[cell..cell + 3], &slow(h, r, n), "s{s} i{i} j{j} n{n}");
                    }
                }
            }
        }
    }
}
