"""Every case under cases/ gets its expected verdict: one test per question, ids like `folder/case::question`.

Case files are found when the tests are collected; each is checked once per session, and its
questions read the cached result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from verifier.errors import CaseError
from verifier.verdicts import Verdict
from verifier.yamlsource import YMap, load_yaml

CASES = Path(__file__).resolve().parents[1] / "cases"
UNREADABLE = "<cannot read the case's questions>"


def _questions(path: Path) -> list[str]:
    try:
        root, _ = load_yaml(path, CaseError)
    except CaseError:
        return [UNREADABLE]
    node = root.get("questions") if isinstance(root, YMap) else None
    return node.keys() if isinstance(node, YMap) and node.keys() else [UNREADABLE]


def _params() -> list[Any]:
    files = sorted(p for p in CASES.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
    out = []
    for path in files:
        name = path.relative_to(CASES).with_suffix("").as_posix()
        for q in _questions(path):
            out.append(pytest.param(path, q, id=f"{name}::{q}"))
    return out


PARAMS: list[Any] = _params()


def test_there_are_cases() -> None:
    assert PARAMS, f"no case files under {CASES}"


@pytest.fixture(scope="module", autouse=True)
def _check_all_cases_at_once(case_results: Any) -> None:
    """Check every case file up front, several at a time on a machine with more than one processor."""
    case_results.prefetch(param.values[0] for param in PARAMS)


@pytest.mark.parametrize(("path", "question"), PARAMS)
def test_case(path: Path, question: str, case_results: Any) -> None:
    result = case_results(path)  # a CaseError fails the test with the file:line:column message
    found = {r.question: r for r in result.results}
    assert question in found, f"question {question!r} was not answered"
    r = found[question]
    shown = f"{r.verdict.value}" + (f" = {r.value}" if r.value is not None else "")
    if r.expected is None:
        # no expectation: only a contradiction or an unknown is a finding
        assert r.verdict not in (Verdict.CONTRADICTION, Verdict.UNKNOWN), f"unexpected {shown} {r.reason}"
    else:
        wanted = r.expected + (f" = {r.expected_value}" if r.expected_value is not None else "")
        assert r.verdict.value == r.expected, f"expected {wanted}, got {shown} {r.reason}".rstrip()
        if r.verdict is Verdict.DETERMINED:
            assert r.value == r.expected_value, f"expected {wanted}, got {shown}"
    assert r.ok
    if r.verdict is Verdict.CONTRADICTION:
        assert r.core and r.core_verified, f"the conflicting set did not re-check: {r.reason}"
    if r.verdict is Verdict.AMBIGUOUS:
        assert len(r.witnesses) == 2 and r.witnesses[0].value != r.witnesses[1].value
    if r.verdict is Verdict.CHOICE_DEPENDENT:
        assert len({w.value for w in r.witnesses}) >= 2
