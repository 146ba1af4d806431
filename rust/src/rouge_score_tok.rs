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

use crate::parallel::texts_per_block;
use crate::porter;
use crate::token_keys::Keys;

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
    let per_block = texts_per_block(texts.len());
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

/// Each byte's token byte after lower-casing (`[a-z0-9]` for `[A-Za-z0-9]`), 0 for the rest.
const LOWER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            t[b] = c.to_ascii_lowercase();
        }
        b += 1;
    }
    t
};

/// The tokens of a block of texts as keys (`tokens`, see `token_keys`), unstemmed; text `i`
/// of the block has `counts[i]` tokens, `letters[i]` alphabetic characters of which
/// `dropped[i]` were dropped.
#[derive(Debug, Default)]
pub struct KeyBlock {
    pub tokens: Keys,
    pub counts: Vec<u32>,
    pub letters: Vec<i64>,
    pub dropped: Vec<i64>,
}

impl KeyBlock {
    /// Append the tokens of `text` (rouge-score's tokenizer without stemming and without
    /// sentence markers: the same tokens as [`tokenize_into`] with the default options).
    ///
    /// A text without U+0130 and U+212A (the two non-ASCII characters that make token
    /// characters) has as tokens exactly its runs of ASCII letters and digits: the bytes are
    /// classified 64 at a time into bit masks ([`masks64`]), the runs read off the masks, and
    /// each run of up to 8 bytes becomes its key with one load. Other non-ASCII characters
    /// are separators, decoded only to count the dropped letters. A text with U+0130 or
    /// U+212A goes character by character ([`KeyBlock::push_text_chars`]).
    pub fn push_text(&mut self, text: &str) {
        let src = text.as_bytes();
        let (mark, n_keys) = (self.tokens.mark(), self.tokens.keys.len());
        let (mut letters, mut dropped) = (0i64, 0i64);
        let mut open: Option<usize> = None; // the start of a run going on from the last chunk
        let mut buf = [0u8; 64];
        for base in (0..src.len()).step_by(64) {
            let chunk: &[u8; 64] = if base + 64 <= src.len() {
                src[base..base + 64].try_into().expect("64 bytes")
            } else {
                // the last chunk (once per text): `buf` is still all zeros
                buf[..src.len() - base].copy_from_slice(&src[base..]);
                &buf
            };
            let (mut m, alpha, mut lead) = masks64(chunk);
            letters += i64::from(alpha.count_ones());
            while lead != 0 {
                let j = base + lead.trailing_zeros() as usize;
                let ch = text[j..].chars().next().expect("a char boundary");
                if ch == '\u{130}' || ch == '\u{212a}' {
                    self.tokens.truncate(mark);
                    self.push_text_chars(text);
                    return;
                }
                if ch.is_alphabetic() {
                    letters += 1;
                    dropped += 1;
                }
                lead &= lead - 1;
            }
            if let Some(start) = open {
                let run = (!m).trailing_zeros() as usize;
                if run == 64 {
                    continue;
                }
                self.push_run(src, start, base + run);
                open = None;
                m &= !((1u64 << run) - 1);
            }
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                let ones = (!(m >> s)).trailing_zeros() as usize;
                if s + ones >= 64 {
                    open = Some(base + s);
                    break;
                }
                self.push_run(src, base + s, base + s + ones);
                m &= !((1u64 << (s + ones)) - 1);
            }
        }
        if let Some(start) = open {
            self.push_run(src, start, src.len());
        }
        self.counts.push((self.tokens.keys.len() - n_keys) as u32);
        self.letters.push(letters);
        self.dropped.push(dropped);
    }

    /// The token `src[start..end]`, a run of ASCII letters and digits: `| 0x20` lower-cases
    /// the letters and keeps the digits.
    #[inline(always)]
    fn push_run(&mut self, src: &[u8], start: usize, end: usize) {
        self.tokens.push_run(src, start, end, 0x20);
    }

    /// [`KeyBlock::push_text`] character by character: an ASCII byte is looked up in a
    /// 256-entry table and packed into the key of the open token; other characters are
    /// decoded (separators except U+0130 and U+212A). A token longer than 8 bytes is copied,
    /// lower-cased, when it ends.
    pub fn push_text_chars(&mut self, text: &str) {
        let src = text.as_bytes();
        let before = self.tokens.keys.len();
        let (mut letters, mut dropped) = (0i64, 0i64);
        let (mut key, mut len, mut tok_start) = (0u64, 0usize, 0usize);
        let mut i = 0;
        while i < src.len() {
            let b = src[i];
            let c = LOWER[b as usize];
            if c != 0 {
                if len == 0 {
                    tok_start = i;
                }
                if len < 8 {
                    key |= (c as u64) << (8 * len);
                }
                len += 1;
                letters += i64::from(c >= b'a');
                i += 1;
                continue;
            }
            if b < 0x80 {
                self.close(text, tok_start, i, &mut key, &mut len);
                i += 1;
                continue;
            }
            let ch = text[i..].chars().next().expect("a char boundary");
            match ch {
                '\u{212a}' | '\u{130}' => {
                    // KELVIN SIGN -> k; U+0130 -> i, then a break (the combining dot)
                    let c = if ch == '\u{212a}' { b'k' } else { b'i' };
                    if len == 0 {
                        tok_start = i;
                    }
                    if len < 8 {
                        key |= (c as u64) << (8 * len);
                    }
                    len += 1;
                    letters += 1;
                    i += ch.len_utf8();
                    if ch == '\u{130}' {
                        self.close(text, tok_start, i, &mut key, &mut len);
                    }
                }
                _ => {
                    if ch.is_alphabetic() {
                        letters += 1;
                        dropped += 1;
                    }
                    self.close(text, tok_start, i, &mut key, &mut len);
                    i += ch.len_utf8();
                }
            }
        }
        self.close(text, tok_start, src.len(), &mut key, &mut len);
        self.counts.push((self.tokens.keys.len() - before) as u32);
        self.letters.push(letters);
        self.dropped.push(dropped);
    }

    /// End the open token (if any), `text[start..end]`.
    #[inline]
    fn close(&mut self, text: &str, start: usize, end: usize, key: &mut u64, len: &mut usize) {
        if *len == 0 {
            return;
        }
        if *len <= 8 {
            self.tokens.keys.push(*key);
        } else {
            // the lower-cased token, as the fast path would have packed it
            let token: Vec<u8> = text[start..end]
                .chars()
                .map(|ch| match ch {
                    '\u{212a}' => b'k',
                    '\u{130}' => b'i',
                    _ => LOWER[ch as usize],
                })
                .collect();
            self.tokens.push_bytes(&token);
        }
        *key = 0;
        *len = 0;
    }
}

