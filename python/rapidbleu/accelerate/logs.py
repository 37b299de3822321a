"""sacreBLEU's log records in accelerator mode: rapidbleu's, under sacreBLEU's logger.

sacreBLEU logs its warnings (sentence BLEU without effective order, hypotheses that look
tokenized, ...) through ``logging.getLogger("sacrebleu")``; rapidbleu logs the same text through
``"rapidbleu"``. In the mode a program configures sacreBLEU's logger (a level, a handler, a
filter) and expects it to hold: :class:`ToSacrebleu` hands each of rapidbleu's records to
sacreBLEU's logger, named ``sacrebleu``, and the ``rapidbleu`` logger stops propagating, so each
record is handled once, where the program looks for it.

Example:
    >>> import logging
    >>> seen = []
    >>> h = logging.Handler(); h.emit = lambda r: seen.append((r.name, r.getMessage()))
    >>> target = logging.getLogger("sacrebleu")
    >>> target.addHandler(h)
    >>> record = logging.LogRecord("rapidbleu", logging.ERROR, __file__, 1, "hello", None, None)
    >>> ToSacrebleu().emit(record)
    >>> target.removeHandler(h); seen
    [('sacrebleu', 'hello')]
"""

from __future__ import annotations

import logging
import threading

__all__ = ["ToSacrebleu", "forward", "hold", "release"]


#: Per thread, the records of the accelerated call under way (``None``: none is).
_HELD = threading.local()


def _send(record: logging.LogRecord) -> None:
    target = logging.getLogger("sacrebleu")
    if target.isEnabledFor(record.levelno):
        record.name = "sacrebleu"
        target.handle(record)


class ToSacrebleu(logging.Handler):
    """Hands a record of rapidbleu's logger to sacreBLEU's logger, as sacreBLEU's."""

    def emit(self, record: logging.LogRecord) -> None:
        """Gives ``record`` to sacreBLEU's logger (or holds it: see :func:`hold`)."""
        held = getattr(_HELD, "records", None)
        if held is not None:
            held.append(record)
        else:
            _send(record)


def hold() -> None:
    """Holds this thread's records until :func:`release`: the call may yet fall back.

    A call that rapidbleu refuses after logging (sentence BLEU's effective-order warning, then
    a reference it does not take) is made again by the real package, which logs the same
    warning: only the call that answers may log, once.
    """
    _HELD.records = []


def release(send: bool) -> None:
    """Sends (``send``) or drops the records held since :func:`hold`."""
    held = getattr(_HELD, "records", None)
    _HELD.records = None
    if send and held:
        for record in held:
            _send(record)


_HANDLER = ToSacrebleu()


def forward(on: bool) -> None:
    """Starts (``on``) or stops handing rapidbleu's records to sacreBLEU's logger."""
    source = logging.getLogger("rapidbleu")
    if on and _HANDLER not in source.handlers:
        source.addHandler(_HANDLER)
        source.propagate = False
    elif not on and _HANDLER in source.handlers:
        source.removeHandler(_HANDLER)
        source.propagate = True
