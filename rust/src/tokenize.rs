//! Bulk tokenization of many lines at once: sacrebleu's `13a`, `intl`, `none` and `char`
//! over UTF-32 code points, with character classes from a table built in Python from the very
//! engines sacrebleu uses (`re`, `regex`). How each rule is reproduced exactly is described in
//! `mtpalette/text/bulk.py`.

use rayon::prelude::*;

use crate::error::{ensure, Checked};
use crate::pairs::check_offsets;
use crate::vocab::{hash_end, hash_start, hash_step};

// character classes, one bit each in the flags table (as in bulk.py)
pub const SPACE: u16 = 1;
pub const SPLIT_13A: u16 = 2;
pub const PERIOD_COMMA: u16 = 4;
pub const DIGIT: u16 = 8;
pub const DASH: u16 = 16;
pub const REPLACE_13A: u16 = 32;
const PUNCT: u16 = 64;
const NUMBER: u16 = 128;
const SYMBOL: u16 = 256;

// modes, by tokenizer: none 0, char 1, 13a 2, intl 3 (MODES in bulk.py)
pub const MODE_NONE: u8 = 0;
pub const MODE_CHAR: u8 = 1;
pub const MODE_13A: u8 = 2;
pub const MODE_INTL: u8 = 3;

// items of a pair-rule window: an index into the line, or one of these
const PAD: i64 = -2; // 13a's padding space around the line
const INSERTED: i64 = -1; // a space inserted by a rule

fn codes(s: &str) -> Vec<u32> {
    s.chars().map(|c| c as u32).collect()
}

/// `str.replace` of `src` into `dst` (cleared first).
fn replace(src: &[u32], pattern: &[u32], replacement: &[u32], dst: &mut Vec<u32>) {
    dst.clear();
    let k = pattern.len();
    let mut i = 0;
    while i < src.len() {
        if i + k <= src.len() && src[i..i + k] == *pattern {
            dst.extend_from_slice(replacement);
            i += k;
        } else {
            dst.push(src[i]);
            i += 1;
        }
    }
}

struct Replacements {
    rules: Vec<(Vec<u32>, Vec<u32>)>,
}

impl Replacements {
    /// sacrebleu's 13a string replacements, in order (the entities only when the line has
    /// "&").
    fn new() -> Self {
        let pairs = [
            ("<skipped>", ""),
            ("-\n", ""),
            ("\n", " "),
            ("&quot;", "\""),
            ("&amp;", "&"),
            ("&lt;", "<"),
            ("&gt;", ">"),
        ];
        Replacements {
            rules: pairs.iter().map(|(a, b)| (codes(a), codes(b))).collect(),
        }
    }

    /// The line after the replacements (never longer), into `a`.
    fn apply(&self, line: &[u32], a: &mut Vec<u32>, b: &mut Vec<u32>) {
        a.clear();
        a.extend_from_slice(line);
        for (q, (pattern, replacement)) in self.rules.iter().enumerate() {
            if q == 3 && !a.contains(&38) {
                break;
            }
            replace(a, pattern, replacement, b);
            std::mem::swap(a, b);
        }
    }
}

#[inline(always)]
fn has(line: &[u32], i: i64, flags: &[u16], bit: u16) -> bool {
    i >= 0 && flags[line[i as usize] as usize] & bit != 0
}

