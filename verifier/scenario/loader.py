"""Read a case file into a `Scenario`, validating every field and pinning every input.

What a case leaves unsaid takes a documented default (see `DEFAULTS`); every default that
is applied becomes a fact marked as such, so `regcheck check --show-defaults` can show it.
"""

from __future__ import annotations

__all__ = ["load_case", "scenario_from_tree", "read_questions", "DEFAULTS", "VERDICT_NAMES", "ACTIONS", "CASE_KEYS",
           "CARD_KEYS", "ABILITY_KEYS", "MODIFIER_KEYS", "ATTEMPT_KEYS", "APPLIES_TO", "ABILITY_KINDS", "HEAL_CONDITIONS",
           "DURATION_WORDS", "DURATION_TURNS", "AFFLICTIONS", "NEGATABLE_KINDS"]

from pathlib import Path

from ..errors import CaseError, Location
from ..language.encoding import RuleBase
from ..vocabulary import display_value
from ..yamlsource import YMap, YNode, YSeq, did_you_mean, load_yaml
from .descriptions import Description, read_description, state_cards
from .model import Ability, Attempt, Card, Modifier, Question, Scenario, fits_description
from .refusals import refuse_unanswerable, settle_user_guards
from .sections.fields import (
    ABILITY_KEYS,
    ABILITY_KINDS,
    ACTIONS,
    AFFLICTIONS,
    APPLIES_TO,
    ATTEMPT_KEYS,
    CARD_KEYS,
    CASE_KEYS,
    CONDITIONS,
    DEFAULTS,
    DURATION_TURNS,
    DURATION_WORDS,
    HEAL_CONDITIONS,
    MODIFIER_KEYS,
    NEGATABLE_KINDS,
    VERDICT_NAMES,
    _scalar,
    ordinal,
)
from .sections.questions import QuestionsSection


class _CaseReader(QuestionsSection):
    """Reads a case: its players, cards, timeline and questions (see `sections`)."""


def _guard_limits(abilities: list[Ability]) -> dict[str, Description]:
    """The description each ability's guards are limited to ("evil card"), by ability; the reader and the case
    format keep only descriptions of types, alignment and brigade."""
    out = {}
    for a in abilities:
        if a.guard_by:
            d = read_description(a.guard_by)
            assert not isinstance(d, str)
            out[a.id] = d
    return out


def _refuse_equipping_cycles(reader: _CaseReader, cards: list[Card]) -> None:
    """A Weapon equipped to itself, or Weapons equipped to each other in a ring, is not a game position."""
    equipped = {c.name: c.equipped_to for c in cards if c.equipped_to is not None}
    for c in cards:
        trail = [c.name]
        while trail[-1] in equipped:
            nxt = equipped[trail[-1]]
            assert nxt is not None
            if nxt in trail:
                if nxt != c.name:
                    break  # a ring further along: reported from one of its own cards
                body = reader.root.get("cards").get(c.name)  # type: ignore[union-attr]
                node = body.get("equipped_to") if isinstance(body, YMap) else None
                where = node.loc if node is not None else reader.locate(c.name)
                if len(trail) == 1:
                    raise CaseError(f"card '{c.name}' is equipped to itself", where)
                raise CaseError(f"cards are equipped to each other in a cycle: {' -> '.join(trail + [nxt])}", where)
            trail.append(nxt)


def _refuse_definition_names(reader: _CaseReader, rules: RuleBase, players: tuple[str, ...], cards: list[Card],
                             abilities: list[Ability], attempts: list[Attempt], modifiers: list[Modifier]) -> None:
    """A name of the case that is also a definition's: a question naming it would get one of the two silently."""
    players_node = reader.root.get("players")
    player_places = {p: n.loc for p, n in zip(players, players_node)} if isinstance(players_node, YSeq) else {}
    by_ability = {a.id: a for a in abilities}
    named: list[tuple[str, str, Location]] = [("player", p, player_places.get(p, reader.root.loc)) for p in players]
    named += [("card", c.name, reader.locate(c.name)) for c in cards]
    named += [("ability", a.id, reader.locate(a.card)) for a in abilities]
    named += [("attempt", a.id, a.loc) for a in attempts]
    named += [("modifier", m.id, reader.locate(by_ability[m.ability].card) if m.ability in by_ability
               else reader.root.loc) for m in modifiers]
    for kind, name, where in named:
        definition = rules.definitions.get(name)
        if definition is not None:
            raise CaseError(f"{kind} '{name}' has the same name as the definition '{name}' of the rules "
                            f"({Path(definition.loc.path).name}, line {definition.loc.line}); pick another", where)


def load_case(path: Path, rules: RuleBase, display: str | None = None, other_keys: tuple[str, ...] = ()) -> Scenario:
    """Read and validate one case file against the rule base's definitions.

    `other_keys` are further top-level keys the file may hold (a ruling file's), left to its
    own reader, except `claims`, read here against the scenario's questions.
    """
    root, text = load_yaml(path, CaseError, display or str(path))
    return scenario_from_tree(root, text, display or str(path), rules, other_keys)


def read_questions(root: YMap, text: str, display: str, rules: RuleBase, constants: dict[str, str],
                   other_keys: tuple[str, ...] = ()) -> list[Question]:
    """The questions of a case-like file (a scope's), checked against the given named things."""
    return _CaseReader(root, text, display, other_keys).questions(constants, rules)


