"""The RL reward helpers, called exactly as TRL's GRPOTrainer and verl's reward managers call them.

TRL (``GRPOTrainer._calculate_rewards``) calls each reward function as
``reward_func(prompts=..., completions=..., completion_ids=..., **reward_kwargs)``, where
``reward_kwargs`` holds every other dataset column (one list entry per completion) and
``trainer_state``; it names the function by ``__name__``, turns ``None`` into NaN and stores
the list as float32. verl's ``NaiveRewardManager`` calls ``compute_score(data_source=...,
solution_str=..., ground_truth=..., extra_info=...)`` per response (older managers pass the
first three by position); its ``BatchRewardManager`` calls ``compute_score(data_sources=...,
solution_strs=..., ground_truths=..., extra_infos=..., **reward_kwargs)`` with NumPy object
arrays. Neither package is installed here (each pulls in a training stack); the calls below
have their shapes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
import sacrebleu
import torch
from nltk.translate import bleu_score as nb

from rapidbleu import errors
from rapidbleu.torch import bleu_reward, compute_score


def trl_rewards(
    reward_func: Any, inputs: list[dict[str, Any]], completion_ids: list[list[int]]
) -> list[float]:
    """The rewards TRL's GRPOTrainer gets from one reward function (its call, as TRL makes it)."""
    prompts = [x["prompt"] for x in inputs]
    completions = [x["completion"] for x in inputs]
    keys = [k for k in inputs[0] if k not in ("prompt", "completion", "completion_ids")]
    reward_kwargs: dict[str, Any] = {k: [x[k] for x in inputs] for k in keys}
    reward_kwargs["trainer_state"] = object()
    out = reward_func(
        prompts=prompts, completions=completions, completion_ids=completion_ids, **reward_kwargs
    )
    assert isinstance(reward_func.__name__, str)
    assert isinstance(out, list) and all(type(x) is float for x in out)
    return [x if x is not None else math.nan for x in out]


IDS = [[5, 6, 7, 8, 9], [5, 6], [], [0, 0, 1, 2]]
REFS: list[Any] = [[5, 6, 7, 8, 10], [[9], [5, 6, 7]], [1, 2], [[0, 0, 1, 2], [0, 1], [2]]]


def _sacre(h: list[int], refs: list[list[int]]) -> float:
    text = lambda s: " ".join(map(str, s))  # noqa: E731
    return sacrebleu.sentence_bleu(text(h), [text(r) for r in refs], tokenize="none").score / 100


def _as_lists(r: Any) -> list[list[int]]:
    return [r] if not r or isinstance(r[0], int) else r


@pytest.mark.parametrize("device", [None, "cpu"])
def test_trl_token_ids(device: str | None) -> None:
    reward = bleu_reward("reference_ids", device=device)
    inputs = [{"prompt": "p", "completion": "c", "reference_ids": r, "lang": "de"} for r in REFS]
    got = trl_rewards(reward, inputs, IDS)
    assert got == [_sacre(h, _as_lists(r)) for h, r in zip(IDS, REFS)]
    assert reward.__name__ == "bleu"
    # Tensors of IDs are read as the lists are.
    as_tensors = [torch.tensor(h, dtype=torch.int64) for h in IDS]
    assert trl_rewards(reward, inputs, as_tensors) == got  # type: ignore[arg-type]


def test_trl_nltk_percent_and_name() -> None:
    reward = bleu_reward(
        "ref", dialect="nltk", smoothing="method1", scale="percent", name="bleu_nltk", device="cpu"
    )
    inputs = [{"prompt": "p", "completion": "c", "ref": r} for r in REFS]
    got = trl_rewards(reward, inputs, IDS)
    smooth = nb.SmoothingFunction().method1
    assert got == [
        nb.sentence_bleu(_as_lists(r), h, smoothing_function=smooth) * 100.0
        for h, r in zip(IDS, REFS)
    ]
    assert reward.__name__ == "bleu_nltk"


