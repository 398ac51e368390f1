"""Equivalent mutants, proven: a mutant whose rules say the same as the rules it replaces, whatever happens.

A mutant that survives the case table may be one no case could ever kill: its edit changes nothing a rule
says (a guard dropped that a definition the rule calls repeats, say). This is proven, not assumed, over
the universe of each case in which the mutated rules are in force (its players, cards, abilities, attempts,
modifiers, steps and turns): both versions of the rules are grounded there with every input, outcome and
choice symbol and every structure symbol (which step an attempt is at, the phase of a step, the card of an
attempt, ...) left to the solver, within its range, and no other rule and no fact; the solver is asked
whether the conjunction of the rules' instances and that of the mutant's can differ. When it cannot in any
of those universes, the mutant is equivalent there: no case over such a universe (whatever its timeline,
attempts, facts and questions) can tell it apart. When it can, or the solver gives up, or a version cannot
be grounded with free structure, or the universe is too large to ground in full, nothing is claimed.
"""

from __future__ import annotations

__all__ = ["MAX_BINDINGS", "proven_equivalent"]

import math
from collections.abc import Sequence

from ..errors import EncodingError, SolverError
from ..language.encoding import Rule, RuleBase
from ..language.syntax import Call, Compare, Name, Quant, walk
from ..scenario.model import Scenario
from ..solver.backend import UNSAT, Session
from ..solver.grounding import ANY_NUMBER, Grounding, RuleGrounder, RuleInstance, Tracked, smt_symbol, universe_names
from ..terminal import plural
from ..vocabulary import DOMAINS, SYMBOLS, VALUE_SETS, SymbolKind
from .mutants import SUFFIX, Mutation

# With free structure no binding of a rule's variables is left out for its guard: a rule whose variables
# have more bindings than this over a universe is not grounded there, and the mutant is not proven equivalent.
MAX_BINDINGS = 20_000


def _sizes(sc: Scenario) -> dict[str, int]:
    return {**{sort: 1 for sort in ANY_NUMBER}, "player": len(sc.players), "card": len(sc.cards), "ability": len(sc.abilities),
            "attempt": len(sc.attempts), "modifier": len(sc.modifiers), "step": len(sc.steps),
            "turn": max(s.turn for s in sc.steps), **{name: len(members) for name, members in VALUE_SETS.items()}}


def _sorts(rules: RuleBase, found: Sequence[Rule]) -> frozenset[str]:
    """Every sort whose size the grounding of `found` (with free structure) can depend on: those of their
    variables, of the quantifiers, of the arguments and values of the symbols and definitions they use,
    through every definition used."""
    sorts = {sort for r in found for _, sort in r.params}
    todo = [r.body for r in found]
    seen: set[str] = set()
    while todo:
        for e in walk(todo.pop()):
            if isinstance(e, Quant):
                sorts.add(DOMAINS[e.domain])
            elif isinstance(e, (Call, Name)):
                name = e.func if isinstance(e, Call) else e.id
                if name in rules.definitions and name not in seen:
                    seen.add(name)
                    d = rules.definitions[name]
                    sorts.update(sort for _, sort in d.params)
                    sorts.add(d.result)
                    todo.append(d.body)
                elif name in SYMBOLS:
                    sorts.update(SYMBOLS[name].params)
                    sorts.add(SYMBOLS[name].result)
    return frozenset(sorts)


def _outcomes(rules: RuleBase, found: Sequence[Rule]) -> frozenset[str]:
    """The outcome and choice symbols `found` read, through every definition they use."""
    out: set[str] = set()
    todo = [r.body for r in found]
    seen: set[str] = set()
    while todo:
        for e in walk(todo.pop()):
            name = e.func if isinstance(e, Call) else e.id if isinstance(e, Name) else None
            if name in rules.definitions and name not in seen:
                seen.add(name)
                todo.append(rules.definitions[name].body)
            elif name in SYMBOLS and SYMBOLS[name].kind in (SymbolKind.OUTCOME, SymbolKind.CHOICE):
                out.add(name)
    return frozenset(out)


def _universe(sc: Scenario, sorts: frozenset[str]) -> tuple[tuple[str, int], ...]:
    """The sizes, in `sc`, of the sorts `sorts`: two scenarios alike in these ground the same rules alike."""
    sizes = _sizes(sc)
    return tuple((sort, sizes[sort]) for sort in sorted(sorts) if sort in sizes)


def _bindings(rules: Sequence[Rule], sc: Scenario) -> int:
    sizes = _sizes(sc)
    return sum(math.prod(sizes[sort] for _, sort in r.params) for r in rules)


