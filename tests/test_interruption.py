"""A Ctrl-C that comes in a finalizer, where Python would print the exception and drop it, is raised at the next
safe point instead."""

from __future__ import annotations

import gc
import os
import signal
import sys

import pytest

from verifier import interruption


class _FreedDuringCtrlC:
    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # handled in this finalizer
        sum(range(1000))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a signal sent to this process")
def test_a_ctrl_c_in_a_finalizer_is_raised_at_the_next_safe_point(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interruption, "_requested", False)
    dropped: list[object] = []  # what Python prints and drops (with a traceback) as it frees an object
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interruption.install()
        interruption.raise_if_requested()  # nothing yet
        _FreedDuringCtrlC()  # freed at once
        gc.collect()
        assert not dropped
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


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a signal sent to this process")
def test_a_ctrl_c_in_a_callback_of_the_garbage_collector_is_raised_at_the_next_safe_point(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interruption, "_requested", False)
    dropped: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", dropped.append)
    sent: list[bool] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)  # handled in this callback
            sum(range(1000))

    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    gc.callbacks.append(callback)
    try:
        interruption.install()
        gc.collect()
        assert sent and not dropped
        with pytest.raises(KeyboardInterrupt):
            interruption.raise_if_requested()
    finally:
        gc.callbacks.remove(callback)
        signal.signal(signal.SIGINT, before)
