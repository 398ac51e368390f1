"""Mutated cases, encodings and expressions are accepted or refused with an InputError naming the file and a line.

The mutations are those of fuzz/mutators.py, each driven by a `random.Random` whose seed Hypothesis
draws (a failure names the base file and the seed, and replays with them); the judging is
fuzz/targets.py. `fuzz/run.py` runs the same with 100,000 inputs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.mutators import SECTION_FIELDS, mutate_expression, mutate_file, random_expression
from fuzz.targets import ACCEPTED, REFUSED, CaseTarget, EncodingTarget, ExpressionTarget, Failure
from verifier.errors import CaseError
from verifier.language.encoding import RuleBase
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.yamlsource import YMap, YScalar, load_yaml

ROOT = Path(__file__).resolve().parents[2]
CASES = sorted((ROOT / "cases").rglob("*.yaml"))
CASE_BYTES = {p.relative_to(ROOT).as_posix(): p.read_bytes() for p in CASES}
ENCODINGS = sorted(p.name for p in (ROOT / "encodings").glob("*.yaml"))


def _questions() -> list[str]:
    out = set()
    for path in CASES:
        root, _ = load_yaml(path, CaseError)
        node = root.get("questions") if isinstance(root, YMap) else None
        if isinstance(node, YMap):
            out |= {str(v.value) for _, v in node.entries if isinstance(v, YScalar)}
    return sorted(out)


QUESTIONS = _questions()
SEEDS = st.integers(0, 2**64 - 1)
SLOW = 60.0  # seconds for one input before it counts as a failure: generous, as the test machine may be busy
# Cases the engine answers in a fuzz run: far larger than any bundled case (some 13,000), and far
# below the engine's own limit, near which one case takes a minute and gigabytes.
CHECKED_INSTANCES = 100_000
FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def case_target(rule_base: RuleBase) -> Iterator[CaseTarget]:
    """Loading only: grounding a case costs ten times as much (see `grounded_case_target`)."""
    target = CaseTarget(rule_base, grounded=False, slow=SLOW)
    yield target
    target.close()


@pytest.fixture(scope="module")
def grounded_case_target(rule_base: RuleBase) -> Iterator[CaseTarget]:
    # the bundled cases have at most some 9,000 rule instances; a mutation may make many more
    target = CaseTarget(rule_base, grounded=True, max_instances=50_000, slow=SLOW)
    yield target
    target.close()


@pytest.fixture(scope="module")
def checked_case_target(rule_base: RuleBase, rules_doc: RulesDocument) -> Iterator[CaseTarget]:
    """Mutated cases that load are answered by the engine, each solver check bounded by a few seconds."""
    target = CaseTarget(rule_base, max_instances=CHECKED_INSTANCES, slow=SLOW, checked=True, doc=rules_doc,
                        timeout_ms=5_000)
    yield target
    target.close()


@pytest.fixture(scope="module")
def encoding_target(repo_root: Path) -> Iterator[EncodingTarget]:
    target = EncodingTarget(repo_root / "encodings", slow=SLOW)
    yield target
    target.close()


@pytest.fixture(scope="module")
def expression_target(rule_base: RuleBase) -> Iterator[ExpressionTarget]:
    target = ExpressionTarget(rule_base, slow=SLOW)
    yield target
    target.close()


@settings(FUZZ, max_examples=1000)
@given(base=st.sampled_from(sorted(CASE_BYTES)), seed=SEEDS)
def test_mutated_case(case_target: CaseTarget, base: str, seed: int) -> None:
    assert case_target(mutate_file(random.Random(seed), CASE_BYTES[base])) in (ACCEPTED, REFUSED)


@settings(FUZZ, max_examples=100)
@given(base=st.sampled_from(sorted(CASE_BYTES)), seed=SEEDS)
def test_mutated_case_grounded(grounded_case_target: CaseTarget, base: str, seed: int) -> None:
    assert grounded_case_target(mutate_file(random.Random(seed), CASE_BYTES[base])) in (ACCEPTED, REFUSED)


def test_mutated_cases_checked_by_the_engine(checked_case_target: CaseTarget) -> None:
    """A few hundred mutated cases (fuzz/run.py's, seed 0) through loading and the engine's whole check:
    accepted or refused with an InputError, never another exception; some load and get verdicts."""
    outcomes = []
    bases = list(CASE_BYTES.values())
    for i in range(300):
        rng = random.Random(f"case-0-{i}")
        outcomes.append(checked_case_target(mutate_file(rng, rng.choice(bases))))
    assert outcomes.count(ACCEPTED) >= 10, outcomes.count(ACCEPTED)
    assert sum(checked_case_target.verdicts.values()) >= 30, checked_case_target.verdicts


@settings(FUZZ, max_examples=30)
@given(base=st.sampled_from(ENCODINGS), seed=SEEDS)
def test_mutated_encoding(encoding_target: EncodingTarget, repo_root: Path, base: str, seed: int) -> None:
    data = mutate_file(random.Random(seed), (repo_root / "encodings" / base).read_bytes())
    assert encoding_target(data, base) in (ACCEPTED, REFUSED)


@settings(FUZZ, max_examples=500)
@given(base=st.sampled_from(QUESTIONS), seed=SEEDS)
def test_mutated_expression(expression_target: ExpressionTarget, base: str, seed: int) -> None:
    assert expression_target(mutate_expression(random.Random(seed), base)) in (ACCEPTED, REFUSED)


@settings(FUZZ, max_examples=200)
@given(text=st.text(alphabet=st.sampled_from(list("()[]{},.:;+-*/<>=!~ _abcxyz019'\"\n\t\\#é")), max_size=80))
def test_any_short_text_as_a_question(expression_target: ExpressionTarget, text: str) -> None:
    assert expression_target(text) in (ACCEPTED, REFUSED)


def test_grounded_mutated_cases_hold_the_later_sections_vocabulary(grounded_case_target: CaseTarget) -> None:
    """Mutated cases that load and are grounded hold every field of the descriptions, negation, cannot-be,
    protection and use-limit vocabulary (fuzz.mutators.SECTION_FIELDS), and negates in their timelines."""
    bases = list(CASE_BYTES.values())
    grounded_case_target.fields.clear()
    wanted = [*SECTION_FIELDS["card"], *SECTION_FIELDS["ability"], "negate"]
    # draws go on until every field has been held by a grounded case (whatever the size of the bundled pool)
    for i in range(1_500):
        rng = random.Random(f"sections-{i}")
        assert grounded_case_target(mutate_file(rng, rng.choice(bases))) in (ACCEPTED, REFUSED)
        if i >= 100 and all(grounded_case_target.fields[f] for f in wanted):
            break
    assert not [f for f in wanted if not grounded_case_target.fields[f]], dict(grounded_case_target.fields)


# -- the harness itself -----------------------------------------------------------------------------
def test_mutations_reach_both_outcomes_and_many_errors(rule_base: RuleBase, tmp_path: Path) -> None:
    """The mutators are not vacuous: some mutated cases still load, most do not, for many different reasons."""
    accepted = 0
    messages = []
    path = tmp_path / "case.yaml"
    for i in range(200):
        rng = random.Random(i)
        path.write_bytes(mutate_file(rng, rng.choice(list(CASE_BYTES.values()))))
        try:
            load_case(path, rule_base, display="case.yaml")
            accepted += 1
        except CaseError as err:
            messages.append(err.message.split("'")[0][:25])
    assert accepted >= 10 and len(messages) >= 100, (accepted, len(messages))
    assert len(set(messages)) >= 25, sorted(set(messages))


def test_random_expressions_type_check_sometimes(expression_target: ExpressionTarget) -> None:
    rng = random.Random(0)
    outcomes = [expression_target(random_expression(rng)) for _ in range(150)]
    assert outcomes.count(ACCEPTED) >= 3 and outcomes.count(REFUSED) >= 50


def test_a_crash_is_a_failure(case_target: CaseTarget, monkeypatch: pytest.MonkeyPatch) -> None:
    """The judge catches what fuzzing looks for: an exception that is not an InputError."""
    import fuzz.targets

    def broken(*_args: object, **_kwargs: object) -> None:
        raise KeyError("black")

    monkeypatch.setattr(fuzz.targets, "load_case", broken)
    with pytest.raises(Failure, match="KeyError"):
        case_target(CASE_BYTES[sorted(CASE_BYTES)[0]])


def test_an_error_past_the_end_of_the_file_is_a_failure(case_target: CaseTarget, monkeypatch: pytest.MonkeyPatch) -> None:
    import fuzz.targets
    from verifier.errors import Location

    def misplaced(*_args: object, **_kwargs: object) -> None:
        raise CaseError("malformed YAML", Location("case.yaml", 99, 1))

    monkeypatch.setattr(fuzz.targets, "load_case", misplaced)
    with pytest.raises(Failure, match="a line outside the file"):
        case_target(b"players: [alice, bob]\n")


@pytest.mark.slow
def test_one_hundred_thousand_fuzzed_inputs(repo_root: Path) -> None:
    """fuzz/run.py with its defaults: 105,000 mutated cases, encodings and expressions, none failing."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "fuzz/run.py", "--seed", "1"], cwd=repo_root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert "105000 fuzzed inputs" in done.stdout
    assert "0 kinds of failure" in done.stdout


@pytest.mark.slow
def test_fifty_thousand_grounded_cases_over_every_section(repo_root: Path) -> None:
    """fuzz/run.py: 50,000 mutated cases (the later sections' vocabulary written into them), each that loads
    grounded against every section's rules; none failing, and every field of those sections in accepted ones."""
    import re
    import subprocess
    import sys

    # grounded up to 50,000 rule instances, as in the default run; an input is slow past two minutes of CPU time
    # (a mutated card holding over a hundred abilities takes tens of seconds to read and ground)
    done = subprocess.run([sys.executable, "fuzz/run.py", "--cases", "50000", "--encodings", "0", "--expressions", "0",
                           "--seed", "3", "--max-instances", "50000", "--slow", "120"],
                          cwd=repo_root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert "50000 fuzzed inputs" in done.stdout and "0 kinds of failure" in done.stdout
    held = dict(re.findall(r"(\w+) (\d+)", done.stdout.split("later sections' fields: ")[1].splitlines()[0]))
    assert set(held) == {*SECTION_FIELDS["card"], *SECTION_FIELDS["ability"], "negate"}
    assert all(int(n) > 0 for n in held.values()), held


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2])
def test_twenty_thousand_fuzzed_cases_checked_by_the_engine(repo_root: Path, seed: int) -> None:
    """fuzz/run.py --check: 20,000 mutated cases, those that load grounded and answered by the engine."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "fuzz/run.py", "--check", "--cases", "20000", "--encodings", "0",
                           "--expressions", "0", "--seed", str(seed), "--max-instances", str(CHECKED_INSTANCES)],
                          cwd=repo_root, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-2000:]
    assert "20000 fuzzed inputs" in done.stdout
    assert "0 kinds of failure" in done.stdout
