"""The manual's site: the README's first case is the example file and prints what the README shows, and the
reference pages generated from the repository (schemas, rules sections, card mechanics) say what their
sources say and are in the site's navigation."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from click.testing import Result

from docs_hooks.reference import _literal, generated_pages, mechanics_page, schema_page
from verifier.scenario.cardmechanics import MECHANICS

ROOT = Path(__file__).resolve().parent.parent


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"(?ms)^```{language}\n(.*?)^```", text)


def test_the_readme_is_short_and_its_first_case_is_the_example_file(cli: Callable[..., Result],
                                                                     repo_root: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 150
    example = (ROOT / "examples" / "first-case.yaml").read_text(encoding="utf-8")
    assert example in _blocks(readme, "yaml")
    assert 10 <= len(example.splitlines()) <= 20
    result = cli("check", "--root", repo_root, "examples/first-case.yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout in _blocks(readme, "text")


def test_the_readme_keeps_the_two_set_up_commands_and_ci_runs_the_second() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    install = "python3 -m venv .venv && .venv/bin/pip install -q . && .venv/bin/regcheck check cases"
    tests = "python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest"
    assert f"```sh\n{install}\n```" in readme and f"```sh\n{tests}\n```" in readme
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci
    assert any("mkdocs build --strict" in line for line in ci[ci.index(tests) + 1:])


def test_a_schema_page_names_every_field_of_its_schema() -> None:
    for kind in ("case", "scope", "ruling"):
        schema = json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8"))
        page = schema_page(kind)
        shapes = [schema, *(schema[k] for k in ("then", "else") if k in schema)]
        assert any("properties" in shape for shape in shapes)
        for shape in shapes:
            for name in shape.get("properties", {}):
                assert f"| `{name}` |" in page, (kind, name)
        for name, spec in schema.get("$defs", {}).items():
            assert f"\n## {name}\n" in page
            for field in spec.get("properties", {}):
                assert f"| `{field}` |" in page, (kind, name, field)


def test_the_mechanics_page_has_a_row_per_mechanic_with_its_words_shown_exactly() -> None:
    page = mechanics_page()
    rows = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| mechanic")
            and not line.startswith("| ---")]
    assert len(rows) == len(MECHANICS)
    for m in MECHANICS:
        assert _literal(m.words.pattern) in page
    assert _literal("a<![b]|*c_`") == "<code>a&lt;!&#91;b&#93;&#124;&#42;c&#95;&#96;</code>"


def test_every_generated_page_and_every_written_page_is_in_the_navigation() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = generated_pages()
    assert {f"reference/rules/{p.name}" for p in (ROOT / "rules").glob("*.md")} <= set(pages)
    written = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    for uri in [*pages, *written]:
        assert f": {uri}\n" in nav, uri
