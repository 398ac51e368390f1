"""A plain-Python evaluator of the rules on one concrete assignment of outcomes and choices.

It reads the same parsed rule base and scenario as the solver path, and nothing else: it
grounds the rules itself (one instance per binding of a rule's `for` variables, quantifiers
over the scenario's finite sorts, definitions expanded where they are used), reads structure
off the scenario and inputs off the scenario's facts, and evaluates each instance on an
assignment that maps `(symbol, args)` to a plain value (steps and turns as whole numbers,
named things and value-set members as their names).

Evaluation is three-valued: an application the assignment leaves out is `UNDECIDED`, and
`and`, `or`, `implies`, quantifiers and conditionals still give an answer when the decided
parts settle it.
"""

from __future__ import annotations

__all__ = ["Reference", "Instance", "Key", "Value", "UNDECIDED", "plain_key"]

import itertools
from collections.abc import Callable, Iterator, Mapping
from typing import Any, NamedTuple

from ..errors import EncodingError, Location
from ..language.encoding import Rule, RuleBase
from ..language.syntax import Arith, BoolOp, Call, Compare, Const, Expr, IfElse, InSet, Name, Neg, Not, Quant
from ..scenario.model import Scenario
from ..vocabulary import DOMAINS, MEMBER_OF, SYMBOLS, VALUE_SETS, SymbolKind

Value = bool | int | str
Key = tuple[str, tuple[Value, ...]]


class _Undecided:
    """The value of an expression that reads an application the assignment leaves out."""

    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED: Any = _Undecided()
_NUMBERED = ("step", "turn", "int")


class Instance(NamedTuple):
    """One grounded rule instance: the rule and the values of its variables."""

    rule: Rule
    env: dict[str, Value]


def plain_key(symbol: str, args: tuple[str, ...]) -> Key:
    """The key of an application whose arguments are written as text (steps as their numbers)."""
    params = SYMBOLS[symbol].params
    return symbol, tuple(int(a) if p in _NUMBERED else a for p, a in zip(params, args))


