//! The Porter stemmer exactly as NLTK's `PorterStemmer()` runs it (its default mode,
//! `NLTK_EXTENSIONS`), which is what rouge-score's `use_stemmer=True` calls.
//!
//! Written here from the rules (Porter 1980, "An algorithm for suffix stripping", with the
//! deviations NLTK documents in `nltk/stem/porter.py`): no crate on crates.io implements NLTK's
//! mode (`rust-stemmers` is Snowball's English stemmer, "Porter2"; `porter-stemmer` is Martin
//! Porter's own C version), and they differ on common words (`dying`, `skies`, `happy`, `fly`,
//! `generously`...). The NLTK deviations reproduced:
//!
//! * a pool of irregular forms looked up first (`skies` -> `sky`, `dying` -> `die`, `news`...);
//! * words of at most 2 letters are returned as they are;
//! * step 1a: a 4-letter word ending in `ies` becomes `..ie` (`ties` -> `tie`);
//! * step 1b: `ied` becomes `ie` in a 4-letter word, `i` otherwise;
//! * condition *o also holds for a 2-letter vowel-consonant stem;
//! * step 1c: `y` -> `i` only after a consonant that is not the word's first letter;
//! * step 2: `alli` -> `al` then step 2 again; `bli` -> `ble` (not `abli`); `fulli` -> `ful`;
//!   `logi` -> `log` when the word less `ogi` has a positive measure.
//!
//! The input is one lower-case ASCII token (rouge-score's tokens are `[a-z0-9]+`); digits are
//! consonants, as in NLTK. Property tests check every token of real text against NLTK.

/// Irregular forms NLTK maps before the rules.
const POOL: &[(&[u8], &[u8])] = &[
    (b"sky", b"sky"),
    (b"skies", b"sky"),
    (b"dying", b"die"),
    (b"lying", b"lie"),
    (b"tying", b"tie"),
    (b"news", b"news"),
    (b"innings", b"inning"),
    (b"inning", b"inning"),
    (b"outings", b"outing"),
    (b"outing", b"outing"),
    (b"cannings", b"canning"),
    (b"canning", b"canning"),
    (b"howe", b"howe"),
    (b"proceed", b"proceed"),
    (b"exceed", b"exceed"),
    (b"succeed", b"succeed"),
];

