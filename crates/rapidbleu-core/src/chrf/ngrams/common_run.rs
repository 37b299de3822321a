//! The longest common extension of two padded symbol texts: how far a reference n-gram with a
//! unique hypothesis prefix keeps matching (see [`super`]).

/// Symbols after the end of every text given to [`Matcher::run`](super::Matcher::run): the
/// hypothesis is followed by `PAD` times [`NOWHERE`](super::NOWHERE) (renumbered as its
/// symbols no reference has) and each reference by `PAD` times
/// [`ABSENT`](crate::chrf::symbols::ABSENT), which never equal each other nor a symbol of the
/// other side, so a comparison of the two texts stops at the first end it meets.
pub(crate) const PAD: usize = 8;

/// How many of the first `cap` symbols of `a` and `b` agree before the first difference;
/// both are followed by [`PAD`] symbols that differ (see there).
///
/// Performance decision: eight symbols are compared at once, with no branch and no bounds
/// check per symbol (a fixed-size compare, vectorised), and the run is where the first
/// difference is; where runs end is data the branch predictor cannot learn. With chrF's
/// orders (`cap` below [`PAD`]) the first eight symbols settle every call, inline; longer
/// runs continue out of line.
#[inline(always)]
pub(super) fn common_run(a: &[u32], b: &[u32], cap: usize) -> usize {
    if let (Some(x), Some(y)) = (a.first_chunk::<PAD>(), b.first_chunk::<PAD>()) {
        let run = (!equal_bits(x, y)).trailing_zeros() as usize;
        if run < PAD || cap <= PAD {
            return run.min(cap);
        }
    }
    common_run_long(a, b, cap)
}

/// [`common_run`] past its first eight symbols, or of a start past its text's end (fewer
/// than [`PAD`] symbols left: the padding differs at once) or of unpadded input.
#[cold]
#[inline(never)]
fn common_run_long(a: &[u32], b: &[u32], cap: usize) -> usize {
    let (mut a, mut b) = (a, b);
    let mut k = 0;
    while let (Some(x), Some(y)) = (a.first_chunk::<PAD>(), b.first_chunk::<PAD>()) {
        let run = (!equal_bits(x, y)).trailing_zeros() as usize;
        k += run;
        if k >= cap || run < PAD {
            return k.min(cap);
        }
        (a, b) = (&a[PAD..], &b[PAD..]);
    }
    let rest = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    (k + rest).min(cap)
}

/// Bit `t` set when `x[t] == y[t]`.
///
/// Performance decision: two SSE2 compares of four symbols and two sign masks (every x86-64
/// CPU has SSE2); LLVM's code for the portable loop compared half the symbols one by one
/// (about 50 instructions a call, a tenth of the reference matcher's).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn equal_bits(x: &[u32; PAD], y: &[u32; PAD]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86-64 baseline; each unaligned load reads four of the
    // eight `u32` of an array (offsets 0 and 4).
    unsafe {
        let (px, py) = (x.as_ptr(), y.as_ptr());
        let lo = _mm_cmpeq_epi32(_mm_loadu_si128(px.cast()), _mm_loadu_si128(py.cast()));
        let hi = _mm_cmpeq_epi32(
            _mm_loadu_si128(px.add(4).cast()),
            _mm_loadu_si128(py.add(4).cast()),
        );
        let lo = _mm_movemask_ps(_mm_castsi128_ps(lo)) as u32;
        let hi = _mm_movemask_ps(_mm_castsi128_ps(hi)) as u32;
        lo | (hi << 4)
    }
}

/// [`equal_bits`], portably.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn equal_bits(x: &[u32; PAD], y: &[u32; PAD]) -> u32 {
    let mut bits = 0u32;
    for t in 0..PAD {
        bits |= u32::from(x[t] == y[t]) << t;
    }
    bits
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bits_marks_equal_symbols() {
        let x = [1, 2, 3, 4, 5, 6, 7, 8];
        for mask in 0..256u32 {
            let y: [u32; PAD] = std::array::from_fn(|t| {
                if (mask >> t) & 1 == 1 {
                    x[t]
                } else {
                    100 + x[t]
                }
            });
            assert_eq!(equal_bits(&x, &y), mask);
        }
    }
}
