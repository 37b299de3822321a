//! The COCO caption metrics as pycocoevalcap 1.2 computes them, bit for bit: BLEU-1..4
//! ([`bleu`]), ROUGE-L ([`rouge_l`]) and CIDEr-D ([`cider`], also as a reward with document
//! frequencies computed once). Captions are already tokenized: BLEU and CIDEr-D split them
//! with Python's `split()`, ROUGE-L with `split(" ")`.
//!
//! Images are scored in parallel; every float operation follows pycocoevalcap's (and Python's
//! and NumPy's, [`numeric`]) in order, so the scores are equal, not close.

pub mod bleu;
pub mod cider;
mod grams;
pub mod numeric;
pub mod rouge_l;