def _alike_in(sc: Scenario, original: RuleGrounder, mutant: RuleGrounder, before: list[Rule], after: list[Rule],
              probe: Rule | None, context: list[Rule], timeout_ms: int, memory_mb: int | None
              ) -> frozenset[str] | None:
    """Whether, over the universe of `sc`, for every structure, input, outcome and choice that the rules
    `context` (of the original rule base) allow: the rules `before` (of the original rule base) and `after`
    (the mutant's) hold alike; or, with `probe`, every instance of `probe` (grounded by `mutant`) holds.
    The rules of `context` the proof needed when it holds, None when it does not or is not found."""
    if _bindings([probe] if probe else before + after, sc) > MAX_BINDINGS or _bindings(context, sc) > MAX_BINDINGS:
        return None
    g = Grounding(universe_names(sc), steps=len(sc.steps))
    try:
        whole = ""
        if probe is not None:
            differ = [(body, "true") for _, body in mutant.ground(sc, g, [probe])]
        else:
            old = {(inst.rule.id, inst.binding): body for inst, body in original.ground(sc, g, before)}
            new = {(inst.rule.id, inst.binding): body for inst, body in mutant.ground(sc, g, after)}
            # an instance left out holds whatever happens; instances that hold alike one by one make
            # conjunctions that hold alike, and otherwise the conjunctions are compared whole
            differ = [(old.get(k, "true"), new.get(k, "true")) for k in sorted(old.keys() | new.keys())
                      if old.get(k, "true") != new.get(k, "true")]
            whole = f"(not (= (and true {' '.join(old.values())}) (and true {' '.join(new.values())})))"
        if not differ:
            return frozenset()
        assumed: dict[str, list[str]] = {}
        for inst, body in original.ground(sc, g, context):
            assumed.setdefault(inst.rule.id, []).append(body)
    except EncodingError:
        return None
    # each rule of the context behind a literal of its own, so the rules a proof needed can be read off its core
    literal = {rid: smt_symbol(f"t:{rid}") for rid in assumed}
    g.tracked = [Tracked(literal[rid], f"(and true {' '.join(bodies)})", RuleInstance(_rule(context, rid), ()))
                 for rid, bodies in assumed.items()]
    needed: set[str] = set()
    try:
        session = Session(g, timeout_ms, memory_mb, tracked=True)
        for a, b in differ:
            if session.check(literal.values(), [f"(not (= {a} {b}))"]).status != UNSAT:
                break
            needed.update(session.core())
        else:
            return frozenset(rid for rid, lit in literal.items() if lit in needed)
        # one by one they did not all hold alike: the conjunctions are compared whole
        if not whole or session.check(literal.values(), [whole]).status != UNSAT:
            return None
        return frozenset(rid for rid, lit in literal.items() if lit in session.core())
    except SolverError:
        return None


def _rule(rules: Sequence[Rule], rule_id: str) -> Rule:
    return next(r for r in rules if r.id == rule_id)


def _probe(rules: RuleBase, m: Mutation) -> Rule | None:
    """For a definition's mutant: a rule that holds exactly where the definition and its mutated version give
    the same value, for every value of its parameters (None for a rule's mutant)."""
    if m.mutant.target_kind != "definition":
        return None
    d = rules.definitions[m.mutant.target]
    args = tuple(Name(d.loc, p) for p, _ in d.params)
    same = Compare(d.loc, "==", Call(d.loc, d.name, args), Call(d.loc, f"{d.name}{SUFFIX}:{m.mutant.id}", args))
    # a step, turn or number a rule passes may lie outside the timeline (`before(x)` at the first step, `never`):
    # such a parameter takes any whole number; one naming a thing or a value-set member takes each of its sort
    numbers = iter(ANY_NUMBER)
    params = tuple((p, next(numbers) if sort in ("step", "turn", "int") else sort) for p, sort in d.params)
    return Rule(f"{d.name}={d.name}{SUFFIX}", "", (), "", params, same, False, (), d.loc)


