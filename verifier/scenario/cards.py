"""Real cards: the bundled card list, each card's text read by the card grammar, and reviewed overrides."""

from __future__ import annotations

__all__ = [
    "RealCard", "find_card", "identities_of", "is_named", "printings_named", "all_cards", "CardReading", "Override",
    "read_card", "overrides",
    "override_problems", "text_hash", "STATUSES", "CATEGORIES", "ALL_TEXTS", "COVERAGE_LINES", "WORDS", "DEFINITIONS",
    "categories_of", "statuses_of", "printings", "texts_of_card_list", "coverage", "blockers_of",
    "blocker_reason", "blockers", "count_coverage", "count_blockers", "survey", "SurveyRow", "OFFERED_INSTEAD",
    "SHOWN_CARDS", "survey_progress", "BAND_OFF_A_CHARACTER",
]

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..errors import CaseError, Location
from ..processes import run_in_processes
from ..vocabulary import VALUE_SETS
from ..yamlsource import YMap, YScalar, YSeq, load_yaml
from .cardcache import SurveyRow, cached_read_text, cached_survey
from .cardreading import BOOK_TRAITS, AbilityReading, Part, TextReadingResult, books_of, reach_of, trait_named
from .descriptions import TYPE_ALIGNMENT
from .titles import TYPES, named, title_of


class RealCard(NamedTuple):
    """A printed card from the bundled card list."""

    name: str
    type: str | None
    brigades: tuple[str, ...]
    territory_class: bool
    identifier: str
    text: str
    identity: str | None = None  # the name it was looked up by, when that is one of its identities
    # the card list's brigade when it names a multicolored brigade that cannot be read (see `_card`), else ""
    brigade_unread: str = ""
    classes: str = ""  # the card list's class field ("Warrior", "Territory, Star")
    reference: str = ""  # the card list's reference field, the scripture printed on the card ("II Kings 5:1")

    @property
    def traits(self) -> tuple[str, ...]:
        """The traits target descriptions name that the card list gives the card: those its identifiers give
        ("Corinth", "Demon", "O.T."), "warrior" for a warrior-class character (GLOSS-23), `from <book>` for each
        book of the Bible its reference names (CORE-15-R3), and its title (`titles.named`) unless it is printed
        with several identities; the list does not record humanity, gender or, for most cards, testament."""
        items = re.sub(r"\[[^\]]*\]", "", self.identifier).replace(";", ",").split(",")
        identified = (t for t in (trait_named(i) for i in items if i.strip()) if t is not None)
        warrior = ("warrior",) if "warrior" in self.settled_traits and "Warrior" in self.classes else ()
        titled = () if identities_of(self.name) else (named(title_of(self.name)),)
        return tuple(dict.fromkeys([*identified, *warrior, *(books_of(self.reference) or ()), *titled]))

    @property
    def settled_traits(self) -> tuple[str, ...]:
        """The traits the card list records for every card of the type, so that a trait of them it does not give
        the card is one the card lacks: a character's warrior class (the class field records every class icon),
        and the books of the Bible of a card whose reference names only books (CORE-15-R3)."""
        books = BOOK_TRAITS if books_of(self.reference) is not None else ()
        return (("warrior",) if self.type in ("Hero", "Evil_Character") else ()) + books

    @property
    def later_identity(self) -> bool:
        """Looked up by an identity other than the first: the card list's type and brigade are the card's as it
        enters play, not necessarily this identity's."""
        return self.identity is not None and self.identity != identities_of(self.name)[0]


@lru_cache(maxsize=1)
def _text() -> str:
    """The bundled card list: a line per printed card, its fields separated by tabs."""
    return "\n" + (Path(__file__).resolve().parent.parent / "data" / "cards.tsv").read_text("utf-8")


def _row(name: str) -> list[str] | None:
    # One card is looked up by finding its line, without reading every other card.
    text = _text()
    start = text.find("\n" + name + "\t")
    if start < 0:
        return None
    end = text.find("\n", start + 1)
    return text[start + 1: end if end >= 0 else len(text)].split("\t")


@lru_cache(maxsize=1)
def _names() -> list[str]:
    names = (line.split("\t", 1)[0] for line in _text().split("\n")[1:])
    return list(dict.fromkeys(n for n in names if n and not n.startswith("#")))


# The brigades of each alignment (good and evil Gold are one brigade of the vocabulary).
GOOD_BRIGADES = ("Blue", "Clay", "Gold", "Green", "Purple", "Red", "Silver", "Teal", "White")
EVIL_BRIGADES = ("Black", "Brown", "Crimson", "Gold", "Gray", "Orange", "Pale_Green")
# The brigades a "Multi" card of each aligned type has (the alignment of its type, descriptions.TYPE_ALIGNMENT).
_ALIGNED = {t: GOOD_BRIGADES if a == "good" else EVIL_BRIGADES for t, a in TYPE_ALIGNMENT.items()}


