"""The pre-commit hook and the example CI workflow call the gate as it is."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

from verifier.cli import main


def test_the_pre_commit_hook_runs_the_gate_on_rules_changes(repo_root: Path) -> None:
    hooks = yaml.safe_load((repo_root / ".pre-commit-hooks.yaml").read_text("utf-8"))
    hook = next(h for h in hooks if h["id"] == "regcheck-gate")
    assert (hook["entry"], hook["language"], hook["pass_filenames"]) == ("regcheck gate", "python", False)
    files = re.compile(hook["files"])
    for path in ("rules/set-aside.md", "encodings/core.yaml", "cases/heal/x.yaml", "scopes/heal.yaml", "rules.lock",
                 "cards.lock", "accepted-findings.yaml"):
        assert files.search(path), path
    for path in ("verifier/cli.py", "tests/malformed/case-empty.yaml", "README.md", "rulesdoc/x.md"):
        assert not files.search(path), path


def test_the_example_workflow_uses_options_the_gate_has(repo_root: Path) -> None:
    workflow = yaml.safe_load((repo_root / "examples" / "github-workflow.yml").read_text("utf-8"))
    steps = workflow["jobs"]["gate"]["steps"]
    runs = " ".join(s.get("run", "") for s in steps)
    command = runs[runs.index("regcheck gate"):].splitlines()[0]
    words = shlex.split(command.replace("${base:+--base \"$base\"}", "--base BASE"))[2:]
    gate = main.get_command(None, "gate")
    assert gate is not None
    options = {o for p in gate.params for o in p.opts}
    assert {w for w in words if w.startswith("--")} == {"--base", "--junit-file", "--sarif-file"} <= options
    uploaded = {s.get("with", {}).get("sarif_file") for s in steps} | {s.get("with", {}).get("report_paths") for s in steps}
    assert {"gate.sarif", "gate-junit.xml"} <= uploaded