/// Breaks made by the two pair rules around the maximal run `line[p..q]` of R characters
/// (see `_pair_rules` in bulk.py).
#[allow(clippy::too_many_arguments)]
fn pair_rules(
    line: &[u32],
    p: usize,
    q: usize,
    pad: bool,
    run: u16,
    digit: u16,
    flags: &[u16],
    wa: &mut Vec<i64>,
    wb: &mut Vec<i64>,
    brk: &mut [bool],
) {
    let k = line.len();
    wa.clear();
    if p > 0 {
        wa.push(p as i64 - 1);
    } else if pad {
        wa.push(PAD);
    }
    wa.extend((p..q).map(|i| i as i64));
    if q < k {
        wa.push(q as i64);
    } else if pad {
        wa.push(PAD);
    }
    // (not D)(R) -> \1 space \2 space
    wb.clear();
    let mut i = 0;
    while i < wa.len() {
        let x = wa[i];
        if i + 1 < wa.len() && !has(line, x, flags, digit) && has(line, wa[i + 1], flags, run) {
            wb.extend_from_slice(&[x, INSERTED, wa[i + 1], INSERTED]);
            i += 2;
        } else {
            wb.push(x);
            i += 1;
        }
    }
    // (R)(not D) -> space \1 space \2
    wa.clear();
    let mut i = 0;
    while i < wb.len() {
        let x = wb[i];
        if i + 1 < wb.len() && has(line, x, flags, run) && !has(line, wb[i + 1], flags, digit) {
            wa.extend_from_slice(&[INSERTED, x, INSERTED, wb[i + 1]]);
            i += 2;
        } else {
            wa.push(x);
            i += 1;
        }
    }
    let mut pending = false;
    for &x in wa.iter() {
        if x == INSERTED {
            pending = true;
        } else {
            if pending && x >= 0 {
                brk[x as usize] = true;
            }
            pending = false;
        }
    }
    if pending {
        brk[k] = true;
    }
}

/// `brk[i]`: whether 13a (or intl) puts a space before `line[i]` (see `_breaks` in bulk.py).
fn breaks(
    line: &[u32],
    is_13a: bool,
    flags: &[u16],
    wa: &mut Vec<i64>,
    wb: &mut Vec<i64>,
    brk: &mut Vec<bool>,
) {
    let (run, digit, isolate) = if is_13a {
        (PERIOD_COMMA, DIGIT, SPLIT_13A)
    } else {
        (PUNCT, NUMBER, SYMBOL)
    };
    let k = line.len();
    brk.clear();
    brk.resize(k + 1, false);
    let mut p: Option<usize> = None; // start of the current run of R characters
    let mut prev = 0u16;
    for i in 0..k {
        let f = flags[line[i] as usize];
        if f & run != 0 {
            if p.is_none() {
                p = Some(i);
            }
        } else {
            if let Some(start) = p.take() {
                pair_rules(line, start, i, is_13a, run, digit, flags, wa, wb, brk);
            }
            if f & isolate != 0 || (is_13a && f & DASH != 0 && prev & DIGIT != 0) {
                brk[i] = true;
                brk[i + 1] = true;
            }
        }
        prev = f;
    }
    if let Some(start) = p {
        pair_rules(line, start, k, is_13a, run, digit, flags, wa, wb, brk);
    }
}

/// The tokens of one line: (start in the line, length, hash) pushed to `out`.
fn emit(
    line: &[u32],
    flags: &[u16],
    each_char: bool,
    brk: Option<&[bool]>,
    base: i64,
    out: &mut Tokens,
) -> i64 {
    let n = line.len();
    let mut count = 0;
    let mut i = 0;
    while i < n {
        if flags[line[i] as usize] & SPACE != 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut h = hash_start();
        loop {
            h = hash_step(h, line[i]);
            i += 1;
            if each_char
                || i >= n
                || flags[line[i] as usize] & SPACE != 0
                || brk.is_some_and(|b| b[i])
            {
                break;
            }
        }
        out.start.push(base + start as i64);
        out.len.push((i - start) as i64);
        out.hash.push(hash_end(h));
        count += 1;
    }
    count
}

/// Whether [`emit_13a_plain`] applies to `line`: no character a string replacement may
/// apply to (`<`, `&`, newline) and no two period/comma characters in a row.
pub fn is_13a_plain(line: &[u32], flags: &[u16]) -> bool {
    let mut prev = 0u16;
    for &c in line {
        let f = flags[c as usize];
        if f & REPLACE_13A != 0 || f & prev & PERIOD_COMMA != 0 {
            return false;
        }
        prev = f;
    }
    true
}