def _card(row: list[str]) -> RealCard:
    """A card of the card list. Its brigade field names its brigades ("Clay/White"); "Multi" names the
    multicolored (rainbow) icon box, whose card belongs to every brigade of its alignment (the description
    of the game's brigades in "Redemption (card game)", Wikipedia: a card with a rainbow icon box belongs to
    all brigades of the corresponding good or evil alignment): the good brigades for a Hero or Good
    Enhancement, the evil ones for an Evil Character or Evil Enhancement. A card printed with several
    identities names the brigades of each ("Gray/Multi" for Saul/Paul): the card as it enters play has the
    other brigades named (a case naming a later identity states its brigade). Any other field naming "Multi"
    (a card of another type, "Multi/Brown", "Multi (Multi)") is kept as `brigade_unread`: a case naming the
    card states its brigade."""
    name, ctype, brigade, klass, identifier, text, reference = row
    card_type = TYPES.get(ctype)
    unread = ""
    if "Multi" in brigade and not (identities_of(name) and brigade != "Multi"):
        if brigade == "Multi" and card_type in _ALIGNED:
            brigades = tuple(sorted(_ALIGNED[card_type]))
        else:
            brigades, unread = (), brigade
    else:
        found: list[str] = []
        rest = brigade
        for word in sorted((b.replace("_", " ") for b in VALUE_SETS["brigade"]), key=len, reverse=True):
            if word in rest:
                found.append(word.replace(" ", "_"))
                rest = rest.replace(word, "")
        brigades = tuple(sorted(found))
    return RealCard(name, card_type, brigades, "Territory" in klass, identifier, text, brigade_unread=unread,
                    classes=klass, reference=reference)


_SET_SUFFIX = re.compile(r"^(?P<base>.*?)(?P<suffix> \([^()]*\))?$")


def identities_of(name: str) -> tuple[str, ...]:
    """The identities of a card printed with two (or more) names, "Saul/Paul" or "A / B (set)"; else ()."""
    m = _SET_SUFFIX.match(name)
    base = m.group("base") if m else name
    if "/" not in base:
        return ()
    return tuple(part.strip() for part in base.split("/") if part.strip())


