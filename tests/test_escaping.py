"""Input text reaches the terminal with control, invisible and look-alike characters made visible
(defects 5 and 13 of "Nothing lost, nothing leaked"); JSON keeps the exact strings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import Result

from verifier.escaping import escape_lines, escape_text, how_they_differ
from verifier.yamlsource import did_you_mean

# a title that would set the terminal's title, ring the bell and clear the screen
TITLE = r'title: "Provisions \e]0;owned\a\e[2J\e[H sets a Hero aside"'


@pytest.fixture
def title_case(write_case: Callable[..., Path], provisions_text: str) -> Path:
    """The Provisions case under a title full of terminal control sequences."""
    assert provisions_text.startswith("title: ")
    return write_case(TITLE + provisions_text[provisions_text.index("\n"):])


def _card_case(card: str) -> str:
    return f"""players: [alice, bob]
cards:
  rage:
    card: "{card}"
questions:
  where: zone(rage, 0)
"""


def test_escape_text_shows_what_does_not_print() -> None:
    assert escape_text("a\x1b]0;x\x07b") == "a\\x1b]0;x\\x07b"
    assert escape_text("Irrational\u200bRage\u00a0x\r\n\x85") == "Irrational\\u200bRage\\xa0x\\r\\n\\x85"
    assert escape_text("God's Provision, Élie, Ἰησοῦς") == "God's Provision, Élie, Ἰησοῦς"
    assert escape_text("\U000e0041") == "\\U000e0041"
    assert escape_lines("one\x1b[2J\ntwo\x07") == "one\\x1b[2J\ntwo\\x07"
    assert escape_text(escape_text("\x1b")) == "\\x1b"  # idempotent: escapes print as themselves


def test_escape_sequences_in_a_title_are_escaped_in_text_output(cli: Callable[..., Result], title_case: Path,
                                                                repo_root: Path) -> None:
    path = title_case
    text = cli("check", "--root", repo_root, "-j", "1", path)
    assert text.exit_code == 0, text.output
    assert "\x1b" not in text.output and "\x07" not in text.output
    assert "Provisions \\x1b]0;owned\\x07\\x1b[2J\\x1b[H sets a Hero aside" in text.output
    explained = cli("explain", "--root", repo_root, path)
    assert explained.exit_code == 0, explained.output
    assert "\x1b" not in explained.output and "\\x1b]0;owned\\x07" in explained.output


def test_json_keeps_the_exact_strings(cli: Callable[..., Result], title_case: Path, repo_root: Path) -> None:
    from verifier.report import results_json
    from verifier.verdicts import CaseResult

    out = results_json([CaseResult("case.yaml", "a \x1b[2J title", "", ())])
    assert json.loads(json.dumps(out)) == out
    path = title_case
    result = cli("check", "--root", repo_root, "-j", "1", "--format", "json", path)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.output  # JSON writes it as \u001b, and reads it back exact
    json.loads(result.output)


def test_escape_sequences_in_a_card_name_are_escaped_in_errors(cli: Callable[..., Result],
                                                               write_case: Callable[..., Path],
                                                               repo_root: Path) -> None:
    path = write_case(_card_case(r"Irrational\e]0;owned\a Rage"))
    result = cli("check", "--root", repo_root, "-j", "1", path)
    assert result.exit_code == 2
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert "no card named 'Irrational\\x1b]0;owned\\x07 Rage' in the card list" in result.stderr


def test_an_invisible_character_in_a_name_is_shown(cli: Callable[..., Result], write_case: Callable[..., Path],
                                                   repo_root: Path, chdir: Callable[[Path], None]) -> None:
    path = write_case(_card_case(r"Irrational\u200b Rage"))
    chdir(path.parent)
    result = cli("check", "--root", repo_root, "-j", "1", path.name)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: case.yaml:4:11: no card named 'Irrational\\u200b Rage' in the card list; did you mean "
        "'Irrational Rage'? (at character 11, yours has '\\u200b' (U+200B ZERO WIDTH SPACE) where "
        "'Irrational Rage' has nothing)"]
    nbsp = cli("check", "--root", repo_root, "-j", "1", write_case(_card_case(r"Irrational\_Rage")))
    assert "'Irrational\\xa0Rage'" in nbsp.stderr and "U+00A0 NO-BREAK SPACE" in nbsp.stderr


def test_a_look_alike_did_you_mean_says_how_the_names_differ(cli: Callable[..., Result],
                                                             write_case: Callable[..., Path],
                                                             repo_root: Path, chdir: Callable[[Path], None]) -> None:
    """'Irrаtional Rage' with a Cyrillic 'а' prints like the real name: the message names the character."""
    path = write_case(_card_case("Irr\u0430tional Rage"))
    chdir(path.parent)
    result = cli("check", "--root", repo_root, "-j", "1", path.name)
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: case.yaml:4:11: no card named 'Irr\u0430tional Rage' in the card list; did you mean "
        "'Irrational Rage'? (at character 4, yours has '\u0430' (U+0430 CYRILLIC SMALL LETTER A) where "
        "'Irrational Rage' has 'a' (U+0061 LATIN SMALL LETTER A))"]


def test_did_you_mean_tells_look_alikes_apart() -> None:
    assert did_you_mean("determind", ["determined"]) == " (did you mean 'determined'?)"
    hint = did_you_mean("d\u0435termined", ["determined", "ambiguous"])  # Cyrillic 'е'
    assert hint.startswith(" (did you mean 'determined'?; at character 2, yours has 'е' (U+0435 CYRILLIC")
    assert how_they_differ("plain", "plane") == ""  # ASCII names are told apart by their quotes
    assert how_they_differ("e\u0301lie", "\u00e9lie").startswith("at character 1, yours has 'e'")
