//! sacrebleu's `13a` and `none` tokenizers straight from a line's UTF-8 bytes, 64 bytes at a
//! time, into token keys (`token_keys`), for the lines without their rare cases.
//!
//! Each byte gets a class from a 256-entry table made from the class table of
//! `mtpalette/text/bulk.py` (so from the very engines sacrebleu uses), and the classes of 64
//! bytes become one bit mask per class. A byte of a non-ASCII character is a word byte: a line
//! with a non-ASCII character of any 13a class (a Unicode space, say) is not taken. Nor is a
//! line with a character a 13a string replacement may apply to (`<`, `&`, newline), with two
//! period/comma characters in a row, or with a NUL (a key is zero-padded). Such a line goes
//! to the code point tokenizer (`tokenize.rs`); the others, most lines, come here.
//!
//! For the lines taken, 13a reduces to the rules of `tokenize::emit_13a_plain`: a character
//! of the always-split class stands alone; a period or comma stands alone unless a digit is on
//! both sides of it; a dash after a digit stands alone; the tokens are the runs of the other
//! characters between spaces. `none` keeps only the last rule: runs between spaces. On masks:
//! `alone = split | (period_comma & !(digit before & digit after)) | (dash & digit before)`,
//! `word = !(space | alone)`, and a token starts at each `alone` bit and at each `word` bit
//! whose byte before is not a word byte. Trailing spaces (Python's `rstrip`) make no token.

use crate::token_keys::Keys;
use crate::tokenize::{
    DASH, DIGIT, MODE_13A, MODE_NONE, PERIOD_COMMA, REPLACE_13A, SPACE, SPLIT_13A,
};

// the class of a byte (index of its mask)
const WORD: u8 = 0;
const SPACE_B: u8 = 1;
const ALONE: u8 = 2;
const PERIOD_B: u8 = 3;
const DIGIT_B: u8 = 4;
const DASH_B: u8 = 5;
const RARE: u8 = 6;
const HIGH: u8 = 7; // a byte of a non-ASCII character
const N_CLASSES: usize = 8;

/// The byte classes of one tokenizer, and what makes a non-ASCII character not a word
/// character.
pub struct ByteTokenizer {
    class: [u8; 256],
    /// the flags of a non-ASCII character that send its line to the code point tokenizer
    special: u16,
    /// scratch: per 64 bytes of the line, its masks by class
    masks: Vec<[u64; N_CLASSES]>,
    /// scratch: per 64 bytes, (word, alone)
    runs: Vec<(u64, u64)>,
    /// `none` whose ASCII spaces are those of [`space_masks`] (always, with Python's
    /// `str.isspace`): lines go to [`ByteTokenizer::push_line_none`]
    none_fast: bool,
}

impl ByteTokenizer {
    /// The tokenizer of `mode` (`13a` or `none`) with the class table `flags`; None for the
    /// other modes.
    pub fn new(mode: u8, flags: &[u16]) -> Option<Self> {
        let special = match mode {
            MODE_13A => SPACE | SPLIT_13A | PERIOD_COMMA | DIGIT | DASH | REPLACE_13A,
            MODE_NONE => SPACE,
            _ => return None,
        };
        let mut class = [HIGH; 256];
        for b in 0..128 {
            let f = flags[b] & special;
            class[b] = if b == 0 || f & REPLACE_13A != 0 {
                RARE
            } else if f & SPACE != 0 {
                SPACE_B // the space is in 13a's split class too: split or not, it separates
            } else if f.count_ones() > 1 {
                RARE // more than one class: never expected, left to the full rules
            } else if f & SPLIT_13A != 0 {
                ALONE
            } else if f & PERIOD_COMMA != 0 {
                PERIOD_B
            } else if f & DIGIT != 0 {
                DIGIT_B
            } else if f & DASH != 0 {
                DASH_B
            } else {
                WORD
            };
        }
        let none_fast = mode == MODE_NONE
            && (0..128u8).all(|b| {
                let want = match b {
                    0 => RARE,
                    9..=13 | 28..=32 => SPACE_B,
                    _ => WORD,
                };
                class[b as usize] == want
            });
        Some(ByteTokenizer {
            class,
            special,
            masks: Vec::new(),
            runs: Vec::new(),
            none_fast,
        })
    }

