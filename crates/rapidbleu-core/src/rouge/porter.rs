//! NLTK 3.9's `PorterStemmer()` in its default `NLTK_EXTENSIONS` mode (`nltk/stem/porter.py`),
//! rule for rule, on ASCII words.
//!
//! rouge-score only stems tokens of `[a-z0-9]` longer than three characters, so the port
//! works on bytes: NLTK's `word.lower()` changes nothing there, and every rule compares ASCII
//! letters. Each function names the NLTK method it copies; the order of the rules, the
//! irregular-forms pool and NLTK's deviations from the paper (`ies`/`ied` on four letters,
//! `alli`, `fulli`, `logi`, the two-letter `*o`, step 1c's consonant condition) are kept.

/// NLTK's irregular forms (`PorterStemmer.__init__`'s `pool`: word -> stem), checked first.
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

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// `_is_consonant(word, i)`: a `y` is a consonant when it starts the word or follows a vowel
/// (NLTK walks back over a run of `y`s, toggling; `_consonant_flags` is the same rule).
fn is_consonant(w: &[u8], i: usize) -> bool {
    if is_vowel(w[i]) {
        return false;
    }
    if w[i] != b'y' {
        return true;
    }
    let mut negate = false;
    let mut i = i;
    while i > 0 && w[i] == b'y' {
        negate = !negate;
        i -= 1;
    }
    is_vowel(w[i]) == negate
}

/// `_measure`: the number of `vc` pairs in the word's consonant/vowel pattern
/// (`_consonant_flags`: a `y` is a consonant iff it starts the word or follows a vowel).
fn measure(w: &[u8]) -> usize {
    let mut m = 0;
    let mut prev_cons = true; // a leading consonant run counts nothing
    for (i, &b) in w.iter().enumerate() {
        let cons = if is_vowel(b) {
            false
        } else if b == b'y' {
            i == 0 || !prev_cons
        } else {
            true
        };
        if i > 0 && !prev_cons && cons {
            m += 1;
        }
        prev_cons = cons;
    }
    m
}

/// `_contains_vowel`.
fn contains_vowel(w: &[u8]) -> bool {
    (0..w.len()).any(|i| !is_consonant(w, i))
}

/// `_ends_double_consonant` (condition `*d`).
fn ends_double_consonant(w: &[u8]) -> bool {
    let n = w.len();
    n >= 2 && w[n - 1] == w[n - 2] && is_consonant(w, n - 1)
}

/// `_ends_cvc` (condition `*o`), with NLTK's two-letter extension.
fn ends_cvc(w: &[u8]) -> bool {
    let n = w.len();
    (n >= 3
        && is_consonant(w, n - 3)
        && !is_consonant(w, n - 2)
        && is_consonant(w, n - 1)
        && !matches!(w[n - 1], b'w' | b'x' | b'y'))
        || (n == 2 && !is_consonant(w, 0) && is_consonant(w, 1))
}

/// A rule's condition on the stem (the word without the suffix).
#[derive(Clone, Copy)]
enum Cond {
    None,
    /// `_has_positive_measure`.
    M0,
    /// `measure > 1`.
    M1,
    /// Step 4's `ion`: `measure > 1` and the stem ends in `s` or `t`.
    Ion,
    /// Step 2's `logi` (NLTK): the word without its last three letters has a positive measure.
    Logi,
}

fn holds(cond: Cond, stem: &[u8], word: &[u8]) -> bool {
    match cond {
        Cond::None => true,
        Cond::M0 => measure(stem) > 0,
        Cond::M1 => measure(stem) > 1,
        Cond::Ion => measure(stem) > 1 && matches!(stem.last(), Some(b's' | b't')),
        Cond::Logi => measure(&word[..word.len() - 3]) > 0,
    }
}

/// `_apply_rule_list` for plain suffix rules: the first rule whose suffix ends the word
/// decides (its condition failing leaves the word unchanged).
fn apply(word: &mut Vec<u8>, rules: &[(&[u8], &[u8], Cond)]) {
    for &(suffix, replacement, cond) in rules {
        if word.ends_with(suffix) {
            let stem_len = word.len() - suffix.len();
            if holds(cond, &word[..stem_len], word) {
                word.truncate(stem_len);
                word.extend_from_slice(replacement);
            }
            return;
        }
    }
}

fn step1a(w: &mut Vec<u8>) {
    if w.ends_with(b"ies") && w.len() == 4 {
        w.truncate(1);
        w.extend_from_slice(b"ie");
        return;
    }
    apply(
        w,
        &[
            (b"sses", b"ss", Cond::None),
            (b"ies", b"i", Cond::None),
            (b"ss", b"ss", Cond::None),
            (b"s", b"", Cond::None),
        ],
    );
}

fn step1b(w: &mut Vec<u8>) {
    if w.ends_with(b"ied") {
        let short = w.len() == 4;
        w.truncate(w.len() - 3);
        w.extend_from_slice(if short { b"ie" } else { b"i" });
        return;
    }
    if w.ends_with(b"eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            w.truncate(w.len() - 1);
        }
        return;
    }
    let mut cut = None;
    for suffix in [&b"ed"[..], b"ing"] {
        if w.ends_with(suffix) && contains_vowel(&w[..w.len() - suffix.len()]) {
            cut = Some(w.len() - suffix.len());
            break;
        }
    }
    let Some(cut) = cut else { return };
    w.truncate(cut);
    // The rule list of the intermediate stem: at/bl/iz, then *d, then "" (m=1 and *o -> e).
    for (suffix, replacement) in [(&b"at"[..], &b"ate"[..]), (b"bl", b"ble"), (b"iz", b"ize")] {
        if w.ends_with(suffix) {
            w.truncate(w.len() - suffix.len());
            w.extend_from_slice(replacement);
            return;
        }
    }
    if ends_double_consonant(w) {
        let last = w[w.len() - 1];
        if !matches!(last, b'l' | b's' | b'z') {
            w.truncate(w.len() - 1); // stem[:-2] + intermediate_stem[-1]
        }
        return;
    }
    if measure(w) == 1 && ends_cvc(w) {
        w.push(b'e');
    }
}

