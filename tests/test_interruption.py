"""A Ctrl-C handled where Python drops the exception (a finalizer) is raised again at the next safe point."""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest

from verifier import interruption


class _FreedDuringCtrlC:
    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # handled, and its KeyboardInterrupt dropped, in this finalizer
        sum(range(1000))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a signal sent to this process")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped KeyboardInterrupt
def test_a_ctrl_c_dropped_in_a_finalizer_is_raised_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interruption, "_requested", False)
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interruption.install()
        interruption.raise_if_requested()  # nothing yet
        _FreedDuringCtrlC()  # freed at once: the Ctrl-C is lost where Python handles it
        gc.collect()
        with pytest.raises(KeyboardInterrupt):
            interruption.raise_if_requested()
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_process_that_ignores_ctrl_c_keeps_ignoring_it() -> None:
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        interruption.install()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