/// Bit masks of 64 bytes (bit `j` for byte `j`): `(ASCII letters and digits, ASCII letters,
/// first bytes of multi-byte UTF-8 characters)`.
#[inline]
pub fn masks64(chunk: &[u8; 64]) -> (u64, u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        // SSE2 is part of x86_64
        masks64_sse2(chunk)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        masks64_scalar(chunk)
    }
}

/// [`masks64`] one byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn masks64_scalar(chunk: &[u8; 64]) -> (u64, u64, u64) {
    let (mut alnum, mut alpha, mut lead) = (0u64, 0u64, 0u64);
    for (j, &b) in chunk.iter().enumerate() {
        let a = (b | 0x20).wrapping_sub(b'a') < 26;
        let d = b.wrapping_sub(b'0') < 10;
        alpha |= u64::from(a) << j;
        alnum |= u64::from(a || d) << j;
        lead |= u64::from(b >= 0xc0) << j;
    }
    (alnum, alpha, lead)
}

#[cfg(target_arch = "x86_64")]
fn masks64_sse2(chunk: &[u8; 64]) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    let (mut alnum, mut alpha, mut lead) = (0u64, 0u64, 0u64);
    // SAFETY: SSE2 is always available on x86_64; the loads read 16 of the 64 bytes each
    unsafe {
        let bias_a = _mm_set1_epi8(0x80u8.wrapping_sub(b'a') as i8);
        let bias_0 = _mm_set1_epi8(0x80u8.wrapping_sub(b'0') as i8);
        let lim_26 = _mm_set1_epi8((-128i32 + 26) as i8);
        let lim_10 = _mm_set1_epi8((-128i32 + 10) as i8);
        let case = _mm_set1_epi8(0x20);
        let below_c0 = _mm_set1_epi8(0xbfu8 as i8);
        let zero = _mm_setzero_si128();
        for k in 0..4 {
            let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k) as *const __m128i);
            // (b | 0x20) - 'a' < 26 and b - '0' < 10, unsigned, as signed compares
            let a = _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v, case), bias_a), lim_26);
            let d = _mm_cmplt_epi8(_mm_add_epi8(v, bias_0), lim_10);
            // 0xc0 <= b: as signed, -64 <= b < 0
            let l = _mm_and_si128(_mm_cmpgt_epi8(v, below_c0), _mm_cmplt_epi8(v, zero));
            alpha |= (_mm_movemask_epi8(a) as u32 as u64) << (16 * k);
            alnum |= (_mm_movemask_epi8(_mm_or_si128(a, d)) as u32 as u64) << (16 * k);
            lead |= (_mm_movemask_epi8(l) as u32 as u64) << (16 * k);
        }
    }
    (alnum, alpha, lead)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token_keys::tests::scrambled_bytes;

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

    #[test]
    fn keys_equal_the_tokenizer() {
        let texts = [
            "İstanbul K2 café, KELVIN \u{212a}elvin and \u{212a}",
            "Internationalization internationalisation ABCDEFGH abcdefghi x\u{212a}\u{212a}\u{212a}\u{212a}\u{212a}\u{212a}\u{212a}\u{212a}y",
            "北京 ok İİİ aİb 123456789 12345678",
            "",
            "   ,,, ",
            "end-of-text",
        ];
        let mut kb = KeyBlock::default();
        for t in &texts {
            kb.push_text(t);
        }
        let mut k = 0;
        for (i, t) in texts.iter().enumerate() {
            let (mut b, mut s) = (Vec::new(), Vec::new());
            let (letters, dropped) = tokenize_into(t, Options::default(), &mut b, &mut s);
            assert_eq!((kb.letters[i], kb.dropped[i]), (letters, dropped), "{t}");
            assert_eq!(kb.counts[i] as usize, s.len(), "{t}");
            for &(st, l) in &s {
                let key = kb.tokens.keys[k];
                let got = kb.tokens.token(key);
                assert_eq!(got, &b[st..st + l], "{t}");
                k += 1;
            }
        }
        assert_eq!(k, kb.tokens.keys.len());
    }

    #[test]
    fn masks_agree() {
        for seed in 0..64u32 {
            let chunk = scrambled_bytes(seed);
            assert_eq!(masks64(&chunk), masks64_scalar(&chunk));
        }
        let all: Vec<u8> = (0..=255).collect();
        for c in all.chunks(64) {
            let c: &[u8; 64] = c.try_into().unwrap();
            assert_eq!(masks64(c), masks64_scalar(c));
        }
    }

    #[test]
    fn keys_across_chunks() {
        // runs that cross the 64-byte chunks, texts of every length up to 200
        let base = "Abc, 12 defGHIJKLmn opq; Rstuvwxyz0123 “quoted” naïve Ünïcode — x y ".repeat(4);
        for n in 0..base.len() {
            if !base.is_char_boundary(n) {
                continue;
            }
            let t = &base[..n];
            let mut kb = KeyBlock::default();
            kb.push_text(t);
            let mut slow = KeyBlock::default();
            slow.push_text_chars(t);
            let (fast, slow_keys) = (&kb.tokens, &slow.tokens);
            assert_eq!(fast.keys, slow_keys.keys, "{t}");
            assert_eq!(fast.mid, slow_keys.mid, "{t}");
            assert_eq!(fast.long, slow_keys.long, "{t}");
            assert_eq!(
                (kb.counts[0], kb.letters[0], kb.dropped[0]),
                (slow.counts[0], slow.letters[0], slow.dropped[0])
            );
        }
    }
}