/// 13a in one pass, for a line without its rare cases ([`is_13a_plain`]). Then the rules
/// reduce to: a character of the always-split class stands alone; a period or comma stands
/// alone unless a digit is on both sides of it (the line's padding spaces are not digits); a
/// dash after a digit stands alone. Pushes the tokens to `out` (starts offset by `base`);
/// returns how many.
pub fn emit_13a_plain(line: &[u32], flags: &[u16], base: i64, out: &mut Tokens) -> i64 {
    let mut count = 0i64;
    let mut start = 0usize; // start of the open token, if `open`
    let mut open = false;
    let mut h = hash_start();
    let n = line.len();
    let class = |i: usize| flags[line[i] as usize];
    let special = SPACE | SPLIT_13A | PERIOD_COMMA | DASH;
    let mut push = |start: usize, len: usize, h: u64| {
        out.start.push(base + start as i64);
        out.len.push(len as i64);
        out.hash.push(h);
    };
    macro_rules! close {
        ($end:expr) => {
            if open {
                push(start, $end - start, hash_end(h));
                count += 1;
                open = false;
            }
        };
    }
    macro_rules! alone {
        ($i:expr, $c:expr) => {
            push($i, 1, hash_end(hash_step(hash_start(), $c)));
            count += 1;
        };
    }
    let mut i = 0;
    while i < n {
        let c = line[i];
        let f = class(i);
        // the previous character's class: only a digit before matters
        let after_digit = i > 0 && class(i - 1) & DIGIT != 0;
        let word = if f & special == 0 {
            true
        } else if f & SPACE != 0 {
            close!(i);
            false
        } else if f & SPLIT_13A != 0 {
            close!(i);
            alone!(i, c);
            false
        } else if f & PERIOD_COMMA != 0 {
            // inside a number the digit before has opened a token
            let inside = after_digit && i + 1 < n && class(i + 1) & DIGIT != 0;
            if !inside {
                close!(i);
                alone!(i, c);
            }
            inside
        } else if after_digit {
            // a dash after a digit
            close!(i);
            alone!(i, c);
            false
        } else {
            true // a dash elsewhere
        };
        i += 1;
        if word {
            if !open {
                open = true;
                start = i - 1;
                h = hash_start();
            }
            h = hash_step(h, c);
            // the rest of a run of plain characters, in a loop of its own
            while i < n && class(i) & special == 0 {
                h = hash_step(h, line[i]);
                i += 1;
            }
        }
    }
    if open {
        push(start, n - start, hash_end(h));
        count += 1;
    }
    count
}

#[derive(Default)]
pub struct Tokens {
    pub start: Vec<i64>,
    pub len: Vec<i64>,
    pub hash: Vec<u64>,
    pub counts: Vec<i64>,
}

/// One line at a time, with scratch kept from line to line.
pub struct LineTokenizer {
    rep: Replacements,
    a: Vec<u32>,
    b: Vec<u32>,
    wa: Vec<i64>,
    wb: Vec<i64>,
    brk: Vec<bool>,
}

impl LineTokenizer {
    pub fn new() -> Self {
        LineTokenizer {
            rep: Replacements::new(),
            a: Vec::new(),
            b: Vec::new(),
            wa: Vec::new(),
            wb: Vec::new(),
            brk: Vec::new(),
        }
    }

    /// Pushes the tokens of `line` to `out` (starts offset by `base`), rewriting 13a's
    /// replacements in place; returns how many.
    pub fn line(
        &mut self,
        line: &mut [u32],
        mode: u8,
        flags: &[u16],
        base: i64,
        out: &mut Tokens,
    ) -> i64 {
        if mode == MODE_13A && is_13a_plain(line, flags) {
            return emit_13a_plain(line, flags, base, out);
        }
        if mode < MODE_13A {
            return emit(line, flags, mode == MODE_CHAR, None, base, out);
        }
        let mut n = line.len();
        if mode == MODE_13A && line.iter().any(|&c| flags[c as usize] & REPLACE_13A != 0) {
            self.rep.apply(line, &mut self.a, &mut self.b);
            n = self.a.len();
            line[..n].copy_from_slice(&self.a);
        }
        let text = &line[..n];
        let is_13a = mode == MODE_13A;
        breaks(
            text,
            is_13a,
            flags,
            &mut self.wa,
            &mut self.wb,
            &mut self.brk,
        );
        emit(text, flags, false, Some(&self.brk), base, out)
    }
}

impl Default for LineTokenizer {
    fn default() -> Self {
        Self::new()
    }
}