class Reference:
    """The rules in force for one scenario, grounded in Python, ready to evaluate assignments."""

    def __init__(self, scenario: Scenario, rules: RuleBase) -> None:
        self.sc = scenario
        self.rules = rules
        n = len(scenario.steps)
        self.never = n
        last_turn = max(s.turn for s in scenario.steps)
        self.domains: dict[str, list[Value]] = {name: list(members) for name, members in VALUE_SETS.items()}
        self.domains.update({
            "player": list(scenario.players),
            "card": [c.name for c in scenario.cards],
            "ability": [a.id for a in scenario.abilities],
            "attempt": [a.id for a in scenario.attempts],
            "modifier": [m.id for m in scenario.modifiers],
            "step": list(range(n)),
            "turn": list(range(1, last_turn + 1)),
        })
        self.named: dict[str, str] = {}
        for sort in ("player", "card", "ability", "attempt", "modifier"):
            self.named.update({str(v): sort for v in self.domains[sort]})
        self.inputs: dict[Key, Value] = {}
        for fact in scenario.facts:
            self.inputs[plain_key(fact.symbol, tuple(fact.args))] = fact.value  # type: ignore[assignment]
        self.phase_end: dict[tuple[int, str], int] = {}
        for s in scenario.steps:
            self.phase_end[(s.turn, s.phase)] = max(self.phase_end.get((s.turn, s.phase), -1), s.position)
        self.cards = {c.name: c for c in scenario.cards}
        self.abilities = {a.id: a for a in scenario.abilities}
        self.attempts = {a.id: a for a in scenario.attempts}
        self.modifiers = {m.id: m for m in scenario.modifiers}
        self.asg: Mapping[Key, Value] = {}
        self.memo: dict[tuple[str, tuple[Value, ...]], Any] = {}
        self._eval: dict[type, Callable[[Any, dict[str, Value]], Any]] = {
            Const: self._const, Name: self._name, Not: self._not, Neg: self._neg, BoolOp: self._boolop,
            Compare: self._compare, Arith: self._arith, IfElse: self._ifelse, InSet: self._inset,
            Quant: self._quant, Call: self._call,
        }
        self.instances = self._ground()

    # -- grounding ---------------------------------------------------------------------
    def _ground(self) -> list[Instance]:
        out = []
        for rule in self.rules.active_rules(self.sc.interpretations):
            names = [n for n, _ in rule.params]
            for values in itertools.product(*(self.domains[s] for _, s in rule.params)):
                out.append(Instance(rule, dict(zip(names, values))))
        return out

    def label(self, inst: Instance) -> str:
        """How an instance is named in reports: its rule and the values of its variables."""
        shown = ", ".join(f"{n}={self.show(s, inst.env[n])}" for n, s in inst.rule.params)
        return f"{inst.rule.id}[{shown}]" if shown else inst.rule.id

    def show(self, sort: str, value: Value) -> str:
        """A value as labels show it (steps by their place in the timeline)."""
        if sort == "step" and isinstance(value, int):
            return self.sc.step_label(value)
        return str(value)

    # -- evaluation --------------------------------------------------------------------
    def evaluate(self, e: Expr, env: dict[str, Value], assignment: Mapping[Key, Value]) -> Any:
        """The value of `e` under `env` and `assignment`, or UNDECIDED."""
        self.asg, self.memo = assignment, {}
        try:
            return self._eval[type(e)](e, env)
        finally:
            self.asg, self.memo = {}, {}

    def holds(self, inst: Instance, assignment: Mapping[Key, Value]) -> Any:
        """True, False or UNDECIDED: whether the instance holds under `assignment`."""
        return self.evaluate(inst.rule.body, inst.env, assignment)

    def failures(self, assignment: Mapping[Key, Value]) -> list[str]:
        """The labels of the rule instances that do not hold under a full assignment.

        An instance that needs an application the assignment lacks does not hold either.
        """
        return [self.label(inst) for inst, ok in self._each(assignment) if ok is not True]

    def first_failure(self, assignment: Mapping[Key, Value]) -> str | None:
        """The label of the first rule instance that does not hold under `assignment`, if any."""
        return next((self.label(inst) for inst, ok in self._each(assignment) if ok is not True), None)

    def _each(self, assignment: Mapping[Key, Value]) -> Iterator[tuple[Instance, Any]]:
        # One assignment for every instance, so a definition's value is worked out once.
        self.asg, self.memo = assignment, {}
        try:
            for inst in self.instances:
                body = inst.rule.body
                yield inst, self._eval[type(body)](body, inst.env)
        finally:
            self.asg, self.memo = {}, {}

    def question(self, expr: Expr, kind: str, assignment: Mapping[Key, Value]) -> Any:
        """A question's value: a plain value, or for an activation order the rank of every ability."""
        if kind != "sequence":
            return self.evaluate(expr, {}, assignment)
        assert isinstance(expr, Call)
        attempt = self.evaluate(expr.args[0], {}, assignment)
        ranks = tuple(assignment.get(("activation_rank", (attempt, a)), UNDECIDED) for a in self.domains["ability"])
        return UNDECIDED if any(r is UNDECIDED for r in ranks) else ranks

    def _const(self, e: Const, env: dict[str, Value]) -> Any:
        return e.value

    def _name(self, e: Name, env: dict[str, Value]) -> Any:
        ident = e.id
        if ident in env:
            return env[ident]
        if ident in self.named or ident in MEMBER_OF:
            return ident
        return self.structure(ident, (), e.loc)

    def _not(self, e: Not, env: dict[str, Value]) -> Any:
        v = self._eval[type(e.operand)](e.operand, env)
        return UNDECIDED if v is UNDECIDED else not v

    def _neg(self, e: Neg, env: dict[str, Value]) -> Any:
        v = self._eval[type(e.operand)](e.operand, env)
        return UNDECIDED if v is UNDECIDED else -v

    def _boolop(self, e: BoolOp, env: dict[str, Value]) -> Any:
        absorbing = e.op == "or"
        undecided = False
        for part in e.operands:
            v = self._eval[type(part)](part, env)
            if v is UNDECIDED:
                undecided = True
            elif bool(v) == absorbing:
                return absorbing
        return UNDECIDED if undecided else not absorbing

    def _compare(self, e: Compare, env: dict[str, Value]) -> Any:
        a = self._eval[type(e.left)](e.left, env)
        b = self._eval[type(e.right)](e.right, env)
        if a is UNDECIDED or b is UNDECIDED:
            return UNDECIDED
        op = e.op
        if op == "==":
            return a == b
        if op == "!=":
            return a != b
        if op == "<":
            return a < b
        if op == "<=":
            return a <= b
        if op == ">":
            return a > b
        return a >= b

    def _arith(self, e: Arith, env: dict[str, Value]) -> Any:
        a = self._eval[type(e.left)](e.left, env)
        b = self._eval[type(e.right)](e.right, env)
        if a is UNDECIDED or b is UNDECIDED:
            return UNDECIDED
        return a + b if e.op == "+" else a - b

    def _ifelse(self, e: IfElse, env: dict[str, Value]) -> Any:
        cond = self._eval[type(e.cond)](e.cond, env)
        if cond is not UNDECIDED:
            branch = e.then if cond else e.other
            return self._eval[type(branch)](branch, env)
        then = self._eval[type(e.then)](e.then, env)
        other = self._eval[type(e.other)](e.other, env)
        return then if then is not UNDECIDED and other is not UNDECIDED and then == other else UNDECIDED

    def _inset(self, e: InSet, env: dict[str, Value]) -> Any:
        item = self._eval[type(e.item)](e.item, env)
        undecided = item is UNDECIDED
        for option in e.options:
            v = self._eval[type(option)](option, env)
            if v is UNDECIDED:
                undecided = True
            elif not undecided and v == item:
                return True
        return UNDECIDED if undecided else False

    def _quant(self, e: Quant, env: dict[str, Value]) -> Any:
        inner = dict(env)
        kind = e.kind
        undecided = False
        total = 0
        cond_e, body = e.cond, e.body
        for value in self.domains[DOMAINS[e.domain]]:
            inner[e.var] = value
            cond = True if cond_e is None else self._eval[type(cond_e)](cond_e, inner)
            if cond is False:
                continue
            v = self._eval[type(body)](body, inner)
            if kind == "all":
                if v is False and cond is True:
                    return False
                if v is UNDECIDED or cond is UNDECIDED and v is False:
                    undecided = True
            elif kind == "any":
                if v is True and cond is True:
                    return True
                if v is UNDECIDED or cond is UNDECIDED and v is True:
                    undecided = True
            elif kind == "count":
                if cond is UNDECIDED or v is UNDECIDED:
                    undecided = undecided or v is not False
                elif v:
                    total += 1
            else:
                if cond is UNDECIDED or v is UNDECIDED:
                    undecided = undecided or v != 0
                else:
                    total += v
        if kind in ("count", "sum"):
            return UNDECIDED if undecided else total
        if undecided:
            return UNDECIDED
        return kind == "all"

    def _call(self, e: Call, env: dict[str, Value]) -> Any:
        if e.func == "implies":
            cond_e, body = e.args
            cond = self._eval[type(cond_e)](cond_e, env)
            if cond is False:
                return True
            v = self._eval[type(body)](body, env)
            if v is True:
                return True
            if cond is True:
                return v
            return UNDECIDED
        ev = self._eval
        args = tuple([ev[type(a)](a, env) for a in e.args])
        if UNDECIDED in args:
            return UNDECIDED
        if e.func in self.rules.definitions:
            return self._define(e.func, args)
        if SYMBOLS[e.func].kind is SymbolKind.STRUCTURE:
            return self.structure(e.func, args, e.loc)
        return self.symbol(e.func, args, e.loc)

    def _define(self, name: str, args: tuple[Value, ...]) -> Any:
        key = (name, args)
        if key in self.memo:
            return self.memo[key]
        d = self.rules.definitions[name]
        body = d.body
        value = self.memo[key] = self._eval[type(body)](body, {p: a for (p, _), a in zip(d.params, args)})
        return value

    def value_range(self, sort: str) -> list[Value]:
        """Every value an outcome or choice of this sort may take (a step may also be `never`)."""
        if sort == "step":
            return list(range(self.never + 1))
        if sort == "bool":
            return [False, True]
        if sort == "int":
            return list(range(len(self.sc.abilities) + 1))
        return self.domains[sort]

    # -- symbols -----------------------------------------------------------------------
    def symbol(self, name: str, args: tuple[Any, ...], loc: Location) -> Any:
        """An input read off the facts, or an outcome or choice read off the assignment."""
        sym = SYMBOLS[name]
        for param, a in zip(sym.params, args):
            if param == "step" and not 0 <= a < self.never:
                raise EncodingError(f"{name}(...) is applied to step {a}, outside the timeline", loc)
        key = (name, args)
        if sym.kind is SymbolKind.INPUT:
            if key not in self.inputs:
                raise EncodingError(f"no fact of the scenario gives {name}({', '.join(map(str, args))})", loc)
            return self.inputs[key]
        return self.asg.get(key, UNDECIDED)

    def structure(self, name: str, args: tuple[Value, ...], loc: Location) -> Any:
        """A structure symbol's value, read off the scenario's timeline, cards and attempts."""
        sym = SYMBOLS[name]

        def undefined(what: str) -> EncodingError:
            return EncodingError(f"{name}({', '.join(map(str, args))}) has no value: {what}", loc)

        if name == "never":
            return self.never
        if name == "at":
            turn, phase = args
            if (turn, phase) not in self.phase_end:
                raise undefined(f"turn {turn} is not in the timeline")
            return self.phase_end[(turn, phase)]  # type: ignore[index]
        if sym.params == ("step",):
            i = args[0]
            if not isinstance(i, int) or not 0 <= i < self.never:
                raise undefined("the step is outside the timeline")
            st = self.sc.steps[i]
            if name == "phase_last":
                return self.phase_end[(st.turn, st.phase)]
            if name == "turn_of":
                return st.turn
            if name == "phase_of":
                return st.phase
            if name == "phase_start":
                return st.phase_start
            return st.active_player
        if name == "source":
            return self.abilities[str(args[0])].card
        if name == "equipped_to":
            card = self.cards[str(args[0])]
            return card.equipped_to or card.name
        if name == "modifier_of":
            return self.modifiers[str(args[0])].ability
        attempt = self.attempts[str(args[0])]
        fields: dict[str, Value | None] = {
            "step_of": attempt.step, "attempt_kind": attempt.kind, "card_of": attempt.card,
            "ability_of": attempt.ability, "played_on": attempt.played_on,
            "plays_on_character": attempt.played_on is not None,
            "negated_attempt": attempt.negated_attempt, "set_aside_attempt": attempt.set_aside_attempt,
        }
        value = fields[name]
        if value is None:
            raise undefined(f"attempt '{attempt.id}' ({attempt.kind.replace('_', ' ')}) has none")
        return value
