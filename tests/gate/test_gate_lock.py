"""The gate's traceability checks: statements encoded or waived, citations that exist, the lock file."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from verifier.gate.findings import FINDINGS_FILE
from verifier.gate.lock import LOCK_FILE
from verifier.language.encoding import load_rule_base
from verifier.rulesdoc import load_rules_document

from .helpers import replace_in

Gate = Callable[..., Result]

SA_4 = "- **SA-4** A card that is set aside goes to the set-aside area of the player who has permanent"


def _no_cases(root: Path) -> Path:
    """The repository without its cases (and so without findings): the rules checks alone, quickly."""
    shutil.rmtree(root / "cases")
    (root / FINDINGS_FILE).unlink()
    return root


def _citing(root: Path, sid: str) -> list[str]:
    rules = load_rule_base(root / "encodings")
    citing = [(f"rule {r.id}", r.loc) for r in rules.rules if sid in r.cites]
    citing += [(f"definition {d.name}", d.loc) for d in rules.definitions.values() if sid in d.cites]
    return [f"{what} (encodings/{Path(loc.path).name}:{loc.line})" for what, loc in citing]


def test_a_changed_statement_fails_until_the_lock_is_renewed(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    assert gate(root).exit_code == 0
    replace_in(root / "rules" / "set-aside.md", "goes to the set-aside area", "goes to the discard pile")
    failed = gate(root)
    assert failed.exit_code == 1, failed.output
    assert "[lock] rules/set-aside.md:13: the text of SA-4 changed since rules.lock was written" in failed.output
    citing = _citing(root, "SA-4")
    assert len(citing) == 2
    for rule in citing:
        assert rule in failed.output
    assert "gate FAILED: 1 problem (lock 1)" in failed.output
    renewed = gate(root, "--renew-lock")
    assert renewed.exit_code == 0
    statements = len(load_rules_document(root / "rules").statements)
    assert renewed.output == f"{LOCK_FILE}: {statements} statements; renewed SA-4\n"
    assert gate(root).exit_code == 0


def test_the_lock_is_not_renewed_while_a_waiver_names_a_statement_that_does_not_exist(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    lock = (root / LOCK_FILE).read_text()
    replace_in(root / "encodings" / "zones.yaml", "  - statement: RET-1-R1\n", "  - statement: RET-9-R9\n")
    refused = gate(root, "--renew-lock")
    assert refused.exit_code == 2, refused.output
    assert "encodings/zones.yaml" in refused.output and "a waiver names RET-9-R9, which is not in the rules document" in (
        refused.output)
    assert "the locks are not renewed" in refused.output and "Traceback" not in refused.output
    assert (root / LOCK_FILE).read_text() == lock


def test_a_statement_rewrapped_without_changing_its_words_keeps_its_fingerprint(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    replace_in(root / "rules" / "set-aside.md", SA_4, SA_4.replace(" goes to the", "\n  goes   to the"))
    passed = gate(root)
    assert passed.exit_code == 0, passed.output


def test_a_statement_neither_encoded_nor_waived_fails(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    replace_in(root / "rules" / "set-aside.md", SA_4, "- **SA-99** A new statement nobody encoded. (Set Aside, test)\n" + SA_4)
    failed = gate(root)
    assert failed.exit_code == 1
    assert "[coverage] rules/set-aside.md:13: SA-99 is neither encoded nor waived" in failed.output


def test_a_citation_of_a_statement_that_is_gone_fails(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    replace_in(root / "rules" / "set-aside.md",
               SA_4 + "\n  control of it. (Set Aside, How to Play, bullet 3)\n", "")
    failed = gate(root)
    assert failed.exit_code == 1
    for what in _citing(gate_repo, "SA-4"):
        cites = what.split(" (")[0] + " cites SA-4, which is not in the rules document"
        assert cites in failed.output, failed.output
    assert "rules.lock lists SA-4, which is not in the rules document now" in failed.output


def test_a_cited_statement_missing_from_the_lock_fails(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    lock = root / LOCK_FILE
    lines = lock.read_text("utf-8").splitlines(keepends=True)
    lock.write_text("".join(line for line in lines if not line.startswith("SA-4 ")), encoding="utf-8")
    failed = gate(root)
    assert failed.exit_code == 1
    assert "SA-4 is cited but not in rules.lock" in failed.output


def test_a_missing_lock_fails_and_a_malformed_one_is_bad_input(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    lock = root / LOCK_FILE
    text = lock.read_text("utf-8")
    lock.unlink()
    failed = gate(root)
    assert failed.exit_code == 1
    assert "there is no rules.lock at the repository root" in failed.output
    lock.write_text(text.replace("SA-4 ", "SA-4: "), encoding="utf-8")
    bad = gate(root)
    assert bad.exit_code == 2
    line = text.splitlines().index(next(x for x in text.splitlines() if x.startswith("SA-4 "))) + 1
    assert f"rules.lock:{line}: expected a statement ID and its 16-digit fingerprint" in bad.stderr
    assert gate(root, "--renew-lock").exit_code == 0
    assert lock.read_text("utf-8") == text
    assert gate(root).exit_code == 0


def test_a_changed_reading_is_locked_like_any_statement(gate: Gate, gate_repo: Path) -> None:
    root = _no_cases(gate_repo)
    replace_in(root / "rules" / "negate.md", "keeps its effects when it is negated later",
               "loses its effects when it is negated later")
    failed = gate(root)
    assert failed.exit_code == 1, failed.output
    assert "the text of NEG-3-R1 changed since rules.lock was written" in failed.output
    renewed = gate(root, "--renew-lock")
    assert renewed.exit_code == 0 and renewed.output.endswith("; renewed NEG-3-R1\n"), renewed.output
