"""``python -m rapidbleu``: the command-line tool."""

from rapidbleu.cli import console_main

console_main()
