"""``python -m rapidbleu.accelerate [-m MODULE | -c CODE | SCRIPT] [ARGS]``: accelerator mode.

Runs the script (as ``python SCRIPT ARGS`` would), the module (as ``python -m MODULE ARGS``) or
the code (as ``python -c CODE ARGS``)
with :func:`rapidbleu.accelerate.install` in effect; its exit status is the program's.
"""

from __future__ import annotations

import os
import runpy
import sys

from rapidbleu.accelerate import install

USAGE = "usage: python -m rapidbleu.accelerate [-m MODULE | -c CODE | SCRIPT] [ARGS ...]"


def main(argv: list[str]) -> int:
    """Runs the program that ``argv`` names in accelerator mode (see the module's notes).

    Returns:
        2 for a command line that names no program (the program's own exit raises SystemExit).
    """
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE, file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    if argv[0] == "-m":
        if len(argv) < 2:
            print(f"rapidbleu.accelerate: -m needs a module name\n{USAGE}", file=sys.stderr)
            return 2
        install()
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        return 0
    if argv[0] == "-c":
        if len(argv) < 2:
            print(f"rapidbleu.accelerate: -c needs code to run\n{USAGE}", file=sys.stderr)
            return 2
        install()
        # As `python -c`: sys.argv[0] is "-c" and the current folder is first on the path.
        sys.argv = ["-c", *argv[2:]]
        sys.path[0] = ""
        exec(compile(argv[1], "<string>", "exec"), {"__name__": "__main__"})
        return 0
    script = argv[0]
    if not os.path.exists(script):
        print(f"rapidbleu.accelerate: no such script: {script}", file=sys.stderr)
        return 2
    install()
    sys.argv = argv
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