fn is_vowel(c: u8) -> bool {
    matches!(c, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// The paper's consonant: not a vowel, and `y` only when not preceded by a consonant.
fn is_consonant(w: &[u8], i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    if w[i] != b'y' {
        return true;
    }
    // a run of y's alternates consonant/vowel from the letter before it
    let mut negate = false;
    let mut k = i;
    while k > 0 && w[k] == b'y' {
        negate = !negate;
        k -= 1;
    }
    is_vowel(w[k]) == negate
}

/// m in [C](VC){m}[V].
fn measure(w: &[u8]) -> usize {
    let mut m = 0;
    let mut prev_vowel = false;
    let mut prev_cons = false; // consonant flag of the previous letter, for y
    for i in 0..w.len() {
        let c = w[i];
        let cons = if is_vowel(c) {
            false
        } else if c == b'y' {
            i == 0 || !prev_cons
        } else {
            true
        };
        if cons && prev_vowel {
            m += 1;
        }
        prev_vowel = !cons;
        prev_cons = cons;
    }
    m
}

fn contains_vowel(w: &[u8]) -> bool {
    (0..w.len()).any(|i| !is_consonant(w, i))
}

fn ends_double_consonant(w: &[u8]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// Condition *o (cvc, the last c not w, x, y), or NLTK's 2-letter vowel-consonant stem.
fn ends_cvc(w: &[u8]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], b'w' | b'x' | b'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

fn with(stem: &[u8], tail: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(stem.len() + tail.len());
    out.extend_from_slice(stem);
    out.extend_from_slice(tail);
    out
}

#[derive(Clone, Copy)]
enum Cond {
    Always,
    /// m(stem) > 0
    M0,
    /// m(stem) > 1
    M1,
    /// m(stem) > 1 and the stem ends in s or t
    M1St,
    /// m(word less "ogi") > 0 (NLTK's logi rule)
    Logi,
}

/// The first rule whose suffix ends `w` decides: replaced when its condition holds, else the
/// word unchanged (the paper's "longest matching suffix" by list order, as NLTK).
fn apply(w: Vec<u8>, rules: &[(&[u8], &[u8], Cond)]) -> Vec<u8> {
    for &(suffix, replacement, cond) in rules {
        if w.ends_with(suffix) {
            let stem = &w[..w.len() - suffix.len()];
            let ok = match cond {
                Cond::Always => true,
                Cond::M0 => measure(stem) > 0,
                Cond::M1 => measure(stem) > 1,
                Cond::M1St => measure(stem) > 1 && matches!(stem.last(), Some(b's' | b't')),
                Cond::Logi => measure(&w[..w.len() - 3]) > 0,
            };
            return if ok { with(stem, replacement) } else { w };
        }
    }
    w
}

fn step1a(w: Vec<u8>) -> Vec<u8> {
    if w.len() == 4 && w.ends_with(b"ies") {
        return with(&w[..1], b"ie");
    }
    apply(
        w,
        &[
            (b"sses", b"ss", Cond::Always),
            (b"ies", b"i", Cond::Always),
            (b"ss", b"ss", Cond::Always),
            (b"s", b"", Cond::Always),
        ],
    )
}

fn step1b(w: Vec<u8>) -> Vec<u8> {
    if w.ends_with(b"ied") {
        let tail: &[u8] = if w.len() == 4 { b"ie" } else { b"i" };
        return with(&w[..w.len() - 3], tail);
    }
    if w.ends_with(b"eed") {
        let stem = &w[..w.len() - 3];
        return if measure(stem) > 0 {
            with(stem, b"ee")
        } else {
            w
        };
    }
    let mut inter: Option<&[u8]> = None;
    for suffix in [&b"ed"[..], &b"ing"[..]] {
        if w.ends_with(suffix) {
            let stem = &w[..w.len() - suffix.len()];
            if contains_vowel(stem) {
                inter = Some(stem);
                break;
            }
        }
    }
    let Some(s) = inter else { return w };
    for (suffix, replacement) in [
        (&b"at"[..], &b"ate"[..]),
        (&b"bl"[..], &b"ble"[..]),
        (&b"iz"[..], &b"ize"[..]),
    ] {
        if s.ends_with(suffix) {
            return with(&s[..s.len() - 2], replacement);
        }
    }
    if ends_double_consonant(s) {
        let last = s[s.len() - 1];
        return if matches!(last, b'l' | b's' | b'z') {
            s.to_vec()
        } else {
            s[..s.len() - 1].to_vec()
        };
    }
    if measure(s) == 1 && ends_cvc(s) {
        return with(s, b"e");
    }
    s.to_vec()
}

fn step1c(w: Vec<u8>) -> Vec<u8> {
    if w.ends_with(b"y") {
        let stem = &w[..w.len() - 1];
        if stem.len() > 1 && is_consonant(stem, stem.len() - 1) {
            return with(stem, b"i");
        }
    }
    w
}

fn step2(w: Vec<u8>) -> Vec<u8> {
    if w.ends_with(b"alli") && measure(&w[..w.len() - 4]) > 0 {
        return step2(with(&w[..w.len() - 4], b"al"));
    }
    use Cond::M0;
    apply(
        w,
        &[
            (b"ational", b"ate", M0),
            (b"tional", b"tion", M0),
            (b"enci", b"ence", M0),
            (b"anci", b"ance", M0),
            (b"izer", b"ize", M0),
            (b"bli", b"ble", M0),
            (b"alli", b"al", M0),
            (b"entli", b"ent", M0),
            (b"eli", b"e", M0),
            (b"ousli", b"ous", M0),
            (b"ization", b"ize", M0),
            (b"ation", b"ate", M0),
            (b"ator", b"ate", M0),
            (b"alism", b"al", M0),
            (b"iveness", b"ive", M0),
            (b"fulness", b"ful", M0),
            (b"ousness", b"ous", M0),
            (b"aliti", b"al", M0),
            (b"iviti", b"ive", M0),
            (b"biliti", b"ble", M0),
            (b"fulli", b"ful", M0),
            (b"logi", b"log", Cond::Logi),
        ],
    )
}

fn step3(w: Vec<u8>) -> Vec<u8> {
    use Cond::M0;
    apply(
        w,
        &[
            (b"icate", b"ic", M0),
            (b"ative", b"", M0),
            (b"alize", b"al", M0),
            (b"iciti", b"ic", M0),
            (b"ical", b"ic", M0),
            (b"ful", b"", M0),
            (b"ness", b"", M0),
        ],
    )
}

fn step4(w: Vec<u8>) -> Vec<u8> {
    use Cond::M1;
    apply(
        w,
        &[
            (b"al", b"", M1),
            (b"ance", b"", M1),
            (b"ence", b"", M1),
            (b"er", b"", M1),
            (b"ic", b"", M1),
            (b"able", b"", M1),
            (b"ible", b"", M1),
            (b"ant", b"", M1),
            (b"ement", b"", M1),
            (b"ment", b"", M1),
            (b"ent", b"", M1),
            (b"ion", b"", Cond::M1St),
            (b"ou", b"", M1),
            (b"ism", b"", M1),
            (b"ate", b"", M1),
            (b"iti", b"", M1),
            (b"ous", b"", M1),
            (b"ive", b"", M1),
            (b"ize", b"", M1),
        ],
    )
}

fn step5a(w: Vec<u8>) -> Vec<u8> {
    if w.ends_with(b"e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            return stem.to_vec();
        }
    }
    w
}

fn step5b(w: Vec<u8>) -> Vec<u8> {
    if w.ends_with(b"ll") && measure(&w[..w.len() - 1]) > 1 {
        return w[..w.len() - 1].to_vec();
    }
    w
}

/// The stem of one lower-case ASCII word, as NLTK's `PorterStemmer().stem(word)`.
pub fn stem(word: &[u8]) -> Vec<u8> {
    if let Some(&(_, to)) = POOL.iter().find(|(from, _)| *from == word) {
        return to.to_vec();
    }
    if word.len() <= 2 {
        return word.to_vec();
    }
    let w = step1a(word.to_vec());
    let w = step1b(w);
    let w = step1c(w);
    let w = step2(w);
    let w = step3(w);
    let w = step4(w);
    let w = step5a(w);
    step5b(w)
}

#[cfg(test)]
mod tests {
    use super::stem;

    fn s(w: &str) -> String {
        String::from_utf8(stem(w.as_bytes())).unwrap()
    }

    #[test]
    fn paper_examples_and_nltk_deviations() {
        // Porter (1980), steps 1a-5b, as NLTK's mode gives them
        for (word, want) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cats", "cat"),
            ("feed", "feed"),
            ("agreed", "agre"),
            ("plastered", "plaster"),
            ("motoring", "motor"),
            ("sing", "sing"),
            ("conflated", "conflat"),
            ("hopping", "hop"),
            ("falling", "fall"),
            ("filing", "file"),
            ("happy", "happi"),
            ("enjoy", "enjoy"),
            ("relational", "relat"),
            ("generously", "gener"),
            ("dying", "die"),
            ("skies", "sky"),
            ("meeting", "meet"),
            ("friends", "friend"),
            ("controll", "control"),
            ("roll", "roll"),
            ("fly", "fli"),
            ("died", "die"),
            ("cried", "cri"),
        ] {
            assert_eq!(s(word), want, "{word}");
        }
    }

    #[test]
    fn short_and_digit_words() {
        assert_eq!(s("is"), "is");
        assert_eq!(s("2021"), "2021");
        assert_eq!(s("yyyy"), "yyyi"); // as NLTK
    }
}