@lru_cache(maxsize=1)
def _by_identity() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each identity (alone, and followed by the card's set) with the cards and identities it names."""
    index: dict[str, list[tuple[str, str]]] = {}
    for name in _names():
        m = _SET_SUFFIX.match(name)
        suffix = (m.group("suffix") or "") if m else ""
        for identity in identities_of(name):
            for key in dict.fromkeys((identity, identity + suffix, f"{identity} ({name})")):
                index.setdefault(key, []).append((name, identity))
    return {k: tuple(v) for k, v in index.items()}


def find_card(name: str) -> RealCard | list[str]:
    """The card called `name` (exactly, or the single printing `name (set)`), or close names.

    A card printed with two identities ("Saul/Paul") is also found by either of them ("Paul"), or,
    where that name is also another card's, by the identity followed by the card in parentheses
    ("Paul (Saul/Paul)").
    """
    row = _row(name) if name and "\t" not in name and "\n" not in name else None
    if row is not None:
        return _card(row)
    names = _names()
    printings = [n for n in names if n.startswith(name + " (")]
    holders = _by_identity().get(name, ()) if name else ()
    if len(printings) + len(holders) == 1:
        if printings:
            return _card(_row(printings[0]))  # type: ignore[arg-type]
        full, identity = holders[0]
        return _card(_row(full))._replace(identity=identity)  # type: ignore[arg-type]
    if printings or holders:
        index = _by_identity()

        def shortest(full: str, identity: str) -> str:
            m = _SET_SUFFIX.match(full)
            with_set = identity + ((m.group("suffix") or "") if m else "")
            return with_set if with_set != name and len(index.get(with_set, ())) == 1 else f"{identity} ({full})"

        return sorted(printings) + sorted(shortest(full, identity) for full, identity in holders)
    import difflib

    return difflib.get_close_matches(name, names, n=3, cutoff=0.6)



def is_named(card_name: str, name: str) -> bool:
    """Whether the card list's `card_name` is a printing of a card called `name` (case aside): the name
    itself, or it followed by its printing in parentheses, brackets or quotes ("Son of God (A)", "Son of God
    [K]", 'Son of God "Manger" (Promo)')."""
    return re.fullmatch(re.escape(name) + r'(?:\s*[(\["].*)?', card_name, re.IGNORECASE) is not None


def printings_named(name: str) -> list[str]:
    """The cards of the card list that are printings of a card called `name` (`is_named`), in the list's order."""
    return [n for n in _names() if is_named(n, name)]


def all_cards() -> list[RealCard]:
    """Every printed card of the bundled list, in the list's order."""
    return [c for c in (find_card(n) for n in _names()) if isinstance(c, RealCard)]


def text_hash(text: str) -> str:
    """The fingerprint of a card's printed text an override is keyed by (16 hex digits of its SHA-256)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


STATUSES = ("modelled", "override", "unsupported", "not-read")


class Override(NamedTuple):
    """A reviewed reading of one card: fields set by hand and unsupported parts judged not to matter, with why."""

    card: str
    text_hash: str
    note: str
    block: int
    fields: tuple[tuple[str, object], ...]
    accepted: tuple[tuple[str, str, str], ...]
    loc: Location
    # card types whose presence in a case makes an accepted part matter again (the case is then refused)
    unless_types: tuple[str, ...] = ()

    def refused_with(self) -> tuple[str, ...]:
        """Cards whose presence in a case makes an accepted part matter again (the case is then refused)."""
        return tuple(sorted({unless for _, _, unless in self.accepted if unless}))


class CardReading(NamedTuple):
    """What regcheck reads from a card: its abilities, its status and what it does not model."""

    name: str
    text: str
    status: str
    abilities: tuple[AbilityReading, ...]
    note: str

    @property
    def unsupported(self) -> tuple[str, ...]:
        """Each unsupported part of a usable ability, as 'ability N: words (reason)'."""
        return tuple(f"ability {a.number}{' (' + a.label + ')' if a.label else ''}: {_shown(p)} ({p.reason})"
                     for a in self.abilities if a.kind is not None for p in a.unsupported)


def _shown(p: Part) -> str:
    words = p.text if len(p.text) <= 90 else p.text[:87] + "..."
    return f"'{words}'"


_OVERRIDE_FIELDS = {
    "kind": str, "duration_kind": str, "duration_turns": int, "paired": bool, "on_return": bool,
    "grants_ability": bool, "cannot_be_negated": bool, "target_zone": str, "also_in_play": bool,
    "targets_opponents_cards": bool, "targets_own_cards": bool, "targets_all_in_location": bool,
    "min_targets": int, "max_targets": int, "target_types": tuple, "parts": tuple, "on_return_changes": tuple,
    "alternatives": tuple, "heals_only": tuple,
}
# the values a listed field may hold
_OVERRIDE_MEMBERS = {"target_types": "card_type", "parts": "part", "heals_only": "condition"}
# one change an on-return effect may make (see AbilityReading.on_return_changes)
_CHANGE = re.compile(r"this_card|blocking|(?:anywhere|in_play|hand|draw_pile|discard_pile):(?:any|(?:%s)(?:/(?:%s))*)"
                     % (("|".join(VALUE_SETS["card_type"]),) * 2))
OVERRIDES_FILE = Path(__file__).resolve().parent.parent / "data" / "card-overrides.yaml"


@lru_cache(maxsize=1)
def overrides() -> dict[str, Override]:
    """The reviewed overrides of the bundled data file, by card name."""
    return _read_overrides(OVERRIDES_FILE)


def _read_overrides(path: Path) -> dict[str, Override]:
    root, _ = load_yaml(path, CaseError, "verifier/data/card-overrides.yaml")
    if not isinstance(root, YMap):
        root.fail("the overrides file must be a mapping with 'overrides'")
    root.check_keys(("overrides",), "the overrides file")
    items = root.require("overrides", "the overrides file")
    if not isinstance(items, YSeq):
        items.fail("overrides must be a list")
    out: dict[str, Override] = {}
    for item in items:
        if not isinstance(item, YMap):
            item.fail("each override must be a mapping")
        item.check_keys(("card", "text_sha256", "note", "block", "set", "accept"), "an override")
        name = _string(item.require("card", "an override"), "card")
        if name in out:
            item.fail(f"a second override of {name}")
        note = _string(item.require("note", "an override"), "note").strip()
        if not note:
            item.fail("an override needs a note saying why")
        block_node = item.get("block")
        block = block_node.integer("block", 1, 20) if isinstance(block_node, YScalar) else 1
        fields: list[tuple[str, object]] = []
        set_node = item.get("set")
        if set_node is not None:
            if not isinstance(set_node, YMap):
                set_node.fail("'set' maps reading fields to values")
            set_node.check_keys(_OVERRIDE_FIELDS, "'set'")
            for key_node, node in set_node.entries:
                key = str(key_node.value)
                want = _OVERRIDE_FIELDS[key]
                if key == "on_return_changes":
                    if not isinstance(node, YSeq) or not all(
                            isinstance(i, YScalar) and isinstance(i.value, str) and _CHANGE.fullmatch(i.value)
                            for i in node):
                        node.fail("'on_return_changes' must be a list of 'this_card', 'blocking' or 'ZONE:TYPES' "
                                  "(ZONE: anywhere, in_play, hand, draw_pile or discard_pile; TYPES: any, or card "
                                  "types joined by '/')")
                    fields.append((key, tuple(str(i.value) for i in node)))  # type: ignore[attr-defined]
                    continue
                if key == "alternatives":
                    if not isinstance(node, YSeq) or not all(
                            isinstance(i, YScalar) and isinstance(i.value, str) and i.value.strip() for i in node):
                        node.fail("'alternatives' must be a list of the effects the text offers instead, in its words")
                    fields.append((key, tuple(str(i.value) for i in node)))  # type: ignore[attr-defined]
                    continue
                if want is tuple:
                    members = VALUE_SETS[_OVERRIDE_MEMBERS[key]]
                    if not isinstance(node, YSeq) or not all(
                            isinstance(i, YScalar) and i.value in members for i in node):
                        node.fail(f"'{key}' must be a list of: {', '.join(members)}")
                    fields.append((key, tuple(str(i.value) for i in node)))  # type: ignore[attr-defined]
                    continue
                if not isinstance(node, YScalar) or type(node.value) is not want:
                    node.fail(f"'{key}' must be a {want.__name__}")
                fields.append((key, node.value))
        accepted: list[tuple[str, str, str]] = []
        unless_types: list[str] = []
        accept_node = item.get("accept")
        if accept_node is not None:
            if not isinstance(accept_node, YSeq):
                accept_node.fail("'accept' lists the parts judged not to matter, each with 'part' and 'why'")
            for a in accept_node:
                if not isinstance(a, YMap):
                    a.fail("each accepted part is a mapping with 'part' and 'why'")
                a.check_keys(("part", "why", "unless_card", "unless_type"), "an accepted part")
                unless = a.get("unless_card")
                type_node = a.get("unless_type")
                if type_node is not None:
                    unless_types.append(_member_of(type_node, "card_type", "unless_type"))
                accepted.append((_string(a.require("part", "an accepted part"), "part"),
                                 _string(a.require("why", "an accepted part"), "why"),
                                 _string(unless, "unless_card") if unless is not None else ""))
        hash_node = item.require("text_sha256", "an override")
        if not isinstance(hash_node, YScalar) or not re.fullmatch(r"[0-9a-f]{16}", hash_node.raw):
            hash_node.fail("text_sha256 must be the 16 hex digits 'regcheck cards NAME' shows")
        out[name] = Override(name, hash_node.raw, note, block,
                             tuple(fields), tuple(accepted), item.loc, tuple(dict.fromkeys(unless_types)))
    return out


def _member_of(node: object, value_set: str, what: str) -> str:
    value = _string(node, what)
    if value not in VALUE_SETS[value_set]:
        raise CaseError(f"'{what}' must be one of: {', '.join(VALUE_SETS[value_set])}", getattr(node, "loc", None))
    return value


def _string(node: object, what: str) -> str:
    if not isinstance(node, YScalar) or not isinstance(node.value, str):
        raise CaseError(f"'{what}' must be text", getattr(node, "loc", None))
    return node.value


def override_problems() -> list[str]:
    """What is wrong with the overrides: an unknown card, a text changed since review, a part no longer read."""
    problems = []
    for name, o in sorted(overrides().items()):
        found = find_card(name)
        if not isinstance(found, RealCard):
            problems.append(f"{o.loc}: override of unknown card {name}")
            continue
        if text_hash(found.text) != o.text_hash:
            problems.append(f"{o.loc}: the text of {name} changed since its override was reviewed "
                            f"(now {text_hash(found.text)}): review the override again")
            continue
        blocks = cached_read_text(found.text).abilities  # a few cards: their readings are kept in the cache
        if not 1 <= o.block <= len(blocks):
            problems.append(f"{o.loc}: {name} has no ability {o.block}")
            continue
        texts = {p.text for p in blocks[o.block - 1].pieces if not p.supported or _aside(p)}
        for part, _, unless in o.accepted:
            if part not in texts:
                problems.append(f"{o.loc}: {name} ability {o.block} has no unsupported part, nor one kept aside, "
                                f"'{part}'")
            if unless and not isinstance(find_card(unless), RealCard):
                problems.append(f"{o.loc}: unless_card names unknown card {unless}")
    return problems


def _aside(part: Part) -> bool:
    """A "cannot be ..." given to other cards that the reader kept aside (the case loader refuses a case with it and
    a negate, unless a reviewed override accepts it)."""
    return "grant_aside" in dict(part.mapped)


def _apply(reading: AbilityReading, o: Override) -> AbilityReading:
    why = {part: reason for part, reason, _ in o.accepted}
    accepted = {p.text for p in reading.pieces if p.text in why and (not p.supported or _aside(p))}
    pieces = tuple(Part(p.kind, p.text, (("override", why[p.text]),), "") if p.text in accepted else p
                   for p in reading.pieces)
    aside = "; ".join(g for g in reading.grant_aside.split("; ") if g and g not in accepted)
    changed = reading._replace(pieces=pieces, grant_aside=aside, **dict(o.fields))  # type: ignore[arg-type]
    return changed


def _grammar_reading(text: str) -> TextReadingResult:
    """The grammar's reading of a text; the parser is loaded on first use."""
    from .cardtext import read_text

    return read_text(text)


@lru_cache(maxsize=512)
def read_card(card: RealCard, cached: bool = False) -> CardReading:
    """The reading of a card's text: by the grammar, or by its reviewed override when one applies.
    With `cached`, the grammar's reading comes from the cache of readings when it holds one (a case
    names a few cards; the whole card list is read without filling the cache)."""
    abilities = (cached_read_text(card.text) if cached else _grammar_reading(card.text)).abilities
    if card.type in STAYING_TYPES:
        abilities = tuple(_ongoing_grant(_ongoing_negate(a)) for a in abilities)
    if card.type not in ("Hero", "Evil_Character"):
        abilities = tuple(_band_off_a_character(a, card.type) for a in abilities)
    # an Enhancement's blocks, and a dual card's GE and EE blocks
    abilities = tuple(_reaching_its_user(a, a.label if a.label in _USER else card.type) for a in abilities)
    abilities = tuple(_off_a_character(a, a.label if a.label in _USER else card.type) for a in abilities)
    o = overrides().get(card.name)
    if o is not None and o.text_hash == text_hash(card.text) and 1 <= o.block <= len(abilities):
        abilities = tuple(_apply(a, o) if a.number == o.block else a for a in abilities)
        still = [p for p in abilities[o.block - 1].unsupported]
        return CardReading(card.name, card.text, "unsupported" if still else "override", abilities, o.note)
    if o is not None:
        stale = Part("override", card.name, (), "its reviewed override no longer matches the printed text")
        first = abilities[0]._replace(pieces=abilities[0].pieces + (stale,)) if abilities else None
        abilities = ((first,) + abilities[1:]) if first is not None else ()
    return CardReading(card.name, card.text, _status(abilities), abilities, "")


# Card types whose special abilities act while the card is in play (a Lost Soul in a Land of Bondage, an
# Artifact, a Fortress, a Site ...), rather than once when a character or an enhancement is used.
STAYING_TYPES = frozenset({"Lost_Soul", "Artifact", "Fortress", "Site", "City", "Covenant", "Curse"})
# The labels of a block of such a card that acts while it is in play (none, or the card's own type's).
_STAYING_LABELS = ("", "A", "ART", "F", "S", "LS")
ONGOING_NEGATE = ("a negate on a card that stays in play acts while the card is in play; regcheck reads a negate "
                  "only as used once")


def _ongoing_negate(a: AbilityReading) -> AbilityReading:
    """A negate read from the text of a card that stays in play, with a part saying it is not modelled (unless
    it is an ongoing negation of ability kinds, which is read as such)."""
    if a.kind != "negate_effect" or a.negates_kinds or a.label not in _STAYING_LABELS:
        return a
    return a._replace(pieces=a.pieces + (Part("negate", a.text, (), ONGOING_NEGATE),))


ONGOING_GRANT = ("a 'cannot be negated' given to other cards by a card that stays in play acts while the card is in "
                 "play; regcheck reads it only as used once (CBN-5)")


def _ongoing_grant(a: AbilityReading) -> AbilityReading:
    """A "cannot be negated" given to other cards, read from the text of a card that stays in play, with a part saying
    it is not modelled."""
    if not a.grants_unnegatable or a.label not in _STAYING_LABELS:
        return a
    return a._replace(pieces=a.pieces + (Part("grant", a.text, (), ONGOING_GRANT),))


BAND_OFF_A_CHARACTER = ("a band on a card that is not a character is not modelled, but for an Enhancement's that "
                        "names its user ('Hero may band to ...'): regcheck adds characters to battle by the abilities "
                        "of a character entering it, or of an Enhancement played in battle (AAO-9)")


# The character that uses an Enhancement of each type, and its alignment (CORE-18).
_USER = {"GE": ("Hero", "good"), "EE": ("Evil_Character", "evil")}


def _reaching_its_user(a: AbilityReading, card_type: str | None) -> AbilityReading:
    """An Enhancement's ability (of a card of that type, or of a block labelled GE or EE) with a move not carried out
    (a second effect, a price: `use_changes` "fits:...") that could reach the character using it, wherever that is:
    the case loader would refuse every use, so the part is not modelled."""
    if card_type not in _USER:
        return a
    user, alignment = _USER[card_type]
    for change in a.use_changes:
        reach = reach_of(change)
        if reach is not None and not reach.in_hand and (not reach.types or user in reach.types) and (
                reach.alignment is None or alignment in reach.alignment.split("/")):
            words = next((p.text for p in a.pieces if any(f == "use_changes" for f, _ in p.mapped)), a.text)
            return a._replace(pieces=a.pieces + (Part("move", words, (), (
                "a move not carried out that could reach the character using the Enhancement is not modelled "
                "(every use of the ability would be refused)")),))
    return a


STATE_OFF_A_CHARACTER = ("a state leading the effect of a card that is not a character or an Enhancement is not "
                         "modelled: TRIG-3 and TRIG-3-R1 say when a character's or an Enhancement's ability checks it")
ITSELF_OFF_A_CHARACTER = ("a move of its own card by a card that is not a character is not modelled (an Enhancement's "
                          "ability is used as the card is played, before it is where the move looks)")


def _off_a_character(a: AbilityReading, card_type: str | None) -> AbilityReading:
    """A state read as leading the effect (`AbilityReading.if_state`) of a card that is not a character or an
    Enhancement, and a move of its own card (`AbilityReading.targets_itself`) by a card that is not a character, each
    with a part saying it is not modelled."""
    characters = ("Hero", "Evil_Character")
    if a.if_state != "no_state" and card_type not in (*characters, *_USER):
        a = a._replace(pieces=a.pieces + (Part("condition", a.text, (), STATE_OFF_A_CHARACTER),))
    if a.targets_itself and card_type not in characters:
        a = a._replace(pieces=a.pieces + (Part("target", a.text, (), ITSELF_OFF_A_CHARACTER),))
    return a


def _band_off_a_character(a: AbilityReading, card_type: str | None) -> AbilityReading:
    """A band read from the text of a card that is not a character (a Fortress, an Artifact ...), with a part saying
    it is not modelled; an Enhancement's band that names its user ("Hero may band to ...") is read: the character
    the Enhancement is played on bands (BAND-4-R1), as the Enhancement's ability is used."""
    if a.effect_class == "plain_effect":
        return a
    if card_type in ("GE", "EE") and any(f == "band_user" for p in a.pieces for f, _ in p.mapped):
        return a
    return a._replace(pieces=a.pieces + (Part("band", a.text, (), BAND_OFF_A_CHARACTER),))


def _status(abilities: tuple[AbilityReading, ...]) -> str:
    """`unsupported` when an ability of the model has a part that is not modelled, or when there is one and a block
    regcheck does not read could act unchosen (`AbilityReading.acts_unread`: a case with the card where it acts
    is refused); else `modelled` when there is one; else `unsupported` when a block that says the words of a
    category of the coverage (`WORDS`) has a part that is not modelled; else `not-read`."""
    usable = [a for a in abilities if a.kind is not None]
    if any(a.unsupported for a in usable) or (usable and any(a.acts_unread for a in abilities)):
        return "unsupported"
    if usable:
        return "modelled"
    if any(a.unsupported and _mentions(a.text) for a in abilities):
        return "unsupported"
    return "not-read"


# -- coverage of the card list ------------------------------------------------------------------

# A text belongs to a category by its printed words alone, never by what the grammar read: one regular
# expression per category over the printed text (`WORDS`), stated in words by `DEFINITIONS`.
CATEGORIES = ("set-aside", "heal", "negate", "cannot-be-negated", "cannot-be-interrupted-or-prevented", "duration")
# The coverage line of every distinct special-ability text of the card list, whatever its words.
ALL_TEXTS = "all"
# The lines of the coverage: each category, then every text.
COVERAGE_LINES = (*CATEGORIES, ALL_TEXTS)

_NUMBER = r"(?:\d+|x|one|two|three|four|five|six|seven|eight|nine|ten)"
# "cannot be", also printed "can not", "can't" or "Can [not]"
_CANNOT_BE = r"\bcan(?:not|'t|\s+not|\s+\[not\])\s+be\s+"
# a list of words before the last one: "interrupted, negated, or ..."; "interrupted or ..."
_LIST_BEFORE = r"(?:[a-z]+,\s+)*(?:[a-z]+,?\s+or\s+)?"
WORDS = {
    "set-aside": re.compile(
        r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )(?<!\bbeing )(?<!\bwhile )"
        r"(?<!\bremains )(?<!\bremain )(?<!\bcurrently )(?<!\bor )(?<!\bin )(?<!\bfrom )"
        r"\bset(?:[ -]aside\b(?![ -](?:areas?|enhancements?|cards?|abilities)\b|[,.;)]|\s*$)"
        r"|\s+(?!aside\b)[^.;]{1,60}?\baside\b(?! areas?\b))", re.IGNORECASE),
    "heal": re.compile(r"(?<!\buntil )\bheal(?:s|ed)?\b(?!(?: and \w+)? abilities\b)", re.IGNORECASE),
    "negate": re.compile(r"\bnegates?\b", re.IGNORECASE),
    "cannot-be-negated": re.compile(_CANNOT_BE + _LIST_BEFORE + r"negated\b", re.IGNORECASE),
    "cannot-be-interrupted-or-prevented": re.compile(_CANNOT_BE + _LIST_BEFORE + r"(?:interrupted|prevented)\b",
                                                     re.IGNORECASE),
    "duration": re.compile(
        rf"\bfor\s+(?:up\s+to\s+|at\s+least\s+)?{_NUMBER}\s+turns?\b"
        r"|\b(?:remainder|rest)\s+of\s+(?:the\s+)?(?:game|turn|battle|phase)\b"
        r"|\buntil\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+|current\s+|(?:your\s+|their\s+|the\s+)?next\s+)?"
        r"(?:battle|turn|phase)\b", re.IGNORECASE),
}
DEFINITIONS = {
    "set-aside": "an effect that sets cards aside: 'set aside X', 'set X aside' (X within the sentence, at most 60 "
                 "characters) or 'set-aside X'; not a state ('is', 'are', 'was', 'were', 'be', 'been', 'being', "
                 "'while', 'remain(s)' or 'currently' set aside; 'in play or set aside'; 'in' or 'from' set-aside), "
                 "a place ('set-aside area', 'set aside' ending a phrase) nor a kind of card or ability ('set-aside "
                 "enhancement', 'set-aside cards', 'set-aside abilities')",
    "heal": "the verb heal: 'heal', 'heals' or 'healed'; not 'until healed' (a state a card waits for), 'heal "
            "abilities' or 'heal and ... abilities' (a kind of ability), nor 'healing'",
    "negate": "the verb negate: 'negate' or 'negates'; not 'negated' (as in 'cannot be negated')",
    "cannot-be-negated": "'cannot be negated' ('can not', 'can't', 'Can [not]'), alone or with other words in one "
                         "list ('cannot be interrupted, negated, or prevented'; 'cannot be negated or prevented')",
    "cannot-be-interrupted-or-prevented": "'cannot be interrupted' or 'cannot be prevented' ('can not', 'can't', "
                                          "'Can [not]'), alone or with other words in one list ('cannot be "
                                          "interrupted, negated, or prevented'); a text may also be in "
                                          "cannot-be-negated",
    "duration": "a duration: 'for N turns' (N a number, in figures or words up to ten, or X; also 'for up to N "
                "turns', 'for at least N turns'), 'remainder' or 'rest of the game, turn, battle or phase', 'until "
                "the end of the battle, turn or phase' (also 'until end of ...', '... of this, the current, the "
                "next, your next or their next ...'); not 'until' a card is played or discarded, nor 'this turn'",
    ALL_TEXTS: "every distinct special-ability text of the card list, whatever its words",
}


