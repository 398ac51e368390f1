"""Scope files: a family of scenarios, read and validated like a case.

A scope is a case file without `expect`, whose `timeline` holds the attempts that always happen,
plus the attempts that *may* happen and where:

    attempts:        # each a timeline entry without turn and phase (or with them, to pin it there)
      - {id: play_provisions, play: provisions, on: elijah, targets: [elijah]}
      - {id: negate_it, negate: play_provisions, by: plague}
    phases: [Preparation, Battle]   # the phases attempts may be made in (default: all five)
    per_phase: 1                    # at most this many attempts of `attempts` in one phase
    max_attempts: 3                 # at most this many in one scenario (default: every one)
    templates: [zone, legal]        # outcome symbols asked about (default: every outcome symbol)

`turns` is required. The `questions` a scope writes are asked besides the templated ones, each in
every scenario in which the attempts it names happen. Every scenario of the scope is an ordinary
case (see `scenarios`), so whatever a case may not say, a scope may not either.
"""

from __future__ import annotations

__all__ = ["Candidate", "Scope", "ScopeText", "load_scope", "SCOPE_KEYS", "PHASES", "OUTCOME_SYMBOLS"]

from pathlib import Path

from ..errors import CaseError
from ..language.encoding import RuleBase
from ..scenario.loader import ACTIONS, CASE_KEYS, read_questions, scenario_from_tree
from ..yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean, load_yaml, load_yaml_text
from .model import OUTCOME_SYMBOLS, PHASES, SCOPE_KEYS, Candidate, Scope, ScopeText
from .scenarios import Plan, scenario_tree, slots

MAX_CANDIDATES = 40
# timeline entries that refer to an earlier attempt (the one negated, the set-aside whose return is chosen)
REFERENCES = ("negate", "choose_return")


def _scalar(node: YNode, what: str) -> YScalar:
    if not isinstance(node, YScalar):
        node.fail(f"{what} must be a single value, got {node.kind}")
    return node


