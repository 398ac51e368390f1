"""Mutants of the encodings: one small edit of one rule or definition at a time.

Kinds of edit, each made at every place of a rule's `requires` or a definition's `means` where it applies:

- `delete`: the rule is deleted (rules only);
- `negate`: a comparison is negated (`==` becomes `!=`, `<` becomes `>=`, ...);
- `boundary`: an order comparison is made strict or not (`<` and `<=`, `>` and `>=` swap);
- `drop`: one operand of an `and` is dropped;
- `and-or`: an `and` becomes `or`, or an `or` becomes `and`;
- `condition`: an implication's condition is dropped (`implies(a, b)` becomes `b`), or a quantifier's
  `if` filter (`all(b for c in cards if a)` ranges over every card);
- `constant`: a member of a value set is replaced by the next member of its set (in the vocabulary's
  order; inside a written list `x in (a, b)`, the next one not in the list).

A definition's mutant changes every rule, and every question of a case, that uses it, directly or through
other definitions.
Mutants are listed in a fixed order: by encoding file, rules in file order then definitions in file
order, each one's deletion first and then its edits in the order of their places.
"""

from __future__ import annotations

__all__ = ["KINDS", "Mutant", "Mutation", "mutations", "left_open"]

from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..language.encoding import Definition, Rule, RuleBase
from ..language.syntax import (
    BoolOp,
    Call,
    Compare,
    Expr,
    InSet,
    Name,
    Quant,
    children,
    walk,
)
from ..language.types import TypeScope, infer
from ..scenario.model import Question
from ..vocabulary import MEMBER_OF, VALUE_SETS

KINDS: dict[str, str] = {
    "delete": "the rule deleted",
    "negate": "a comparison negated",
    "boundary": "an order comparison made strict or not",
    "drop": "an operand of `and` dropped",
    "and-or": "`and` and `or` swapped",
    "condition": "an implication's condition, or a quantifier's filter, dropped",
    "constant": "a value-set member replaced by another",
}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_BOUNDARY = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}


@dataclass(frozen=True)
class Mutant:
    """One mutant, as reports show it: which rule or definition, which edit, where."""

    id: str  # "SA-6 delete", "SA-6 negate 2", "has_duration drop 1"
    target: str  # the rule's ID or the definition's name
    target_kind: str  # "rule" or "definition"
    kind: str
    section: str  # the encoding file's section
    place: str  # file:line:column of the edit (of the rule, for a deletion)
    description: str
    rules: tuple[str, ...]  # the rules it changes (a definition's: every rule that uses it)


@dataclass(frozen=True)
class Mutation:
    """A mutant with what it changes: the rules it leaves out, and those it puts in their place, read
    with the definitions of `rule_base`; for a definition's mutant, the definitions it changes (the one
    edited and those using it), which a question may use too."""

    mutant: Mutant
    left_out: tuple[str, ...]
    put_in: tuple[Rule, ...]
    rule_base: RuleBase
    invalid: str = ""  # why the mutant is not a valid encoding (found before it is run), or empty
    definitions: frozenset[str] = frozenset()

    def question(self, q: Question) -> Question | None:
        """The question `q` of a case as the mutant asks it (read with the definitions of `rule_base`), or None
        when it uses none of the definitions the mutant changes."""
        if not _calls(q.expr, self.definitions):
            return None
        return q._replace(expr=_rename(q.expr, set(self.definitions), f"{SUFFIX}:{self.mutant.id}"))

    def mutated_base(self, original: RuleBase) -> RuleBase:
        """The whole rule base with this mutant's edit made, as an encoding file would give it."""
        put = {r.id: r for r in self.put_in}
        rules = tuple(put.get(r.id, r) for r in original.rules if r.id not in self.left_out or r.id in put)
        if self.mutant.target_kind == "definition":
            renamed = {n for n in self.rule_base.definitions if n not in original.definitions}
            return original._replace(rules=tuple(_plain_rule(r, renamed) for r in rules),
                                      definitions={**original.definitions, **{
                                          _plain(n): _plain_definition(self.rule_base.definitions[n], renamed)
                                          for n in sorted(renamed)}})
        return original._replace(rules=rules)


# The name of a definition changed by a mutant, or using one, ends with `#mutant:` and the mutant's ID:
# never a valid name in a file.
SUFFIX = "#mutant"


def _plain(name: str) -> str:
    return name.split("#", 1)[0]


def _rename(e: Expr, names: set[str], to: str = SUFFIX) -> Expr:
    """`e` with every call of a definition in `names` renamed (`to` appended, or, when empty, the suffix removed)."""
    if isinstance(e, Call):
        func = e.func if e.func not in names else (e.func + to if to else _plain(e.func))
        return Call(e.loc, func, tuple(_rename(a, names, to) for a in e.args))
    if not children(e):
        return e
    return _rebuild(e, lambda c: _rename(c, names, to))


def _plain_rule(r: Rule, renamed: set[str]) -> Rule:
    return r._replace(body=_rename(r.body, renamed, ""))