def _mentions(text: str) -> bool:
    return any(words.search(text) for words in WORDS.values())


def categories_of(reading: CardReading) -> dict[str, str]:
    """For each category whose words (`WORDS`) the card's printed text says, the status of the ability blocks
    that say them (the blocks of the text whose words say it; all blocks when none alone does).

    The status is the reading's: `override` when the reviewed override's block is among them and the override
    applies; else `unsupported` when one of them has a part that is not modelled, when a block of the card could
    act unread (`AbilityReading.acts_unread`), or when the category's words are those of an effect the text
    offers instead of the one read ("Heal ... or negate ..."); else `modelled` when one of them is an ability of
    the model; else `not-read`.
    """
    out: dict[str, str] = {}
    for category in CATEGORIES:
        if not WORDS[category].search(reading.text):
            continue
        relevant, offered = _relevant(reading, category)
        if not relevant:
            out[category] = "not-read"
        elif reading.status == "override" and any(a.number == overrides()[reading.name].block for a in relevant):
            out[category] = "override"
        elif offered or any(a.unsupported for a in relevant) or any(a.acts_unread for a in reading.abilities):
            out[category] = "unsupported"
        elif any(a.kind is not None for a in relevant):
            out[category] = "modelled"
        else:
            out[category] = "not-read"
    return out


