"""The result cache: a case file whose input is unchanged is answered from its entry on disk, byte for byte
as a fresh check answers it; a changed input, or a damaged entry, is checked afresh."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

import verifier.runner
from verifier.resultcache import ResultCache, decode, encode, result_cache
from verifier.verdicts import CaseResult

CASES = ("set-aside/provisions-returns-after-two-turns.yaml", "set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml",
         "modifiers/negated-ability-takes-its-modifier-with-it.yaml")


@pytest.fixture
def repo(tmp_path: Path, repo_root: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the rules repository with three cases, its result cache on and in its own `.regcheck_cache/`."""
    root = tmp_path / "repo"
    root.mkdir()
    for name in ("rules", "encodings"):
        shutil.copytree(repo_root / name, root / name)
    shutil.copy(repo_root / "rules.lock", root / "rules.lock")
    for case in CASES:
        (root / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo_root / "cases" / case, root / "cases" / case)
    monkeypatch.delenv("REGCHECK_NO_CACHE", raising=False)
    monkeypatch.delenv("REGCHECK_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "caches"))  # the other caches: apart from the user's
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The case files checked by the engine (not answered from the cache) in this process."""
    seen: list[str] = []
    real = verifier.runner.check_scenario

    def counted(scenario, *args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(scenario.path)
        return real(scenario, *args, **kwargs)

    monkeypatch.setattr(verifier.runner, "check_scenario", counted)
    return seen


def entries(folder: Path, case: str | None = None) -> list[Path]:
    """The result entries of the cache (two per case: by the repository's state and by the case's grounding),
    or those of one case."""
    found = sorted(p for p in (folder / "results").rglob("*.json") if p.parent.name != "last")
    return [p for p in found if case is None or f'"case":"{case}"' in p.read_text()]


def run(cli: Callable[..., Result], *args: str) -> Result:
    result = cli("check", "cases", "--format", "json", "--jobs", "1", *args)
    assert result.exit_code == 0, result.output
    return result


def test_an_unchanged_case_is_answered_from_the_cache(repo: Path, cli: Callable[..., Result], checks: list[str]) -> None:
    first = run(cli)
    assert len(checks) == 3 and len(entries(repo / ".regcheck_cache")) == 6
    assert (repo / ".regcheck_cache" / ".gitignore").read_text().splitlines()[-1] == "*"
    second = run(cli)
    assert len(checks) == 3, "nothing is checked again"
    assert second.output == first.output


def test_a_changed_case_or_rule_is_checked_again_and_nothing_else(repo: Path, cli: Callable[..., Result],
                                                                   checks: list[str]) -> None:
    first = run(cli)
    case = repo / "cases" / CASES[0]
    case.write_text(case.read_text() + "\n# a comment changes the text\n")
    run(cli)
    assert checks[3:] == [f"cases/{CASES[0]}"]
    # a comment at the end of an encoding, or of the rules document, changes no case's grounding
    encoding = repo / "encodings" / "core.yaml"
    encoding.write_text(encoding.read_text() + "\n# a comment\n")
    statements = repo / "rules" / "core.md"
    statements.write_text(statements.read_text() + "\n")
    assert run(cli).output == first.output
    assert len(checks) == 4
    # a rule every case grounds, changed, checks every case again
    text = encoding.read_text()
    assert text.count("stays where it was at {s} unless something moves it") == 1
    encoding.write_text(text.replace("stays where it was at {s} unless something moves it",
                                     "stays where it was at {s} unless a rule or an effect moves it"))
    run(cli)
    assert len(checks) == 4 + 3


def test_no_cache_and_the_cache_turned_off_write_nothing(repo: Path, cli: Callable[..., Result],
                                                         checks: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    run(cli, "--no-cache")
    monkeypatch.setenv("REGCHECK_CACHE_DIR", "off")
    run(cli)
    assert len(checks) == 6 and not (repo / ".regcheck_cache").exists()
    monkeypatch.setenv("REGCHECK_CACHE_DIR", str(repo / "elsewhere"))
    run(cli)
    assert len(entries(repo / "elsewhere")) == 6 and not (repo / ".regcheck_cache").exists()


def test_a_damaged_entry_is_found_and_checked_again(repo: Path, cli: Callable[..., Result], checks: list[str]) -> None:
    first = run(cli)
    damaged = entries(repo / ".regcheck_cache", f"cases/{CASES[0]}")
    assert len(damaged) == 2
    kept = {entry: entry.read_bytes() for entry in damaged}
    for n, damage in enumerate(["truncated", "flipped", "empty", "checksum of other text", "not JSON"], 1):
        for entry, text in kept.items():
            checksum, _, payload = text.partition(b"\n")
            entry.write_bytes({
                "truncated": text[: len(text) // 2],
                "flipped": text[:-20] + bytes([text[-20] ^ 0x01]) + text[-19:],
                "empty": b"",
                "checksum of other text": checksum + b"\n" + payload.replace(b'"determined"', b'"ambiguous"', 1),
                "not JSON": b"\xff\xfe" + text,
            }[damage])
        again = run(cli)
        assert checks[3:] == [f"cases/{CASES[0]}"] * n, f"{damage}: the damaged entries' case alone is checked again"
        assert again.output == first.output
        assert all(entry.read_bytes() == text for entry, text in kept.items()), f"{damage}: entries written afresh"


def test_a_damaged_entry_of_the_state_is_answered_by_the_grounding_and_written_again(
        repo: Path, cli: Callable[..., Result], checks: list[str]) -> None:
    first = run(cli)
    cache = result_cache(repo)
    assert cache is not None
    case = f"cases/{CASES[0]}"
    key = cache.key((repo / case).read_bytes(), case, "10000:None:True:False")
    (state,) = [p for p in entries(repo / ".regcheck_cache", case) if p.stem == key]
    text = state.read_bytes()
    state.write_bytes(text[:100])
    assert run(cli).output == first.output and len(checks) == 3
    assert state.read_bytes() == text


def test_an_unknown_answer_is_not_kept(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path, "context", "code")
    result = CaseResult("c.yaml", "title", "", ())
    cache.put(["k" * 64], result, "")
    assert cache.get("k" * 64) == (result, "")
    from verifier.verdicts import QuestionResult, Verdict
    unknown = CaseResult("c.yaml", "title", "", (QuestionResult("c.yaml", "title", "q", Verdict.UNKNOWN, None, None,
                                                                None, False, reason="the solver hit the --timeout"),))
    cache.put(["u" * 64], unknown, "")
    assert cache.get("u" * 64) is None and not (tmp_path / "results" / "uu").exists()


def test_results_are_written_and_read_back_exactly(case_results: object, repo_root: Path) -> None:
    for case in CASES:
        result = case_results(repo_root / "cases" / case)  # type: ignore[operator]
        assert decode(CaseResult, json.loads(json.dumps(encode(result)))) == result


def test_the_key_covers_the_lock_and_the_options(repo: Path) -> None:
    cache = result_cache(repo)
    assert cache is not None
    key = cache.key(b"text", "cases/a.yaml", "10000:None:True:False")
    assert key != cache.key(b"text", "cases/a.yaml", "5000:None:True:False")
    assert key != cache.key(b"text", "cases/b.yaml", "10000:None:True:False")
    (repo / "rules.lock").write_text((repo / "rules.lock").read_text() + "\n")
    changed = result_cache(repo)
    assert changed is not None and changed.key(b"text", "cases/a.yaml", "10000:None:True:False") != key


def test_two_runs_at_once_share_one_cache(repo: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REGCHECK_NO_CACHE", "REGCHECK_CACHE_DIR")}
    command = [sys.executable, "-m", "verifier", "check", "cases", "--format", "json", "--jobs", "1"]
    runs = [subprocess.Popen(command, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]
    outputs = [r.communicate()[0] for r in runs]
    assert [r.returncode for r in runs] == [0, 0]
    assert outputs[0] == outputs[1]
    fresh = subprocess.run(command + ["--no-cache"], cwd=repo, env=env, capture_output=True, check=True)
    warm = subprocess.run(command, cwd=repo, env=env, capture_output=True, check=True)
    assert fresh.stdout == outputs[0] == warm.stdout
    assert len(entries(repo / ".regcheck_cache")) == 6
    assert not [p for p in (repo / ".regcheck_cache").rglob("*.tmp")], "no temporary file is left"


def test_a_statement_edit_checks_again_the_cases_its_rules_reach(repo_root: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from verifier.files import display_path
    from verifier.language.encoding import load_rule_base
    from verifier.rulesdoc import load_rules_document
    from verifier.runner import CaseTask
    from verifier.scenario.loader import load_case
    from verifier.solver.engine import DEFAULT_TIMEOUT_MS
    from verifier.solver.grounding import RuleInstance, ground

    root = tmp_path / "repo"
    for name in ("rules", "encodings"):
        shutil.copytree(repo_root / name, root / name)
    shutil.copy(repo_root / "rules.lock", root / "rules.lock")
    chosen = [*CASES, "modifiers/whole-ability-modifier-modifies-every-part.yaml",
              "modifiers/own-card-modifier-in-a-later-phase.yaml"]
    for case in chosen:
        (root / "cases" / case).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(repo_root / "cases" / case, root / "cases" / case)
    monkeypatch.delenv("REGCHECK_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "caches"))
    monkeypatch.chdir(root)
    files = sorted((root / "cases").rglob("*.yaml"))

    def run() -> dict[str, str]:
        rules = load_rule_base(root / "encodings")
        doc = load_rules_document(root / "rules")
        task = CaseTask(rules, lambda: doc, DEFAULT_TIMEOUT_MS, None, False, cache=result_cache(root))
        return {display_path(f): task.answer(f)[2] for f in files}

    assert set(run().values()) == {"not checked before"}
    assert set(run().values()) == {""}
    statements = root / "rules" / "modifiers.md"
    text = statements.read_text()
    assert "it modifies every part of that ability" in text
    statements.write_text(text.replace("it modifies every part of that ability", "it modifies each part of that ability"))
    again = {case: why for case, why in run().items() if why}
    rules = load_rule_base(root / "encodings")
    reached = {display_path(f) for f in files
               if any(isinstance(t.origin, RuleInstance) and "MOD-6" in t.origin.rule.cites
                      for t in ground(load_case(f, rules), rules).tracked)}
    assert reached and len(reached) < len(files)
    assert set(again) == reached
    assert all(why.startswith("its grounding holds changed instances of MOD-6") for why in again.values())