/// Tokenize the lines of `cp` (whose line `l` is `cp[off[l] - off[0]..off[l + 1] - off[0]]`),
/// rewriting 13a's replacements in place; token starts index `cp`.
fn tokenize_block(cp: &mut [u32], off: &[i64], mode: u8, flags: &[u16], out: &mut Tokens) {
    // room for the tokens: every character (char mode), else about one in four
    let room = if mode == MODE_CHAR {
        cp.len()
    } else {
        cp.len() / 4 + 16
    };
    out.start.reserve(room);
    out.len.reserve(room);
    out.hash.reserve(room);
    out.counts.reserve(off.len());
    let mut lt = LineTokenizer::new();
    let base0 = off[0];
    for l in 0..off.len() - 1 {
        let s0 = (off[l] - base0) as usize;
        let s1 = (off[l + 1] - base0) as usize;
        let count = lt.line(&mut cp[s0..s1], mode, flags, off[l], out);
        out.counts.push(count);
    }
}

/// Every line `cp[off[l]..off[l + 1]]` tokenized, blocks of lines in parallel: tokens of the
/// lines one after the other, `cp[start[u]..start[u] + len[u]]` with hash `hash[u]`.
pub fn tokenize(
    cp: &mut [u32],
    off: &[i64],
    mode: u8,
    flags: &[u16],
    parallel: bool,
) -> Checked<Tokens> {
    check_offsets(off, cp.len(), "line_off")?;
    ensure(
        mode <= MODE_INTL && flags.len() >= 0x110000 && cp.iter().all(|&c| c < 0x110000),
        || "tokenize: bad mode, flags table or code point".into(),
    )?;
    let n_lines = off.len() - 1;
    let n_blocks = if parallel {
        (8 * rayon::current_num_threads()).clamp(1, n_lines.max(1))
    } else {
        1
    };
    let per = n_lines.div_ceil(n_blocks).max(1);
    // split cp into the blocks' disjoint parts
    let mut parts: Vec<(&mut [u32], &[i64])> = Vec::new();
    let mut rest = cp;
    let mut lo = 0;
    while lo < n_lines {
        let hi = (lo + per).min(n_lines);
        let (head, tail) = rest.split_at_mut((off[hi] - off[lo]) as usize);
        parts.push((head, &off[lo..=hi]));
        rest = tail;
        lo = hi;
    }
    let blocks: Vec<Tokens> = parts
        .into_par_iter()
        .map(|(part, o)| {
            let mut t = Tokens::default();
            tokenize_block(part, o, mode, flags, &mut t);
            t
        })
        .collect();
    if blocks.len() == 1 {
        return Ok(blocks.into_iter().next().unwrap());
    }
    let mut all = Tokens::default();
    let n_tok = blocks.iter().map(|b| b.start.len()).sum();
    all.start.reserve_exact(n_tok);
    all.len.reserve_exact(n_tok);
    all.hash.reserve_exact(n_tok);
    all.counts.reserve_exact(n_lines);
    for b in blocks {
        all.start.extend(b.start);
        all.len.extend(b.len);
        all.hash.extend(b.hash);
        all.counts.extend(b.counts);
    }
    Ok(all)
}

/// Code points numbered among the distinct ones, in order of first occurrence: the Basic
/// Multilingual Plane in a table, the rest in a map.
struct CharNumbers {
    bmp: Vec<i32>,
    astral: rustc_hash::FxHashMap<u32, i32>,
    distinct: Vec<u32>,
}

impl CharNumbers {
    fn new() -> Self {
        CharNumbers {
            bmp: vec![-1; 0x10000],
            astral: Default::default(),
            distinct: Vec::new(),
        }
    }

    #[inline(always)]
    fn id(&mut self, c: u32) -> i32 {
        if c < 0x10000 {
            let slot = &mut self.bmp[c as usize];
            if *slot < 0 {
                *slot = self.distinct.len() as i32;
                self.distinct.push(c);
            }
            *slot
        } else {
            let distinct = &mut self.distinct;
            *self.astral.entry(c).or_insert_with(|| {
                distinct.push(c);
                distinct.len() as i32 - 1
            })
        }
    }
}

