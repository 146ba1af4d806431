//! rouge-score's tokenizer (google-research `rouge/tokenize.py`, version 0.1.2), over whole
//! batches of texts, with optional Porter stemming as rouge-score's `use_stemmer=True`.
//!
//! rouge-score lower-cases the text with Python's `str.lower()`, replaces every run of
//! characters outside `[a-z0-9]` with a space, splits on spaces, stems the tokens longer than
//! 3 characters (NLTK's Porter stemmer, see `porter.rs`) and keeps the `[a-z0-9]+` tokens.
//! Over all of Unicode, the characters whose `str.lower()` contains a character of `[a-z0-9]`
//! are `A-Z`, `a-z`, `0-9`, U+0130 (`İ`, lower-cased to `i` + U+0307, so a token break
//! follows the `i`) and U+212A (KELVIN SIGN, lower-cased to `k`); a test checks this table
//! against Python over every code point. Every other character is a separator: accented,
//! Cyrillic, Chinese or Thai letters are dropped, which the caller reports (the counts of
//! letters and of dropped letters come back per text).
//!
//! With `sents`, the text is also split into sentences at `\n` (rouge-score's `rougeLsum`)
//! and a marker token `\n` (never a rouge-score token) stands between two sentences that
//! have tokens.

use rayon::prelude::*;

use crate::porter;

/// What one character contributes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ch {
    /// a token character (after lower-casing)
    Keep(u8),
    /// a token character that ends its token (U+0130: `i` then the combining dot)
    KeepThenBreak(u8),
    Break,
}

/// An ASCII letter or digit: a token character as it is (after lower-casing).
#[inline]
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn classify(c: char) -> Ch {
    match c {
        'a'..='z' | '0'..='9' => Ch::Keep(c as u8),
        'A'..='Z' => Ch::Keep(c.to_ascii_lowercase() as u8),
        '\u{130}' => Ch::KeepThenBreak(b'i'),
        '\u{212a}' => Ch::Keep(b'k'),
        _ => Ch::Break,
    }
}

/// The tokens of a batch: token `t` is `bytes[start[t]..start[t] + len[t]]`; text `i` has
/// `counts[i]` tokens, `letters[i]` alphabetic characters of which `dropped[i]` were dropped.
#[derive(Default, Debug)]
pub struct Batch {
    pub bytes: Vec<u8>,
    pub start: Vec<i64>,
    pub len: Vec<i64>,
    pub counts: Vec<i64>,
    pub letters: Vec<i64>,
    pub dropped: Vec<i64>,
}

/// Options of the tokenizer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Porter stemming of tokens longer than 3 characters
    pub stem: bool,
    /// a `\n` marker token between sentences (split at `\n`)
    pub sents: bool,
}

/// The sentence-break marker token.
pub const MARKER: &[u8] = b"\n";

/// Tokenize one text, appending its tokens to `bytes` / `spans`; returns (letters, dropped).
///
/// ASCII bytes are classified by a table; other characters are decoded (they are separators
/// except U+0130 and U+212A) only to be counted as letters or not.
pub fn tokenize_into(
    text: &str,
    opts: Options,
    bytes: &mut Vec<u8>,
    spans: &mut Vec<(usize, usize)>,
) -> (i64, i64) {
    let first_span = spans.len();
    let (mut letters, mut dropped) = (0i64, 0i64);
    let mut start: Option<usize> = None; // the open token's start in `bytes`
    let mut pending_break = false;
    let src = text.as_bytes();
    let close =
        |start: &mut Option<usize>, bytes: &mut Vec<u8>, spans: &mut Vec<(usize, usize)>| {
            if let Some(s) = start.take() {
                if opts.stem && bytes.len() - s > 3 {
                    let stemmed = porter::stem(&bytes[s..]);
                    bytes.truncate(s);
                    bytes.extend_from_slice(&stemmed);
                }
                spans.push((s, bytes.len() - s));
            }
        };
    let mut i = 0;
    while i < src.len() {
        let b = src[i];
        if is_token_byte(b) {
            // a run of ASCII token characters, copied lower-cased in one go
            let run = src[i..]
                .iter()
                .position(|&c| !is_token_byte(c))
                .unwrap_or(src.len() - i);
            if start.is_none() {
                if pending_break {
                    spans.push((bytes.len(), MARKER.len()));
                    bytes.extend_from_slice(MARKER);
                    pending_break = false;
                }
                start = Some(bytes.len());
            }
            let chunk = &src[i..i + run];
            letters += chunk.iter().filter(|c| c.is_ascii_alphabetic()).count() as i64;
            bytes.extend(chunk.iter().map(|c| c.to_ascii_lowercase()));
            i += run;
            continue;
        }
        let keep = if b < 0x80 {
            i += 1;
            match b {
                b'a'..=b'z' | b'0'..=b'9' => Some((b, false)),
                b'A'..=b'Z' => Some((b | 0x20, false)),
                _ => None,
            }
        } else {
            let c = text[i..].chars().next().expect("a char boundary");
            i += c.len_utf8();
            match classify(c) {
                Ch::Keep(k) => Some((k, false)),
                Ch::KeepThenBreak(k) => Some((k, true)),
                Ch::Break => {
                    if c.is_alphabetic() {
                        letters += 1;
                        dropped += 1;
                    }
                    None
                }
            }
        };
        match keep {
            Some((k, then_break)) => {
                if k.is_ascii_lowercase() {
                    letters += 1;
                }
                if start.is_none() {
                    if pending_break {
                        spans.push((bytes.len(), MARKER.len()));
                        bytes.extend_from_slice(MARKER);
                        pending_break = false;
                    }
                    start = Some(bytes.len());
                }
                bytes.push(k);
                if then_break {
                    close(&mut start, bytes, spans);
                }
            }
            None => {
                close(&mut start, bytes, spans);
                if opts.sents && b == b'\n' && spans.len() > first_span {
                    pending_break = true;
                }
            }
        }
    }
    close(&mut start, bytes, spans);
    (letters, dropped)
}

