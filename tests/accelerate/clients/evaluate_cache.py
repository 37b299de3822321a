"""Lays out evaluate's module cache as ``evaluate.load(NAME)`` leaves it after loading online.

``evaluate.load("sacrebleu")`` fetches the loading script ``metrics/sacrebleu/sacrebleu.py``
of huggingface/evaluate (at the tag ``v<evaluate version>``) from the Hugging Face Hub, with
the files it imports (``bleu`` also fetches TensorFlow NMT's ``bleu.py`` as ``nmt_bleu``), and
copies them into ``$HF_MODULES_CACHE/evaluate_modules/metrics/evaluate-metric--NAME/HASH/``.
With no network (``HF_EVALUATE_OFFLINE=1``), ``evaluate.load(NAME)`` loads the newest copy
there. This program makes those copies from the scripts kept in tests/upstream/evaluate, with
evaluate's own function for it (``evaluate.loading._create_importable_file``, the last step of
``HubEvaluationModuleFactory.get_module``), so that the metrics load by name offline.

    HF_HOME=DIR python evaluate_cache.py
"""

from __future__ import annotations

from pathlib import Path

UPSTREAM = Path(__file__).resolve().parents[2] / "upstream" / "evaluate" / "metrics"
#: The metrics evaluate loads by name, and the files each loading script imports.
SCRIPTS = {
    "sacrebleu": [],
    "bleu": ["nmt_bleu", "tokenizer_13a"],
    "google_bleu": ["tokenizer_13a"],
    "chrf": [],
    "ter": [],
    "rouge": [],
}


def main() -> None:
    from datasets import DownloadMode
    from evaluate.loading import _create_importable_file, init_dynamic_modules

    modules = init_dynamic_modules()
    for name, imports in SCRIPTS.items():
        folder = UPSTREAM / name
        _create_importable_file(
            local_path=str(folder / f"{name}.py"),
            local_imports=[(imp, str(folder / f"{imp}.py")) for imp in imports],
            additional_files=[],
            dynamic_modules_path=modules,
            module_namespace="metrics",
            name=f"evaluate-metric/{name}",
            download_mode=DownloadMode.REUSE_DATASET_IF_EXISTS,
        )
    print(modules)


if __name__ == "__main__":
    main()
