"""The reference of the case language and the JSON Schemas: made from the loaders, committed, and
accepting every bundled case, ruling and scope."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from click.testing import Result

from verifier import caseformat
from verifier.caseformat import REFERENCE_FILE, SCHEMA_FILES, reference_markdown, schema_text, schemas
from verifier.errors import CaseError
from verifier.vocabulary import SYMBOLS, VALUE_SETS, display_value
from verifier.yamlsource import load_yaml, plain

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = {
    "case": sorted((ROOT / "cases").rglob("*.yaml")),
    "ruling": sorted((ROOT / "rulings").glob("*.yaml")),
    "scope": sorted((ROOT / "scopes").glob("*.yaml")) + sorted((ROOT / "benchmarks" / "scopes").glob("*.yaml")),
}


def _tree(path: Path) -> object:
    """A file as regcheck reads it (a key like `on` stays text, as a YAML 1.2 editor reads it)."""
    return plain(load_yaml(path, CaseError)[0])


def _errors(kind: str, tree: object) -> list[str]:
    validator = jsonschema.Draft202012Validator(schemas()[kind])
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(tree)]


def test_committed_reference_is_the_generated_one() -> None:
    committed = (ROOT / REFERENCE_FILE).read_text(encoding="utf-8")
    assert committed == reference_markdown(), "docs/case-format.md is stale: run `regcheck docs --write`"


@pytest.mark.parametrize("kind", sorted(SCHEMA_FILES))
def test_committed_schema_is_the_generated_one(kind: str) -> None:
    committed = (ROOT / SCHEMA_FILES[kind]).read_text(encoding="utf-8")
    assert committed == schema_text(kind), f"{SCHEMA_FILES[kind]} is stale: run `regcheck docs --write`"
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


def test_bundled_files_are_all_found() -> None:
    assert len(BUNDLED["case"]) >= 100 and len(BUNDLED["ruling"]) >= 3 and len(BUNDLED["scope"]) >= 8


@pytest.mark.parametrize(("kind", "path"), [(k, p) for k, paths in BUNDLED.items() for p in paths],
                         ids=lambda v: v.relative_to(ROOT).as_posix() if isinstance(v, Path) else v)
def test_every_bundled_file_validates(kind: str, path: Path) -> None:
    assert _errors(kind, _tree(path)) == []


def test_reference_names_every_symbol_value_and_field() -> None:
    text = reference_markdown()
    for symbol in SYMBOLS.values():
        assert f"`{symbol.name}({', '.join(symbol.params)})`" in text
    for members in VALUE_SETS.values():
        for m in members:
            assert f"`{display_value(m)}`" in text
    for keys, _ in caseformat.FIELDS().values():
        for key in keys:
            assert f"| `{key}` |" in text


def test_a_loader_key_without_a_description_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(caseformat, "CARD_KEYS", (*caseformat.CARD_KEYS, "shiny"))
    with pytest.raises(RuntimeError, match=r"'card' does not match its loader: undescribed \['shiny'\]"):
        reference_markdown()


CASE = {"players": ["alice", "bob"], "cards": {"elijah": {"type": "Hero", "zone": "set-aside area"}},
        "timeline": [{"turn": 1, "phase": "Preparation", "enter_battle": ["elijah"]}],
        "questions": {"q": "zone(elijah, at(1, Battle))"},
        "expect": {"q": {"verdict": "determined", "value": "territory"}}}


@pytest.mark.parametrize(("change", "wanted"), [
    (lambda c: c["cards"]["elijah"].update(colour="red"), "'colour' was unexpected"),
    (lambda c: c["cards"]["elijah"].update(zone="attic"), "'attic'"),
    (lambda c: c["cards"]["elijah"].update(type="Heroo"), "'Heroo'"),
    (lambda c: c.update(players=["alice"]), "too short"),
    (lambda c: c["timeline"][0].update(play="elijah"), "is valid under each of"),
    (lambda c: c["timeline"][0].pop("enter_battle"), "is not valid under any of the given schemas"),
    (lambda c: c["expect"].update(q="determinate"), "'determinate'"),
    (lambda c: c.pop("questions"), "'questions' is a required property"),
], ids=["unknown-key", "unknown-zone", "unknown-type", "one-player", "two-actions", "no-action", "bad-verdict",
        "no-questions"])
def test_schema_refuses_what_the_loader_refuses(change: Callable[[dict], None], wanted: str,
                                                make_case: Callable[..., object]) -> None:
    case = json.loads(json.dumps(CASE))
    assert _errors("case", case) == []
    make_case(json.dumps(case))  # the loader reads it too
    change(case)
    errors = _errors("case", case)
    assert any(wanted in e for e in errors), errors
    with pytest.raises(CaseError):
        make_case(json.dumps(case))


@pytest.mark.parametrize("written", ["field of battle", "Field-Of-Battle", "field_of_battle", " territory "])
def test_schema_reads_values_as_the_loader_does(written: str) -> None:
    case = json.loads(json.dumps(CASE))
    case["cards"]["elijah"]["zone"] = written
    assert _errors("case", case) == []


def test_ruling_schema_needs_rules_or_a_scenario() -> None:
    assert _errors("ruling", {"ruling": "RUL-1", "title": "t"})
    assert _errors("ruling", {"ruling": "RUL-1", **CASE})  # a scenario without claims
    assert _errors("ruling", {"ruling": "RUL-1", **{k: v for k, v in CASE.items() if k != "expect"},
                              "claims": {"q": "territory"}}) == []


def test_docs_command_prints_the_reference(cli: Callable[..., Result]) -> None:
    result = cli("docs")
    assert result.exit_code == 0
    assert result.stdout == reference_markdown()


def test_docs_write_writes_reference_and_schemas(cli: Callable[..., Result], repo_copy: Path) -> None:
    result = cli("docs", "--write", "--root", repo_copy)
    assert result.exit_code == 0, result.output
    assert (repo_copy / REFERENCE_FILE).read_text(encoding="utf-8") == reference_markdown()
    for kind, name in SCHEMA_FILES.items():
        assert (repo_copy / name).read_text(encoding="utf-8") == schema_text(kind)
    assert "wrote schemas/case.schema.json" in result.stderr