def _names(node: YNode, what: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    items = list(node) if isinstance(node, YSeq) else node.fail(f"{what} must be a list")
    out = []
    for item in items:
        value = _scalar(item, what).value
        if value not in allowed:
            item.fail(f"'{value}' is not one of the {what}{did_you_mean(str(value), allowed)}")
        if value in out:
            item.fail(f"'{value}' is listed twice")
        out.append(str(value))
    return tuple(out)


def load_scope(path: Path | ScopeText, rules: RuleBase, display: str | None = None) -> Scope:
    """Read and validate a scope file (or a scope's text); every error names the file and line (exit 2 in the CLI)."""
    if isinstance(path, ScopeText):
        shown = display or path.name
        root, text = load_yaml_text(path.text, CaseError, shown)
    else:
        shown = display or str(path)
        root, text = load_yaml(path, CaseError, shown)
    if not isinstance(root, YMap):
        root.fail("a scope must be a mapping with players, cards, turns and attempts")
    allowed = tuple(k for k in CASE_KEYS if k != "expect") + SCOPE_KEYS
    root.check_keys(allowed, "a scope")
    for key in ("players", "cards"):  # before the case reader, which would speak of a case
        root.require(key, "the scope")
    turns_node = root.require("turns", "the scope")
    turns = _scalar(turns_node, "turns").integer("turns", 1, 12)
    phases_node = root.get("phases")
    phases = _names(phases_node, "phases", PHASES) if phases_node is not None else PHASES
    if not phases:
        root.require("phases", "the scope").fail("phases must name at least one phase")
    per_phase = (_scalar(root.get("per_phase"), "per_phase").integer("per_phase", 1, 8)  # type: ignore[arg-type]
                 if root.get("per_phase") is not None else 1)
    templates = (_names(root.get("templates"), "outcome symbols", OUTCOME_SYMBOLS)  # type: ignore[arg-type]
                 if root.get("templates") is not None else OUTCOME_SYMBOLS)
    base_root = YMap(root.loc, root.error, tuple((k, v) for k, v in root.entries
                                                 if k.value not in SCOPE_KEYS and k.value != "questions"))
    base = scenario_from_tree(base_root, text, shown, rules, questions_required=False)
    fixed = tuple(a.id for a in base.attempts)
    fixed_at = {a.id: (base.steps[a.step].turn, base.steps[a.step].phase) for a in base.attempts}
    candidates = _candidates(root.get("attempts"), fixed_at, turns, phases)
    limit_node = root.get("max_attempts")
    max_attempts = min(_scalar(limit_node, "max_attempts").integer("max_attempts", 0, MAX_CANDIDATES)
                       if limit_node is not None else len(candidates), len(candidates))
    title_node = root.get("title")
    title = _scalar(title_node, "title").text("title").strip() if title_node is not None else Path(shown).stem
    constants = {p: "player" for p in base.players}
    constants.update({c.name: "card" for c in base.cards})
    constants.update({a.id: "ability" for a in base.abilities})
    constants.update({m.id: "modifier" for m in base.modifiers})
    constants.update({a: "attempt" for a in (*fixed, *(c.id for c in candidates))})
    questions = (tuple(read_questions(root, text, shown, rules, constants, SCOPE_KEYS))
                 if root.get("questions") is not None else ())
    scope = Scope(shown, title, root, text, turns, candidates, fixed, phases, per_phase, max_attempts,
                  templates, questions, base)
    _check_each_candidate(scope, rules)
    return scope


def _candidates(node: YNode | None, fixed: dict[str, tuple[int, str]], turns: int,
                phases: tuple[str, ...]) -> tuple[Candidate, ...]:
    if node is None:
        return ()
    if not isinstance(node, YSeq):
        node.fail("attempts must be a list of timeline entries (without turn and phase)")
    if len(node.items) > MAX_CANDIDATES:
        node.fail(f"at most {MAX_CANDIDATES} attempts")
    out: list[Candidate] = []
    ids = set(fixed)
    for index, item in enumerate(node):
        if not isinstance(item, YMap):
            item.fail("each attempt must be a mapping, written like a timeline entry")
        actions = [k for k in ACTIONS if item.get(k) is not None]
        if len(actions) != 1:
            item.fail("an attempt needs exactly one of: " + ", ".join(ACTIONS))
        id_node = item.get("id")
        aid = str(_scalar(id_node, "attempt id").value) if id_node is not None else f"{actions[0]}_{index + 1}"
        if aid in ids:
            (id_node or item).fail(f"attempt id '{aid}' is used twice in the scope")
        ids.add(aid)
        turn_node, phase_node = item.get("turn"), item.get("phase")
        turn = _scalar(turn_node, "turn").integer("turn", 1, turns) if turn_node is not None else None
        phase = None
        if phase_node is not None:
            phase = str(_scalar(phase_node, "phase").value)
            if phase not in phases:
                phase_node.fail(f"phase '{phase}' is not among the scope's phases ({', '.join(phases)})")
        ref_node = item.get(actions[0]) if actions[0] in REFERENCES else None
        after = str(_scalar(ref_node, actions[0]).value) if ref_node is not None else None
        if ref_node is not None and after not in ids - {aid}:
            ref_node.fail(f"'{after}' is not an attempt written before this one in the scope"
                          f"{did_you_mean(str(after), ids)}")
        not_before = fixed.get(after) if after is not None else None
        if after in fixed:
            after = None  # always there: the attempt only has to stand no earlier than its phase
        out.append(Candidate(aid, item, turn, phase, after, not_before))
    return tuple(out)


def _check_each_candidate(scope: Scope, rules: RuleBase) -> None:
    """Load each attempt once, at its first possible place (after the attempt it refers to), so that
    an error in one is reported at its line before any search begins."""
    places = slots(scope)
    by_id = {c.id: i for i, c in enumerate(scope.candidates)}
    for index, c in enumerate(scope.candidates):
        chain = [index]
        while scope.candidates[chain[-1]].after is not None:
            chain.append(by_id[scope.candidates[chain[-1]].after])  # type: ignore[index]
        placements = []
        slot = 0
        for i in reversed(chain):
            cand = scope.candidates[i]
            while slot < len(places) and not cand.fits(places[slot]):
                slot += 1
            if slot == len(places):
                cand.node.fail(f"attempt '{cand.id}' has no place in the scope's turns and phases"
                               + (" after the attempt it refers to" if cand is not c else ""))
            placements.append((i, slot))
        plan = Plan(tuple(placements))
        scenario_from_tree(scenario_tree(scope, plan), scope.text, scope.path, rules, questions_required=False)

