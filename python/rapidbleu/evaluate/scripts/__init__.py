"""Loading scripts for ``evaluate.load(path)`` (see :func:`rapidbleu.evaluate.script_path`)."""
