"""The gate's own files: written whole or not at all, never over an edit, never over an input."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import Result

from verifier.errors import RegcheckError
from verifier.files import WriteError
from verifier.gate import FINDINGS_FILE, LOCK_FILE, GateOptions, run_gate
from verifier.gate.run import check_folder
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.solver.engine import DEFAULT_TIMEOUT_MS
from verifier.verdicts import CaseResult

Gate = Callable[..., Result]


def regcheck(root: Path, *args: str, limit_bytes: int | None = None) -> subprocess.CompletedProcess[str]:
    """The real program, in a process of its own, in the repository's folder."""

    def limit() -> None:
        if limit_bytes is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_bytes, limit_bytes))

    # the session's cache (the card list's coverage above all), but no cache writes past a file size limit
    env = {**os.environ, **({"REGCHECK_CACHE_DIR": "off"} if limit_bytes is not None else {})}
    return subprocess.run([sys.executable, "-m", "verifier", *args], cwd=root, capture_output=True, text=True,
                          timeout=240, preexec_fn=limit, env=env)


def test_an_edit_made_while_accepting_findings_is_kept(gate_repo: Path) -> None:
    baseline = gate_repo / FINDINGS_FILE
    edited = baseline.read_text(encoding="utf-8").replace("note: ", "note: EDITED ", 1)
    assert "EDITED" in edited
    options = GateOptions(DEFAULT_TIMEOUT_MS, jobs=1, accept_findings=True, mutate=False)

    def editing(rules: RuleBase, doc: Callable[[], RulesDocument], files: list[Path]) -> Iterator[CaseResult | str]:
        baseline.write_text(edited, encoding="utf-8")  # someone edits a note while the cases are checked
        yield from check_folder(options)(rules, doc, files)

    with pytest.raises(WriteError, match=f"{FINDINGS_FILE} changed while regcheck was running"):
        run_gate(gate_repo, options, editing)
    assert baseline.read_text(encoding="utf-8") == edited
    assert not [p for p in gate_repo.iterdir() if p.name.endswith(".tmp")]


def test_a_write_error_is_one_line_and_exit_2(gate: Gate, gate_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import verifier.gate.run

    def refuse(*args: object, **kwargs: object) -> None:
        raise WriteError(f"cannot write {FINDINGS_FILE}: No space left on device; it is left as it was")

    monkeypatch.setattr(verifier.gate.run, "write_baseline", refuse)
    result = gate(gate_repo, "--accept-findings")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        f"error: cannot write {FINDINGS_FILE}: No space left on device; it is left as it was"]
    assert isinstance(WriteError("x"), RegcheckError)


def test_renewing_the_lock_into_dev_full_is_refused(gate_repo: Path) -> None:
    lock = gate_repo / LOCK_FILE
    lock.unlink()
    lock.symlink_to("/dev/full")
    done = regcheck(gate_repo, "gate", "--renew-lock")
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"error: cannot write {LOCK_FILE} (a link to /dev/full): it is a device, not a regular file; nothing written"]
    assert "Traceback" not in done.stderr and os.readlink(lock) == "/dev/full"


def test_renewing_the_lock_past_the_file_size_limit_leaves_it(gate_repo: Path) -> None:
    lock = gate_repo / LOCK_FILE
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    stale = "".join(line for line in lines if not line.startswith("SA-4 "))  # so that renewing writes it
    lock.write_text(stale, encoding="utf-8")
    done = regcheck(gate_repo, "gate", "--renew-lock", limit_bytes=256)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"error: cannot write {LOCK_FILE}: the file would exceed the file size limit; it is left as it was"]
    assert lock.read_text(encoding="utf-8") == stale
    assert not [p for p in gate_repo.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("option, name", [("--junit-file", LOCK_FILE), ("--sarif-file", FINDINGS_FILE),
                                          ("--junit-file", "rules/set-aside.md"), ("--sarif-file", "cases/out.sarif"),
                                          ("--junit-file", "encodings/x.xml")])
def test_an_output_may_not_name_an_input(gate: Gate, gate_repo: Path, option: str, name: str) -> None:
    target = gate_repo / name
    before = target.read_bytes() if target.exists() else None
    result = gate(gate_repo, option, str(target))
    assert result.exit_code == 2
    assert f"{option} {target} names a file regcheck reads" in result.output
    assert (target.read_bytes() if target.exists() else None) == before


def test_both_outputs_may_not_name_one_file(gate: Gate, gate_repo: Path, tmp_path: Path) -> None:
    result = gate(gate_repo, "--junit-file", str(tmp_path / "out"), "--sarif-file", str(tmp_path / "out"))
    assert result.exit_code == 2 and "name the same file" in result.output
    assert not (tmp_path / "out").exists()


def test_reports_are_written_whole(gate: Gate, gate_repo: Path, tmp_path: Path) -> None:
    junit, sarif = tmp_path / "gate.xml", tmp_path / "gate.sarif"
    junit.write_text("old", encoding="utf-8")
    result = gate(gate_repo, "--junit-file", str(junit), "--sarif-file", str(sarif))
    assert result.exit_code == 0, result.output
    assert junit.read_text(encoding="utf-8").startswith("<?xml") and sarif.read_text(encoding="utf-8").startswith("{")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("kind", ["dangling link", "FIFO"])
def test_a_case_that_is_not_a_regular_file_fails_the_gate(gate_repo: Path, kind: str) -> None:
    odd = gate_repo / "cases" / "set-aside" / "odd.yaml"
    if kind == "FIFO":
        os.mkfifo(odd)
        why = "a FIFO (named pipe), not a regular file"
    else:
        odd.symlink_to("gone.yaml")
        why = "a symbolic link to gone.yaml, which does not exist"
    done = regcheck(gate_repo, "gate", "--jobs", "1")  # a FIFO opened would block: the timeout ends the test
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"[input] cases/set-aside/odd.yaml:1: the case file is {why}" in done.stdout
