"""Checks rapidbleu's batched SentencePiece tokenizers against sacreBLEU's, on real FLORES models.

The test suite trains small models itself (nothing is downloaded). Whoever has sacreBLEU's own
models in its cache (``$SACREBLEU/models``, default ``~/.sacrebleu/models``: ``flores101``,
``flores200``, ``spBLEU-1K``) can check those too, on any text files:

    .venv/bin/python scripts/check_flores.py FILE [FILE ...]

Exit status 0 when every line tokenizes identically (``==``), 1 otherwise, 2 when no model is
cached.
"""

from __future__ import annotations

import os
import sys

from sacrebleu.tokenizers.tokenizer_spm import TokenizerSPM

from rapidbleu.tokenizers import get_python_tokenizer
from rapidbleu.tokenizers.spm import model_path_for


def main(paths: list[str]) -> int:
    present = {k: model_path_for(k) for k in ("flores101", "flores200", "spBLEU-1K")}
    present = {k: p for k, p in present.items() if os.path.isfile(p)}
    if not present:
        print(f"no FLORES model in {os.path.dirname(model_path_for('flores200'))}", file=sys.stderr)
        return 2
    lines = ["", " x ", "😀"]
    for path in paths:
        with open(path, encoding="utf-8") as f:
            lines += [line.rstrip("\n") for line in f]
    bad = 0
    for key, model in present.items():
        ours = get_python_tokenizer(key, spm_model=model).tokenize_batch(lines, 0)
        theirs = TokenizerSPM(key)
        diff = [i for i, line in enumerate(lines) if ours[i] != theirs(line)]
        print(f"{key}: {len(lines)} lines, {len(diff)} differ {diff[:5]}")
        bad += len(diff)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