fn step1c(w: &mut [u8]) {
    // NLTK's condition: the stem is longer than one letter and ends in a consonant.
    if w.ends_with(b"y") {
        let n = w.len() - 1;
        if n > 1 && is_consonant(w, n - 1) {
            w[n] = b'i';
        }
    }
}

const STEP2: &[(&[u8], &[u8], Cond)] = &[
    (b"ational", b"ate", Cond::M0),
    (b"tional", b"tion", Cond::M0),
    (b"enci", b"ence", Cond::M0),
    (b"anci", b"ance", Cond::M0),
    (b"izer", b"ize", Cond::M0),
    (b"bli", b"ble", Cond::M0),
    (b"alli", b"al", Cond::M0),
    (b"entli", b"ent", Cond::M0),
    (b"eli", b"e", Cond::M0),
    (b"ousli", b"ous", Cond::M0),
    (b"ization", b"ize", Cond::M0),
    (b"ation", b"ate", Cond::M0),
    (b"ator", b"ate", Cond::M0),
    (b"alism", b"al", Cond::M0),
    (b"iveness", b"ive", Cond::M0),
    (b"fulness", b"ful", Cond::M0),
    (b"ousness", b"ous", Cond::M0),
    (b"aliti", b"al", Cond::M0),
    (b"iviti", b"ive", Cond::M0),
    (b"biliti", b"ble", Cond::M0),
    (b"fulli", b"ful", Cond::M0),
    (b"logi", b"log", Cond::Logi),
];

fn step2(w: &mut Vec<u8>) {
    // NLTK: `alli` -> `al` when the stem has a positive measure, then step 2 again.
    while w.ends_with(b"alli") && measure(&w[..w.len() - 4]) > 0 {
        w.truncate(w.len() - 2);
    }
    apply(w, STEP2);
}

const STEP3: &[(&[u8], &[u8], Cond)] = &[
    (b"icate", b"ic", Cond::M0),
    (b"ative", b"", Cond::M0),
    (b"alize", b"al", Cond::M0),
    (b"iciti", b"ic", Cond::M0),
    (b"ical", b"ic", Cond::M0),
    (b"ful", b"", Cond::M0),
    (b"ness", b"", Cond::M0),
];

const STEP4: &[(&[u8], &[u8], Cond)] = &[
    (b"al", b"", Cond::M1),
    (b"ance", b"", Cond::M1),
    (b"ence", b"", Cond::M1),
    (b"er", b"", Cond::M1),
    (b"ic", b"", Cond::M1),
    (b"able", b"", Cond::M1),
    (b"ible", b"", Cond::M1),
    (b"ant", b"", Cond::M1),
    (b"ement", b"", Cond::M1),
    (b"ment", b"", Cond::M1),
    (b"ent", b"", Cond::M1),
    (b"ion", b"", Cond::Ion),
    (b"ou", b"", Cond::M1),
    (b"ism", b"", Cond::M1),
    (b"ate", b"", Cond::M1),
    (b"iti", b"", Cond::M1),
    (b"ous", b"", Cond::M1),
    (b"ive", b"", Cond::M1),
    (b"ize", b"", Cond::M1),
];

fn step5a(w: &mut Vec<u8>) {
    if w.ends_with(b"e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !ends_cvc(stem)) {
            w.truncate(w.len() - 1);
        }
    }
}

fn step5b(w: &mut Vec<u8>) {
    // The condition reads `word[:-1]` (the word without its last `l`).
    if w.ends_with(b"ll") && measure(&w[..w.len() - 1]) > 1 {
        w.truncate(w.len() - 1);
    }
}

/// `PorterStemmer().stem(word)` for a lowercase ASCII word, written into `out`.
///
/// Example: `stem(b"running", &mut out)` leaves `b"run"` in `out`.
pub fn stem(word: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if let Some((_, s)) = POOL.iter().find(|(w, _)| *w == word) {
        out.extend_from_slice(s);
        return;
    }
    out.extend_from_slice(word);
    if word.len() <= 2 {
        return;
    }
    step1a(out);
    step1b(out);
    step1c(out);
    step2(out);
    apply(out, STEP3);
    apply(out, STEP4);
    step5a(out);
    step5b(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(w: &str) -> String {
        let mut out = Vec::new();
        stem(w.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn nltk_examples() {
        // Outputs of nltk 3.9's PorterStemmer().stem.
        for (w, want) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("running", "run"),
            ("hopping", "hop"),
            ("filing", "file"),
            ("happy", "happi"),
            ("relational", "relat"),
            ("generalization", "gener"),
            ("skies", "sky"),
            ("dying", "die"),
            ("controll", "control"),
            ("agreed", "agre"),
            ("feed", "feed"),
            ("analogi", "analog"),
            ("radicalli", "radic"),
            ("syzygy", "syzygi"),
        ] {
            assert_eq!(s(w), want, "{w}");
        }
    }
}
