"""Malformed inputs through the real CLI: exit code 2, one exact message with the file and line, no traceback.

The inputs are the files in tests/malformed/; tests/malformed/expected.yaml holds the message for
each (see the comment at its top). Case files are checked from a temporary folder; encoding files
are added to a temporary copy of the repository, checked with --root pointing at it.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import Result

from verifier.language.encoding import SORTS
from verifier.language.syntax import QUANTIFIERS
from verifier.scenario.loader import VERDICT_NAMES

HERE = Path(__file__).resolve().parent / "malformed"
EXPECTED: dict[str, object] = yaml.safe_load((HERE / "expected.yaml").read_text(encoding="utf-8"))

# The case checked when an encoding file is under test: one attempt, so rules over attempts are grounded.
GOOD_CASE = """\
players: [alice, bob]
cards:
  elijah:
    type: Hero
timeline:
  - turn: 1
    phase: Battle
    enter_battle: [elijah]
questions:
  where: zone(elijah, 0)
"""


PLACEHOLDERS = {
    "{sorts}": ", ".join(SORTS),
    "{verdicts}": ", ".join(VERDICT_NAMES),
    "{quantifiers}": ", ".join(QUANTIFIERS[:-1]) + " or " + QUANTIFIERS[-1],
}


def _message(text: object) -> str:
    out = str(text)
    for key, value in PLACEHOLDERS.items():
        out = out.replace(key, value)
    return out


def _params() -> list[Any]:
    out = []
    for name, entry in EXPECTED.items():
        if isinstance(entry, dict):
            marks = [pytest.mark.xfail(strict=True, reason=" ".join(str(entry["xfail"]).split()))]
            out.append(pytest.param(name, _message(entry["message"]), marks=marks, id=name))
        else:
            out.append(pytest.param(name, _message(entry), id=name))
    return out


def test_every_input_has_an_expectation() -> None:
    inputs = {p.name for p in HERE.iterdir() if p.is_file() and p.name != "expected.yaml"}
    assert inputs == set(EXPECTED), (inputs ^ set(EXPECTED))
    assert len(inputs) >= 20
    assert all(n.startswith(("case-", "encoding-")) for n in inputs)


@pytest.fixture
def run_malformed(cli: Callable[..., Result], chdir: Callable[[Path], None], tmp_path: Path, repo_root: Path,
                  repo_copy: Path) -> Callable[[str], Result]:
    def run(name: str) -> Result:
        if name.startswith("encoding-"):
            shutil.copy(HERE / name, repo_copy / "encodings" / name)
            (repo_copy / "case.yaml").write_text(GOOD_CASE, encoding="utf-8")
            chdir(repo_copy)
            return cli("check", "--root", ".", "-j", "1", "case.yaml")
        folder = tmp_path / "cases"
        folder.mkdir()
        shutil.copy(HERE / name, folder / name)
        chdir(folder)
        return cli("check", "--root", repo_root, "-j", "1", name)

    return run


@pytest.mark.parametrize(("name", "message"), _params())
def test_malformed(run_malformed: Callable[[str], Result], name: str, message: str) -> None:
    result = run_malformed(name)
    crashed = result.exception if not isinstance(result.exception, SystemExit) else None
    assert crashed is None, f"the CLI crashed: {crashed!r}"
    assert "Traceback" not in result.output
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines == [message]
    shown = re.match(r"error: ((?:encodings/)?[\w.-]+):(\d+)(?::\d+)?: ", message)
    assert shown is not None, "the expected message must name the file and line"
    assert shown.group(1).endswith(name)
    assert f"{shown.group(1)}:{shown.group(2)}" in result.stderr
    assert not result.stdout.strip() or result.stdout.strip().startswith("0 cases")


def test_good_case_for_encodings_is_good(cli: Callable[..., Result], chdir: Callable[[Path], None],
                                         repo_copy: Path) -> None:
    """Without a malformed file, the case used to load the encodings passes: every error above is the file's."""
    (repo_copy / "case.yaml").write_text(GOOD_CASE, encoding="utf-8")
    chdir(repo_copy)
    result = cli("check", "--root", ".", "-j", "1", "case.yaml")
    assert result.exit_code == 0, result.output


def _line_end_params() -> list[Any]:
    return [pytest.param(name, _message(entry), end, id=f"{name}-{label}")
            for name, entry in EXPECTED.items() if not isinstance(entry, dict)
            for end, label in (("\r\n", "crlf"), ("\r", "cr"))]


@pytest.mark.parametrize(("name", "message", "end"), _line_end_params())
def test_malformed_with_other_line_ends(cli: Callable[..., Result], chdir: Callable[[Path], None], tmp_path: Path,
                                        repo_root: Path, repo_copy: Path, name: str, message: str, end: str) -> None:
    """The same input with its lines ended by CR LF or by CR alone: the same message, at the same line and column
    (the lines as an editor counts them)."""
    raw = (HERE / name).read_bytes()
    changed = raw.replace(b"\n", end.encode())
    if name.startswith("encoding-"):
        (repo_copy / "encodings" / name).write_bytes(changed)
        (repo_copy / "case.yaml").write_text(GOOD_CASE, encoding="utf-8")
        chdir(repo_copy)
        result = cli("check", "--root", ".", "-j", "1", "case.yaml")
    else:
        folder = tmp_path / "cases"
        folder.mkdir()
        (folder / name).write_bytes(changed)
        chdir(folder)
        result = cli("check", "--root", repo_root, "-j", "1", name)
    assert "Traceback" not in result.output and result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [message]


def test_a_case_with_carriage_returns_alone_is_placed_inside_the_file(cli: Callable[..., Result],
                                                                     chdir: Callable[[Path], None], tmp_path: Path,
                                                                     repo_root: Path) -> None:
    (tmp_path / "cr.yaml").write_bytes(b"\r#ti\n---")  # 8 bytes, 3 lines in an editor
    chdir(tmp_path)
    result = cli("check", "--root", repo_root, "-j", "1", "cr.yaml")
    assert result.exit_code == 2 and result.stderr.splitlines() == [
        "error: cr.yaml:3:4: a case must be a mapping with players, cards, timeline and questions"]