def scenario_from_tree(root: YNode, text: str, display: str, rules: RuleBase, other_keys: tuple[str, ...] = (),
                       questions_required: bool = True) -> Scenario:
    """Validate a case already read as a YAML tree (`text` is the file it was read from).

    The tree may be put together from parts of other files (a scope's scenarios are): every
    error names the place of the node it is about.
    """
    reader = _CaseReader(root, text, display, other_keys, questions_required)
    root = reader.root
    title_node = root.get("title")
    title = _scalar(title_node).text("title").strip() if title_node else Path(reader.path).stem
    note_node = root.get("note")
    note = _scalar(note_node).text("note").strip() if note_node else ""
    players = reader.players()
    cards, abilities = reader.cards(players)
    card_names = {c.name for c in cards}
    for c in cards:
        if c.equipped_to is not None and c.equipped_to not in card_names:
            raise CaseError(f"card '{c.name}' is equipped to unknown card '{c.equipped_to}'"
                            f"{did_you_mean(c.equipped_to, card_names)}", reader.locate(c.name))
    _refuse_equipping_cycles(reader, cards)
    types = {c.name: c.type for c in cards}
    for a in abilities:
        if 0 <= a.max_targets < len(a.adds):
            raise CaseError(f"ability {a.id} names {len(a.adds)} characters to add to battle, and its text adds at "
                            f"most {a.max_targets} (CORE-15): 'adds' lists the ones it adds", reader.locate(a.card))
        for added in a.adds:
            if added not in card_names:
                raise CaseError(f"ability {a.id} adds unknown card '{added}'{did_you_mean(added, card_names)}",
                                reader.locate(a.card))
            if types[added] not in ("Hero", "Evil_Character"):
                raise CaseError(f"ability {a.id} adds '{added}' to battle, which is not a character (its type is "
                                f"{display_value(types[added])}): only a Hero or an Evil Character is added to battle",
                                reader.locate(a.card))
    limits = _guard_limits(abilities)
    for a in abilities:
        for c in cards:
            order = a.adds.index(c.name) + 1 if c.name in a.adds else 0
            reader.fact("adds", (a.id, c.name), order > 0,
                        f"{a.id} {'adds' if order else 'does not add'} {c.name} to the battle", reader.locate(a.card))
            reader.fact("add_order", (a.id, c.name), order,
                        f"{a.id} adds {c.name} {ordinal(order)}" if order else f"{a.id} does not add {c.name}",
                        reader.locate(a.card))
            triggered = c.type in a.entry_trigger
            reader.fact("triggered_by_entry", (a.id, c.name), triggered,
                        f"{a.id} {'is' if triggered else 'is not'} triggered by {c.name} entering battle",
                        reader.locate(a.card))
            d = limits.get(a.id)
            covered = d is None or fits_description(c, d.types, d.brigade, d.alignment, d.traits)
            reader.fact("guard_covers", (a.id, c.name), covered,
                        f"{c.name} {'fits' if covered else 'does not fit'} what {a.id}'s guards are limited to"
                        + (f" ({a.guard_by})" if a.guard_by else " (no limit)"), reader.locate(a.card))
            state_fits = a.state_fits(c)
            reader.fact("if_fits", (a.id, c.name), state_fits,
                        f"{c.name} {'fits' if state_fits else 'does not fit'} the cards {a.id}'s state names"
                        + (f" ({state_cards(a.if_description, a.if_another)})" if a.if_description else " (none)"),
                        reader.locate(a.card))
            fits = a.fits(c)
            reader.fact("fits_description", (a.id, c.name), fits,
                        f"{c.name} {'fits' if fits else 'does not fit'} what {a.id} names for its targets",
                        reader.locate(a.card))
    modifiers = reader.resolve_modifiers(abilities)
    steps, attempts = reader.timeline(players, cards, abilities)
    settled = settle_user_guards(cards, abilities, attempts)
    for a in settled:
        if a.guard_user and not a.guard_condition:
            reader.settled_guard_facts(a)
    abilities = settled
    modifiers += reader.granted_guards(cards, abilities, attempts)
    conditioned = frozenset(f.args[0] for f in reader.facts if f.symbol in CONDITIONS.values() and f.value)
    refuse_unanswerable(reader.unmodelled, cards, abilities, steps, attempts, conditioned)
    interp: list[str] = []
    inode = root.get("interpretations")
    if inode is not None:
        for rid, n in [(str(_scalar(i).value), i) for i in (inode if isinstance(inode, YSeq) else [inode])]:
            interpretations = [r.id for r in rules.rules if r.interpretation]
            if rid not in interpretations:
                n.fail(f"'{rid}' is not an interpretation rule{did_you_mean(rid, interpretations)}")
            interp.append(rid)
    constants: dict[str, str] = {p: "player" for p in players}
    constants.update({c.name: "card" for c in cards})
    constants.update({a.id: "ability" for a in abilities})
    constants.update({a.id: "attempt" for a in attempts})
    constants.update({m.id: "modifier" for m in modifiers})
    _refuse_definition_names(reader, rules, players, cards, abilities, attempts, modifiers)
    questions = reader.questions(constants, rules)
    expectations = reader.expectations(questions, steps, players, cards, attempts, abilities)
    claims = reader.claims(questions, steps, players, cards, attempts, abilities) if "claims" in other_keys else []
    return Scenario(reader.path, title, note, players, tuple(cards), tuple(abilities), tuple(steps),
                    tuple(attempts), tuple(reader.facts), tuple(questions), tuple(expectations),
                    tuple(interp), tuple(modifiers), tuple(claims))
