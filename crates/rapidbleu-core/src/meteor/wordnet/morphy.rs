//! NLTK's `_morphy(form, pos)` (`WordNetCorpusReader`, nltk 3.10.4): the exception list of
//! the part of speech, or else its suffix rules applied once; then every candidate (the form
//! itself first) that is an index lemma of that part of speech, without repeats.

use super::WordNet;

/// `MORPHOLOGICAL_SUBSTITUTIONS`, per part of speech in `POS_LIST` order (noun, verb, adj,
/// adv), as (old suffix, new suffix), in NLTK's order.
const SUBSTITUTIONS: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// `_morphy(form, POS_LIST[p])` into `out` (cleared first).
pub(super) fn forms(wn: &WordNet, form: &str, p: usize, out: &mut Vec<String>) {
    out.clear();
    // `filter_forms([form] + forms)`: index lemmas having this part of speech, first
    // occurrence kept; candidates are built in one buffer, only kept ones are allocated.
    let keep = |c: &str, out: &mut Vec<String>| {
        if wn.entry(c).is_some_and(|e| e[p].1 > 0) && !out.iter().any(|o| o == c) {
            out.push(c.to_string());
        }
    };
    keep(form, out);
    if let Some(exc) = wn.exceptions[p].get(form) {
        for f in exc.iter() {
            keep(f, out);
        }
    } else {
        let mut buf = String::new();
        for &(old, new) in SUBSTITUTIONS[p] {
            if let Some(stem) = form.strip_suffix(old) {
                buf.clear();
                buf.push_str(stem);
                buf.push_str(new);
                keep(&buf, out);
            }
        }
    }
}
