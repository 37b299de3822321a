//! Token codes of one segment: references interned into the [`RefTable`]'s vocabulary
//! (text tokens by their bytes, integer token IDs by value), hypothesis tokens looked up in
//! it ([`MISSING`] where no reference has the token).

use super::{RefTable, Scratch, MISSING};

impl RefTable {
    /// Adds one reference's tokens to the vocabulary (its n-grams are counted by
    /// [`RefTable::count_references`]).
    pub fn intern_reference<'t>(
        &mut self,
        tokens: impl Iterator<Item = &'t [u8]>,
        sc: &mut Scratch,
    ) {
        let before = sc.ref_codes.len();
        for tok in tokens {
            let code = self.vocab.get_or_insert(tok);
            sc.ref_codes.push(code);
        }
        self.lens.push((sc.ref_codes.len() - before) as u32);
    }

    /// Adds one reference given as its tokenizer output `bytes` and the byte ranges of its
    /// tokens: the same as [`RefTable::intern_reference`], but the text is copied into the
    /// table once, not token by token.
    pub fn intern_reference_ranges(
        &mut self,
        bytes: &[u8],
        ranges: &[(u32, u32)],
        sc: &mut Scratch,
    ) {
        let base = self.vocab.append_arena(bytes, ranges.len());
        for &(a, b) in ranges {
            let (code, _) = self
                .vocab
                .get_or_insert_arena(base + a as usize, (b - a) as usize);
            sc.ref_codes.push(code);
        }
        self.lens.push(ranges.len() as u32);
    }

    /// Adds one reference given as integer token IDs: [`RefTable::intern_reference`] for IDs.
    ///
    /// Performance decision: IDs are looked up by value (`IdVocab`), with no byte encoding
    /// and no byte comparison.
    pub fn intern_reference_token_ids(&mut self, ids: &[i64], sc: &mut Scratch) {
        self.id_vocab.intern(ids, &mut sc.ref_codes);
        self.lens.push(ids.len() as u32);
    }

    /// Maps the hypothesis' token IDs to reference token codes: [`RefTable::lookup_hypothesis`]
    /// for IDs.
    pub fn lookup_hypothesis_token_ids(&self, ids: &[i64], sc: &mut Scratch) {
        sc.hyp_codes.clear();
        sc.hyp_codes
            .extend(ids.iter().map(|&t| self.id_vocab.get_or(t, MISSING)));
    }

    /// Maps the hypothesis tokens to reference token codes (kept in the scratch space).
    pub fn lookup_hypothesis<'t>(&self, tokens: impl Iterator<Item = &'t [u8]>, sc: &mut Scratch) {
        sc.hyp_codes.clear();
        for tok in tokens {
            let code = self.vocab.get(tok).unwrap_or(MISSING);
            sc.hyp_codes.push(code);
        }
    }

    /// [`RefTable::lookup_hypothesis`] for tokenizer output `bytes` and the byte ranges of its
    /// tokens, as [`Tokenizer::tokens`](crate::text::tokenize::Tokenizer::tokens) returns them (with
    /// slack bytes after the last token, so that each token is read without a branch on its
    /// length; without slack it is only slower).
    pub fn lookup_hypothesis_ranges(&self, bytes: &[u8], ranges: &[(u32, u32)], sc: &mut Scratch) {
        sc.hyp_codes.clear();
        sc.hyp_codes.extend(ranges.iter().map(|&(a, b)| {
            self.vocab
                .get_at(bytes, a as usize, (b - a) as usize)
                .unwrap_or(MISSING)
        }));
    }
}
