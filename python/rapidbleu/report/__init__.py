"""What rapidbleu shows: the results model and its renderings.

sacreBLEU's text, JSON and LaTeX output, and the HTML report.
"""