    /// [`ByteTokenizer::push_line`] of `none`: the tokens are the runs of bytes between ASCII
    /// spaces, found 64 bytes at a time by [`space_masks`]; a line with a NUL, or with a
    /// non-ASCII character of the SPACE class (a Unicode space), is not taken.
    fn push_line_none(&mut self, line: &str, flags: &[u16], keys: &mut Keys) -> Option<i64> {
        let src = line.as_bytes();
        let mark = keys.mark();
        let (mut count, mut high_seen) = (0i64, 0u64);
        let mut open: Option<usize> = None; // a run going on from the last 64 bytes
        let mut buf = [b' '; 64];
        for base in (0..src.len()).step_by(64) {
            let chunk: &[u8; 64] = if base + 64 <= src.len() {
                src[base..base + 64].try_into().expect("64 bytes")
            } else {
                // the last 64 (once per line): spaces past the end
                buf[..src.len() - base].copy_from_slice(&src[base..]);
                &buf
            };
            let (space, high, nul) = space_masks(chunk);
            if nul != 0 {
                keys.truncate(mark);
                return None;
            }
            high_seen |= high;
            let mut word = !space;
            if let Some(start) = open {
                let run = space.trailing_zeros() as usize;
                if run == 64 {
                    continue;
                }
                keys.push_run(src, start, base + run, 0);
                count += 1;
                open = None;
                word &= !((1u64 << run) - 1);
            }
            while word != 0 {
                let s = word.trailing_zeros() as usize;
                let ones = (!(word >> s)).trailing_zeros() as usize;
                if s + ones >= 64 {
                    open = Some(base + s);
                    break;
                }
                keys.push_run(src, base + s, base + s + ones, 0);
                count += 1;
                word &= !((1u64 << (s + ones)) - 1);
            }
        }
        if let Some(start) = open {
            keys.push_run(src, start, src.len(), 0);
            count += 1;
        }
        if high_seen != 0
            && line
                .chars()
                .any(|c| !c.is_ascii() && flags[c as usize] & SPACE != 0)
        {
            keys.truncate(mark);
            return None;
        }
        Some(count)
    }

    /// Pushes the tokens of `line` to `keys` and returns how many, or returns None (and
    /// pushes nothing) when the line has one of the rare cases (see the module's doc).
    pub fn push_line(&mut self, line: &str, flags: &[u16], keys: &mut Keys) -> Option<i64> {
        if self.none_fast {
            return self.push_line_none(line, flags, keys);
        }
        let src = line.as_bytes();
        self.masks.clear();
        let (mut rare, mut high) = (0u64, 0u64);
        let mut codes = [SPACE_B; 64];
        for chunk in src.chunks(64) {
            for (c, &b) in codes.iter_mut().zip(chunk) {
                *c = self.class[b as usize];
            }
            if chunk.len() < 64 {
                codes[chunk.len()..].fill(SPACE_B); // past the end: spaces
            }
            let m = class_masks(&codes);
            rare |= m[RARE as usize];
            high |= m[HIGH as usize];
            self.masks.push(m);
        }
        if rare != 0 {
            return None;
        }
        if high != 0 {
            let first = src
                .iter()
                .position(|&b| b >= 0x80)
                .expect("a non-ASCII byte");
            let specials = line[first..]
                .chars()
                .filter(|c| !c.is_ascii())
                .any(|c| flags[c as usize] & self.special != 0);
            if specials {
                return None;
            }
        }
        self.runs.clear();
        let nw = self.masks.len();
        let (mut prev_digit, mut prev_pc) = (0u64, 0u64);
        for w in 0..nw {
            let m = &self.masks[w];
            let (pc, digit) = (m[PERIOD_B as usize], m[DIGIT_B as usize]);
            let next_digit = if w + 1 < nw {
                self.masks[w + 1][DIGIT_B as usize]
            } else {
                0
            };
            // two period/comma characters in a row: 13a's full rules
            if pc & ((pc << 1) | (prev_pc >> 63)) != 0 {
                return None;
            }
            let digit_before = (digit << 1) | (prev_digit >> 63);
            let digit_after = (digit >> 1) | (next_digit << 63);
            let inside = pc & digit_before & digit_after;
            let alone = m[ALONE as usize] | (pc & !inside) | (m[DASH_B as usize] & digit_before);
            let word = !(m[SPACE_B as usize] | alone);
            self.runs.push((word, alone));
            prev_digit = digit;
            prev_pc = pc;
        }
        let mut count = 0i64;
        let mut prev_word = 0u64;
        for w in 0..nw {
            let (word, alone) = self.runs[w];
            let mut starts = alone | (word & !((word << 1) | (prev_word >> 63)));
            prev_word = word;
            while starts != 0 {
                let j = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let s = 64 * w + j;
                let ones = (!(word >> j)).trailing_zeros() as usize;
                let e = if alone >> j & 1 != 0 {
                    s + 1
                } else if j + ones < 64 {
                    s + ones
                } else {
                    self.run_end(w) // on into the next 64 bytes
                };
                keys.push_run(src, s, e, 0);
                count += 1;
            }
        }
        Some(count)
    }

