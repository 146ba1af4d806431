//! Lines of text straight to token numbers: each line is decoded from UTF-8 into a small
//! buffer, right-stripped and tokenized ([`LineTokenizer`], the rules of `tokenize.rs`; an
//! ASCII line without 13a's rare cases is tokenized from its bytes by the same one-pass
//! rules), and each token numbered among the distinct tokens of the call, in order of first
//! occurrence.
//! Blocks of lines run in parallel, each with its own table; the blocks' distinct tokens are
//! then merged in block order, so the numbers are those of one pass over all the lines. The
//! caller interns only the distinct tokens (`mtpalette/text/bulk.py`), not every token, and
//! no code point array of the whole text is ever built.

use rayon::prelude::*;

use crate::error::{ensure, Checked};
use crate::tokenize::{
    emit_13a_plain, is_13a_plain_ascii, LineTokenizer, TokenSink, Tokens, MODE_13A, MODE_CHAR,
    MODE_INTL, SPACE,
};

/// Distinct tokens numbered in order of first occurrence, with their code points, starts,
/// lengths and hashes (the vocabulary's hash).
#[derive(Default)]
pub struct Distinct {
    /// open addressing: (hash, number, length) per slot, number `EMPTY` where free; the hash
    /// and length in the slot (which pads to 16 bytes anyway) spare a look elsewhere for all
    /// but the token itself
    table: Vec<(u64, u32, u32)>,
    pub cp: Vec<u32>,
    pub start: Vec<i64>,
    pub len: Vec<i64>,
    pub hash: Vec<u64>,
}

const EMPTY: u32 = u32::MAX;

