"""evaluate's "bleu" metric (Google's BLEU on 13a tokens), computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("bleu"))``.
"""

from rapidbleu.evaluate import hub

Bleu = hub.metric_class("bleu")
