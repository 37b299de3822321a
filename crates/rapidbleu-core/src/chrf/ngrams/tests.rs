//! The matcher against naive `HashMap` counts.

use super::*;
use std::collections::HashMap;

/// `sum(min(h[g], r[g]))` over n-grams of order n, with explicit `HashMap`s.
fn naive(hyp: &[u32], r: &[u32], n: usize) -> u32 {
    let count = |s: &[u32]| {
        let mut m: HashMap<Vec<u32>, u32> = HashMap::new();
        for w in s.windows(n) {
            *m.entry(w.to_vec()).or_default() += 1;
        }
        m
    };
    let (h, rc) = (count(hyp), count(r));
    h.iter()
        .map(|(g, &c)| c.min(rc.get(g).copied().unwrap_or(0)))
        .sum()
}

/// A line long enough that the table grows within an order (`Table::insert_growing`).
#[test]
fn long_line_equals_naive_counts() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k
    };
    // Eight symbols: repeated prefixes up to order 6, and tens of thousands of insertions.
    let hyp: Vec<u32> = (0..60_000).map(|_| 1 + rnd(8) as u32).collect();
    let r: Vec<u32> = (0..50_000).map(|_| rnd(9) as u32).collect();
    let mut flat = r.clone();
    flat.extend([0; PAD]);
    let mut h = hyp.clone();
    h.extend([NOWHERE; PAD]);
    let (mut m, mut out) = (Matcher::default(), Vec::new());
    m.run(
        (&mut h, hyp.len()),
        9,
        (&mut flat, &[(0, r.len())]),
        6,
        &mut out,
    );
    let rs: Vec<u32> = r.iter().map(|&s| if s == 0 { 999 } else { s }).collect();
    for n in 1..=6 {
        assert_eq!(out[n - 1], naive(&hyp, &rs, n), "order {n}");
    }
}

#[test]
fn equals_naive_counts() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = |k: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % k
    };
    let mut m = Matcher::default();
    let mut out = Vec::new();
    for i in 0..3000 {
        // Small alphabets make repeated (non-unique) prefixes; large ones unique ones.
        let size = if rnd(2) == 0 { 4 } else { 40 };
        let alphabet = 1 + rnd(size);
        // Mostly sentences (the direct table); every 50th text long enough for the hash table.
        let cap = if i % 50 == 0 { 3000 } else { 40 };
        let hyp: Vec<u32> = (0..rnd(cap)).map(|_| 1 + rnd(alphabet) as u32).collect();
        let n_refs = 1 + rnd(3) as usize;
        let refs: Vec<Vec<u32>> = (0..n_refs)
            .map(|_| {
                if rnd(2) == 0 {
                    // A noisy copy of the hypothesis: long shared n-grams.
                    hyp.iter()
                        .map(|&s| {
                            if rnd(6) == 0 {
                                rnd(alphabet + 1) as u32
                            } else {
                                s
                            }
                        })
                        .collect()
                } else {
                    (0..rnd(cap)).map(|_| rnd(alphabet + 1) as u32).collect()
                }
            })
            .collect();
        // The layout `Side` builds: each text followed by its padding.
        let mut flat = Vec::new();
        let mut spans = Vec::new();
        for r in &refs {
            let start = flat.len();
            flat.extend_from_slice(r);
            spans.push((start, flat.len()));
            flat.extend([0; PAD]);
        }
        let max_order = 1 + rnd(8) as usize;
        let mut h = hyp.clone();
        h.extend([NOWHERE; PAD]);
        let n_ids = 1 + alphabet as usize;
        m.run(
            (&mut h, hyp.len()),
            n_ids,
            (&mut flat, &spans),
            max_order,
            &mut out,
        );
        for (r, rs) in refs.iter().enumerate() {
            // 0 in a reference stands for a symbol the hypothesis lacks.
            let rs: Vec<u32> = rs.iter().map(|&s| if s == 0 { 999 } else { s }).collect();
            for n in 1..=max_order {
                assert_eq!(
                    out[r * max_order + n - 1],
                    naive(&hyp, &rs, n),
                    "{hyp:?} {rs:?} {n}"
                );
            }
        }
    }
}
