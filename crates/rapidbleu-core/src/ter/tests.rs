//! The bit-parallel engine against the scalar one, which transcribes `_edit_distance` cell by
//! cell: every value, trace and window cost, and whole searches, on random word sequences.

use super::bit_dp::BitDp;
use super::edit_distance::{alignment, Band, ScalarDp, INF};
use super::shift::ShiftSearch;

/// Cases per test: fewer in unoptimised builds (`cargo test --release` runs them all).
const CASES: usize = if cfg!(debug_assertions) { 300 } else { 3000 };

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Dense ids: reference words `0..vocab`, hypothesis words up to `vocab` (absent).
fn pair(rng: &mut Rng, n: usize, m: usize, vocab: usize) -> (Vec<u32>, Vec<u32>) {
    let r: Vec<u32> = (0..m).map(|_| rng.below(vocab) as u32).collect();
    let mut h: Vec<u32> = (0..n).map(|_| rng.below(vocab + 1) as u32).collect();
    // Mostly copies of reference stretches, so that alignments are long and interesting.
    if m > 0 && rng.below(3) > 0 {
        for (k, w) in h.iter_mut().enumerate() {
            if rng.below(4) > 0 {
                *w = r[(k * m / n.max(1) + rng.below(3)).min(m - 1)];
            }
        }
    }
    (h, r)
}

/// Lengths covering ratios far below and above 1 (up to the 14 where the bit engine stops).
fn lengths(rng: &mut Rng) -> (usize, usize) {
    match rng.below(4) {
        0 => (1 + rng.below(20), 1 + rng.below(20)),
        1 => (1 + rng.below(120), 1 + rng.below(120)),
        2 => {
            let n = 1 + rng.below(12);
            (n, 1 + rng.below(14 * n))
        }
        _ => {
            let m = 1 + rng.below(30);
            (1 + rng.below(200), m)
        }
    }
}

#[test]
fn values_traces_and_windows_agree() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for case in 0..CASES {
        let (n, m) = lengths(&mut rng);
        let vocab = 1 + rng.below(12);
        let (mut h, r) = pair(&mut rng, n, m, vocab);
        let mut band = Band::default();
        band.reset(n, m);
        if !BitDp::fits(&band, vocab) {
            // A beam wider than 64 cells (a reference over 50 times longer): scalar only.
            assert!(band.width > 64 && m > 50 * n, "case {case}");
            continue;
        }
        let (mut bits, mut scalar) = (BitDp::default(), ScalarDp::default());
        bits.reset(&band, &r, vocab);
        // Short waits for convergence, so that windows also end in the backward combination.
        bits.set_converge_rows([1, 2, 5, 1000][case % 4]);
        scalar.reset(&band);
        bits.forward(&band, &h, 0, n + 1);
        scalar.forward(&band, &h, &r, 0, n + 1);
        for shift in 0..4 {
            for i in 0..=n {
                for j in 0..=m {
                    let (a, b) = (scalar.get(&band, i, j), bits.get(&band, i, j));
                    assert!(
                        a == b || a >= INF && b >= INF,
                        "case {case}/{shift} cell {i},{j}: {a} {b}; n {n} m {m} rows {:?}",
                        (0..=n.min(3)).map(|i| band.row(i)).collect::<Vec<_>>()
                    );
                }
            }
            let mut want = (vec![0; m], vec![0; n], vec![0; m]);
            let get = |i: usize, j: usize| scalar.get(&band, i, j);
            alignment(&band, &h, &r, get, &mut want.0, &mut want.1, &mut want.2);
            let mut got = (vec![0; m], vec![0; n], vec![0; m]);
            bits.alignment(&band, &h, &r, &mut got.0, &mut got.1, &mut got.2);
            assert_eq!(got, want, "case {case}/{shift}");
            // Random windows of new words, then one of them applied as the next hypothesis.
            let pre = scalar.get(&band, n, m);
            let mut last: (usize, Vec<u32>) = (usize::MAX, Vec::new());
            for _ in 0..6 {
                // Every other window starts like the previous one: its rows are reused.
                let keep = if rng.below(2) == 0 && last.0 < n {
                    rng.below(last.1.len() + 1)
                } else {
                    0
                };
                let p = if keep > 0 { last.0 } else { rng.below(n) };
                let len = keep.max(1 + rng.below(n - p));
                let mut window: Vec<u32> = last.1[..keep].to_vec();
                window.extend((keep..len).map(|_| rng.below(vocab + 1) as u32));
                let a = scalar.window_cost(&band, p, &window, &h, &r);
                let b = bits.window_cost(&band, p, (&window, keep), &h, &r, pre);
                assert_eq!(a, b, "case {case}/{shift} window {p}+{len}");
                last = (p, window);
            }
            let (p, window) = last;
            h[p..p + window.len()].copy_from_slice(&window);
            bits.forward(&band, &h, p, p + window.len());
            scalar.forward(&band, &h, &r, p, p + window.len());
        }
    }
}

