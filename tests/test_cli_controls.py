"""The controls of `regcheck check` people bring from pytest and click: -k, -x, -q/-v, the failure summary,
colour, progress, --update-expect, Ctrl-C, plurals, shell completion, and JUnit/SARIF files."""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from click.testing import Result

import verifier.terminal
from verifier.terminal import Selection, SelectionError

Cli = Callable[..., Result]
ROOT = Path(__file__).resolve().parent.parent
SARIF_SCHEMA = ROOT / "tests" / "gate" / "sarif-schema-2.1.0.json"
COMMENTED = "  # when it comes back\n"


@pytest.fixture
def cases(write_case: Callable[..., Path], provisions_text: str) -> dict[str, Path]:
    """A case that passes, and two whose expectation of returns_at the rules do not meet (one commented)."""
    wrong = provisions_text.replace("value: turn 3 Preparation}", "value: turn 2 Preparation}" + COMMENTED.rstrip("\n"))
    return {"good": write_case(provisions_text, "a-good.yaml"),
            "wrong": write_case(wrong, "b-wrong.yaml"),
            "wrong2": write_case(wrong.replace("  legal: {verdict: determined, value: yes}\n", ""), "c-wrong.yaml")}


def run(cli: Cli, repo_root: Path, *args: str | Path) -> Result:
    result = cli("check", "--root", repo_root, "--jobs", "1", *args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the CLI crashed: {result.exception!r}\n{result.output}")
    return result


# -- -k -----------------------------------------------------------------------------------------------


def test_k_selects_questions(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    result = run(cli, repo_root, cases["good"], "-k", "returns")
    assert result.exit_code == 0, result.output
    assert "returns_at: determined" in result.stdout and "legal:" not in result.stdout
    assert result.stdout.rstrip().endswith("1 case, 1 question: 1 ok, 0 not ok")


def test_k_with_not_and_or(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    result = run(cli, repo_root, cases["good"], cases["wrong"], "-k", "(good or wrong) and not returns_at")
    assert result.exit_code == 0, result.output  # the only failing question is left out
    assert result.stdout.rstrip().endswith("2 cases, 2 questions: 2 ok, 0 not ok")


def test_k_skips_case_files_its_path_rules_out(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                               write_case: Callable[..., Path]) -> None:
    broken = write_case("players: [alice]\n", "d-broken.yaml")
    result = run(cli, repo_root, cases["good"], broken, "-k", "not broken")
    assert result.exit_code == 0, result.output  # the broken file is never read
    assert "d-broken" not in result.output


@pytest.mark.parametrize("expression", ["", "a and", "(a or b", "a b", "not", "and a"])
def test_k_refuses_an_expression_it_cannot_read(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                                expression: str) -> None:
    result = run(cli, repo_root, cases["good"], "-k", expression)
    assert result.exit_code == 2
    assert "-k expression" in result.stderr


def test_selection_reads_like_pytest() -> None:
    s = Selection("set-aside and not (legal or RETURNS)")
    assert s.matches("cases/set-aside/x.yaml", "back_in")
    assert not s.matches("cases/set-aside/x.yaml", "returns_at")
    assert not s.matches("cases/heal/x.yaml", "back_in")
    assert s.may_match("cases/set-aside/x.yaml") and not s.may_match("cases/heal/x.yaml")
    with pytest.raises(SelectionError):
        Selection("a or or b")


# -- -x, -q, -v, the failure summary -------------------------------------------------------------------


def test_x_stops_at_the_first_failure(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    result = run(cli, repo_root, *cases.values(), "-x")
    assert result.exit_code == 1
    assert "b-wrong.yaml" in result.stdout and "c-wrong.yaml" not in result.stdout
    assert result.stdout.rstrip().endswith("2 cases, 4 questions: 3 ok, 1 not ok; stopped at the first failure (-x)")


def test_quiet_shows_only_failing_cases_and_verbose_shows_notes(cli: Cli, repo_root: Path,
                                                                cases: dict[str, Path]) -> None:
    normal = run(cli, repo_root, cases["good"], cases["wrong"])
    quiet = run(cli, repo_root, cases["good"], cases["wrong"], "-q")
    quieter = run(cli, repo_root, cases["good"], cases["wrong"], "-qq")
    assert "a-good.yaml: Provisions" in normal.stdout and "a-good.yaml: Provisions" not in quiet.stdout
    assert "b-wrong.yaml: Provisions" in quiet.stdout and "not ok:" in quiet.stdout
    assert quieter.stdout.splitlines() == ["2 cases, 4 questions: 3 ok, 1 not ok"]
    assert quiet.exit_code == quieter.exit_code == normal.exit_code == 1
    noted = Path(cases["good"]).read_text().replace("title:", "note: Written to be seen with -v.\ntitle:")
    Path(cases["good"]).write_text(noted)
    verbose = run(cli, repo_root, cases["good"], "-v")
    assert "    Written to be seen with -v." in verbose.stdout
    assert "Written to be seen" not in run(cli, repo_root, cases["good"]).stdout


def test_failure_summary_at_the_end(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                    write_case: Callable[..., Path]) -> None:
    broken = write_case("players: [alice]\n", "d-broken.yaml")
    result = run(cli, repo_root, cases["good"], cases["wrong"], broken)
    tail = result.stdout.rstrip().splitlines()[-4:]
    assert tail == [
        "not ok:",
        f"  {cases['wrong']}::returns_at: expected determined = turn 2 Preparation (bob), "
        "got determined = turn 3 Preparation (alice)",
        f"  {broken}: could not be checked",
        "2 cases, 4 questions: 3 ok, 1 not ok; 1 case file could not be checked",
    ]
    assert result.exit_code == 2


# -- colour ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("env", "coloured"), [({}, False), ({"FORCE_COLOR": "1"}, True),
                                               ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
                                               ({"FORCE_COLOR": "0"}, False)],
                         ids=["not-a-terminal", "force", "no-color-wins", "force-0"])
def test_colour_honours_no_color_and_force_color(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                                 monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                                                 coloured: bool) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = run(cli, repo_root, cases["good"], cases["wrong"])
    assert ("\x1b[32mok  \x1b[0m legal" in result.stdout and "\x1b[31mFAIL\x1b[0m returns_at" in result.stdout) is coloured
    assert ("\x1b[" in result.stdout) is coloured
    json_out = run(cli, repo_root, cases["good"], "--format", "json")
    assert "\x1b[" not in json_out.stdout


# -- progress ---------------------------------------------------------------------------------------------


@pytest.fixture
def terminal_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard error taken for a terminal, and progress shown at once."""
    monkeypatch.setattr(verifier.terminal, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(verifier.terminal, "PROGRESS_DELAY", 0.0)


def test_progress_of_check_on_a_terminal(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                         terminal_stderr: None) -> None:
    result = run(cli, repo_root, cases["good"], cases["wrong"])
    assert "\r\x1b[Kchecking cases: 1/2" in result.stderr and "\r\x1b[Kchecking cases: 2/2" in result.stderr
    assert result.stderr.endswith("\r\x1b[K")  # the line is cleared when done
    assert "\x1b" not in result.stdout


def test_no_progress_off_a_terminal_or_under_a_second(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(cli, repo_root, cases["good"], cases["wrong"]).stderr == ""
    monkeypatch.setattr(verifier.terminal, "stderr_is_terminal", lambda: True)
    monkeypatch.setattr(verifier.terminal, "PROGRESS_DELAY", 3600.0)
    assert run(cli, repo_root, cases["good"], cases["wrong"]).stderr == ""


def test_progress_of_ruling(cli: Cli, repo_root: Path, cases: dict[str, Path], terminal_stderr: None) -> None:
    result = cli("ruling", "--root", repo_root, "--jobs", "1", "--cases", cases["good"], "--cases", cases["wrong"],
                 repo_root / "rulings" / "upkeep-of-the-set-aside-does-not-count.yaml")
    assert result.exit_code == 0, result.output
    assert "\r\x1b[Kruling RUL-UPKEEP-1: cases: 2/2" in result.stderr


def _with_terminal_stderr(args: list[str | Path], stdout: Path, cwd: Path) -> tuple[int, str]:
    """Run regcheck (progress shown at once) as a separate process, its standard error a terminal (a pseudo-terminal
    read here) and its standard output the file `stdout`: the exit code and what the terminal showed."""
    import pty

    program = "import verifier.terminal as t; t.PROGRESS_DELAY = 0.0; from verifier.cli import run; run()"
    leader, follower = pty.openpty()
    with stdout.open("w", encoding="utf-8") as out:
        process = subprocess.Popen([sys.executable, "-c", program, *map(str, args)], cwd=cwd, stdin=subprocess.DEVNULL,
                                   stdout=out, stderr=follower)
    os.close(follower)
    shown = b""
    with contextlib.suppress(OSError):  # the terminal is closed once the process has ended
        while chunk := os.read(leader, 4096):
            shown += chunk
    os.close(leader)
    return process.wait(timeout=600), shown.decode("utf-8", "replace")


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_progress_of_ruling_whatever_the_output(fmt: str, repo_root: Path, cases: dict[str, Path], tmp_path: Path) -> None:
    """With standard output a file (in either format), the progress still goes to standard error when it is a
    terminal, and none of it to the file."""
    stdout = tmp_path / "out.txt"
    code, terminal = _with_terminal_stderr(
        ["ruling", "--root", repo_root, "--jobs", "1", "--format", fmt, "--cases", cases["good"], "--cases",
         cases["wrong"], repo_root / "rulings" / "upkeep-of-the-set-aside-does-not-count.yaml"], stdout, tmp_path)
    assert code == 0, terminal
    assert "\r\x1b[Kruling RUL-UPKEEP-1: cases: 1/2" in terminal and "\r\x1b[Kruling RUL-UPKEEP-1: cases: 2/2" in terminal
    assert terminal.endswith("\r\x1b[K")  # the line is cleared when done
    written = stdout.read_text(encoding="utf-8")
    assert "\x1b" not in written and "\r" not in written and "RUL-UPKEEP-1: cases" not in written
    if fmt == "json":
        assert json.loads(written)["rulings"][0]["verdict"] == "entailed"
    else:
        assert "  verdict: entailed" in written


def test_progress_of_gate(cli: Cli, repo_copy: Path, cases: dict[str, Path], terminal_stderr: None) -> None:
    (repo_copy / "cases").mkdir()
    (repo_copy / "cases" / "good.yaml").write_text(cases["good"].read_text())
    result = cli("gate", "--root", repo_copy, "--jobs", "1")
    assert "\r\x1b[Kgate: cases: 1/1" in result.stderr


# -- --update-expect ---------------------------------------------------------------------------------------


def test_update_expect_changes_only_the_expectation(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    before = cases["wrong"].read_text()
    result = run(cli, repo_root, cases["wrong"], "--update-expect")
    assert result.exit_code == 0, result.output
    assert f"updated 1 expectation in {cases['wrong']}" in result.stderr
    assert result.stdout.rstrip().endswith("1 case, 2 questions: 1 ok, 0 not ok, 1 expectation updated")
    after = cases["wrong"].read_text()
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert changed == [("  returns_at: {verdict: determined, value: turn 2 Preparation}" + COMMENTED.rstrip("\n"),
                        '  returns_at: {verdict: determined, value: "turn 3 Preparation (alice)"}' + COMMENTED.rstrip("\n"))]
    assert len(before.splitlines()) == len(after.splitlines())
    again = run(cli, repo_root, cases["wrong"])
    assert again.exit_code == 0, again.output


def test_update_expect_adds_missing_expectations(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    before = cases["wrong2"].read_text()  # expects nothing of `legal`
    result = run(cli, repo_root, cases["wrong2"], "--update-expect")
    assert result.exit_code == 0, result.output
    after = cases["wrong2"].read_text()
    assert after.endswith("  legal: {verdict: determined, value: yes}\n")
    assert after.replace('"turn 3 Preparation (alice)"', "turn 2 Preparation").replace(
        "\n  legal: {verdict: determined, value: yes}", "") == before
    unchanged = run(cli, repo_root, cases["wrong2"], "--update-expect")
    assert "updated" not in unchanged.stderr and cases["wrong2"].read_text() == after


def test_update_expect_with_k_touches_only_the_selected(cli: Cli, repo_root: Path, cases: dict[str, Path]) -> None:
    before = cases["wrong2"].read_text()
    run(cli, repo_root, cases["wrong2"], "--update-expect", "-k", "legal")
    after = cases["wrong2"].read_text()
    assert "legal: {verdict: determined, value: yes}" in after and "turn 2 Preparation" in after
    assert after != before


# -- JUnit and SARIF ---------------------------------------------------------------------------------------


def test_junit_and_sarif_files_from_check(cli: Cli, repo_root: Path, cases: dict[str, Path], tmp_path: Path,
                                          write_case: Callable[..., Path]) -> None:
    broken = write_case("players: [alice]\n", "d-broken.yaml")
    junit, sarif = tmp_path / "check.xml", tmp_path / "check.sarif"
    result = run(cli, repo_root, cases["good"], cases["wrong"], broken, "--junit-file", junit, "--sarif-file", sarif)
    assert result.exit_code == 2
    suites = ET.parse(junit).getroot()
    assert suites.get("name") == "regcheck check"
    assert (suites.get("tests"), suites.get("failures"), suites.get("errors")) == ("5", "1", "1")
    assert [s.get("name") for s in suites] == [str(cases["good"]), str(cases["wrong"]), str(broken)]
    failure = suites.find("./testsuite/testcase[@name='returns_at']/failure")
    assert failure is not None and failure.get("message") == ("expected determined = turn 2 Preparation (bob), "
                                                              "got determined = turn 3 Preparation (alice)")
    log = json.loads(sarif.read_text())
    jsonschema.validate(log, json.loads(SARIF_SCHEMA.read_text()))
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("regcheck/input", "error"), ("regcheck/regressions", "error")]
    region = results[1]["locations"][0]["physicalLocation"]
    assert region["region"]["startLine"] == 18  # the line of the question returns_at
    assert region["artifactLocation"]["uri"] == str(cases["wrong"])


def test_junit_and_sarif_may_not_be_the_same_file(cli: Cli, repo_root: Path, cases: dict[str, Path],
                                                  tmp_path: Path) -> None:
    result = run(cli, repo_root, cases["good"], "--junit-file", tmp_path / "x", "--sarif-file", tmp_path / "x")
    assert result.exit_code == 2 and "name the same file" in result.stderr


# -- shell completion, Ctrl-C --------------------------------------------------------------------------------


def test_shell_completion_as_documented(repo_root: Path) -> None:
    regcheck = Path(sys.executable).parent / "regcheck"
    if not regcheck.exists():
        pytest.skip("the regcheck script is not installed beside this interpreter")
    script = subprocess.run([regcheck], env={**os.environ, "_REGCHECK_COMPLETE": "bash_source"},
                            capture_output=True, text=True, timeout=60)
    assert "_regcheck_completion()" in script.stdout and "complete -o nosort -F _regcheck_completion regcheck" \
        in script.stdout
    words = subprocess.run([regcheck], env={**os.environ, "_REGCHECK_COMPLETE": "bash_complete",
                                            "COMP_WORDS": "regcheck ch", "COMP_CWORD": "1"},
                           capture_output=True, text=True, timeout=60)
    assert words.stdout.splitlines() == ["plain,check"]
    manual = (repo_root / "docs" / "how-to" / "check-cases.md").read_text()
    assert 'eval "$(_REGCHECK_COMPLETE=bash_source regcheck)"' in manual


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Ctrl-C is sent to a process group")
# with one job, the solver checks run in the process Ctrl-C ends; with --memory, each case in a process of its own
@pytest.mark.parametrize(("jobs", "memory"), [("1", []), ("2", []), ("1", ["--memory", "512"])])
def test_ctrl_c_exits_130_without_a_traceback(repo_root: Path, jobs: str, memory: list[str]) -> None:
    # unbuffered, so each case's answer reaches the pipe when it is written
    process = subprocess.Popen([sys.executable, "-m", "verifier", "check", "--jobs", jobs, *memory, "--no-cache", "cases"],
                               cwd=repo_root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
                               preexec_fn=_in_the_foreground)
    try:
        # Ctrl-C once the first case is answered: the checks are under way (in its workers, when it has them),
        # with many cases still to check
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 120)
        first = process.stdout.readline() if ready else ""
        assert first.strip(), f"no case was answered (exit {process.poll()})"
        os.killpg(process.pid, signal.SIGINT)  # what a terminal does on Ctrl-C: the whole foreground group
        _, err = process.communicate(timeout=60)
        assert process.returncode == 130
        assert err.rstrip().endswith("interrupted") and "Traceback" not in err
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def _in_the_foreground() -> None:
    # A command typed at a terminal starts with Ctrl-C's default action, even when these tests run in the background.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _in_the_background() -> None:
    # What a shell does for a command started with `&`: Ctrl-C is ignored.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Ctrl-C is sent to a process group")
def test_a_check_in_the_background_keeps_its_answers_through_ctrl_c(repo_root: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "verifier", "check", "--jobs", "2", "--format", "json", "cases/heal"]
    quiet = subprocess.run(command, cwd=repo_root, capture_output=True, text=True, timeout=300)
    assert quiet.returncode == 0, quiet.stderr
    out, err = tmp_path / "out", tmp_path / "err"
    with out.open("w") as stdout, err.open("w") as stderr:
        process = subprocess.Popen(command, cwd=repo_root, stdout=stdout, stderr=stderr, start_new_session=True,
                                   preexec_fn=_in_the_background)
    try:
        sent = 0
        while process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)  # the parent and its workers, many times during their checks
                sent += 1
            time.sleep(0.02)
        assert sent > 0
        assert process.returncode == 0, err.read_text()
        assert out.read_text() == quiet.stdout
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
