//! Many-to-many chrF: the `N x M` matrix of sentence scores of N hypotheses against M
//! references (MBR's utility matrix, chrF being the usual MBR utility).
//!
//! Entry `[i, j]` is `CHRF.sentence_score(hyps[i], [refs[j]])`. Performance decision: a
//! matrix row is one [`Worker`] pass with all M references, so the hypothesis is interned and
//! its n-gram classes are built once per row instead of once per pair; rows run in parallel.

use super::options::ChrfOptions;
use super::stats::{check_length, Worker, WORKERS};
use crate::corpus::Groups;
use crate::engine::parallel::{for_each_row_in, Threads};
use crate::error::{zeroed, CoreError};

/// One matrix per group: `hyps.get(g)` (N_g texts) against `refs.get(g)` (M_g texts), each an
/// `N_g x M_g` row-major buffer.
pub fn matrices(
    hyps: &Groups<&str>,
    refs: &Groups<&str>,
    opts: &ChrfOptions,
    threads: Threads,
) -> Result<Vec<Vec<f64>>, CoreError> {
    if hyps.len() != refs.len() {
        return Err(CoreError::InvalidInput(format!(
            "{} hypothesis groups but {} reference groups; they must be equal",
            hyps.len(),
            refs.len()
        )));
    }
    for (k, text) in hyps.items().iter().chain(refs.items()).enumerate() {
        check_length(k, text.len())?;
    }
    let mut out = Vec::with_capacity(hyps.len());
    for (hs, rs) in hyps.iter().zip(refs.iter()) {
        let mut m = zeroed(hs.len(), rs.len())?;
        if m.is_empty() {
            out.push(m);
            continue;
        }
        for_each_row_in(
            &WORKERS,
            &mut m,
            rs.len(),
            threads,
            Worker::default,
            |w, i, row| w.each_reference(hs[i], rs, opts, row),
        );
        out.push(m);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chrf::stats::sentence_scores;
    use crate::corpus::Corpus;

    #[test]
    fn entries_are_sentence_scores() {
        let hyps = ["The cat sat.", "", "(hi) there", "a b c d e f g", "Über  ß"];
        let refs = [
            "The cat is on the mat.",
            "hi there!",
            "",
            "g f e d c b a",
            "über ß.",
        ];
        for (w, lc) in [(0, false), (2, true)] {
            let p = ChrfOptions::new(6, w, 4.0, false, false, lc).unwrap();
            let groups: Groups<&str> = [hyps.to_vec(), hyps[..2].to_vec()].into_iter().collect();
            let ref_groups: Groups<&str> = [refs.to_vec(), vec![]].into_iter().collect();
            for threads in [1, 2] {
                let t = Threads::new(threads).unwrap();
                let mats = matrices(&groups, &ref_groups, &p, t).unwrap();
                assert_eq!(mats[1], Vec::<f64>::new());
                for (i, h) in hyps.iter().enumerate() {
                    for (j, r) in refs.iter().enumerate() {
                        let pair = Corpus::new(vec![*h], [[*r]].into_iter().collect()).unwrap();
                        let want = sentence_scores(&pair, &p, Threads::ONE).unwrap()[0];
                        assert_eq!(mats[0][i * refs.len() + j].to_bits(), want.to_bits());
                    }
                }
            }
        }
        let p = ChrfOptions::new(6, 0, 4.0, false, false, false).unwrap();
        let one: Groups<&str> = [vec!["a"]].into_iter().collect();
        assert!(matrices(&one, &Groups::new(), &p, Threads::ONE).is_err());
    }
}