def _relevant(reading: CardReading, category: str) -> tuple[list[AbilityReading], bool]:
    """The ability blocks that say a category's words (every block for `ALL_TEXTS`, and when no block alone
    says them), and whether its words are said by an effect a block offers instead of the one read (which is
    not modelled)."""
    if category == ALL_TEXTS:
        return list(reading.abilities), False
    words = WORDS[category]
    relevant = [a for a in reading.abilities if words.search(a.text)] or list(reading.abilities)
    offered = any(words.search(alt) for a in relevant for alt in a.alternatives)
    return relevant, offered


OFFERED_INSTEAD = "its effect of this category is one the text offers instead of the effect read: not modelled"
# Reasons that quote the card's own words, each with the form it is counted under in a blockers list (the words
# left out), so that one reason blocking many texts is counted once; every other reason is counted as it is.
_QUOTING = (
    (re.compile(r"what the (\w+) applies to \('.*'\) is not checked by the model"),
     r"what the \1 applies to ('...') is not checked by the model"),
    (re.compile(r"the word '.*' in the description '.*' is not one the model can check"),
     "a word of the description '...' is not one the model can check"),
    (re.compile(r"(an ongoing effect while set aside that changes what the model tracks) \('.*'\) is not modelled"),
     r"\1 ('...') is not modelled"),
    (re.compile(r"(a list of kinds that differ in their alignment, brigade or trait words) \('.*'\)( is not modelled.*)"),
     r"\1 ('...')\2"),
    (re.compile(r"(a place after a list of kinds) \('.*'\)(: whether it applies to every kind or to the last is not read)"),
     r"\1 ('...')\2"),
    (re.compile(r"(an exception to the kinds the negate names) \('.*'\) is not modelled"), r"\1 ('...') is not modelled"),
)


