"""The HTML report in a real browser: headless Chromium loads every page from the files, with no console
error and no request outside the site, finds the key elements, and saves a screenshot of each page.

Screenshots go to the test's temporary folder, or to the folder named by REGCHECK_SCREENSHOTS. Without a
Chromium the test is skipped, except in CI (CI set), where `.ci/run` installs one and its absence fails."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from verifier.htmlreport.site import case_page_name

from .chromium import Chromium, find_chromium
from .conftest import REPORTED


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("no chromium in CI: .ci/run installs Debian's chromium package")
        pytest.skip("no chromium installed (apt-get install chromium)")
    chromium = Chromium(binary)
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("REGCHECK_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _count(selector: str) -> str:
    return f"document.querySelectorAll({selector!r}).length"


def page_checks(site: Path, repo_root: Path) -> dict[str, dict[str, tuple[str, object]]]:
    """Per page: a JavaScript expression and the value it must give."""
    timeline_page = case_page_name(str(repo_root / "cases" / REPORTED[0]))
    contradiction_page = case_page_name(str(repo_root / "cases" / REPORTED[1]))
    open_page = case_page_name(str(repo_root / "cases" / REPORTED[2]))
    one_h1 = (_count("h1"), 1)
    nav = (_count("nav a"), 7)
    return {
        "index.html": {"h1": one_h1, "nav": nav, "cases": (_count("#case-table tbody tr"), 5),
                       "counts": ("document.getElementById('counts').textContent",
                                  "5 cases, 17 questions: 17 ok, 0 not ok")},
        "rules.html": {"h1": one_h1, "statements": (_count(".statement") + " > 100", True),
                       "contradicted": ("!!document.querySelector('#SA-5 .fail a')", True)},
        "contradictions.html": {"h1": one_h1, "marked": (_count("mark.conflicting") + " >= 2", True),
                                "sa5": ("[...document.querySelectorAll('mark.conflicting strong')]"
                                        ".some(e => e.textContent === 'SA-5')", True)},
        "accepted.html": {"h1": one_h1, "nav": nav},
        "coverage.html": {"h1": one_h1, "locked": (_count("#locked-cards tbody tr"), 7)},
        "explore.html": {"h1": one_h1, "nav": nav, "scopes": (_count("main h2, h2"), 1),
                         "findings": (_count("section.finding"), 1), "witness": (_count("section.finding details pre"), 1)},
        "sweep.html": {"h1": one_h1, "nav": nav, "findings": (_count("section.finding") + " >= 2", True),
                       "witness": (_count("section.finding details pre") + " >= 2", True)},
        timeline_page: {"h1": one_h1, "svg": (_count("svg.timeline"), 1), "cells": (_count("svg.timeline rect.cell"), 40),
                        "drawn": ("document.querySelector('svg.timeline').getBoundingClientRect().width > 500", True),
                        "labelled": ("document.querySelector('svg.timeline').getAttribute('aria-labelledby')",
                                     "tl-title tl-desc"),
                        "set_aside": (_count("svg.timeline rect[data-zone='set-aside area']"), 10),
                        "attempts": (_count("ol.attempts > li"), 1)},
        # the conflicting timeline draws the attempts only; the one under SA-5-I1 draws every cell
        contradiction_page: {"svg": (_count("svg.timeline"), 2),
                             "cells": (_count("svg.timeline[aria-labelledby^='tl-title '] rect.cell"), 0),
                             "resolved": (_count("svg.timeline[aria-labelledby^='tl-title-sa-5-i1'] rect.cell") + " > 0",
                                          True),
                             "attempts": (_count("svg.timeline .attempt"), 8),
                             "note": ("document.querySelector('#timeline + p.fail') !== null", True)},
        open_page: {"open": (_count("svg.timeline rect.cell.open") + " > 0", True),
                    "activation": (_count("ol.attempts > li"), 2)},
    }


def test_every_page_loads_cleanly_in_chromium(site: Path, repo_root: Path, browser: Chromium,
                                             screenshots: Path) -> None:
    checks = page_checks(site, repo_root)
    every_page = sorted(p.name for p in site.glob("*.html"))
    assert set(checks) <= set(every_page)
    for name in every_page:
        wanted = checks.get(name, {"h1": (_count("h1"), 1)})
        shot = screenshots / (Path(name).stem + ".png")
        load, got = browser.load(site / name, shot, {k: expr for k, (expr, _) in wanted.items()})
        assert load.console_errors == [], (name, load.console_errors)
        assert [u for u in load.requests if not u.startswith("file://")] == [], name
        assert got == {k: value for k, (_, value) in wanted.items()}, name
        assert shot.stat().st_size > 10_000 and shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_printed_page_keeps_the_picture_and_hides_the_navigation(site: Path, repo_root: Path,
                                                                 browser: Chromium, screenshots: Path) -> None:
    page = site / case_page_name(str(repo_root / "cases" / REPORTED[0]))
    checks = {"nav": "getComputedStyle(document.querySelector('nav')).display",
              "picture": "document.querySelector('svg.timeline').getBoundingClientRect().width > 500"}
    load, got = browser.load(page, screenshots / "printed.png", checks, media="print")
    assert got == {"nav": "none", "picture": True} and load.console_errors == []
    _, on_screen = browser.load(page, None, checks)
    assert on_screen == {"nav": "block", "picture": True}