/// The tokens of one text as strings (for tests).
#[cfg(test)]
pub fn tokenize(text: &str, opts: Options) -> Vec<Vec<u8>> {
    let (mut bytes, mut spans) = (Vec::new(), Vec::new());
    tokenize_into(text, opts, &mut bytes, &mut spans);
    spans
        .iter()
        .map(|&(s, l)| bytes[s..s + l].to_vec())
        .collect()
}

/// Tokenize every text, in parallel over blocks of texts.
pub fn tokenize_batch<S: AsRef<str> + Sync>(texts: &[S], opts: Options) -> Batch {
    let per_block = texts
        .len()
        .div_ceil(8 * rayon::current_num_threads())
        .max(64);
    let blocks: Vec<Batch> = texts
        .par_chunks(per_block)
        .map(|block| {
            let mut b = Batch::default();
            let mut spans = Vec::new();
            for text in block {
                let before = spans.len();
                let (letters, dropped) =
                    tokenize_into(text.as_ref(), opts, &mut b.bytes, &mut spans);
                b.counts.push((spans.len() - before) as i64);
                b.letters.push(letters);
                b.dropped.push(dropped);
            }
            b.start = spans.iter().map(|&(s, _)| s as i64).collect();
            b.len = spans.iter().map(|&(_, l)| l as i64).collect();
            b
        })
        .collect();
    let mut out = Batch::default();
    for b in blocks {
        let shift = out.bytes.len() as i64;
        out.bytes.extend_from_slice(&b.bytes);
        out.start.extend(b.start.iter().map(|s| s + shift));
        out.len.extend_from_slice(&b.len);
        out.counts.extend_from_slice(&b.counts);
        out.letters.extend_from_slice(&b.letters);
        out.dropped.extend_from_slice(&b.dropped);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str, stem: bool, sents: bool) -> Vec<String> {
        tokenize(text, Options { stem, sents })
            .into_iter()
            .map(|t| String::from_utf8(t).unwrap())
            .collect()
    }

    #[test]
    fn rouge_score_tokenize_test_cases() {
        // google-research rouge/tokenize_test.py and tokenizers_test.py
        assert_eq!(toks("one Two three", false, false), ["one", "two", "three"]);
        assert_eq!(
            toks("one\n Two \nthree", false, false),
            ["one", "two", "three"]
        );
        assert_eq!(
            toks("the friends had a meeting", true, false),
            ["the", "friend", "had", "a", "meet"]
        );
    }

    #[test]
    fn specials_and_letters() {
        assert_eq!(
            toks("İstanbul K2 café", false, false),
            ["i", "stanbul", "k2", "caf"]
        );
        let (mut b, mut s) = (Vec::new(), Vec::new());
        assert_eq!(
            tokenize_into("北京 ok", Options::default(), &mut b, &mut s),
            (4, 2)
        );
    }

    #[test]
    fn sentence_markers() {
        assert_eq!(toks("a b\n\n, \nc\n", false, true), ["a", "b", "\n", "c"]);
        assert_eq!(toks("\na", false, true), ["a"]);
    }

    #[test]
    fn batch_equals_one_by_one() {
        let texts: Vec<String> = (0..500)
            .map(|i| format!("Text {i}, running\nfast"))
            .collect();
        let b = tokenize_batch(
            &texts,
            Options {
                stem: true,
                sents: false,
            },
        );
        assert_eq!(b.counts.iter().sum::<i64>() as usize, b.start.len());
        let mut t = 0;
        for (i, text) in texts.iter().enumerate() {
            for tok in tokenize(
                text,
                Options {
                    stem: true,
                    sents: false,
                },
            ) {
                let (s, l) = (b.start[t] as usize, b.len[t] as usize);
                assert_eq!(&b.bytes[s..s + l], &tok[..]);
                t += 1;
            }
            assert_eq!(
                b.counts[i] as usize,
                tokenize(
                    text,
                    Options {
                        stem: true,
                        sents: false
                    }
                )
                .len()
            );
        }
    }
}
