"""A program that scores with ``rouge``, ``rouge-chinese`` and ``multilingual-rouge``; prints JSON.

Run plainly and under ``python -m rapidbleu.accelerate`` by test_accelerate.py: the output must
be the same. It also takes the paths that fall back to the real packages (an invalid metric, an
empty hypothesis, a rouge type the core does not take).
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path

import jieba
import rouge_chinese
from multilingual_rouge import rouge_scorer
from rouge import FilesRouge, Rouge

data = Path(sys.argv[1])
hyps = (data / "wmt22.zh-en/hyp.NiuTrans.en").read_text(encoding="utf-8").splitlines()[:25]
refs = (data / "wmt22.zh-en/ref.A.en").read_text(encoding="utf-8").splitlines()[:25]
zh = (data / "wmt22.en-zh/ref.A.zh").read_text(encoding="utf-8").splitlines()[:25]
zh_h = (data / "wmt22.en-zh/hyp.HuaweiTSC.zh").read_text(encoding="utf-8").splitlines()[:25]
out: dict[str, object] = {}


def attempt(f: object) -> object:
    try:
        return f()  # type: ignore[operator]
    except Exception as e:  # the kind and message are the result
        return [type(e).__name__, str(e)]


out["rouge"] = Rouge().get_scores(hyps, refs)
out["rouge_avg"] = Rouge(metrics=["rouge-l", "rouge-2"], exclusive=False).get_scores(
    hyps, refs, avg=True
)
out["rouge_empty"] = attempt(lambda: Rouge().get_scores(["", "a"], ["a", "a"]))
out["rouge_bad_metric"] = attempt(lambda: Rouge(metrics=["rouge-9"]))
out["is_rouge"] = isinstance(Rouge(), Rouge)
hyp_file, ref_file = Path(sys.argv[2]) / "h.txt", Path(sys.argv[2]) / "r.txt"
hyp_file.write_text("\n".join(hyps[:10]) + "\n", encoding="utf-8")
ref_file.write_text("\n".join(refs[:10]) + "\n", encoding="utf-8")
out["files"] = FilesRouge().get_scores(str(hyp_file), str(ref_file), avg=True)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    jieba.setLogLevel(60)
    seg_h = [" ".join(jieba.cut(t)) for t in zh_h]
    seg_r = [" ".join(jieba.cut(t)) for t in zh]
out["chinese"] = rouge_chinese.Rouge().get_scores(seg_h, seg_r, avg=True)
out["chinese_items"] = rouge_chinese.Rouge(stats=["f"]).get_scores(seg_h, seg_r)
for lang, stem in ((None, True), ("chinese", False), ("thai", False), ("hindi", True)):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scorer = rouge_scorer.RougeScorer(
            ["rouge1", "rouge2", "rougeL", "rougeLsum"], use_stemmer=stem, lang=lang
        )
        texts = (zh, zh_h) if lang == "chinese" else (refs, hyps)
        out[f"xlsum_{lang}"] = [
            {k: list(v) for k, v in scorer.score(t, p).items()} for t, p in zip(*texts)
        ]
out["xlsum_rouge0"] = attempt(lambda: rouge_scorer.RougeScorer(["rouge0"]).score("a", "a"))
out["xlsum_newline_type"] = attempt(
    lambda: {
        k: list(v) for k, v in rouge_scorer.RougeScorer(["rouge1\n"]).score("a b", "a").items()
    }
)
print(json.dumps(out))
