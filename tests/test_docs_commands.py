"""Every `regcheck` command in a code block of the manual (docs/) and of the README runs, and exits as its
page says.

A command is a line of a `sh` (or `bash`, `shell`, `console`) code block whose first word is `regcheck`
(or a path ending in `/regcheck`). It is expected to exit 0 unless its comment says `(exit N)`. A block
right after the line `<!-- commands: slow -->` holds commands that take long (a whole gate, a sweep):
they run only with `-m slow`. A block after `<!-- commands: cluster -->` needs a running Dask cluster
and is not run here (`tests/sweep/test_cluster.py` runs a sweep on one). Each page's commands run in
order, in a copy of the repository's rules, cases and examples, so a command may use what an earlier
one of its page wrote, and nothing is written into the repository. They run in-process, as the `cli`
fixture runs the real command line (tests/conftest.py), from the copy's root as their current folder.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import Result

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([*ROOT.glob("docs/**/*.md"), ROOT / "README.md"])
SHELL_BLOCKS = ("sh", "bash", "shell", "console")
SLOW_MARK = "<!-- commands: slow -->"
CLUSTER_MARK = "<!-- commands: cluster -->"
OPERATORS = {"|", "||", "&", "&&", ";", ">", ">>", "<", "2>"}
# what a copy of the repository holds: enough for every command of the manual
COPIED = ("rules", "encodings", "cases", "scopes", "rulings", "examples", "schemas", "benchmarks/scopes",
          "rules.lock", "cards.lock", "accepted-findings.yaml", "accepted-survivors.yaml")


class Command(NamedTuple):
    page: str
    line: int
    args: tuple[str, ...]  # after `regcheck`
    exit_code: int
    slow: bool
    cluster: bool = False


def commands_of(page: Path) -> list[Command]:
    """The `regcheck` commands of a page's shell code blocks, in order."""
    out: list[Command] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    shown = page.relative_to(ROOT).as_posix()
    state: str | None = None  # outside a code block, or the language of the one the line is in
    slow, cluster, previous = False, False, ""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            if state is None:
                state, slow, cluster = stripped[3:].strip() or "text", previous == SLOW_MARK, previous == CLUSTER_MARK
            else:
                state = None
            previous = stripped
            continue
        if stripped:
            previous = stripped
        if state not in SHELL_BLOCKS or not stripped:
            continue
        words = shlex.split(stripped, comments=True)
        if not words or not (words[0] == "regcheck" or words[0].endswith("/regcheck")):
            continue
        if OPERATORS & set(words):
            raise AssertionError(f"{shown}:{number}: one command a line, without shell operators: {stripped}")
        comment = stripped.split(" #", 1)[1] if " #" in stripped else ""
        code = re.search(r"\(exit (\d+)\)", comment)
        out.append(Command(shown, number, tuple(words[1:]), int(code.group(1)) if code else 0, slow,
                           cluster))
    return out


def _blocks_close(page: Path) -> None:
    fences = [line for line in page.read_text(encoding="utf-8").splitlines() if line.strip().startswith("```")]
    assert len(fences) % 2 == 0, f"{page}: a code block is not closed"


ALL = {page.relative_to(ROOT).as_posix(): commands_of(page) for page in PAGES}


def _copy(tmp_path: Path, commands: list[Command]) -> Path:
    repo = tmp_path / "repo"
    for name in COPIED:
        source, target = ROOT / name, repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        elif source.exists():
            shutil.copy2(source, target)
    if any("--base" in c.args for c in commands):  # the gate's --base reads a revision from git
        env = {**os.environ, "GIT_AUTHOR_NAME": "docs", "GIT_AUTHOR_EMAIL": "docs@example.org",
               "GIT_COMMITTER_NAME": "docs", "GIT_COMMITTER_EMAIL": "docs@example.org"}
        for git in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the rules"]):
            subprocess.run(["git", *git], cwd=repo, env=env, check=True, capture_output=True)
    return repo


def _run(commands: list[Command], tmp_path: Path, cli: Callable[..., Result], monkeypatch: pytest.MonkeyPatch) -> None:
    repo = _copy(tmp_path, commands)
    # as a user runs them: with the result cache (kept apart from the suite's), so a page's second gate is quick
    monkeypatch.delenv("REGCHECK_NO_CACHE", raising=False)
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(repo)
    for c in commands:
        done = cli(*c.args)
        where = f"{c.page}:{c.line}: regcheck {shlex.join(c.args)}"
        if done.exception is not None and not isinstance(done.exception, SystemExit):
            raise AssertionError(f"{where} crashed: {done.exception!r}\n{done.output[-2000:]}")
        assert done.exit_code == c.exit_code, (
            f"{where} exited {done.exit_code}, the page says {c.exit_code}\n{done.output[-2000:]}")


def test_the_pages_hold_commands_and_the_reader_finds_them() -> None:
    for page in PAGES:
        _blocks_close(page)
    count = sum(len(c) for c in ALL.values())
    assert count >= 30, count
    assert ALL["README.md"] and ALL["docs/tutorial/first-case.md"]
    assert any(c.exit_code != 0 for cs in ALL.values() for c in cs)
    assert any(c.slow for cs in ALL.values() for c in cs)
    not_run = [c for cs in ALL.values() for c in cs if c.cluster]
    assert all("--scheduler" in c.args for c in not_run), not_run


def test_the_reader_reads_exit_codes_and_marks(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```sh\nregcheck check x.yaml   # not ok (exit 1)\nregcheck rules\n```\n\n```yaml\nregcheck: no\n```\n\n"
                    f"{SLOW_MARK}\n```sh\n.venv/bin/regcheck gate\n```\n", encoding="utf-8")
    shown = commands_of.__globals__["ROOT"]
    try:
        commands_of.__globals__["ROOT"] = tmp_path
        found = commands_of(page)
    finally:
        commands_of.__globals__["ROOT"] = shown
    assert [(c.args, c.exit_code, c.slow) for c in found] == [
        (("check", "x.yaml"), 1, False), (("rules",), 0, False), (("gate",), 0, True)]


@pytest.mark.parametrize("page", [p for p, cs in ALL.items() if any(not c.slow and not c.cluster for c in cs)])
def test_the_commands_of_a_page_exit_as_it_says(page: str, tmp_path: Path, cli: Callable[..., Result],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    _run([c for c in ALL[page] if not c.slow and not c.cluster], tmp_path, cli, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize("page", [p for p, cs in ALL.items() if any(c.slow for c in cs)])
def test_every_command_of_a_page_exits_as_it_says(page: str, tmp_path: Path, cli: Callable[..., Result],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _run([c for c in ALL[page] if not c.cluster], tmp_path, cli, monkeypatch)
