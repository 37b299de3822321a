"""Old import path of :mod:`rapidbleu.io.reader` (kept so that existing code works)."""

from rapidbleu.io.reader import CHUNK_LINES, Corpus, LineReader, open_input, read_all

__all__ = ["CHUNK_LINES", "Corpus", "LineReader", "open_input", "read_all"]
