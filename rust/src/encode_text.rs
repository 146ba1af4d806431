//! Lines of text straight to token numbers. Most lines are tokenized from their UTF-8 bytes
//! (`tokenize_bytes`, 13a and none); the others (13a's rare cases, intl) are decoded into a
//! small buffer of code points, right-stripped and tokenized by the full rules
//! ([`LineTokenizer`]). Either way each token becomes a key (`token_keys`). Blocks of lines
//! run in parallel; their keys are then numbered in one pass, in block order, so the numbers
//! are those of one pass over all the lines, in order of first occurrence. The caller interns
//! only the distinct tokens (`mtpalette/text/bulk.py`), not every token, and no code point
//! array of the whole text is ever built. The routes straight from text take the numbers
//! alone ([`line_ids`]; chrF++'s words by [`chrf_word_ids`], the same blocks and numbering).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use crate::error::{ensure, Checked};
use crate::scratch;
use crate::token_keys::{Interner, Keys};
use crate::tokenize::{LineTokenizer, Tokens, MODE_CHAR, MODE_INTL, SPACE};
use crate::tokenize_bytes::ByteTokenizer;
use crate::vocab::{hash_end, hash_start, hash_step};

/// The distinct tokens of a call, in order of first occurrence: token `t` is
/// `cp[start[t]..start[t] + len[t]]` (code points), with the vocabulary's hash `hash[t]`.
#[derive(Default)]
pub struct Distinct {
    pub cp: Vec<u32>,
    pub start: Vec<i64>,
    pub len: Vec<i64>,
    pub hash: Vec<u64>,
}

impl Distinct {
    #[cfg(test)]
    fn token(&self, id: usize) -> &[u32] {
        let b = self.start[id] as usize;
        &self.cp[b..b + self.len[id] as usize]
    }

    /// Adds the token of UTF-8 bytes `token`.
    fn push(&mut self, token: &[u8]) {
        let at = self.cp.len();
        if token.is_ascii() {
            self.cp.extend(token.iter().map(|&b| u32::from(b)));
        } else {
            let text = std::str::from_utf8(token).expect("tokens end at character boundaries");
            self.cp.extend(text.chars().map(|c| c as u32));
        }
        let h = self.cp[at..]
            .iter()
            .fold(hash_start(), |h, &c| hash_step(h, c));
        self.start.push(at as i64);
        self.len.push((self.cp.len() - at) as i64);
        self.hash.push(hash_end(h));
    }
}

/// The tokens of a block of lines: tokens per line, and the tokens as keys.
struct Block {
    counts: Vec<i64>,
    keys: Keys,
}

/// A block's keys go back to this thread's kept buffers (`scratch`) when it is dropped.
impl Drop for Block {
    fn drop(&mut self) {
        scratch::give(std::mem::take(&mut self.keys.keys));
    }
}

fn encode_block(lines: &[&str], mode: u8, flags: &[u16]) -> Block {
    let mut block = Block {
        counts: Vec::with_capacity(lines.len()),
        keys: Keys::default(),
    };
    // room for about one token per 4 bytes (English: about 5), not grown step by step
    let n_bytes: usize = lines.iter().map(|l| l.len()).sum();
    block.keys.keys = scratch::take(n_bytes / 4);
    let mut bytes = ByteTokenizer::new(mode, flags);
    let mut lt = LineTokenizer::new();
    let (mut buf, mut toks, mut utf8) = (Vec::<u32>::new(), Tokens::default(), Vec::new());
    for line in lines {
        // most lines: straight from their bytes
        if let Some(count) = bytes
            .as_mut()
            .and_then(|bt| bt.push_line(line, flags, &mut block.keys))
        {
            block.counts.push(count);
            continue;
        }
        buf.clear();
        buf.extend(line.chars().map(|c| c as u32));
        // Python's rstrip(): the SPACE class is str.isspace
        while buf.last().is_some_and(|&c| flags[c as usize] & SPACE != 0) {
            buf.pop();
        }
        toks.start.clear();
        toks.len.clear();
        toks.hash.clear();
        let count = lt.line(&mut buf, mode, flags, 0, &mut toks);
        for (&s, &n) in toks.start.iter().zip(&toks.len) {
            utf8.clear();
            for &c in &buf[s as usize..(s + n) as usize] {
                let ch = char::from_u32(c).expect("code points of a str");
                utf8.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
            }
            block.keys.push_bytes(&utf8);
        }
        block.counts.push(count);
    }
    block
}