def blocker_reason(reason: str) -> str:
    """The form a reason is counted under in a blockers list: the reason, with the card's words it quotes left out."""
    for pattern, form in _QUOTING:
        if pattern.fullmatch(reason):
            return pattern.sub(form, reason)
    return reason


def statuses_of(reading: CardReading) -> dict[str, str]:
    """The status of a text on each line of the coverage it is counted on: each category its words say
    (`categories_of`), and `ALL_TEXTS` with the reading's own status."""
    return {**categories_of(reading), ALL_TEXTS: reading.status}


def blockers_of(reading: CardReading) -> dict[str, tuple[str, ...]]:
    """For each line of the coverage on which the text is unsupported (`statuses_of`), what blocks it: the
    reasons of the unsupported parts of the ability blocks that say the category's words (of every block, for
    `ALL_TEXTS`) and of the blocks that could act unread (a reason joining several mechanics counted as each of
    them, see `cardmechanics.reasons_in`; each reason once, in the order read), or `OFFERED_INSTEAD`."""
    from .cardmechanics import reasons_in  # its table is compiled only when blockers are asked for

    out: dict[str, tuple[str, ...]] = {}
    for category, status in statuses_of(reading).items():
        if status != "unsupported":
            continue
        relevant, offered = _relevant(reading, category)
        relevant += [a for a in reading.abilities if a.acts_unread and a not in relevant]
        found = [blocker_reason(r) for a in relevant for p in a.unsupported for r in reasons_in(p.reason)]
        if offered and not found:
            found.append(OFFERED_INSTEAD)
        out[category] = tuple(dict.fromkeys(found))
    return out