impl Distinct {
    /// The number of `token` (code points, or the bytes of ASCII text; hash `h`), adding it
    /// when new.
    #[inline]
    fn id<T: Copy + Into<u32>>(&mut self, token: &[T], h: u64) -> i32 {
        if 2 * (self.hash.len() + 1) > self.table.len() {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut s = h as usize & mask;
        loop {
            let (sh, id, len) = self.table[s];
            if id == EMPTY {
                let id = self.hash.len() as u32;
                self.table[s] = (h, id, token.len() as u32);
                self.start.push(self.cp.len() as i64);
                self.len.push(token.len() as i64);
                self.hash.push(h);
                self.cp.extend(token.iter().map(|&c| c.into()));
                return id as i32;
            }
            if sh == h && len as usize == token.len() && {
                let b = self.start[id as usize] as usize;
                let stored = &self.cp[b..b + token.len()];
                stored.iter().zip(token).all(|(&a, &c)| a == c.into())
            } {
                return id as i32;
            }
            s = (s + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (2 * self.table.len()).max(1024);
        self.table = vec![(0, EMPTY, 0); size];
        let mask = size - 1;
        for (id, (&h, &len)) in self.hash.iter().zip(&self.len).enumerate() {
            let mut s = h as usize & mask;
            while self.table[s].1 != EMPTY {
                s = (s + 1) & mask;
            }
            self.table[s] = (h, id as u32, len as u32);
        }
    }

    fn token(&self, id: usize) -> &[u32] {
        let b = self.start[id] as usize;
        &self.cp[b..b + self.len[id] as usize]
    }
}

/// Each token's number into `ids`.
struct Numbered<'a> {
    distinct: &'a mut Distinct,
    ids: &'a mut Vec<i32>,
}

impl<T: Copy + Into<u32>> TokenSink<T> for Numbered<'_> {
    fn token(&mut self, _start: usize, token: &[T], h: u64) {
        self.ids.push(self.distinct.id(token, h));
    }
}

/// The tokens of a block of lines: tokens per line, each token's number in the block's
/// [`Distinct`].
struct Block {
    counts: Vec<i64>,
    ids: Vec<i32>,
    distinct: Distinct,
}

fn encode_block(lines: &[&str], mode: u8, flags: &[u16]) -> Block {
    let mut block = Block {
        counts: Vec::with_capacity(lines.len()),
        ids: Vec::new(),
        distinct: Distinct::default(),
    };
    let mut lt = LineTokenizer::new();
    let mut buf: Vec<u32> = Vec::new();
    let mut toks = Tokens::default();
    // the classes of the bytes of ASCII text, in a table whose length the compiler knows
    let mut ascii = [0u16; 256];
    ascii.copy_from_slice(&flags[..256]);
    for line in lines {
        let bytes = line.as_bytes();
        if mode == MODE_13A && line.is_ascii() {
            // Python's rstrip(): the SPACE class is str.isspace
            let end = bytes.iter().rposition(|&b| ascii[b as usize] & SPACE == 0);
            let text = &bytes[..end.map_or(0, |e| e + 1)];
            if is_13a_plain_ascii(text) {
                // the common case: tokens numbered straight from the bytes
                let sink = &mut Numbered {
                    distinct: &mut block.distinct,
                    ids: &mut block.ids,
                };
                block.counts.push(emit_13a_plain(text, &ascii[..], sink));
                continue;
            }
        }
        buf.clear();
        if line.is_ascii() {
            buf.extend(line.bytes().map(u32::from)); // vectorised
        } else {
            buf.extend(line.chars().map(|c| c as u32));
        }
        // Python's rstrip(): the SPACE class is str.isspace
        while buf.last().is_some_and(|&c| flags[c as usize] & SPACE != 0) {
            buf.pop();
        }
        toks.start.clear();
        toks.len.clear();
        toks.hash.clear();
        let count = lt.line(&mut buf, mode, flags, 0, &mut toks);
        for u in 0..toks.start.len() {
            let s = toks.start[u] as usize;
            let token = &buf[s..s + toks.len[u] as usize];
            block.ids.push(block.distinct.id(token, toks.hash[u]));
        }
        block.counts.push(count);
    }
    block
}

/// Blocks of lines per thread, to balance the threads on a shared machine (each block fills
/// its own table of distinct tokens; 2 and 8 measured alike on 13,700 WMT lines)
const BLOCKS_PER_THREAD: usize = 8;

/// The lines tokenized (mode `none`, `13a` or `intl`, after Python's `rstrip`): `(tokens per
/// line, each token's number, the distinct tokens)`. Blocks of lines run in parallel when
/// `parallel`.
pub fn encode_lines(
    lines: &[&str],
    mode: u8,
    flags: &[u16],
    parallel: bool,
) -> Checked<(Vec<i64>, Vec<i32>, Distinct)> {
    ensure(
        mode <= MODE_INTL && mode != MODE_CHAR && flags.len() >= 0x110000,
        || "encode_lines: bad mode (none, 13a or intl) or flags table".into(),
    )?;
    let n_blocks = if parallel {
        (BLOCKS_PER_THREAD * rayon::current_num_threads()).clamp(1, lines.len().max(1))
    } else {
        1
    };
    let per = lines.len().div_ceil(n_blocks).max(1);
    let blocks: Vec<Block> = lines
        .par_chunks(per)
        .map(|part| encode_block(part, mode, flags))
        .collect();
    // merge in block order: the numbers of one pass over all the lines
    let mut all = Distinct::default();
    let mut counts = Vec::with_capacity(lines.len());
    let mut ids = Vec::with_capacity(blocks.iter().map(|b| b.ids.len()).sum());
    for b in &blocks {
        let to_all: Vec<i32> = (0..b.distinct.hash.len())
            .map(|d| all.id(b.distinct.token(d), b.distinct.hash[d]))
            .collect();
        ids.extend(b.ids.iter().map(|&i| to_all[i as usize]));
        counts.extend_from_slice(&b.counts);
    }
    Ok((counts, ids, all))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tests::{ascii_flags, run_with};
    use crate::tokenize::MODE_NONE;

    fn flags() -> Vec<u16> {
        let mut flags = ascii_flags();
        flags[0xa0] |= SPACE;
        flags
    }

    /// The tokens of every line as strings, through [`encode_lines`].
    fn tokens(lines: &[&str], mode: u8, parallel: bool) -> Vec<Vec<String>> {
        let (counts, ids, d) = encode_lines(lines, mode, &flags(), parallel).unwrap();
        let mut ids = ids.iter();
        let text = |id: &i32| {
            d.token(*id as usize)
                .iter()
                .map(|&x| char::from_u32(x).unwrap())
        };
        counts
            .iter()
            .map(|&c| {
                (0..c)
                    .map(|_| text(ids.next().unwrap()).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn equals_the_code_point_tokenizer_and_numbers_by_first_occurrence() {
        let lines = [
            "Hello, world!  ",
            "world 3.5 &amp; x-1",
            "",
            "a...b \u{a0}",
            "Hello",
        ];
        // the code point route, on lines right-stripped first as Python does
        let stripped: Vec<&str> = lines.iter().map(|l| l.trim_end()).collect();
        for mode in [MODE_NONE, MODE_13A, MODE_INTL] {
            let want = run_with(&stripped, mode, &flags());
            assert_eq!(tokens(&lines, mode, false), want);
            assert_eq!(tokens(&lines, mode, true), want);
        }
        // numbers in order of first occurrence, across blocks too
        let many: Vec<&str> = ["b a", "a c", "c b d"].repeat(50);
        for parallel in [false, true] {
            let (counts, ids, d) = encode_lines(&many, MODE_NONE, &flags(), parallel).unwrap();
            assert_eq!(&ids[..7], &[0, 1, 1, 2, 2, 0, 3]);
            assert_eq!((counts.len(), d.hash.len()), (150, 4));
        }
        assert!(encode_lines(&["a"], MODE_CHAR, &flags(), false).is_err());
    }
}
