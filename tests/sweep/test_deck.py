"""Deck lists: COUNT<TAB>NAME lines, section headers, and unknown names refused with a did-you-mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.errors import CaseError
from verifier.sweep import read_deck

REPO_ROOT = Path(__file__).resolve().parents[2]


def _deck(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "deck.txt"
    path.write_text(text, "utf-8")
    return path


def test_lines_and_sections(tmp_path: Path) -> None:
    deck = read_deck(_deck(tmp_path, "# my deck\nMain Deck:\n2\tProvisions\n\n1 Passover\nReserve:\n1\tCharred Vine\n"))
    assert [(e.copies, e.name, e.section, e.line) for e in deck] == [
        (2, "Provisions", "Main Deck", 3), (1, "Passover", "Main Deck", 5), (1, "Charred Vine", "Reserve", 7)]


def test_the_sample_deck_reads() -> None:
    deck = read_deck(REPO_ROOT / "examples" / "sample-deck.txt")
    assert {e.section for e in deck} == {"Main Deck", "Reserve"}
    assert "Miracle of Healing" in {e.name for e in deck}


def test_an_unknown_name_gets_a_did_you_mean(tmp_path: Path) -> None:
    with pytest.raises(CaseError) as err:
        read_deck(_deck(tmp_path, "1\tProvisions\n1\tProvisons\n"))
    assert err.value.location is not None and err.value.location.line == 2
    assert "no card named 'Provisons'" in err.value.message and "did you mean 'Provisions'" in err.value.message


def test_a_name_of_several_printings_asks_for_one(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match="printings: write one of 'Balm of Gilead"):
        read_deck(_deck(tmp_path, "1\tBalm of Gilead\n"))


@pytest.mark.parametrize("text, message", [
    ("Provisions\n", "expected COUNT<TAB>NAME"),
    ("0\tProvisions\n", "a count of 0"),
    ("Reserve:\n", "names no card"),
])
def test_malformed_lines(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CaseError, match=message):
        read_deck(_deck(tmp_path, text))


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_bad_line_is_placed_as_an_editor_counts_lines(tmp_path: Path, end: str) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(end.join(["Main Deck:", "2\tProvisions", "two\tProvisions", ""]).encode())
    with pytest.raises(CaseError, match="deck.txt:3: expected COUNT<TAB>NAME"):
        read_deck(path)
    path.write_bytes(end.encode().join([b"Main Deck:", b"2\tProvisions", b"1\tPr\xffvisions", b""]))
    with pytest.raises(CaseError, match="deck.txt:3: the deck list is not valid UTF-8"):
        read_deck(path)
