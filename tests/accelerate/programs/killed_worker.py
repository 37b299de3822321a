"""A worker that SIGKILL ends: its calls are still in the report.

``python killed_worker.py`` forks a child that scores three sentences, prints whether its
SIGTERM is the default action (the mode installs no handler), and kills itself with SIGKILL.
The parent prints, as JSON, the child's line and the signal that ended it.
"""

import json
import os
import signal
import sys

import sacrebleu

if __name__ == "__main__":
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        for i in range(3):
            sacrebleu.sentence_bleu(f"the cat {i} sat", [f"the cat {i} sat down"])
        os.write(write, str(signal.getsignal(signal.SIGTERM) is signal.SIG_DFL).encode())
        os.kill(os.getpid(), signal.SIGKILL)
    os.close(write)
    _, status = os.waitpid(pid, 0)
    line = os.read(read, 100).decode()
    json.dump({"sigterm_default": line, "signal": os.WTERMSIG(status)}, sys.stdout)