    /// The end of a run of word bytes that goes on to the last bit of word `w`.
    #[cold]
    fn run_end(&self, mut w: usize) -> usize {
        loop {
            w += 1;
            if w == self.runs.len() {
                return 64 * w; // the line's end, a multiple of 64 bytes
            }
            // past the end of the line are spaces: a run ends in the line's last word
            let ones = (!self.runs[w].0).trailing_zeros() as usize;
            if ones < 64 {
                return 64 * w + ones;
            }
        }
    }
}

/// `(space, high, nul)` of 64 bytes: bit `j` set for a byte `chunk[j]` that is an ASCII space
/// of `str.isspace` (`\t` to `\r`, `\x1c` to `\x1f`, ` `), a byte of a non-ASCII character,
/// a zero.
#[inline]
fn space_masks(chunk: &[u8; 64]) -> (u64, u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        space_masks_sse2(chunk)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        space_masks_scalar(chunk)
    }
}

/// [`space_masks`] one byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn space_masks_scalar(chunk: &[u8; 64]) -> (u64, u64, u64) {
    let (mut space, mut high, mut nul) = (0u64, 0u64, 0u64);
    for (j, &b) in chunk.iter().enumerate() {
        space |= u64::from(matches!(b, 9..=13 | 28..=32)) << j;
        high |= u64::from(b >= 0x80) << j;
        nul |= u64::from(b == 0) << j;
    }
    (space, high, nul)
}

#[cfg(target_arch = "x86_64")]
fn space_masks_sse2(chunk: &[u8; 64]) -> (u64, u64, u64) {
    use std::arch::x86_64::*;
    let (mut space, mut high, mut nul) = (0u64, 0u64, 0u64);
    // SAFETY: SSE2 is always available on x86_64; the loads read 16 of the 64 bytes each
    unsafe {
        // `x <= c` unsigned: min(x, c) == x
        let le = |x: __m128i, c: i8| _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(c)), x);
        for k in 0..4 {
            let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k) as *const __m128i);
            let blank = _mm_or_si128(
                le(_mm_sub_epi8(v, _mm_set1_epi8(9)), 4),
                le(_mm_sub_epi8(v, _mm_set1_epi8(28)), 4),
            );
            let at = 16 * k;
            space |= (_mm_movemask_epi8(blank) as u32 as u64) << at;
            high |= (_mm_movemask_epi8(v) as u32 as u64) << at;
            nul |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32 as u64) << at;
        }
    }
    (space, high, nul)
}

/// The masks of 64 byte classes: bit `j` of mask `k` for `codes[j] == k`.
#[inline]
fn class_masks(codes: &[u8; 64]) -> [u64; N_CLASSES] {
    #[cfg(target_arch = "x86_64")]
    {
        class_masks_sse2(codes)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        class_masks_scalar(codes)
    }
}

/// [`class_masks`] one byte at a time.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn class_masks_scalar(codes: &[u8; 64]) -> [u64; N_CLASSES] {
    let mut m = [0u64; N_CLASSES];
    for (j, &c) in codes.iter().enumerate() {
        m[c as usize] |= 1 << j;
    }
    m
}

