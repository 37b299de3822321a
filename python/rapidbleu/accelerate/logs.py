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

__all__ = ["ToSacrebleu", "forward", "held", "release"]


class _Held(threading.local):
    """Per thread, the records held in the accelerated call under way (``None``: none)."""

    # A class default: reading it raises nothing in a thread that never held a record, so the
    # check at each call's end costs one attribute read.
    records: list[logging.LogRecord] | None = None


_HELD = _Held()


def _send(record: logging.LogRecord) -> None:
    target = logging.getLogger("sacrebleu")
    if target.isEnabledFor(record.levelno):
        record.name = "sacrebleu"
        target.handle(record)


class ToSacrebleu(logging.Handler):
    """Hands a record of rapidbleu's logger to sacreBLEU's logger, as sacreBLEU's."""

    def emit(self, record: logging.LogRecord) -> None:
        """Gives ``record`` to sacreBLEU's logger, or holds it during an accelerated call.

        A call that rapidbleu refuses after logging (sentence BLEU's effective-order warning,
        then a reference it does not take) is made again by the real package, which logs the
        same warning: only the call that answers may log, once. So a record logged inside an
        accelerated call waits for :func:`release`, which the call's end makes.
        """
        from rapidbleu.accelerate.proxies import inside_call

        if inside_call():
            if _HELD.records is None:
                _HELD.records = []
            _HELD.records.append(record)
        else:
            _send(record)


def held() -> bool:
    """Whether this thread holds records (one ``threading.local`` read: the calls' cost)."""
    return _HELD.records is not None


def release(send: bool) -> None:
    """Sends (``send``) or drops the records this thread holds."""
    records = _HELD.records
    _HELD.records = None
    if send and records:
        for record in records:
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
