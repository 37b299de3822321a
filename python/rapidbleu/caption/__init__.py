"""The COCO caption evaluation (pycocoevalcap 1.2), its BLEU, ROUGE-L and CIDEr-D by rapidbleu.

METEOR, SPICE and the PTB tokenizer stay pycocoevalcap's Java.

Example:
    >>> from rapidbleu.caption import evaluate
    >>> scores, _ = evaluate({1: ["a dog runs"]}, {1: ["a dog runs"]})
    >>> sorted(scores)
    ['Bleu_1', 'Bleu_2', 'Bleu_3', 'Bleu_4', 'CIDEr', 'ROUGE_L']
"""

from rapidbleu.caption.eval import METRICS, COCOEvalCap, evaluate
from rapidbleu.metrics.caption import Bleu, Cider, Rouge
from rapidbleu.metrics.caption.reward import CiderDReward, cider_reward

__all__ = [
    "METRICS",
    "Bleu",
    "COCOEvalCap",
    "Cider",
    "CiderDReward",
    "Rouge",
    "cider_reward",
    "evaluate",
]
