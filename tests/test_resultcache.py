"""The result cache: a case file whose input is unchanged is answered from its entry on disk, byte for byte
as a fresh check answers it; a changed input, or a damaged entry, is checked afresh."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

import verifier.runner
from verifier.language.encoding import RuleBase
from verifier.language.syntax import BoolOp
from verifier.resultcache import ResultCache, decode, encode, grounding_key, result_cache
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.solver.grounding import RuleInstance, ground
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


def test_answers_with_their_readings_are_kept_apart(repo: Path, cli: Callable[..., Result], checks: list[str]) -> None:
    plain = run(cli)
    asked = run(cli, "--readings")
    assert len(checks) == 6, "a result kept without the readings is not taken for one with them"
    assert all("rests_on" in r for r in json.loads(asked.output)["results"])
    assert all("rests_on" not in r for r in json.loads(plain.output)["results"])
    assert run(cli, "--readings").output == asked.output and run(cli).output == plain.output
    assert len(checks) == 6
    # the readings a case rests on may change with an encoding its grounding does not show: only an unchanged
    # repository answers them from the cache
    encoding = repo / "encodings" / "core.yaml"
    encoding.write_text(encoding.read_text() + "\n# a comment\n")
    assert run(cli).output == plain.output and len(checks) == 6
    assert run(cli, "--readings").output == asked.output and len(checks) == 9


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


def test_what_only_the_grounding_that_names_the_inputs_holds_is_in_the_digest(repo_root: Path, rule_base: RuleBase,
                                                                              rules_doc: RulesDocument) -> None:
    """A case's digest is worked out on the grounding its answer is found on, whose rule bodies read the inputs the
    facts pin; a conflict or an ambiguity is answered on the grounding that names them. A rule every instance of
    which the inputs make hold is left out of the first and not of the second: a change to its body, or to where
    it stands among the rules, changes the second alone, and must change the digest (and that rule's own)."""
    sc = load_case(repo_root / "cases" / CASES[0], rule_base)
    folded = ground(sc, rule_base, fold=True)
    held = sorted(folded.held_by_inputs - {t.origin.rule.id for t in folded.tracked if isinstance(t.origin, RuleInstance)})
    assert "WDR-3" in held
    wdr3 = rule_base.rule("WDR-3")
    twice = wdr3._replace(body=BoolOp(wdr3.body[0], "and", (wdr3.body, wdr3.body)))
    changed = rule_base._replace(rules=tuple(twice if r.id == "WDR-3" else r for r in rule_base.rules))
    moved = rule_base._replace(rules=(wdr3, *(r for r in rule_base.rules if r.id != "WDR-3")))
    before = grounding_key(sc, rule_base, rules_doc)
    assert before is not None
    for other in (changed, moved):
        # the same grounding to answer on, another to find a conflict or an ambiguity on
        assert [(t.name, t.body) for t in ground(sc, other, fold=True).tracked] == [(t.name, t.body) for t in folded.tracked]
        assert [(t.name, t.body) for t in ground(sc, other).tracked] != [(t.name, t.body) for t in ground(sc, rule_base).tracked]
        after = grounding_key(sc, other, rules_doc)
        assert after is not None and after.digest != before.digest
    after = grounding_key(sc, changed, rules_doc)
    assert after is not None and [r for r in before.rules if after.rules.get(r) != before.rules[r]] == ["WDR-3"]


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


def _checksummed(payload: bytes) -> bytes:
    import hashlib

    return hashlib.sha256(payload).hexdigest().encode() + b"\n" + payload


def test_an_entry_of_another_version_or_shape_is_not_taken(repo: Path, cli: Callable[..., Result],
                                                           checks: list[str]) -> None:
    first = run(cli)
    damaged = entries(repo / ".regcheck_cache", f"cases/{CASES[0]}")
    other = entries(repo / ".regcheck_cache", f"cases/{CASES[1]}")[0].read_bytes()
    kept = {entry: entry.read_bytes() for entry in damaged}
    for n, kind in enumerate(["another format", "another key", "another shape"], 1):
        for entry, text in kept.items():
            data = json.loads(text.partition(b"\n")[2])
            if kind == "another format":  # written by a regcheck whose entries are of another format
                data["format"] += 1
            elif kind == "another key":  # another case's entry (or another version's) at this entry's place
                data = json.loads(other.partition(b"\n")[2])
            else:  # a result of the shape another version writes: a field less
                del data["result"]["results"][0]["verdict"]
            entry.write_bytes(_checksummed(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()))
        again = run(cli)
        assert checks[3:] == [f"cases/{CASES[0]}"] * n, f"{kind}: the case alone is checked again"
        assert again.output == first.output
        assert all(entry.read_bytes() == text for entry, text in kept.items()), f"{kind}: entries written afresh"


def test_a_full_disk_while_writing_loses_no_answer(repo: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("REGCHECK_NO_CACHE", "REGCHECK_CACHE_DIR")}
    command = [sys.executable, "-m", "verifier", "check", "cases", "--format", "json", "--jobs", "1"]
    fresh = subprocess.run(command + ["--no-cache"], cwd=repo, env=env, capture_output=True, check=True)
    # files past 2 KiB cannot be written (`ulimit -f`): most entries, and the other caches' larger files
    full = subprocess.run(["bash", "-c", 'ulimit -f 2 && exec "$@"', "bash", *command], cwd=repo, env=env,
                          capture_output=True)
    assert full.returncode == 0, full.stderr
    assert full.stdout == fresh.stdout and b"Traceback" not in full.stderr
    folder = repo / ".regcheck_cache"
    assert not [p for p in folder.rglob("*.tmp")], "no temporary file is left"
    cache = result_cache(repo)
    assert cache is not None
    written = entries(folder)
    assert len(written) < 6, "the limit kept some entries from being written"
    for entry in written:  # each entry written is whole
        assert cache.get(entry.stem) is not None, entry
    again = subprocess.run(command, cwd=repo, env=env, capture_output=True, check=True)
    assert again.stdout == fresh.stdout
    assert len(entries(folder)) == 6, "the entries the full disk kept out are written once it has room"


_DAMAGES = ("truncated", "bits flipped", "bytes overwritten", "bytes cut out", "bytes put in", "another entry",
            "empty", "written twice", "a folder", "a link to another entry", "checksum alone", "payload alone")


def _damage(rng: random.Random, entry: Path, text: bytes, others: dict[Path, bytes]) -> str:
    """Damage one entry file at random (`others`: the other entries and their undamaged text, which may be damaged
    on disk already); what was done."""
    kind = rng.choice(_DAMAGES)
    at = rng.randrange(len(text))
    if kind == "a folder":
        entry.unlink()
        entry.mkdir()
        return kind
    if kind == "a link to another entry":
        entry.unlink()
        entry.symlink_to(rng.choice(list(others)))
        return kind
    damaged = {
        "truncated": lambda: text[:at],
        "bits flipped": lambda: bytes(b ^ (1 << rng.randrange(8)) if rng.random() < 4 / len(text) or i == at else b
                                      for i, b in enumerate(text)),
        "bytes overwritten": lambda: text[:at] + rng.randbytes(rng.randint(1, 64)) + text[at + 64:],
        "bytes cut out": lambda: text[:at] + text[at + rng.randint(1, 64):],
        "bytes put in": lambda: text[:at] + rng.randbytes(rng.randint(1, 64)) + text[at:],
        "another entry": lambda: others[rng.choice(list(others))],
        "empty": lambda: b"",
        "written twice": lambda: text + text,
        "checksum alone": lambda: text.partition(b"\n")[0],
        "payload alone": lambda: text.partition(b"\n")[2],
    }[kind]()
    entry.write_bytes(damaged)
    return kind


def _restore(entries_kept: dict[Path, bytes]) -> None:
    for entry, text in entries_kept.items():
        if entry.is_symlink() or entry.is_file():
            entry.unlink()
        elif entry.is_dir():
            shutil.rmtree(entry)
        entry.write_bytes(text)


def corruption_loop(root: Path, runs: int, seed: int, whole_every: int) -> dict[str, int]:
    """Damage the entries of a filled cache at random `runs` times; each time, read the damaged entry back (it must
    give the kept answer or none), and every `whole_every` runs damage both entries of a case and answer it (the
    answer must be the one first checked, and both entries written afresh). Counts of what happened."""
    from verifier.language.encoding import load_rule_base
    from verifier.rulesdoc import load_rules_document
    from verifier.runner import CaseTask
    from verifier.solver.engine import DEFAULT_TIMEOUT_MS

    rng = random.Random(seed)
    rules = load_rule_base(root / "encodings")
    doc = load_rules_document(root / "rules")
    cache = result_cache(root)
    assert cache is not None
    task = CaseTask(rules, lambda: doc, DEFAULT_TIMEOUT_MS, None, True, cache=cache)
    answers = {case: task.answer(root / "cases" / case, f"cases/{case}")[:2] for case in CASES}
    by_case = {case: entries(cache.folder, f"cases/{case}") for case in CASES}
    assert all(len(found) == 2 for found in by_case.values())
    kept = {entry: entry.read_bytes() for found in by_case.values() for entry in found}
    counts = {"runs": 0, "wrong answers": 0, "kept answer read": 0, "damage found": 0, "answered afresh": 0}
    for run_number in range(runs):
        case = rng.choice(CASES)
        entry = rng.choice(by_case[case])
        _damage(rng, entry, kept[entry], {e: t for e, t in kept.items() if e != entry})
        got = cache.get(entry.stem)
        counts["runs"] += 1
        if got is None:
            counts["damage found"] += 1
        elif got == answers[case]:
            counts["kept answer read"] += 1
        else:
            counts["wrong answers"] += 1
        if run_number % whole_every == 0:
            for other in by_case[case]:
                if other != entry:
                    _damage(rng, other, kept[other], {e: t for e, t in kept.items() if e != other})
            result, defaults, why = task.answer(root / "cases" / case, f"cases/{case}")
            counts["wrong answers"] += (result, defaults) != answers[case]
            if why:
                counts["answered afresh"] += 1
                assert all(e.is_file() and not e.is_symlink() and e.read_bytes() == kept[e] for e in by_case[case]), \
                    f"seed {seed}, run {run_number}: the entries are written afresh"
        _restore(kept)
    return counts


def test_random_damage_to_the_cache_never_gives_a_wrong_answer(repo: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    counts = corruption_loop(repo, 300, seed, 100)
    assert counts["wrong answers"] == 0, f"seed {seed}: {counts}"
    assert counts["damage found"] > 0 and counts["answered afresh"] > 0, counts


@pytest.mark.slow
def test_ten_thousand_random_damages_never_give_a_wrong_answer(repo: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    counts = corruption_loop(repo, 10_000, seed, 500)
    print(f"cache corruption loop, seed {seed}: {counts}")
    assert counts["wrong answers"] == 0, f"seed {seed}: {counts}"
    assert counts["runs"] == 10_000 and counts["answered afresh"] == 20, counts


def test_an_entry_replaced_by_a_link_or_a_folder_is_written_afresh_in_its_place(
        repo: Path, cli: Callable[..., Result], checks: list[str]) -> None:
    first = run(cli)
    damaged = entries(repo / ".regcheck_cache", f"cases/{CASES[0]}")
    other = entries(repo / ".regcheck_cache", f"cases/{CASES[1]}")[0]
    kept = {entry: entry.read_bytes() for entry in [*damaged, other]}
    for n, kind in enumerate(["a link to another entry", "a folder"], 1):
        for entry in damaged:
            entry.unlink()
            if kind == "a folder":
                entry.mkdir()
                (entry / "inside").write_text("x")
            else:
                entry.symlink_to(other)
        again = run(cli)
        assert checks[3:] == [f"cases/{CASES[0]}"] * n and again.output == first.output
        assert all(e.is_file() and not e.is_symlink() and e.read_bytes() == t for e, t in kept.items()), \
            f"{kind}: the entry is written in its place, the other left as it was"
