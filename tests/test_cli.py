"""The `regcheck` command line, run in-process through click's CliRunner."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import DEFAULTS
from verifier.vocabulary import VALUE_SETS, display_value

Cli = Callable[..., Result]
Check = Callable[[Result], None]

BROKEN = """\
players: [alice, bob]
cards:
  elijah:
    type: Heroo
questions:
  q: legal(x)
"""


@pytest.fixture
def good(write_case: Callable[..., Path], provisions_text: str) -> Path:
    return write_case(provisions_text, "good.yaml")


@pytest.fixture
def wrong(write_case: Callable[..., Path], provisions_text: str) -> Path:
    """A case whose expectation the rules do not meet."""
    return write_case(provisions_text.replace("value: turn 3 Preparation", "value: turn 2 Preparation"), "wrong.yaml")


# -- check: text output and exit codes ------------------------------------------------------------


def test_check_ok(cli: Cli, assert_no_crash: Check, repo_root: Path, good: Path) -> None:
    result = cli("check", "--root", repo_root, good)
    assert_no_crash(result)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"{good}: Provisions sets a Hero aside for 2 turns\n")
    assert "  ok   legal: determined = yes\n" in out
    assert "  ok   returns_at: determined = turn 3 Preparation (alice)\n" in out
    assert "    expected determined = turn 3 Preparation (alice): matches\n" in out
    assert out.rstrip().endswith("1 case, 2 questions: 2 ok, 0 not ok")
    assert result.stderr == ""


def test_check_of_one_case_leaves_the_cycle_collector_on(cli: Cli, repo_root: Path, good: Path, wrong: Path) -> None:
    # one case is checked without the collector, which is back when the command ends, whatever its exit code
    assert gc.isenabled()
    for case in (good, wrong):
        cli("check", str(case), "--no-cache", "--root", str(repo_root))
        assert gc.isenabled()


def test_check_unmet_expectation_exits_1(cli: Cli, assert_no_crash: Check, repo_root: Path, wrong: Path) -> None:
    result = cli("check", "--root", repo_root, wrong)
    assert_no_crash(result)
    assert result.exit_code == 1
    assert "  FAIL returns_at: determined = turn 3 Preparation (alice)\n" in result.stdout
    assert "    expected determined = turn 2 Preparation (bob): does NOT match\n" in result.stdout
    assert result.stdout.rstrip().endswith("1 case, 2 questions: 1 ok, 1 not ok")


def test_unexpected_contradiction_exits_1(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                          write_case: Callable[..., Path], tiny_contradiction_text: str) -> None:
    path = write_case(tiny_contradiction_text.split("expect:")[0], "contra.yaml")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 1
    assert "  FAIL zap_legal: contradiction\n" in result.stdout
    assert "conflicting set" in result.stdout
    assert "contra.yaml:" in result.stdout  # facts of the core are shown at their case lines


def test_expected_contradiction_exits_0(cli: Cli, assert_no_crash: Check, repo_root: Path,
                                        write_case: Callable[..., Path], tiny_contradiction_text: str) -> None:
    path = write_case(tiny_contradiction_text, "contra.yaml")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 0
    assert "  ok   zap_legal: contradiction\n" in result.stdout
    assert "SA-5[x=zap, c=joshua]" in result.stdout


def test_bad_input_exits_2(cli: Cli, assert_no_crash: Check, repo_root: Path, write_case: Callable[..., Path]) -> None:
    path = write_case(BROKEN, "broken.yaml")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 2
    types = ", ".join(display_value(t) for t in VALUE_SETS["card_type"])
    assert result.stderr == f"error: {path}:4:11: unknown card type 'Heroo' (did you mean 'Hero'?); one of: {types}\n"


def test_bad_input_wins_over_findings(cli: Cli, assert_no_crash: Check, repo_root: Path, wrong: Path,
                                      write_case: Callable[..., Path]) -> None:
    broken = write_case(BROKEN, "broken.yaml")
    result = cli("check", "--root", repo_root, "-j", "1", wrong, broken)
    assert_no_crash(result)
    assert result.exit_code == 2
    # the good case is still checked and reported
    assert "FAIL returns_at" in result.stdout
    assert "1 case, 2 questions: 1 ok, 1 not ok" in result.stdout
    assert "broken.yaml:4:11" in result.stderr


def test_folder_is_searched_recursively(cli: Cli, assert_no_crash: Check, repo_root: Path, tmp_path: Path,
                                        provisions_text: str) -> None:
    folder = tmp_path / "suite"
    (folder / "deeper").mkdir(parents=True)
    (folder / "a.yaml").write_text(provisions_text, encoding="utf-8")
    (folder / "deeper" / "b.yml").write_text(provisions_text, encoding="utf-8")
    (folder / "notes.txt").write_text("not a case", encoding="utf-8")
    result = cli("check", "--root", repo_root, "--format", "json", folder, folder / "a.yaml")
    assert_no_crash(result)
    assert result.exit_code == 0
    cases = [r["case"] for r in json.loads(result.stdout)["results"]]
    # sorted, each file once even when named twice
    assert cases == [str(folder / "a.yaml")] * 2 + [str(folder / "deeper" / "b.yml")] * 2


def test_parallel_and_serial_agree(cli: Cli, repo_root: Path, good: Path, wrong: Path) -> None:
    serial = cli("check", "--root", repo_root, "--format", "json", "-j", "1", good, wrong)
    parallel = cli("check", "--root", repo_root, "--format", "json", "-j", "2", good, wrong)
    assert serial.exit_code == parallel.exit_code == 1
    assert json.loads(serial.stdout) == json.loads(parallel.stdout)


def test_real_case_file(cli: Cli, assert_no_crash: Check, repo_root: Path) -> None:
    path = repo_root / "cases" / "set-aside" / "provisions-returns-after-two-turns.yaml"
    if not path.exists():
        pytest.skip("the Provisions case was renamed")
    result = cli("check", "--root", repo_root, path)
    assert_no_crash(result)
    assert result.exit_code == 0
    assert " not ok" in result.stdout and ", 0 not ok" in result.stdout


# -- check --format json ----------------------------------------------------------------------------


def test_check_json(cli: Cli, assert_no_crash: Check, repo_root: Path, good: Path, wrong: Path) -> None:
    result = cli("check", "--root", repo_root, "--format", "json", good, wrong)
    assert_no_crash(result)
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert isinstance(data, dict) and isinstance(data["results"], list)
    assert len(data["results"]) == 4
    for item in data["results"]:
        assert {"case", "question", "verdict", "value", "expected", "ok"} <= set(item)
    first = data["results"][0]
    assert (first["case"], first["question"], first["verdict"], first["value"], first["expected"], first["ok"]) == (
        str(good), "legal", "determined", "yes", "determined", True)
    last = data["results"][-1]
    assert (last["question"], last["value"], last["expected_value"], last["ok"]) == (
        "returns_at", "turn 3 Preparation (alice)", "turn 2 Preparation (bob)", False)
    assert data["summary"]["cases"] == 2 and data["summary"]["questions"] == 4 and data["summary"]["failed"] == 1


def test_check_json_contradiction_core(cli: Cli, repo_root: Path, write_case: Callable[..., Path],
                                       tiny_contradiction_text: str) -> None:
    path = write_case(tiny_contradiction_text, "contra.yaml")
    result = cli("check", "--root", repo_root, "--format", "json", path)
    assert result.exit_code == 0
    (item,) = json.loads(result.stdout)["results"]
    assert item["verdict"] == "contradiction" and item["value"] is None and item["ok"] is True
    assert item["core_verified"] is True
    facts = [c for c in item["core"] if c["kind"] == "fact"]
    rules = [c for c in item["core"] if c["kind"] == "rule"]
    assert facts and rules
    assert all(c["location"].startswith(f"{path}:") for c in facts)
    assert all(s["id"] and s["text"] for c in rules for s in c["statements"])


def test_check_json_contradiction_resolutions(cli: Cli, repo_root: Path, write_case: Callable[..., Path],
                                              tiny_contradiction_text: str, provisions_text: str) -> None:
    contra = write_case(tiny_contradiction_text, "contra.yaml")
    good = write_case(provisions_text, "good.yaml")
    result = cli("check", "--root", repo_root, "--format", "json", contra, good)
    assert result.exit_code == 0, result.output
    first, *others = json.loads(result.stdout)["results"]
    assert first["verdict"] == "contradiction"
    ways = first["resolutions"]
    assert ways[0] == {"kind": "interpretation", "interpretation": "SA-5-I1", "statements": [], "rules": ["SA-5"],
                       "verified": True, "verdict": "determined", "value": "yes", "reason": None}
    corrections = [w for w in ways[1:] if w["kind"] == "correction"]
    assert len(corrections) == len(ways) - 1 and corrections
    assert all(w["statements"] and w["rules"] and w["interpretation"] is None and w["verdict"] for w in corrections)
    assert first["resolutions_note"] is None or "stopped" in first["resolutions_note"]
    same = {(w["verdict"], w["value"]) for w in ways}
    assert first["same_under_every_resolution"] == ("determined = yes" if same == {("determined", "yes")} else None)
    # only a contradiction has resolutions
    assert others and all("resolutions" not in r for r in others)


def test_check_text_contradiction_resolutions(cli: Cli, repo_root: Path) -> None:
    path = repo_root / "cases" / "set-aside" / "darkness-negated-in-battle.yaml"
    result = cli("check", "--root", repo_root, path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert "    - interpretation SA-5-I1, in place of SA-5" in lines
    assert "    - correction set: leave out SA-5 (rules SA-5)" in lines
    # each question's answer under each resolution, the one the conflict hides included
    assert "    resolved by SA-5-I1: determined = yes" in lines
    assert "    resolved by SA-5-I1: determined = turn 1 Battle (alice), negate_darkness" in lines
    assert "    resolved by leaving out SA-5: determined = turn 1 Battle (alice), negate_darkness" in lines
    assert lines.index("  ok   joshua_returns_at: contradiction") < lines.index(
        "    resolved by SA-5-I1: determined = turn 1 Battle (alice), negate_darkness")


def test_check_text_same_under_every_resolution(cli: Cli, repo_root: Path) -> None:
    path = repo_root / "cases" / "set-aside" / "hero-set-aside-negated-in-same-preparation-phase.yaml"
    result = cli("check", "--root", repo_root, "--format", "json", path)
    by_question = {r["question"]: r for r in json.loads(result.stdout)["results"]}
    text = cli("check", "--root", repo_root, path).stdout
    for name, r in by_question.items():
        answers = {(w["verdict"], w["value"]) for w in r["resolutions"]}
        if len(answers) == 1:
            ((verdict, value),) = answers
            shown = verdict + (f" = {value}" if value is not None else "")
            assert r["same_under_every_resolution"] == shown
            block = text.split(f"  ok   {name}: contradiction\n", 1)[1].split("\n  ok   ", 1)[0].splitlines()
            assert f"    the same under every resolution ({len(r['resolutions'])}): {shown}" in block
            assert not [line for line in block if line.startswith("    resolved by ")]
        else:
            assert r["same_under_every_resolution"] is None
    assert any(r["same_under_every_resolution"] for r in by_question.values())
    assert any(r["same_under_every_resolution"] is None for r in by_question.values())


def test_check_json_choice_dependent(cli: Cli, repo_root: Path, write_case: Callable[..., Path]) -> None:
    text = """\
    players: [alice, bob]
    turns: 3
    cards:
      moses: {type: Hero, brigade: Green}
      passover: {card: Passover}
    timeline:
      - {id: play_passover, turn: 1, phase: Preparation, play: passover, on: moses, targets: [moses]}
    questions:
      returns_at: return_step(play_passover, moses)
    expect:
      returns_at: choice-dependent
    """
    result = cli("check", "--root", repo_root, "--format", "json", write_case(text))
    assert result.exit_code == 0, result.output
    (item,) = json.loads(result.stdout)["results"]
    assert (item["verdict"], item["value"], item["ok"]) == ("choice-dependent", None, True)
    values = [w["value"] for w in item["witnesses"]]
    assert {"turn 2 Preparation (bob)", "turn 3 Preparation (alice)"} <= set(values)
    for w in item["witnesses"]:
        assert isinstance(w["choices"], dict) and w["choices"]
    assert "SA-5" in item["rules_involved"]


# -- --show-defaults ----------------------------------------------------------------------------------


def test_show_defaults(cli: Cli, assert_no_crash: Check, repo_root: Path, good: Path) -> None:
    result = cli("check", "--root", repo_root, "--show-defaults", good)
    assert_no_crash(result)
    assert result.exit_code == 0
    out = result.stdout
    assert "  inputs left to a default:\n" in out
    assert f"    elijah is owned by alice  ({good}:5:5)\n" in out
    assert f"    provisions starts in the hand  ({good}:8:5)\n" in out
    assert f"    alice makes attempt play_provisions  ({good}:10:5)\n" in out
    # stated inputs are not listed as defaults
    assert "elijah's type is Hero" not in out.split("inputs left to a default:")[1]


def test_stated_inputs_are_not_listed_as_defaults(cli: Cli, repo_root: Path, write_case: Callable[..., Path]) -> None:
    text = """\
    players: [alice, bob]
    cards:
      elijah:
        type: Hero
        owner: bob
        controller: bob
        temporary_controller: bob
        territory_class: false
        zone: territory
        zone_of: bob
        brigade: Green
    questions:
      q: zone(elijah, 0)
    """
    result = cli("check", "--root", repo_root, "--show-defaults", write_case(text))
    assert result.exit_code == 0
    listed = result.stdout.split("inputs left to a default:\n")[1].split("\n\n")[0]
    for stated in ("owned by", "permanent control", "controls elijah at the start", "Territory Class",
                   "starts in the territory", "starts in bob's territory"):
        assert stated not in listed


def test_without_show_defaults(cli: Cli, repo_root: Path, good: Path) -> None:
    assert "inputs left to a default" not in cli("check", "--root", repo_root, good).stdout


# -- rules ---------------------------------------------------------------------------------------------


def test_rules_json(cli: Cli, assert_no_crash: Check, repo_root: Path, rules_doc: RulesDocument) -> None:
    result = cli("rules", "--root", repo_root, "--format", "json")
    assert_no_crash(result)
    data = json.loads(result.stdout)
    statements = data["statements"]
    assert [s["id"] for s in statements] == [s.id for s in rules_doc.statements]
    for s in statements:
        assert {"id", "section", "status", "encodings"} <= set(s)
        assert s["status"] in ("encoded", "waived", "missing"), s
        if s["status"] == "encoded":
            assert s["encodings"], s
        elif s["status"] == "waived":
            assert s["reason"] and s["reason"].strip() and not s["encodings"], s
    # the exit code is the gate: 1 exactly when a statement is missing or a citation is unknown
    missing = [s["id"] for s in statements if s["status"] == "missing"]
    assert result.exit_code == (1 if missing or data["unknown_citations"] else 0), result.output


def test_every_set_aside_statement_is_encoded_or_waived(cli: Cli, repo_root: Path) -> None:
    data = json.loads(cli("rules", "--root", repo_root, "--format", "json").stdout)
    sa = [s for s in data["statements"] if s["id"].startswith("SA-")]
    assert len(sa) >= 25
    for s in sa:
        assert s["section"] == "set-aside"
        assert s["status"] in ("encoded", "waived"), f"{s['id']} is neither encoded nor waived"
        if s["status"] == "waived":
            assert s["reason"] and s["reason"].strip(), f"{s['id']} is waived without a reason"
    cited_unknown = [u for u in data["unknown_citations"] if u["statement"].startswith("SA-")]
    assert not cited_unknown


def test_rules_text(cli: Cli, assert_no_crash: Check, repo_root: Path, rules_doc: RulesDocument) -> None:
    result = cli("rules", "--root", repo_root)
    assert_no_crash(result)
    assert result.exit_code in (0, 1)
    assert "\nset-aside\n" in result.stdout
    assert re.search(r"^  SA-1 +text +encoded  by (.*, )?SA-1(,|$)", result.stdout, re.M)
    assert re.search(r"^  INT-4-R1 +reading +encoded  by definition interruptible_later$", result.stdout, re.M)
    assert re.search(r"^  NEG-3-R1 +reading +waived   Holds by construction", result.stdout, re.M)
    assert re.search(r"^  CORE-1 +principle +waived ", result.stdout, re.M)
    assert re.search(r"^  SA-\d+ +text +waived   \S", result.stdout, re.M)
    n = len(rules_doc.statements)
    summary = re.search(rf"\n{n} statements: (\d+) encoded, (\d+) waived, (\d+) missing", result.stdout)
    assert summary is not None
    assert result.exit_code == (1 if int(summary.group(3)) or " which is not in the rules document" in result.stdout else 0)


def test_rules_missing_statement_exits_1(cli: Cli, repo_copy: Path) -> None:
    with (repo_copy / "rules" / "set-aside.md").open("a", encoding="utf-8") as f:
        f.write("- **SA-99** A statement nobody encoded. (Test)\n")
    result = cli("rules", "--root", repo_copy)
    assert result.exit_code == 1
    assert re.search(r"^  SA-99 +text +MISSING  neither encoded nor waived$", result.stdout, re.M)
    data = json.loads(cli("rules", "--root", repo_copy, "--format", "json").stdout)
    assert next(s for s in data["statements"] if s["id"] == "SA-99")["status"] == "missing"


def test_rules_unknown_citation_exits_1(cli: Cli, repo_copy: Path) -> None:
    (repo_copy / "encodings" / "zz-extra.yaml").write_text(
        "section: extra\nrules:\n  - id: EXTRA-1\n    cites: [SA-98]\n    says: always\n    requires: 'True'\n",
        encoding="utf-8")
    result = cli("rules", "--root", repo_copy)
    assert result.exit_code == 1
    assert "rule EXTRA-1 cites SA-98, which is not in the rules document" in result.stdout
    data = json.loads(cli("rules", "--root", repo_copy, "--format", "json").stdout)
    assert [(u["statement"], u["rule"]) for u in data["unknown_citations"]] == [("SA-98", "EXTRA-1")]
    assert data["unknown_citations"][0]["location"].endswith("zz-extra.yaml:3:5")


def test_rules_document_error_exits_2(cli: Cli, assert_no_crash: Check, repo_copy: Path) -> None:
    with (repo_copy / "rules" / "set-aside.md").open("a", encoding="utf-8") as f:
        f.write("- **SA-1** The same ID again. (Test)\n")
    result = cli("rules", "--root", repo_copy)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and "statement SA-1 appears twice (first at " in result.stderr


def test_defaults_command(cli: Cli) -> None:
    result = cli("defaults")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"{k}: {v}" for k, v in DEFAULTS.items()]


def test_version(cli: Cli) -> None:
    result = cli("--version")
    assert result.exit_code == 0 and ", version " in result.stdout


# -- finding the repository ------------------------------------------------------------------------------


def test_root_is_found_from_the_current_folder_upward(cli: Cli, chdir: Callable[[Path], None], repo_copy: Path,
                                                      provisions_text: str) -> None:
    folder = repo_copy / "cases" / "deep" / "er"
    folder.mkdir(parents=True)
    (folder / "c.yaml").write_text(provisions_text, encoding="utf-8")
    chdir(folder)
    result = cli("check", "c.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("c.yaml: ")


def test_root_option_overrides_the_current_folder(cli: Cli, chdir: Callable[[Path], None], repo_root: Path,
                                                  repo_copy: Path, good: Path) -> None:
    # the copy's encodings are broken: found from the current folder they fail, --root avoids them
    (repo_copy / "encodings" / "zz-broken.yaml").write_text("section: [\n", encoding="utf-8")
    chdir(repo_copy)
    broken = cli("check", good)
    assert broken.exit_code == 2
    assert broken.stderr.startswith("error: encodings/zz-broken.yaml:2:1: malformed YAML")
    fixed = cli("check", "--root", repo_root, good)
    assert fixed.exit_code == 0, fixed.output


def test_no_repository_found(cli: Cli, chdir: Callable[[Path], None], tmp_path: Path, good: Path) -> None:
    chdir(tmp_path)
    result = cli("check", good)
    assert result.exit_code == 2
    assert "no rules repository found: need folders rules/ and encodings/" in result.stderr
    assert "Traceback" not in result.output


# -- usage errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["check"], "Missing argument 'PATHS...'"),
        (["check", "/no/such/file.yaml"], "no such file or folder: /no/such/file.yaml"),
        (["check", "--format", "xml", "x.yaml"], "Invalid value for '--format'"),
        (["check", "--timeout", "0", "x.yaml"], "Invalid value for '--timeout'"),
        (["check", "--timeout", "soon", "x.yaml"], "Invalid value for '--timeout'"),
        (["check", "--memory", "1", "x.yaml"], "Invalid value for '--memory'"),
        (["check", "--jobs", "0", "x.yaml"], "Invalid value for '--jobs'"),
        (["check", "--root", "/no/such/folder", "x.yaml"], "Invalid value for '--root'"),
        (["check", "--frobnicate", "x.yaml"], "No such option '--frobnicate'"),
        (["rules", "--format", "yaml"], "Invalid value for '--format'"),
        (["verify"], "No such command 'verify'"),
    ],
)
def test_usage_errors_exit_2(cli: Cli, assert_no_crash: Check, repo_root: Path, args: list[str], message: str) -> None:
    result = cli(*args)
    assert_no_crash(result)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Usage: " in result.stderr


def test_folder_without_cases_is_a_usage_error(cli: Cli, repo_root: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = cli("check", "--root", repo_root, tmp_path / "empty")
    assert result.exit_code == 2
    assert "no case files (*.yaml) found in the given paths" in result.stderr


def test_root_without_rules_folders_is_a_usage_error(cli: Cli, tmp_path: Path, good: Path) -> None:
    (tmp_path / "not-a-repo").mkdir()
    result = cli("check", "--root", tmp_path / "not-a-repo", good)
    assert result.exit_code == 2
    assert "no rules repository found" in result.stderr


def test_help(cli: Cli) -> None:
    result = cli("check", "--help")
    assert result.exit_code == 0
    for option in ("--format", "--root", "--timeout", "--show-defaults"):
        assert option in result.stdout


# -- check: input errors for programs, case paths that are not files, workers ---------------------


def test_check_json_lists_input_errors(cli: Cli, assert_no_crash: Check, repo_root: Path, good: Path,
                                       write_case: Callable[..., Path]) -> None:
    broken = write_case(BROKEN, "broken.yaml")
    result = cli("check", "--root", repo_root, "--format", "json", "--jobs", "1", good, broken)
    assert_no_crash(result)
    assert result.exit_code == 2
    out = json.loads(result.stdout)
    assert list(out) == ["results", "errors", "summary"]
    [error] = out["errors"]
    assert error["file"] == str(broken) and (error["line"], error["column"]) == (4, 11)
    assert error["message"].startswith("unknown card type 'Heroo'")
    assert out["summary"]["errors"] == 1 and out["summary"]["cases"] == 1


def test_check_json_without_input_errors_has_no_errors_key(cli: Cli, repo_root: Path, good: Path) -> None:
    out = json.loads(cli("check", "--root", repo_root, "--format", "json", good).stdout)
    assert "errors" not in out and "errors" not in out["summary"]


def _regcheck(*args: str | Path, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.parametrize("named", [False, True], ids=["in a folder", "named"])
def test_a_case_path_that_is_not_a_regular_file_is_bad_input(repo_root: Path, tmp_path: Path, provisions_text: str,
                                                               named: bool) -> None:
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "good.yaml").write_text(provisions_text, encoding="utf-8")
    (folder / "dangling.yaml").symlink_to("gone.yaml")
    os.mkfifo(folder / "pipe.yaml")
    paths = ["cases/good.yaml", "cases/dangling.yaml", "cases/pipe.yaml"] if named else ["cases"]
    done = _regcheck("check", "--root", repo_root, *paths, cwd=tmp_path)  # a FIFO opened would block: timeout
    assert done.returncode == 2, done.stderr
    assert sorted(done.stderr.splitlines()) == [
        "error: cases/dangling.yaml is a symbolic link to gone.yaml, which does not exist",
        "error: cases/pipe.yaml is a FIFO (named pipe), not a regular file"]
    assert "1 case, 2 questions: 2 ok, 0 not ok; 2 case files could not be checked" in done.stdout


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_regcheck_is_killed(repo_root: Path) -> None:
    process = subprocess.Popen([sys.executable, "-m", "verifier", "check", "--jobs", "2", "cases"], cwd=repo_root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while len(workers) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
            workers = _children(process.pid)
        assert len(workers) >= 2, "the workers did not start"
        process.kill()
        process.wait(10)
        deadline = time.monotonic() + 60  # the workers notice their parent is gone and end
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if _alive(pid)] == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # what is left of its own process group, if the test failed


# -- regcheck cards --------------------------------------------------------------------------------


def test_cards_shows_a_reading(cli: Cli, assert_no_crash: Check) -> None:
    result = cli("cards", "Provisions")
    assert_no_crash(result)
    assert result.exit_code == 0
    assert "Provisions  [modelled]" in result.output and "duration: 2 turn(s)" in result.output


def test_cards_json_has_the_documented_shape(cli: Cli, assert_no_crash: Check) -> None:
    result = cli("cards", "Darkness (FoM)", "Feast of Booths", "Caleb's Sword", "--format", "json")
    assert_no_crash(result)
    darkness, booths, sword = json.loads(result.output)["cards"]
    assert set(darkness) >= {"name", "text", "status", "abilities", "unsupported"}
    (a,) = darkness["abilities"]
    assert set(a) >= {"kind", "duration", "paired", "on_return", "target_zone", "targets_opponents_cards",
                      "cannot_be_negated", "inflicts", "negates_kinds"}
    assert a["duration"] == {"kind": "for_turns", "turns": 2, "min_turns": None}
    assert a["cannot_be_negated"] == "x is 4 or greater"
    assert darkness["status"] == "modelled" and darkness["unsupported"] == []
    assert booths["status"] == "modelled" and booths["unsupported"] == []
    (b,) = booths["abilities"]
    assert b["duration"] == {"kind": "for_chosen_turns", "turns": 7, "min_turns": 1}
    assert b["targets"] == {"min": 0, "max": None, "every": True, "types": ["Hero"], "alignment": None,
                            "brigade": None, "traits": ["human"], "or": [], "except": []}
    assert sword["status"] == "unsupported" and any("evil weapon class enhancement" in u for u in sword["unsupported"])


def test_cards_unknown_name_exits_2(cli: Cli, assert_no_crash: Check) -> None:
    result = cli("cards", "Provison")
    assert_no_crash(result)
    assert result.exit_code == 2 and "did you mean 'Provisions'" in result.output


def test_cards_needs_names_or_coverage(cli: Cli, assert_no_crash: Check) -> None:
    result = cli("cards")
    assert_no_crash(result)
    assert result.exit_code == 2


@pytest.mark.xdist_group("gate")  # counts the card list's coverage, as the gate does
def test_cards_coverage_json(cli: Cli, assert_no_crash: Check) -> None:
    result = cli("cards", "--coverage", "--format", "json")
    assert_no_crash(result)
    assert result.exit_code == 0
    coverage = json.loads(result.output)["coverage"]
    assert set(coverage) == {"set-aside", "heal", "negate", "cannot-be-negated", "cannot-be-interrupted-or-prevented",
                             "duration", "all"}
    for counts in coverage.values():
        assert {"definition", "modelled", "override", "unsupported", "not-read"} <= set(counts)
