"""The rules document: numbered statements with their sources, one Markdown file per REG entry."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from verifier.errors import RulesDocumentError
from verifier.rulesdoc import RulesDocument, Statement, load_rules_document


def load(tmp_path: Path, **files: str) -> RulesDocument:
    folder = tmp_path / "rules"
    folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.md").write_text(textwrap.dedent(text), encoding="utf-8")
    return load_rules_document(folder)


def failure(tmp_path: Path, **files: str) -> tuple[str, int]:
    with pytest.raises(RulesDocumentError) as info:
        load(tmp_path, **files)
    assert info.value.location is not None
    return info.value.message, info.value.location.line


DOC = """\
# Demo

Some prose that is not a statement, with a - **dash** inside.

- **DEMO-1** A first statement. (Demo entry, bullet 1)
- **DEMO-2** A statement that goes on
  over a second line (and has a parenthesis inside). (Demo entry, bullet 2,
  sentence 1)
- Not a statement: no bold ID.
- **DEMO-2b** A lettered statement. (Demo entry, bullet 3)
"""


def test_statements(tmp_path: Path) -> None:
    doc = load(tmp_path, demo=DOC)
    assert [s.id for s in doc.statements] == ["DEMO-1", "DEMO-2", "DEMO-2b"]
    one, two, three = doc.statements
    assert one.text == "A first statement."
    assert one.source == "Demo entry, bullet 1"
    assert one.section == "demo"
    assert Path(one.loc.path).name == "demo.md" and one.loc.line == 5 and str(one.loc).endswith("demo.md:5")
    assert two.text == "A statement that goes on over a second line (and has a parenthesis inside)."
    assert two.source == "Demo entry, bullet 2, sentence 1"
    assert two.loc.line == 6
    assert three.loc.line == 10
    assert doc.by_id()["DEMO-2b"] is three


def test_files_in_name_order(tmp_path: Path) -> None:
    doc = load(tmp_path, zeta="- **Z-1** Last. (Z)\n", alpha="- **A-1** First. (A)\n")
    assert [(s.id, s.section) for s in doc.statements] == [("A-1", "alpha"), ("Z-1", "zeta")]


def test_fingerprint_is_blind_to_spacing_only() -> None:
    def fp(text: str) -> str:
        return Statement("X-1", "x", text, "src", None).fingerprint  # type: ignore[arg-type]

    assert fp("A  card\n is  here.") == fp("A card is here.")
    assert fp("A card is here.") != fp("A card is there.")
    assert len(fp("x")) == 16


def test_basis_is_told_by_the_source(tmp_path: Path) -> None:
    doc = load(tmp_path, demo="""\
        - **NEG-1** Negate stops an ability. (REG, Negate, 2020-06, https://example.org/wiki/Negate)
        - **NEG-1-R1** Where the text is silent, read it so. (Reading: NEG-1 does not say when)
        - **CORE-1** A card is in one zone. (Game principle: zones)
        """)
    assert [(s.id, s.basis) for s in doc.statements] == [
        ("NEG-1", "text"), ("NEG-1-R1", "reading"), ("CORE-1", "principle")]


@pytest.mark.parametrize(
    ("text", "message", "line"),
    [
        ("- **X-1-R1** A reading with a text source. (REG, X)\n", "statement X-1-R1: a reading's ID ends in -R", 1),
        ("- **X-1** A text with a reading's source. (Reading: silent)\n", "statement X-1: a reading's ID ends in -R", 1),
        ("- **X-1** No source here.\n", "statement X-1 does not end with its source in parentheses", 1),
        ("- **X-1** Unclosed (source\n", "statement X-1 does not end with its source in parentheses", 1),
        ("intro\n\n- **X-1** (Only a source)\n", "statement X-1 has no text", 3),
        ("- **X-1** One. (A)\n- **X-1** Two. (B)\n", "statement X-1 appears twice (first at ", 2),
    ],
)
def test_errors(tmp_path: Path, text: str, message: str, line: int) -> None:
    got, got_line = failure(tmp_path, demo=text)
    assert got.startswith(message) and got_line == line


def test_duplicate_across_files(tmp_path: Path) -> None:
    message, line = failure(tmp_path, a="- **X-1** One. (A)\n", b="\n- **X-1** Two. (B)\n")
    assert message.startswith("statement X-1 appears twice (first at ") and message.endswith("a.md:1)")
    assert line == 2


def test_no_files(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    with pytest.raises(RulesDocumentError, match=r"no rules files \(\*\.md\) in "):
        load_rules_document(tmp_path / "rules")


def test_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "bad.md").write_bytes(b"- **X-1** caf\xe9. (A)\n")
    with pytest.raises(RulesDocumentError, match="cannot read rules file"):
        load_rules_document(folder)


def test_malformed_statement_id_is_reported(tmp_path: Path) -> None:
    message, line = failure(tmp_path, demo="- **SA-3** Fine. (A)\n- **SA 4** Typo in the ID. (B)\n")
    assert "SA 4" in message and line == 2


# -- the real rules document -------------------------------------------------------------------------


def test_real_document(rules_doc: RulesDocument) -> None:
    ids = [s.id for s in rules_doc.statements]
    assert len(ids) == len(set(ids))
    assert {"core", "glossary", "set-aside"} <= {s.section for s in rules_doc.statements}
    sa = [s for s in rules_doc.statements if s.id.startswith("SA-")]
    assert len(sa) >= 25
    for s in rules_doc.statements:
        assert s.text and s.source, s.id
        assert s.loc.line >= 1


def test_real_set_aside_statements_are_numbered_in_order(rules_doc: RulesDocument) -> None:
    numbers = [int(s.id.split("-")[1].rstrip("abcdefghijklmnopqrstuvwxyz")) for s in rules_doc.statements
               if s.section == "set-aside"]
    assert numbers == sorted(numbers) and numbers[0] == 1