def test_trl_text_completions() -> None:
    reward = bleu_reward("solution")
    completions: list[Any] = [
        "The cat sat on the mat.",
        [{"role": "assistant", "content": "A dog barked."}],
    ]
    inputs = [
        {"prompt": "p1", "completion": completions[0], "solution": "The cat sat on a mat."},
        {
            "prompt": "p2",
            "completion": completions[1],
            "solution": ["A dog barks.", "The dog barked."],
        },
    ]
    got = trl_rewards(reward, inputs, [[1], [2]])
    want = [
        sacrebleu.sentence_bleu("The cat sat on the mat.", ["The cat sat on a mat."]).score / 100,
        sacrebleu.sentence_bleu("A dog barked.", ["A dog barks.", "The dog barked."]).score / 100,
    ]
    assert got == want


def test_trl_errors() -> None:
    reward = bleu_reward("reference_ids")
    with pytest.raises(
        errors.MissingColumnError, match=r"no column 'reference_ids'.*there are: answer"
    ):
        reward(prompts=["p"], completions=["c"], completion_ids=[[1]], answer=[[1]])
    with pytest.raises(errors.LengthMismatchError, match="completion_ids has 2 entries"):
        reward(completion_ids=[[1], [2]], reference_ids=[[1]])
    with pytest.raises(errors.InputTypeError, match="need completion_ids"):
        reward(completions=["c"], reference_ids=[[1]])
    with pytest.raises(errors.InputTypeError, match=r"completion_ids\[0\] must be a list of int"):
        reward(completion_ids=[["a"]], reference_ids=[[1]])
    with pytest.raises(errors.MissingReferenceError, match="has no reference"):
        bleu_reward("reference_ids", device="cpu")(completion_ids=[[1]], reference_ids=[[]])
    with pytest.raises(errors.InvalidOptionError, match="unknown option"):
        bleu_reward("x", lowercase=True)
    with pytest.raises(errors.InvalidOptionError, match="unknown scale"):
        bleu_reward("x", scale="per-mille")
    with pytest.raises(errors.InvalidOptionError, match="dialect"):
        bleu_reward("x", dialect="nist")


def test_verl_naive_and_batch_managers() -> None:
    hyps = ["Die Katze sitzt auf der Matte.", "Ein Hund bellt.", ""]
    truths: list[Any] = [
        "Die Katze saß auf der Matte.",
        ["Ein Hund bellte.", "Der Hund bellt."],
        "Nichts.",
    ]
    want = [
        sacrebleu.sentence_bleu(h, [t] if isinstance(t, str) else t).score / 100
        for h, t in zip(hyps, truths)
    ]
    # NaiveRewardManager: one call per response, by keyword (older managers: by position).
    naive = [
        compute_score(data_source="wmt", solution_str=h, ground_truth=t, extra_info={"index": i})
        for i, (h, t) in enumerate(zip(hyps, truths))
    ]
    assert naive == want and all(type(x) is float for x in naive)
    assert [compute_score("wmt", h, t) for h, t in zip(hyps, truths)] == want
    # BatchRewardManager: NumPy object arrays and its reward_kwargs.
    gt = np.empty(3, dtype=object)
    gt[:] = truths
    batch = compute_score(
        data_sources=np.array(["wmt"] * 3, dtype=object),
        solution_strs=hyps,
        ground_truths=gt,
        extra_infos=np.array([{}, {}, {}], dtype=object),
        **{"dialect": "sacrebleu", "scale": "percent"},
    )
    assert batch == [
        sacrebleu.sentence_bleu(h, [t] if isinstance(t, str) else t).score
        for h, t in zip(hyps, truths)
    ]


def test_verl_nltk_on_whitespace_tokens() -> None:
    smooth = nb.SmoothingFunction().method3
    got = compute_score(
        "x", "the cat sat on the mat", "the cat is on the mat", dialect="nltk", smoothing="method3"
    )
    assert got == nb.sentence_bleu(
        ["the cat is on the mat".split()],
        "the cat sat on the mat".split(),
        smoothing_function=smooth,
    )


def test_verl_errors() -> None:
    with pytest.raises(errors.InputTypeError, match="expected str"):
        compute_score("x", None, "a")
    with pytest.raises(errors.LengthMismatchError):
        compute_score(solution_strs=["a", "b"], ground_truths=["a"])
    with pytest.raises(errors.MissingReferenceError):
        compute_score("x", "a", [])
    with pytest.raises(errors.InvalidOptionError, match="unknown option"):
        compute_score("x", "a", "a", sandbox_fusion_url="http://x")