/// Blocks of lines per thread: small blocks keep the numbering close behind the tokenizers
/// (see [`number_blocks`]) and balance the threads on a shared machine
const BLOCKS_PER_THREAD: usize = 16;

/// The lines tokenized (mode `none`, `13a` or `intl`, after Python's `rstrip`): `(tokens per
/// line, each token's number, the blocks of keys, the first key of each number and its
/// block)`. Blocks of lines run in parallel when `parallel`; their keys are then numbered in
/// one pass, in block order: the numbers of one pass over all the lines, dense from 0.
#[allow(clippy::type_complexity)]
fn number_lines(
    lines: &[&str],
    mode: u8,
    flags: &[u16],
    parallel: bool,
) -> Checked<(Vec<i64>, Vec<i32>, Vec<Block>, Vec<(u64, u32)>)> {
    ensure(
        mode <= MODE_INTL && mode != MODE_CHAR && flags.len() >= 0x110000,
        || "encode_lines: bad mode (none, 13a or intl) or flags table".into(),
    )?;
    Ok(number_blocks(lines, parallel, |part| {
        encode_block(part, mode, flags)
    }))
}

/// The lines cut into blocks, each turned into keys by `encode`, and the keys numbered in one
/// pass, in block order (see [`number_lines`]).
///
/// The numbering is one pass (a key is new exactly where no block before has it), and it
/// runs beside the tokenizers: this thread numbers the blocks in order, the pool's other
/// threads (when `parallel`) make blocks in order; whichever thread finds no block ready
/// makes the next one itself, so no thread waits for long and the numbering ends soon after
/// the last block is made.
#[allow(clippy::type_complexity)]
fn number_blocks(
    lines: &[&str],
    parallel: bool,
    encode: impl Fn(&[&str]) -> Block + Sync + Send,
) -> (Vec<i64>, Vec<i32>, Vec<Block>, Vec<(u64, u32)>) {
    let threads = if parallel {
        rayon::current_num_threads()
    } else {
        1
    };
    let n_blocks = (BLOCKS_PER_THREAD * threads).clamp(1, lines.len().max(1));
    let parts: Vec<&[&str]> = lines
        .chunks(lines.len().div_ceil(n_blocks).max(1))
        .collect();
    let made: Vec<OnceLock<Block>> = parts.iter().map(|_| OnceLock::new()).collect();
    let claimed = AtomicUsize::new(0);
    // makes the first block no thread has claimed; false when every block is claimed
    let make_next = || {
        let j = claimed.fetch_add(1, Ordering::Relaxed);
        if j >= parts.len() {
            return false;
        }
        let _ = made[j].set(encode(parts[j]));
        true
    };
    // room for the distinct tokens expected (Heaps' law: about 8 sqrt(bytes) on WMT news, 11
    // on 300 kB of it; 1 in 192 bytes on large corpora), so that a small call's tables do
    // not grow several times; the tables grow when needed, and a small table stays in cache
    let n_bytes: usize = lines.iter().map(|l| l.len()).sum();
    let expected = (n_bytes / 192).max(8 * (n_bytes as f64).sqrt() as usize);
    let mut interner = Interner::with_capacity(expected);
    let mut ids = scratch::take(n_bytes / 5);
    let mut counts = Vec::with_capacity(lines.len());
    let mut number_all = || {
        for (bi, slot) in made.iter().enumerate() {
            let mut spins = 0u32;
            let b = loop {
                match slot.get() {
                    Some(b) => break b,
                    // claimed by another thread, which is making it now: spin a little, then
                    // yield (on a busy machine that thread may not be running at all)
                    None if !make_next() => {
                        spins += 1;
                        if spins < 256 {
                            std::hint::spin_loop();
                        } else {
                            std::thread::yield_now();
                        }
                    }
                    None => {}
                }
            };
            let bi = bi as u32;
            ids.extend(
                b.keys
                    .keys
                    .iter()
                    .map(|&key| interner.id(&b.keys, bi, key) as i32),
            );
            counts.extend_from_slice(&b.counts);
        }
    };
    if threads == 1 {
        // on this thread: a scope would hand the work to the pool and wait for it there
        number_all();
    } else {
        rayon::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(|_| while make_next() {});
            }
            number_all();
        });
    }
    let firsts = std::mem::take(&mut interner.firsts);
    drop(interner);
    let blocks = made
        .into_iter()
        .map(|b| b.into_inner().expect("every block is made"))
        .collect();
    (counts, ids, blocks, firsts)
}