def printings() -> list[RealCard]:
    """Every line of the bundled card list as a card, in the list's order, a second printing under a name
    already listed included (a case names a card by its first printing: see `find_card`)."""
    rows = (line.split("\t") for line in _text().split("\n")[1:])
    return [_card(row) for row in rows if len(row) == 7 and row[0] and not row[0].startswith("#")]


def texts_of_card_list() -> list[RealCard]:
    """The first printing of each distinct special-ability text of the bundled card list (`printings`), in the
    list's order: what the coverage counts."""
    seen: set[str] = set()
    out = []
    for card in printings():
        if card.text.strip() and card.text not in seen:
            seen.add(card.text)
            out.append(card)
    return out


def survey(jobs: int | None = None) -> list[SurveyRow]:
    """Every distinct printed text of the card list (`texts_of_card_list`, in its order) as read: kept in
    regcheck's cache folder (see `cardcache`); read afresh, by up to `jobs` processes at once (every processor
    by default)."""
    return cached_survey(lambda: _read_every_text(jobs))


def coverage(jobs: int | None = None) -> dict[str, dict[str, int]]:
    """For each line of the coverage (`COVERAGE_LINES`), how many distinct printed texts are modelled, override,
    unsupported or not read (`survey`)."""
    return count_coverage(survey(jobs))