def _plain_definition(d: Definition, renamed: set[str]) -> Definition:
    return d._replace(name=_plain(d.name), body=_rename(d.body, renamed, ""))


def _rebuild(e: Expr, f: Callable[[Expr], Expr]) -> Expr:
    """`e` with `f` applied to each expression directly inside it."""
    values: list[object] = []
    for value in e[1:]:
        if isinstance(value, tuple) and not hasattr(value, "loc"):
            values.append(tuple(f(v) if hasattr(v, "loc") else v for v in value))
        elif hasattr(value, "loc") and not isinstance(value, str):
            values.append(f(value))  # type: ignore[arg-type]
        else:
            values.append(value)
    return type(e)(e.loc, *values)  # type: ignore[arg-type, call-arg]


def _edits(e: Expr) -> Iterator[tuple[str, Expr, str, Expr]]:
    """Every single edit of `e`: (kind, the node edited, what the edit does, the edited whole), in the
    order of the places (outer before inner, left before right)."""
    yield from _here(e)
    if isinstance(e, (BoolOp, Call, InSet)):
        seq = e.operands if isinstance(e, BoolOp) else e.args if isinstance(e, Call) else e.options
        if isinstance(e, InSet):  # the written list's members are edited as the list's (see `_here`)
            for kind, node, what, new in _edits(e.item):
                yield kind, node, what, e._replace(item=new)
            return
        for i, child in enumerate(seq):
            for kind, node, what, new in _edits(child):
                changed = seq[:i] + (new,) + seq[i + 1:]
                if isinstance(e, BoolOp):
                    yield kind, node, what, e._replace(operands=changed)
                else:
                    yield kind, node, what, e._replace(args=changed)
        return
    fields = [f for f in e._fields if f != "loc" and hasattr(getattr(e, f), "loc")]
    for field in fields:
        for kind, node, what, new in _edits(getattr(e, field)):
            yield kind, node, what, e._replace(**{field: new})  # type: ignore[arg-type]


def _here(e: Expr) -> Iterator[tuple[str, Expr, str, Expr]]:
    """The edits made at `e` itself."""
    if isinstance(e, Compare):
        yield "negate", e, f"`{e.op}` becomes `{_NEGATED[e.op]}`", e._replace(op=_NEGATED[e.op])
        if e.op in _BOUNDARY:
            yield "boundary", e, f"`{e.op}` becomes `{_BOUNDARY[e.op]}`", e._replace(op=_BOUNDARY[e.op])
    elif isinstance(e, BoolOp):
        if e.op == "and":
            for i in range(len(e.operands)):
                rest = e.operands[:i] + e.operands[i + 1:]
                yield ("drop", e, f"operand {i + 1} of {len(e.operands)} of `and` dropped",
                       rest[0] if len(rest) == 1 else e._replace(operands=rest))
        other = "or" if e.op == "and" else "and"
        yield "and-or", e, f"`{e.op}` becomes `{other}`", e._replace(op=other)
    elif isinstance(e, Call) and e.func == "implies":
        yield "condition", e, "the condition of `implies` dropped", e.args[1]
    elif isinstance(e, Quant) and e.cond is not None:
        yield "condition", e, f"the `if` filter of `{e.kind}(...)` dropped", e._replace(cond=None)
    elif isinstance(e, InSet):
        listed = {o.id for o in e.options if isinstance(o, Name)}
        for i, o in enumerate(e.options):
            if isinstance(o, Name) and o.id in MEMBER_OF:
                swapped = _next_member(o.id, listed)
                if swapped is not None:
                    options = e.options[:i] + (o._replace(id=swapped),) + e.options[i + 1:]
                    yield "constant", o, f"`{o.id}` becomes `{swapped}`", e._replace(options=options)
    elif isinstance(e, Name) and e.id in MEMBER_OF:
        member = _next_member(e.id, {e.id})
        if member is not None:
            yield "constant", e, f"`{e.id}` becomes `{member}`", e._replace(id=member)


def _next_member(member: str, avoid: set[str]) -> str | None:
    members = VALUE_SETS[MEMBER_OF[member]]
    start = members.index(member)
    for k in range(1, len(members)):
        candidate = members[(start + k) % len(members)]
        if candidate not in avoid:
            return candidate
    return None


def _section_of(rules: RuleBase) -> dict[str, str]:
    """Each encoding file's section, by the path its places name."""
    out = {r.loc.path: r.section for r in rules.rules}
    for d in rules.definitions.values():
        out.setdefault(d.loc.path, Path(d.loc.path).stem)
    return out


def _users(rules: RuleBase) -> dict[str, set[str]]:
    """For each definition, the definitions that use it, directly or through others."""
    calls = {n: {c.func for c in walk(d.body) if isinstance(c, Call) and c.func in rules.definitions}
             for n, d in rules.definitions.items()}
    out: dict[str, set[str]] = {}
    for name in rules.definitions:
        found: set[str] = set()
        todo = [name]
        while todo:
            current = todo.pop()
            for user, called in calls.items():
                if current in called and user not in found:
                    found.add(user)
                    todo.append(user)
        out[name] = found
    return out


