"""``sacrebleu.tokenizers.tokenizer_spm``: the SentencePiece tokenizers (extra ``spm``)."""

from rapidbleu.tokenizers.spm import (
    Flores101Tokenizer,
    Flores200Tokenizer,
    TokenizerSPM,
    spBLEU1KTokenizer,
)

__all__ = ["Flores101Tokenizer", "Flores200Tokenizer", "TokenizerSPM", "spBLEU1KTokenizer"]
