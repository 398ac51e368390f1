"""What every section of a case reads through: the case's tree, the facts found so far, and the players."""

from __future__ import annotations

__all__ = ["CaseReaderBase"]

from ...errors import Location
from ...vocabulary import MEMBER_OF, SYMBOLS
from ...yamlsource import YMap, YNode, YSeq, editor_lines
from ..model import Fact
from ..refusals import Unmodelled
from .fields import CASE_KEYS, MAX_PLAYERS, _name


class CaseReaderBase:
    """The case being read: its tree and text, and the facts its sections have found."""

    def __init__(self, root: YNode, text: str, display: str, other_keys: tuple[str, ...],
                 questions_required: bool = True) -> None:
        self.path = display
        self.text = text
        self.questions_required = questions_required
        if not isinstance(root, YMap):
            root.fail("a case must be a mapping with players, cards, timeline and questions")
        root.check_keys(CASE_KEYS + other_keys, "a case")
        self.root = root
        self.facts: list[Fact] = []
        # abilities of real cards with unsupported parts: refused when the timeline uses them
        self.refused: dict[str, tuple[str, tuple[str, ...], YNode]] = {}
        # abilities of real cards whose text lets the player pick another effect instead ("... or underdeck a Hero")
        self.alternatives: dict[str, tuple[str, str, tuple[str, ...]]] = {}
        # what the real cards say that regcheck does not carry out: refused where it could matter
        self.unmodelled = Unmodelled(self.locate)
        self.labels: dict[str, str] = {}  # the block label of each real card's ability (GE, EE, ...)
        # a real card's band read beside another effect of its printed block (AAO-4-R1): the card and block of each
        # band, and the first other ability read from each block
        self.band_block: dict[str, tuple[str, int]] = {}
        self.plain_of_block: dict[tuple[str, int], str] = {}
        self.blocks: dict[str, tuple[str, ...]] = {}  # the ability blocks of each real card's text, as shown
        self.until_nodes: dict[str, YNode] = {}  # where each attempt is written, or its 'until:' when it has one
        # the card whose play ends each ability read from a text lasting "until <card> is played"
        self.until_played: dict[str, str] = {}
        # the sides of each turn's battle as its entries state them: turn -> (player entering, role, opposing role)
        self.battle_sides: dict[int, tuple[str, str, str]] = {}
        self.raw_modifiers: list[tuple[str, str, str, str, str, bool, list[tuple[str, YNode]], YMap]] = []
        self.lines = editor_lines(self.text)

    def locate(self, card: str) -> Location:
        """Where a card is written in the case."""
        cards = self.root.get("cards")
        if isinstance(cards, YMap):
            for key, _ in cards.entries:
                if key.value == card:
                    return key.loc
        return self.root.loc

    def fact(self, symbol: str, args: tuple[str, ...], value: object, text: str, loc: Location,
             default: bool = False) -> None:
        self.facts.append(Fact(symbol, args, value, text, loc, default))

    # -- players -------------------------------------------------------------------------
    def players(self) -> tuple[str, ...]:
        node = self.root.require("players", "the case")
        if not isinstance(node, YSeq) or not 2 <= len(node.items) <= MAX_PLAYERS:
            node.fail(f"players must be a list of 2 to {MAX_PLAYERS} names; the first takes turn 1")
        names = []
        for p in node:
            name = _name(p, "player")
            if name in MEMBER_OF or name in SYMBOLS:
                p.fail(f"player name '{name}' is a word of the rules vocabulary; pick another")
            names.append(name)
        if len(set(names)) != len(names):
            node.fail("player names must differ")
        return tuple(names)