/// chrF's characters: every code point of the lines `cp[off[l]..off[l + 1]]` but whitespace
/// (the SPACE class), as the id of its code point among the distinct ones, numbered in order
/// of first occurrence. Returns `(characters per line, ids, the distinct code points)`: the
/// same tokens as the `char` mode of [`tokenize`], without a span and a hash per character.
pub fn char_ids(cp: &[u32], off: &[i64], flags: &[u16]) -> Checked<(Vec<i64>, Vec<i32>, Vec<u32>)> {
    check_offsets(off, cp.len(), "line_off")?;
    ensure(
        flags.len() >= 0x110000 && cp.iter().all(|&c| c < 0x110000),
        || "char_ids: bad flags table or code point".into(),
    )?;
    let lines = off
        .windows(2)
        .map(|w| cp[w[0] as usize..w[1] as usize].iter().copied());
    Ok(number_chars(lines, flags, false, cp.len()))
}

/// [`char_ids`] of text: the characters of every line as numbers, whitespace left out
/// unless `keep_space` (then every character counts, nothing stripped): `(characters per
/// line, ids)`.
pub fn text_char_ids(
    lines: &[&str],
    flags: &[u16],
    keep_space: bool,
) -> Checked<(Vec<i64>, Vec<i32>)> {
    ensure(flags.len() >= 0x110000, || {
        "text_char_ids: bad flags table".into()
    })?;
    let n_bytes = lines.iter().map(|l| l.len()).sum();
    let chars = lines.iter().map(|l| l.chars().map(|c| c as u32));
    let (counts, ids, _) = number_chars(chars, flags, keep_space, n_bytes);
    Ok((counts, ids))
}

