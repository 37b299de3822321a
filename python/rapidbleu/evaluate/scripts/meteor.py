"""evaluate's "meteor" metric, computed by rapidbleu.

Loaded with ``evaluate.load(rapidbleu.evaluate.script_path("meteor"))``.
"""

from rapidbleu.evaluate import hub

Meteor = hub.metric_class("meteor")
