"""evaluate's "sacrebleu" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("sacrebleu"))``.
"""

from rapidbleu.evaluate import hub

Sacrebleu = hub.metric_class("sacrebleu")