/// chrF++'s words of every line (sacrebleu's `CHRF._remove_punctuation` after
/// `str.split()`, as `mtpalette.metrics.chrf.chrf_words`): `(words per line, each word's
/// number)`, numbers dense from 0. `flags` gives the SPACE class (`str.isspace`).
pub fn chrf_word_ids(
    lines: &[&str],
    flags: &[u16],
    parallel: bool,
) -> Checked<(Vec<i64>, Vec<i32>)> {
    ensure(flags.len() >= 0x110000, || {
        "chrf_word_ids: bad flags table".into()
    })?;
    let (counts, ids, _, _) = number_blocks(lines, parallel, |part| {
        let mut block = Block {
            counts: Vec::with_capacity(part.len()),
            keys: Keys::default(),
        };
        for line in part {
            block
                .counts
                .push(push_chrf_words(line, flags, &mut block.keys));
        }
        block
    });
    Ok((counts, ids))
}

/// sacrebleu's `CHRF._PUNCTS`: the marks split off the edge of a chrF++ word
fn is_chrf_punct(b: u8) -> bool {
    b.is_ascii_punctuation()
}

/// The chrF++ words of `line` as keys: split at whitespace; a word of two or more
/// characters ending in a mark loses that mark, else one starting with a mark loses that
/// one, each mark a word of its own. Returns the number of words.
fn push_chrf_words(line: &str, flags: &[u16], keys: &mut Keys) -> i64 {
    let mut count = 0;
    for word in line.split(|c: char| flags[c as usize] & SPACE != 0) {
        let b = word.as_bytes();
        if b.is_empty() {
            continue;
        }
        // two or more characters (the marks are ASCII: a last byte that is one is a whole
        // character)
        if b.len() > 1 && word.chars().nth(1).is_some() {
            let n = b.len();
            if is_chrf_punct(b[n - 1]) {
                keys.push_bytes(&b[..n - 1]);
                keys.push_bytes(&b[n - 1..]);
                count += 2;
                continue;
            }
            if is_chrf_punct(b[0]) {
                keys.push_bytes(&b[..1]);
                keys.push_bytes(&b[1..]);
                count += 2;
                continue;
            }
        }
        keys.push_bytes(b);
        count += 1;
    }
    count
}

/// The lines tokenized as by [`encode_lines`]: `(tokens per line, each token's number)`,
/// numbers dense from 0 (equal exactly for equal tokens), without the distinct tokens' text.
pub fn line_ids(
    lines: &[&str],
    mode: u8,
    flags: &[u16],
    parallel: bool,
) -> Checked<(Vec<i64>, Vec<i32>)> {
    let (counts, ids, _, _) = number_lines(lines, mode, flags, parallel)?;
    Ok((counts, ids))
}

/// The lines tokenized (see [`number_lines`]): `(tokens per line, each token's number, the
/// distinct tokens)`.
pub fn encode_lines(
    lines: &[&str],
    mode: u8,
    flags: &[u16],
    parallel: bool,
) -> Checked<(Vec<i64>, Vec<i32>, Distinct)> {
    let (counts, ids, blocks, firsts) = number_lines(lines, mode, flags, parallel)?;
    let mut distinct = Distinct::default();
    let mut buf = [0u8; 16];
    for &(key, bi) in &firsts {
        distinct.push(blocks[bi as usize].keys.token_in(key, &mut buf));
    }
    Ok((counts, ids, distinct))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenize::tests::{ascii_flags, run_with};
    use crate::tokenize::{MODE_13A, MODE_NONE};

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

    #[test]
    fn blocks_numbered_apart_give_the_numbers_of_one_pass() {
        // new words keep appearing in later blocks; short, mid (9-16 bytes) and long ones
        let mut state = 5u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let stems = [
            "a",
            "word",
            "sixteenbytes0123",
            "averyveryverylongtokenindeed",
        ];
        let lines: Vec<String> = (0..900)
            .map(|i| {
                (0..next(12))
                    .map(|_| format!("{}{}", stems[next(4) as usize], next(3 + i as u64)))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let lines: Vec<&str> = lines.iter().map(|l| l.as_str()).collect();
        let (c1, i1, d1) = encode_lines(&lines, MODE_NONE, &flags(), false).unwrap();
        let (c2, i2, d2) = encode_lines(&lines, MODE_NONE, &flags(), true).unwrap();
        assert_eq!((c1, i1), (c2, i2));
        assert!(d2.len.len() > 1000, "a growing vocabulary");
        assert_eq!(
            (d1.cp, d1.start, d1.len, d1.hash),
            (d2.cp, d2.start, d2.len, d2.hash)
        );
    }
}
