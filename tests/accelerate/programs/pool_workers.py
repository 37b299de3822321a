"""A program that scores in multiprocessing.Pool workers (``fork`` and ``spawn``).

``python pool_workers.py METHOD N`` scores N sentences with ``sacrebleu.sentence_bleu`` in a
pool of 2 workers of the start method METHOD (``with Pool(...)``, which terminates the
workers), then one corpus score in the parent, and prints the scores as JSON.
"""

import json
import multiprocessing
import sys

import sacrebleu


def score(i: int) -> float:
    return sacrebleu.sentence_bleu(f"the cat {i} sat", [f"the cat {i} sat down"]).score


if __name__ == "__main__":
    method, n = sys.argv[1], int(sys.argv[2])
    with multiprocessing.get_context(method).Pool(2) as pool:
        scores = pool.map(score, range(n), chunksize=1)
    scores.append(sacrebleu.corpus_bleu(["a b c"], [["a b c"]]).score)
    print(json.dumps(scores))