def count_coverage(rows: Iterable[SurveyRow]) -> dict[str, dict[str, int]]:
    """`coverage` counted from the rows of a survey."""
    counts = {c: dict.fromkeys(STATUSES, 0) for c in COVERAGE_LINES}
    for _, statuses, _ in rows:
        for category, status in statuses.items():
            counts[category][status] += 1
    return counts


# How many card names a blockers list shows for each reason.
SHOWN_CARDS = 3


def blockers(jobs: int | None = None) -> dict[str, list[dict[str, object]]]:
    """For each line of the coverage, what blocks its unsupported texts (`survey`): each reason (`blockers_of`)
    with how many distinct printed texts it blocks and the names of the first `SHOWN_CARDS` cards with such a text
    (in the card list's order), most texts first (then by reason); a text blocked by several reasons counts under
    each."""
    return count_blockers(survey(jobs))


def count_blockers(rows: Iterable[SurveyRow]) -> dict[str, list[dict[str, object]]]:
    """`blockers` counted from the rows of a survey."""
    blocked: dict[str, dict[str, list[str]]] = {c: {} for c in COVERAGE_LINES}
    for name, _, reasons_of in rows:
        for category, reasons in reasons_of.items():
            for reason in reasons:
                blocked[category].setdefault(reason, []).append(name)
    return {c: [{"reason": reason, "texts": len(names), "cards": names[:SHOWN_CARDS]}
                for reason, names in sorted(blocked[c].items(), key=lambda item: (-len(item[1]), item[0]))]
            for c in COVERAGE_LINES}


_SURVEY_PROGRESS: list[Callable[[int, int], None]] = []


@contextmanager
def survey_progress(told: Callable[[int, int], None]) -> Iterator[None]:
    """Within it, reading every text of the card list (for the survey, when its cache does not hold it) tells
    `told` how many texts were read, of how many."""
    _SURVEY_PROGRESS.append(told)
    try:
        yield
    finally:
        _SURVEY_PROGRESS.remove(told)


@lru_cache(maxsize=1)
def _read_every_text(jobs: int | None) -> list[SurveyRow]:
    """Every distinct text of the card list read, by up to `jobs` processes; once per process, for when the cache
    is off."""
    texts = texts_of_card_list()
    rows = []
    for done, row in enumerate(run_in_processes(_surveyed, texts, jobs), 1):
        for told in _SURVEY_PROGRESS:
            told(done, len(texts))
        rows.append(row)
    return rows


def _surveyed(card: RealCard) -> SurveyRow:
    reading = read_card(card)
    return card.name, statuses_of(reading), {c: list(reasons) for c, reasons in blockers_of(reading).items()}
