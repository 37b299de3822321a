//! The longest common extension of two padded symbol texts: how far a reference n-gram with a
//! unique hypothesis prefix keeps matching (see [`super`]).

/// Symbols after the end of every text given to [`Matcher::run`](super::Matcher::run): the hypothesis is
/// followed by `PAD` times [`NOWHERE`](super::NOWHERE) and each reference by `PAD` times
/// [`ABSENT`](crate::chrf::symbols::ABSENT), which never equal each other nor a symbol of the other
/// side, so a comparison of the two texts stops at the first end it meets.
pub(crate) const PAD: usize = 8;

/// How many of the first `cap` symbols of `a` and `b` agree before the first difference;
/// both are followed by [`PAD`] symbols that differ (see there).
///
/// Performance decision: eight symbols are compared at once, with no branch and no bounds
/// check per symbol (a fixed-size compare, vectorised), and the run is where the first
/// difference is; where runs end is data the branch predictor cannot learn.
#[inline]
pub(super) fn common_run(a: &[u32], b: &[u32], cap: usize) -> usize {
    let (mut a, mut b) = (a, b);
    let mut k = 0;
    while let (Some(x), Some(y)) = (a.first_chunk::<PAD>(), b.first_chunk::<PAD>()) {
        let mut bits = 0u32;
        for t in 0..PAD {
            bits |= u32::from(x[t] == y[t]) << t;
        }
        let run = (!bits).trailing_zeros() as usize;
        k += run;
        // With chrF's orders (cap <= 8) the first test ends every call, predictably.
        if k >= cap || run < PAD {
            return k.min(cap);
        }
        (a, b) = (&a[PAD..], &b[PAD..]);
    }
    // Fewer than PAD symbols left: only when a start lies past its text's end (the padding
    // differs at once), or in unpadded input.
    let rest = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (k + rest).min(cap)
}
