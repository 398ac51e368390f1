"""Headless Chromium driven over the Chrome DevTools Protocol through a pipe (`--remote-debugging-pipe`):
no network port and no client package, only the browser Debian ships as `chromium`."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

BINARY_NAMES = ("chromium", "chromium-browser", "google-chrome")


def find_chromium() -> str | None:
    for name in BINARY_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


@dataclass
class PageLoad:
    """What loading one page showed: console errors, uncaught exceptions, log errors, and every URL asked for."""

    url: str
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


class Chromium:
    """One headless browser; `load` opens a page in a fresh tab and reports what happened."""

    def __init__(self, binary: str, width: int = 1280, height: int = 900) -> None:
        self.width, self.height = width, height
        self.profile = tempfile.mkdtemp(prefix="regcheck-chromium-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def place_pipes() -> None:  # the protocol's pipe ends are the child's fds 3 (commands) and 4 (replies)
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [binary, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
             "--disable-dev-shm-usage", f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=place_pipes, pass_fds=(3, 4))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.next_id = 0
        self.buffer = b""
        self.events: list[dict[str, Any]] = []

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self.send("Browser.close")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self.to_browser, self.from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its protocol pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None,
             timeout: float = 30) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, session: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def load(self, path: Path, screenshot: Path | None = None, checks: dict[str, str] | None = None,
             max_height: int = 4000, media: str = "") -> tuple[PageLoad, dict[str, Any]]:
        """Open the file, wait for it to load, run each check (a JavaScript expression) and save a screenshot
        of the page (of its first `max_height` pixels)."""
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.send(f"{domain}.enable", session=session)
        self.send("Emulation.setDeviceMetricsOverride", {"width": self.width, "height": self.height,
                                                         "deviceScaleFactor": 1, "mobile": False}, session=session)
        self.send("Emulation.setEmulatedMedia", {"media": media}, session=session)  # "print" as when printed
        url = path.resolve().as_uri()
        self.events.clear()
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_for("Page.loadEventFired", session)
        results = {name: self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                                   session=session)["result"].get("value") for name, expression in (checks or {}).items()}
        if screenshot is not None:
            height = self.send("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight",
                                                    "returnByValue": True}, session=session)["result"]["value"]
            clip = {"x": 0, "y": 0, "width": self.width, "height": min(int(height), max_height), "scale": 1}
            shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip},
                             session=session, timeout=60)
            screenshot.write_bytes(base64.b64decode(shot["data"]))
        load = PageLoad(url)
        for event in self.events:
            if event.get("sessionId") != session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                load.console_errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in params["args"]))
            elif method == "Runtime.exceptionThrown":
                load.console_errors.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                load.console_errors.append(params["entry"].get("text", ""))
            elif method == "Network.requestWillBeSent":
                load.requests.append(params["request"]["url"])
        self.send("Target.closeTarget", {"targetId": target})
        return load, results