/// The code points of every line (each below 0x110000) numbered by [`CharNumbers`],
/// whitespace left out unless `keep_space`: `(characters per line, ids, the distinct code
/// points)`; `capacity` is about the number of characters.
fn number_chars<L: Iterator<Item = u32>>(
    lines: impl ExactSizeIterator<Item = L>,
    flags: &[u16],
    keep_space: bool,
    capacity: usize,
) -> (Vec<i64>, Vec<i32>, Vec<u32>) {
    let mut numbers = CharNumbers::new();
    let mut ids = Vec::with_capacity(capacity);
    let mut counts = Vec::with_capacity(lines.len());
    for line in lines {
        let before = ids.len();
        for c in line {
            if keep_space || flags[c as usize] & SPACE == 0 {
                ids.push(numbers.id(c));
            }
        }
        counts.push((ids.len() - before) as i64);
    }
    (counts, ids, numbers.distinct)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The class table of `mtpalette.text.bulk.char_flags(False)` for ASCII.
    pub(crate) fn ascii_flags() -> Vec<u16> {
        let mut flags = vec![0u16; 0x110000];
        // str.isspace of ASCII: \t to \r, \x1c to \x1f and the space
        for c in (9..=13).chain(28..=32) {
            flags[c] |= SPACE;
        }
        for c in "{|}~[\\]^_` !\"#$%&()*+:;<=>?@/".chars() {
            flags[c as usize] |= SPLIT_13A;
        }
        for c in ['.', ','] {
            flags[c as usize] |= PERIOD_COMMA;
        }
        for c in '0'..='9' {
            flags[c as usize] |= DIGIT;
        }
        flags['-' as usize] |= DASH;
        for c in ['<', '&', '\n'] {
            flags[c as usize] |= REPLACE_13A;
        }
        flags
    }

    /// The code points of `lines` and the offsets of each line.
    fn code_points(lines: &[&str]) -> (Vec<u32>, Vec<i64>) {
        let cp = lines
            .iter()
            .flat_map(|l| l.chars().map(|c| c as u32))
            .collect();
        let mut off = vec![0i64];
        for l in lines {
            off.push(off.last().unwrap() + l.chars().count() as i64);
        }
        (cp, off)
    }

    /// The tokens of each line, as strings.
    fn run(lines: &[&str], mode: u8) -> Vec<Vec<String>> {
        run_with(lines, mode, &ascii_flags())
    }

    /// The tokens of each line, as strings, with the class table `flags`.
    pub(crate) fn run_with(lines: &[&str], mode: u8, flags: &[u16]) -> Vec<Vec<String>> {
        let (mut cp, off) = code_points(lines);
        let t = tokenize(&mut cp, &off, mode, flags, lines.len() > 1).unwrap();
        let mut out = Vec::new();
        let mut u = 0;
        for &count in &t.counts {
            let mut line = Vec::new();
            for _ in 0..count {
                let (s, n) = (t.start[u] as usize, t.len[u] as usize);
                let token = &cp[s..s + n];
                let h = token.iter().fold(hash_start(), |h, &c| hash_step(h, c));
                assert_eq!(t.hash[u], hash_end(h));
                line.push(token.iter().map(|&c| char::from_u32(c).unwrap()).collect());
                u += 1;
            }
            out.push(line);
        }
        out
    }

    #[test]
    fn thirteen_a_splits_punctuation_but_not_numbers() {
        let got = run(&["Hello, world!", "3.5, x", "a &amp; b"], MODE_13A);
        assert_eq!(got[0], ["Hello", ",", "world", "!"]);
        assert_eq!(got[1], ["3.5", ",", "x"]);
        assert_eq!(got[2], ["a", "&", "b"]);
    }

    #[test]
    fn the_one_pass_13a_equals_the_full_rules_where_it_applies() {
        let pieces = [
            "a", "Bc", " ", "  ", "\t", ".", ",", "-", "5", "42", "(", "!", "'", "\"", "$", "/",
            "\u{a0}", "\u{3000}", "é", "中", "<", "&", "\n", ".5", "5.", "3,50", "1-2",
        ];
        let mut flags = ascii_flags();
        flags[0xa0] |= SPACE;
        flags[0x3000] |= SPACE;
        let mut seed = 12345u64;
        let (mut plain_lines, mut full_lines) = (0, 0);
        for _ in 0..20000 {
            let mut line = String::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..(seed >> 60) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                line.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let (cp, _) = code_points(&[&line]);
            if !is_13a_plain(&cp, &flags) {
                full_lines += 1;
                continue;
            }
            plain_lines += 1;
            let mut fast = Tokens::default();
            let count = emit_13a_plain(&cp, &flags, 0, &mut fast);
            let (mut wa, mut wb, mut brk) = (Vec::new(), Vec::new(), Vec::new());
            breaks(&cp, true, &flags, &mut wa, &mut wb, &mut brk);
            let mut full = Tokens::default();
            let n = emit(&cp, &flags, false, Some(&brk), 0, &mut full);
            assert_eq!(count, n, "{line:?}");
            assert_eq!(
                (fast.start, fast.len, fast.hash),
                (full.start, full.len, full.hash),
                "{line:?}"
            );
        }
        assert!(
            plain_lines > 5000 && full_lines > 5000,
            "{plain_lines} {full_lines}"
        );
    }

    #[test]
    fn none_splits_on_spaces_and_char_on_every_character() {
        assert_eq!(run(&["ab  c, d"], 0)[0], ["ab", "c,", "d"]);
        assert_eq!(run(&["ab c"], MODE_CHAR)[0], ["a", "b", "c"]);
        assert_eq!(run(&["", "x"], 0), vec![vec![], vec!["x".to_string()]]);
    }

    #[test]
    fn char_ids_number_characters_as_char_mode_splits_them() {
        let lines = ["ab a", "", "\u{1F600}b \u{1F600}"];
        let (mut cp, off) = code_points(&lines);
        let (counts, ids, distinct) = char_ids(&cp, &off, &ascii_flags()).unwrap();
        assert_eq!(counts, vec![3, 0, 3]);
        assert_eq!(ids, vec![0, 1, 0, 2, 1, 2]);
        assert_eq!(distinct, vec![97, 98, 0x1F600]);
        // the same tokens as the char mode
        let t = tokenize(&mut cp, &off, MODE_CHAR, &ascii_flags(), false).unwrap();
        assert_eq!(t.counts, counts);
        let chars: Vec<u32> = t.start.iter().map(|&s| cp[s as usize]).collect();
        let from_ids: Vec<u32> = ids.iter().map(|&i| distinct[i as usize]).collect();
        assert_eq!(chars, from_ids);
        assert!(char_ids(&cp, &[0, 99], &ascii_flags()).is_err());
    }

    #[test]
    fn bad_tables_and_modes_are_refused() {
        let mut cp = vec![97u32];
        assert!(tokenize(&mut cp, &[0, 1], 4, &ascii_flags(), false).is_err());
        assert!(tokenize(&mut cp, &[0, 1], 0, &[0u16; 10], false).is_err());
        assert!(tokenize(&mut cp, &[0, 2], 0, &ascii_flags(), false).is_err());
    }
}
