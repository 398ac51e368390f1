"""Ctrl-C that is never lost.

Python raises KeyboardInterrupt wherever the main thread is when the signal is handled, and that
may be inside a finalizer (a solver object freed as a check's terms go out of use) or a callback of
the garbage collector, where Python prints the exception with a traceback and drops it: the command
then went on as if no Ctrl-C had come. Once `install` has run, a Ctrl-C is remembered, raised at
once unless it came inside a finalizer or such a callback, and raised by `raise_if_requested`,
called at safe points (every solver check).
"""

from __future__ import annotations

__all__ = ["install", "raise_if_requested"]

import gc
import signal
from types import FrameType

_requested = False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _requested
    _requested = True
    # a callback the garbage collector runs (gc.callbacks) drops what it raises, as a finalizer does
    collecting = {getattr(callback, "__code__", None) for callback in gc.callbacks}
    while frame is not None:
        if frame.f_code.co_name == "__del__" or frame.f_code in collecting:
            return  # raised here, it would be printed and dropped: the next safe point raises it
        frame = frame.f_back
    raise KeyboardInterrupt


def install() -> None:
    """Remember every Ctrl-C from now on, where Python's own handler is in place (not in a process that
    ignores Ctrl-C, such as a worker or a job in the background)."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _handler)


def raise_if_requested() -> None:
    """Raise KeyboardInterrupt if a Ctrl-C came since `install` (however it was handled meanwhile)."""
    if _requested:
        raise KeyboardInterrupt