#[cfg(target_arch = "x86_64")]
fn class_masks_sse2(codes: &[u8; 64]) -> [u64; N_CLASSES] {
    use std::arch::x86_64::*;
    let mut m = [0u64; N_CLASSES];
    // SAFETY: SSE2 is always available on x86_64; the loads read 16 of the 64 bytes each
    unsafe {
        for k in 0..4 {
            let v = _mm_loadu_si128(codes.as_ptr().add(16 * k) as *const __m128i);
            for (c, mask) in m.iter_mut().enumerate().skip(1) {
                let eq = _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
                *mask |= (_mm_movemask_epi8(eq) as u32 as u64) << (16 * k);
            }
        }
    }
    m[WORD as usize] = !m[1..].iter().fold(0, |a, &b| a | b);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token_keys::tests::scrambled_bytes;
    use crate::tokenize::tests::{ascii_flags, run_with};
    use crate::tokenize::MODE_INTL;

    fn flags() -> Vec<u16> {
        let mut flags = ascii_flags();
        flags[0xa0] |= SPACE;
        flags[0x3000] |= SPACE;
        flags[0x85] |= SPACE;
        flags
    }

    /// The tokens of `line` by the byte tokenizer, as strings (None: not taken).
    fn byte_tokens(line: &str, mode: u8, flags: &[u16]) -> Option<Vec<String>> {
        let mut bt = ByteTokenizer::new(mode, flags).unwrap();
        let mut keys = Keys::default();
        let count = bt.push_line(line, flags, &mut keys)?;
        assert_eq!(count as usize, keys.keys.len());
        Some(
            keys.keys
                .iter()
                .map(|&k| String::from_utf8(keys.token(k)).unwrap())
                .collect(),
        )
    }

    #[test]
    fn masks_agree() {
        for seed in 0..64u32 {
            let codes = scrambled_bytes(seed).map(|b| b % N_CLASSES as u8);
            assert_eq!(class_masks(&codes), class_masks_scalar(&codes));
            let bytes = scrambled_bytes(seed);
            assert_eq!(space_masks(&bytes), space_masks_scalar(&bytes));
        }
        // every byte value, at every position of the 64
        for start in 0..4u8 {
            let bytes: [u8; 64] = std::array::from_fn(|j| start * 64 + j as u8);
            assert_eq!(space_masks(&bytes), space_masks_scalar(&bytes));
        }
        // `none` takes its fast path with Python's spaces, not with other ones
        assert!(ByteTokenizer::new(MODE_NONE, &flags()).unwrap().none_fast);
        let mut odd = flags();
        odd[0x0b] = 0;
        assert!(!ByteTokenizer::new(MODE_NONE, &odd).unwrap().none_fast);
    }

    #[test]
    fn equals_the_code_point_tokenizer_where_it_applies() {
        let pieces = [
            "a",
            "Bc",
            " ",
            "  ",
            "\t",
            ".",
            ",",
            "-",
            "5",
            "42",
            "(",
            "!",
            "'",
            "\"",
            "$",
            "/",
            "\u{a0}",
            "\u{3000}",
            "\u{85}",
            "\x0b",
            "\x1c",
            "\x1f",
            "é",
            "中",
            "“",
            "<",
            "&",
            "\n",
            ".5",
            "5.",
            "3,50",
            "1-2",
            "\0",
            "Internationalization",
            "ABCDEFGHIJKLM",
        ];
        let flags = flags();
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let (mut taken, mut left) = (0, 0);
        for round in 0..20000 {
            // lines of up to 15 pieces, and some of up to 150 (across 64-byte chunks)
            let n = if round % 10 == 0 {
                next() % 150
            } else {
                next() % 16
            };
            let line: String = (0..n)
                .map(|_| pieces[next() as usize % pieces.len()])
                .collect();
            for mode in [MODE_13A, MODE_NONE] {
                let Some(got) = byte_tokens(&line, mode, &flags) else {
                    left += 1;
                    continue;
                };
                taken += 1;
                let want = run_with(&[line.trim_end()], mode, &flags);
                assert_eq!(got, want[0], "{line:?} {mode}");
            }
        }
        assert!(taken > 10000 && left > 10000, "{taken} {left}");
        // an everyday line is taken
        let line = "The 2 cats (and 3.5 dogs) sat, \"quietly\" - 1-2 naïve “ones”. ";
        let want = [
            "The",
            "2",
            "cats",
            "(",
            "and",
            "3.5",
            "dogs",
            ")",
            "sat",
            ",",
            "\"",
            "quietly",
            "\"",
            "-",
            "1",
            "-",
            "2",
            "naïve",
            "“ones”",
            ".",
        ];
        assert_eq!(byte_tokens(line, MODE_13A, &flags).unwrap(), want);
        assert!(ByteTokenizer::new(MODE_INTL, &flags).is_none());
    }
}
