//! A caption's tokens numbered locally to its image (`split()` tokens of text, or token IDs):
//! the first step of both the corpus coder ([`super::corpus`]) and the scorer
//! ([`super::score`]), which differ only in what they record of a token first seen.

use super::doc_freq::{Caption, TokenRef};
use crate::engine::ngram_map::NgramMap;
use crate::engine::token_map::TokenMap;
use crate::text::whitespace::py_split_ranges;

/// A token first seen in the image: where it lies in its caption's bytes, or its ID.
#[derive(Clone, Copy)]
pub(super) enum NewToken<'a> {
    /// The token `bytes[at..at + len]` of a text caption's `bytes`.
    Text {
        bytes: &'a [u8],
        at: usize,
        len: usize,
    },
    /// A token ID.
    Id(u32),
}

impl<'a> From<NewToken<'a>> for TokenRef<'a> {
    fn from(t: NewToken<'a>) -> Self {
        match t {
            NewToken::Text { bytes, at, len } => TokenRef::At(bytes, at, len),
            NewToken::Id(id) => TokenRef::Id(id),
        }
    }
}

/// The local token codes of the image being coded (emptied in O(1) between images).
#[derive(Default)]
pub(super) struct LocalTokens {
    text: TokenMap,
    ids: NgramMap,
    /// A caption's token byte ranges (scratch).
    ranges: Vec<(u32, u32)>,
}

impl LocalTokens {
    /// Forgets the previous image's tokens.
    pub(super) fn clear(&mut self) {
        self.text.clear();
        self.ids.clear();
    }

    /// Appends the local codes of `caption`'s tokens to `toks` (codes 0, 1, ... in the order
    /// tokens are first seen since the last clear), calling `new` on each token first seen,
    /// before its code is appended.
    #[inline(always)]
    pub(super) fn code<'a, C: Caption<'a>>(
        &mut self,
        caption: C,
        toks: &mut Vec<u32>,
        mut new: impl FnMut(u32, NewToken<'a>),
    ) {
        if let Some(text) = caption.text() {
            let bytes = text.as_bytes();
            // One copy of the caption into the map's arena, its tokens found there (no copy
            // per token): see TokenMap::append_arena.
            let base = self.text.append_arena(bytes, text.len().div_ceil(2));
            self.ranges.clear();
            py_split_ranges(text, &mut self.ranges);
            for &(a, b) in &self.ranges {
                let (at, len) = (a as usize, (b - a) as usize);
                let (lt, first) = self.text.get_or_insert_arena(base + at, len);
                if first {
                    new(lt, NewToken::Text { bytes, at, len });
                }
                toks.push(lt);
            }
        } else if let Some(ids) = caption.ids() {
            self.ids.reserve(ids.len());
            for &id in ids {
                let next = self.ids.len() as u32;
                let lt = self.ids.insert_reserved(u64::from(id), next);
                if lt == next {
                    new(lt, NewToken::Id(id));
                }
                toks.push(lt);
            }
        }
    }
}
