"""evaluate's "google_bleu" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("google_bleu"))``.
"""

from rapidbleu.evaluate import hub

GoogleBleu = hub.metric_class("google_bleu")