def proven_equivalent(rules: RuleBase, scenarios: Sequence[Scenario], m: Mutation, timeout_ms: int,
                      memory_mb: int | None = None, original: RuleGrounder | None = None) -> str:
    """Why the mutant `m` of `rules` is equivalent (see the module's docstring), or an empty string when that is
    not proven. A definition's mutant is compared with the definition itself, for every value of its
    parameters (so every rule using it is unchanged), and where that fails, each rule using it with that rule's
    mutated version; a rule's mutant, with the rule. `original`: a grounder of `rules` with free structure, to
    share between mutants."""
    original = original or RuleGrounder(rules, free_structure=True)
    mutant = RuleGrounder(m.rule_base, free_structure=True)
    probe = _probe(rules, m)
    found = _proven(rules, scenarios, m, original, mutant, probe, timeout_ms, memory_mb)
    if not found and probe is not None:
        found = _proven(rules, scenarios, m, original, mutant, None, timeout_ms, memory_mb)
    return found


def _proven(rules: RuleBase, scenarios: Sequence[Scenario], m: Mutation, original: RuleGrounder,
            mutant: RuleGrounder, probe: Rule | None, timeout_ms: int, memory_mb: int | None) -> str:
    # a first pass compares the versions alone; a universe where they differ is looked at again with the
    # other rules of their sections in force (never the rules the mutant changes)
    sections = {rules.rule(rid).section for rid in m.left_out}
    nearby = [r for r in rules.rules if r.section in sections and r.id not in m.left_out]
    mutated = [probe] if probe else [*(rules.rule(rid) for rid in m.left_out), *m.put_in]
    sorts = _sorts(m.rule_base, mutated)
    wider = sorts | _sorts(rules, nearby)
    # the rules that read an outcome or choice the mutated rules read, those of the sections first: tried one at a
    # time before the sections' rules all together, whose proof may take longer than the solver is given; a rule
    # of another section may restate one (the whole rule base together is never tried)
    reads = _outcomes(m.rule_base, mutated)
    reading = sorted((r for r in rules.rules if r.id not in m.left_out and _outcomes(rules, [r]) & reads),
                     key=lambda r: r.section not in sections)
    classes: dict[tuple[object, ...], list[tuple[Scenario, tuple[str, ...], frozenset[str]]]] = {}
    cases = 0
    for sc in scenarios:
        active = frozenset(r.id for r in rules.active_rules(sc.interpretations))
        changed = tuple(rid for rid in m.left_out if rid in active)
        if changed:
            cases += 1
            classes.setdefault((_universe(sc, sorts), () if probe else changed), []).append((sc, changed, active))
    if not cases:
        return ""

    def size(c: list[tuple[Scenario, tuple[str, ...], frozenset[str]]]) -> tuple[object, ...]:
        sc, changed, _ = c[0]
        return (_bindings([probe] if probe else [rules.rule(r) for r in changed], sc), _universe(sc, sorts))

    checked = 0
    used: set[str] = set()  # the rules of the context the proofs so far needed: tried first in the next universe
    # the smallest first: a mutant that is not equivalent is most often told apart there, and soonest
    for members in sorted(classes.values(), key=size):
        sc, changed, _ = members[0]
        before = [rules.rule(rid) for rid in changed]
        after = [r for r in m.put_in if r.id in changed]
        # once a proof needed other rules, the next universes most often need them too: they are tried first
        if not used:
            checked += 1
            if _alike_in(sc, original, mutant, before, after, probe, [], timeout_ms, memory_mb) is not None:
                continue
        seen: set[tuple[object, ...]] = set()
        for sc, _, active in members:
            context = [r for r in nearby if r.id in active]
            ones = [r for r in reading if r.id in active]
            key = (_universe(sc, wider | _sorts(rules, ones)), tuple(r.id for r in context + ones))
            if key in seen:
                continue
            seen.add(key)
            checked += 1
            few = [r for r in context + [r for r in ones if r.section not in sections] if r.id in used]
            needed = (_alike_in(sc, original, mutant, before, after, probe, few, timeout_ms, memory_mb)
                      if few else None)
            for one in (ones if needed is None and not used else ()):
                needed = _alike_in(sc, original, mutant, before, after, probe, [one], timeout_ms, memory_mb)
                if needed is not None:
                    break
            if needed is None:
                needed = _alike_in(sc, original, mutant, before, after, probe, context, timeout_ms, memory_mb)
            if needed is None:
                return ""
            used |= needed
    what = ("the mutated definition gives the value the definition gives, for every value of its parameters"
            if probe is not None else "the mutated rule holds exactly when the rule does"
            if m.mutant.target_kind == "rule" else "every rule using the mutated definition holds exactly when it does")
    also = f", with {', '.join(sorted(used))} in force" if used else ""
    return (f"{what} and every structure, input and outcome{also}, over the universes of {plural(cases, 'case')} "
            f"that have it in force ({plural(checked, 'universe')} checked)")