#[test]
fn whole_searches_agree() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut a, mut b) = (ShiftSearch::default(), ShiftSearch::default());
    for case in 0..CASES {
        let (n, m) = lengths(&mut rng);
        let vocab = 1 + rng.below(if case % 2 == 0 { 4 } else { 40 });
        let (h, r) = pair(&mut rng, n, m, vocab);
        let want = a.search(&h, &r, usize::MAX, true);
        assert_eq!(b.search(&h, &r, usize::MAX, false), want, "case {case}");
        // Renumbering through the table gives the same search.
        assert_eq!(b.search(&h, &r, vocab + 1, false), want, "case {case}");
    }
}

#[test]
fn public_entry_point() {
    use super::translation_edit_rate;
    // sacreBLEU 2.6.0: lib_ter.translation_edit_rate on the same word lists.
    let ids = |s: &str| -> Vec<u32> { s.split(' ').map(|w| w.as_bytes()[0] as u32).collect() };
    assert_eq!(
        translation_edit_rate(&ids("a b c d e f"), &ids("f e d c b a")),
        Ok((5, 6))
    );
    assert_eq!(
        translation_edit_rate(&ids("x y z"), &ids("z y x")),
        Ok((2, 3))
    );
    assert_eq!(
        translation_edit_rate(&ids("a a a a"), &ids("a")),
        Ok((3, 1))
    );
    assert_eq!(translation_edit_rate(&[1, 2], &[]), Ok((2, 0)));
    assert_eq!(translation_edit_rate(&[], &[1, 2, 3]), Ok((3, 3)));
    assert_eq!(translation_edit_rate(&[], &[]), Ok((0, 0)));
    // Arbitrary ids (sorted renumbering) equal small ones (table renumbering).
    let big: Vec<u32> = ids("a b c d e f").iter().map(|&w| w * 1_000_003).collect();
    let rev: Vec<u32> = big.iter().rev().copied().collect();
    assert_eq!(translation_edit_rate(&big, &rev), Ok((5, 6)));
}

#[test]
fn random_text_through_every_option_never_panics() {
    use super::{TerOptions, TerWorker, TercomTokenizer};
    // Debug builds check every addition for overflow on the way.
    let pieces = [
        "a", "B", "1", ".", ",", "-", "'s", " ", "\n-", "\n", "&amp;", "&quot;", "&lt;", "(",
        "\u{a0}", "\u{3000}", "\u{1c}", "東", "ひ", "カ", "，", "。", "、", "\u{3f22}", "한", "😀",
        "\u{301}", "ÿ",
    ];
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let text = |rng: &mut Rng| -> String {
        (0..rng.below(60))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect()
    };
    let mut w = TerWorker::default();
    let mut out = String::new();
    for flags in 0..16u32 {
        let tok = TercomTokenizer::new(TerOptions {
            normalized: flags & 8 != 0,
            no_punct: flags & 4 != 0,
            asian_support: flags & 2 != 0,
            case_sensitive: flags & 1 != 0,
        });
        for _ in 0..CASES / 10 {
            let hyp = text(&mut rng);
            let refs: Vec<String> = (0..1 + rng.below(3)).map(|_| text(&mut rng)).collect();
            let refs: Vec<&str> = refs.iter().map(String::as_str).collect();
            let row = w.segment(&tok, &hyp, &refs).unwrap();
            assert_eq!(row[2], refs.len() as i64);
            tok.preprocess(&hyp, &mut out);
            // The hypothesis alone against an empty reference: all its words are edits.
            let words = out.split(' ').filter(|t| !t.is_empty()).count() as i64;
            assert_eq!(w.segment(&tok, &hyp, &[""]).unwrap(), [words, 0, 1]);
        }
    }
}
