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
    let mut candidates: Vec<String> = vec![form.to_string()];
    if let Some(exc) = wn.exceptions[p].get(form) {
        candidates.extend(exc.iter().map(|f| f.to_string()));
    } else {
        for &(old, new) in SUBSTITUTIONS[p] {
            if let Some(stem) = form.strip_suffix(old) {
                candidates.push(format!("{stem}{new}"));
            }
        }
    }
    // `filter_forms`: index lemmas having this part of speech, first occurrence kept.
    for c in candidates {
        let known = wn.entry(&c).is_some_and(|e| e[p].1 > 0);
        if known && !out.contains(&c) {
            out.push(c);
        }
    }
}
