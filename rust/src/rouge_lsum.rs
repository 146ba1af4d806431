//! Summary-level LCS (Lin 2004, section 3.2) as rouge-score's `rougeLsum` computes it.
//!
//! A text is a sequence of token ids in which `marker` separates sentences. For every
//! reference sentence, the union of its LCS with each candidate sentence is taken (one LCS
//! per pair of sentences, read back from the full table with rouge-score's tie rule: on a
//! mismatch go left when the left cell is strictly larger, else up); the tokens of the union,
//! in reference order, are hits as long as both texts still have an unused occurrence of the
//! token (ROUGE-1.5.5's guard against counting a word twice, which rouge-score reproduces).
//! P = hits / candidate tokens, R = hits / reference tokens.

use rustc_hash::FxHashMap;

/// The sentences of a text: maximal runs without the marker, the empty ones dropped.
fn sentences(ids: &[i32], marker: i32) -> Vec<&[i32]> {
    ids.split(|&x| x == marker)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Indices into `r` of one LCS of `r` and `c`, in rouge-score's traceback order.
fn lcs_indices(r: &[i32], c: &[i32], table: &mut Vec<u32>, out: &mut [bool]) {
    let (rows, cols) = (r.len(), c.len());
    let w = cols + 1;
    table.clear();
    table.resize((rows + 1) * w, 0);
    for i in 1..=rows {
        for j in 1..=cols {
            table[i * w + j] = if r[i - 1] == c[j - 1] {
                table[(i - 1) * w + j - 1] + 1
            } else {
                table[(i - 1) * w + j].max(table[i * w + j - 1])
            };
        }
    }
    let (mut i, mut j) = (rows, cols);
    while i > 0 && j > 0 {
        if r[i - 1] == c[j - 1] {
            out[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if table[i * w + j - 1] > table[(i - 1) * w + j] {
            j -= 1;
        } else {
            i -= 1;
        }
    }
}

/// `(hits, candidate tokens, reference tokens)` of the summary-level LCS; all 0 when either
/// text has no token.
pub fn summary_lcs(hyp: &[i32], reference: &[i32], marker: i32) -> (usize, usize, usize) {
    let cand = sentences(hyp, marker);
    let refs = sentences(reference, marker);
    let n: usize = cand.iter().map(|s| s.len()).sum();
    let m: usize = refs.iter().map(|s| s.len()).sum();
    if n == 0 || m == 0 {
        return (0, 0, 0);
    }
    let mut count_c: FxHashMap<i32, i32> = FxHashMap::default();
    let mut count_r: FxHashMap<i32, i32> = FxHashMap::default();
    for &t in cand.iter().flat_map(|s| s.iter()) {
        *count_c.entry(t).or_insert(0) += 1;
    }
    for &t in refs.iter().flat_map(|s| s.iter()) {
        *count_r.entry(t).or_insert(0) += 1;
    }
    // The candidate sentences holding each token: a pair of sentences with no token in common
    // has an empty LCS and adds nothing to the union, so only the others are compared (the
    // union does not depend on the order in which the candidate sentences are taken).
    let mut holders: FxHashMap<i32, Vec<usize>> = FxHashMap::default();
    for (k, c) in cand.iter().enumerate() {
        for &t in c.iter() {
            let v = holders.entry(t).or_default();
            if v.last() != Some(&k) {
                v.push(k);
            }
        }
    }
    let mut picked = vec![false; cand.len()];
    let mut todo: Vec<usize> = Vec::new();
    let mut table = Vec::new();
    let mut hits = 0;
    for r in &refs {
        todo.clear();
        for k in r.iter().filter_map(|t| holders.get(t)).flatten() {
            if !picked[*k] {
                picked[*k] = true;
                todo.push(*k);
            }
        }
        let mut union = vec![false; r.len()];
        for &k in &todo {
            picked[k] = false;
            lcs_indices(r, cand[k], &mut table, &mut union);
        }
        for (k, _) in union.iter().enumerate().filter(|(_, &u)| u) {
            let t = r[k];
            let (cc, rr) = (count_c.get(&t).copied(), count_r.get(&t).copied());
            if cc.unwrap_or(0) > 0 && rr.unwrap_or(0) > 0 {
                hits += 1;
                *count_c.get_mut(&t).unwrap() -= 1;
                *count_r.get_mut(&t).unwrap() -= 1;
            }
        }
    }
    (hits, n, m)
}

#[cfg(test)]
mod tests {
    use super::summary_lcs;

    #[test]
    fn rouge_paper_example() {
        // rouge-score rouge_scorer_test.py testSummaryLevelLcs: ref [1..5], candidate
        // sentences [1 2 6 7 8] and [1 3 8 9 5]: union LCS [1 2 3 5], R = 4/5, P = 4/10
        let marker = 0;
        let hyp = [1, 2, 6, 7, 8, 0, 1, 3, 8, 9, 5];
        assert_eq!(summary_lcs(&hyp, &[1, 2, 3, 4, 5], marker), (4, 10, 5));
        assert_eq!(summary_lcs(&[], &[1, 2], marker), (0, 0, 0));
    }

    #[test]
    fn sentences_without_a_common_token_are_skipped_alike() {
        // the candidate sentences [7 8] and [9] share nothing with the reference; the result
        // is the one of the other sentences alone, whatever their order
        let with = summary_lcs(
            &[7, 8, 0, 1, 3, 8, 9, 5, 0, 9, 0, 1, 2, 6],
            &[1, 2, 3, 4, 5],
            0,
        );
        let alone = summary_lcs(&[1, 2, 6, 0, 1, 3, 8, 9, 5], &[1, 2, 3, 4, 5], 0);
        assert_eq!(with, (4, 11, 5));
        assert_eq!((with.0, with.2), (alone.0, alone.2));
    }

    #[test]
    fn words_not_counted_twice() {
        // both candidate sentences match the reference's single "1"
        assert_eq!(summary_lcs(&[1, 0, 1], &[1, 2], 0), (1, 2, 2));
    }
}
