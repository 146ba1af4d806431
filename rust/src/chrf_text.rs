//! chrF's and chrF++'s statistics straight from text, in one call: the distinct strings
//! (`text_pairs`) are turned into character numbers (`tokenize::text_char_ids`: whitespace
//! left out, or kept with `ws`) and, for chrF++, into word numbers
//! (`encode_text::chrf_word_ids`), each laid out as pairs and counted by the kernel the
//! encoded route uses (`chrf::chrf_stats`). The numbers are local to the call: the counts
//! only ask whether two characters or words are equal, so the statistics are those of the
//! encoded route, value for value.

use crate::chrf::chrf_stats;
use crate::encode_text::chrf_word_ids;
use crate::error::{ensure, Checked};
use crate::text_pairs::TextPairs;
use crate::tokenize::text_char_ids;

/// What to count: character orders `1..=chars` (whitespace kept when `keep_space`), word
/// orders `1..=words`.
pub struct Orders {
    pub chars: usize,
    pub words: usize,
    pub keep_space: bool,
}

/// `[candidate n-grams, reference n-grams, matches]` per candidate, reference, and order
/// (the character orders, then the word orders), flat `(P, R, chars + words, 3)`; zeros
/// where a reference is missing. `flags` gives the SPACE class (`str.isspace`); keys below
/// `direct_max` are looked up in a direct table (`local_ngrams`); `parallel` spreads the
/// word tokenizing over the threads.
pub fn chrf_text_stats(
    t: &TextPairs,
    flags: &[u16],
    orders: &Orders,
    direct_max: usize,
    parallel: bool,
) -> Checked<Vec<i64>> {
    let width = orders.chars + orders.words;
    ensure(width >= 1, || "chrf_text_stats: no order to count".into())?;
    let layout = t.layout()?;
    let n_refs = t.refs.len();
    let mut out = vec![0i64; t.hyps.len() * n_refs * width * 3];
    for (first, n, words) in [(0, orders.chars, false), (orders.chars, orders.words, true)] {
        if n == 0 {
            continue;
        }
        let (counts, ids) = if words {
            chrf_word_ids(&layout.texts, flags, parallel)?
        } else {
            text_char_ids(&layout.texts, flags, orders.keep_space)?
        };
        let encoded = layout.encode(&counts, &ids)?;
        let stats = chrf_stats(&layout.pairs(&encoded, t.seg)?, n, direct_max);
        // (P, R, n, 3) into columns first..first + n of (P, R, width, 3)
        for (cell, part) in out.chunks_mut(width * 3).zip(stats.chunks(n * 3)) {
            cell[first * 3..(first + n) * 3].copy_from_slice(part);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tests::ascii_flags;

    fn stats(hyp: &str, refs: &[Option<&str>], orders: Orders) -> Vec<i64> {
        let t = TextPairs {
            hyps: vec![hyp],
            seg: &[0],
            refs: refs.iter().map(|&r| vec![r]).collect(),
        };
        chrf_text_stats(&t, &ascii_flags(), &orders, 1 << 18, false).unwrap()
    }

    #[test]
    fn characters_then_words_against_each_reference() {
        let orders = Orders {
            chars: 2,
            words: 1,
            keep_space: false,
        };
        // "ab c." against "ab c": characters a b c . / a b c, bigrams ab bc c. / ab bc;
        // words "ab" "c" "." / "ab" "c"
        let out = stats("ab c.", &[Some("ab c"), None], orders);
        assert_eq!(
            out,
            vec![4, 3, 3, 3, 2, 2, 3, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        );
    }

    #[test]
    fn whitespace_kept_and_edge_marks_split_once() {
        let orders = Orders {
            chars: 1,
            words: 0,
            keep_space: true,
        };
        assert_eq!(stats("a b ", &[Some("a b")], orders), vec![4, 3, 3]);
        let words = Orders {
            chars: 0,
            words: 1,
            keep_space: false,
        };
        // '"hi,' loses its last mark only ('"hi' ','), "(x" its first, a lone mark stays
        // whole: 5 words; the reference's '"hi' splits into '"' 'hi': 6; in common , ( x !
        assert_eq!(
            stats("\"hi, (x !", &[Some("\"hi , ( x !")], words),
            vec![5, 6, 4]
        );
        assert!(chrf_text_stats(
            &TextPairs {
                hyps: vec!["a"],
                seg: &[0],
                refs: vec![vec![Some("a")]]
            },
            &ascii_flags(),
            &Orders {
                chars: 0,
                words: 0,
                keep_space: false
            },
            1 << 18,
            false
        )
        .is_err());
    }
}