def _calls(e: Expr, names: AbstractSet[str]) -> bool:
    return any(isinstance(c, Call) and c.func in names for c in walk(e))


def _type_error(body: Expr, params: tuple[tuple[str, str], ...], definitions: dict[str, Definition],
                wanted: str) -> str:
    try:
        got = infer(body, dict(params), TypeScope(definitions, {}, InputError))
    except InputError as exc:
        return f"not well typed: {exc.message}"
    return "" if got == wanted else f"not well typed: {wanted} wanted, {got} given"


def mutations(rules: RuleBase, targets: tuple[str, ...] = (), kinds: tuple[str, ...] = tuple(KINDS)) -> list[Mutation]:
    """Every mutant of the rules and definitions named in `targets` (all, when empty) of the given kinds,
    in the fixed order the module describes."""
    sections = _section_of(rules)
    users: dict[str, set[str]] | None = None  # worked out when a definition has a mutant of a kind asked for
    wanted = set(targets)
    order = {path: i for i, path in enumerate(sorted(sections))}
    out: list[Mutation] = []
    entries: list[tuple[tuple[int, int, int], Rule | Definition]] = []
    entries += [((order[r.loc.path], 0, r.loc.line), r) for r in rules.rules]
    entries += [((order[d.loc.path], 1, d.loc.line), d) for d in rules.definitions.values()]
    for _, entry in sorted(entries, key=lambda e: e[0]):
        name = entry.id if isinstance(entry, Rule) else entry.name
        if wanted and name not in wanted:
            continue
        counts: dict[str, int] = {}

        def mutant(kind: str, place: str, what: str, changed: tuple[str, ...]) -> Mutant:
            counts[kind] = counts.get(kind, 0) + 1
            number = "" if kind == "delete" else f" {counts[kind]}"
            return Mutant(f"{name} {kind}{number}", name, "rule" if isinstance(entry, Rule) else "definition", kind,
                          sections[entry.loc.path], place, what, changed)

        if isinstance(entry, Rule):
            if "delete" in kinds:
                out.append(Mutation(mutant("delete", str(entry.loc), "the rule deleted", (entry.id,)), (entry.id,), (),
                                    rules))
            for kind, node, what, body in _edits(entry.body):
                if kind not in kinds:
                    continue
                why = _type_error(body, entry.params, rules.definitions, "bool")
                out.append(Mutation(mutant(kind, str(node.loc), what, (entry.id,)), (entry.id,),
                                    (entry._replace(body=body),), rules, why))
            continue
        edits = [edit for edit in _edits(entry.body) if edit[0] in kinds]
        if not edits:
            continue
        users = users if users is not None else _users(rules)
        renamed = {entry.name} | users[entry.name]
        affected = [r for r in rules.rules if _calls(r.body, renamed)]
        ids = tuple(r.id for r in affected)
        for kind, node, what, body in edits:
            made = mutant(kind, str(node.loc), what, ids)
            # Each mutant's changed definitions get names of their own: a case grounded once shares its
            # terms between mutants by name, so two mutants must never name different terms alike.
            to = f"{SUFFIX}:{made.id}"
            changed = {n + to: rules.definitions[n]._replace(name=n + to,
                                                             body=_rename(rules.definitions[n].body, renamed, to))
                       for n in sorted(renamed)}
            changed[entry.name + to] = entry._replace(name=entry.name + to, body=_rename(body, renamed, to))
            definitions = {**rules.definitions, **changed}
            why = _type_error(changed[entry.name + to].body, entry.params, definitions, entry.result)
            put_in = tuple(r._replace(body=_rename(r.body, renamed, to)) for r in affected)
            out.append(Mutation(made, ids, put_in, rules._replace(definitions=definitions), why, frozenset(renamed)))
    return out


def left_open(rules: RuleBase, reading: str) -> tuple[Mutation, frozenset[str]] | None:
    """The rule base with `reading` left out: the definitions citing it left open (renamed, with the
    definitions and rules using them, as a definition's mutant is), and the names of those to ground as
    open (see `RuleGrounder`); None when no definition cites it."""
    cited = {n for n, d in rules.definitions.items() if reading in d.cites}
    if not cited:
        return None
    users = _users(rules)
    renamed = cited.union(*(users[n] for n in cited))
    affected = [r for r in rules.rules if _calls(r.body, renamed)]
    ids = tuple(r.id for r in affected)
    to = f"{SUFFIX}:{reading} left open"
    changed = {n + to: rules.definitions[n]._replace(name=n + to, body=_rename(rules.definitions[n].body, renamed, to))
               for n in sorted(renamed)}
    first = rules.definitions[min(cited)]
    made = Mutant(f"{reading} left open", reading, "definition", "open", _section_of(rules)[first.loc.path],
                  str(first.loc), f"the definitions citing {reading} left open", ids)
    put_in = tuple(r._replace(body=_rename(r.body, renamed, to)) for r in affected)
    mutation = Mutation(made, ids, put_in, rules._replace(definitions={**rules.definitions, **changed}), "",
                        frozenset(renamed))
    return mutation, frozenset(n + to for n in cited)
