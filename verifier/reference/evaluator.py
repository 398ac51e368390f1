"""A plain-Python evaluator of the rules on one concrete assignment of outcomes and choices.

It reads the same parsed rule base and scenario as the solver path, and nothing else: it
grounds the rules itself (one instance per binding of a rule's `for` variables, quantifiers
over the scenario's finite sorts, definitions expanded where they are used), reads structure
off the scenario and inputs off the scenario's facts, and evaluates each instance on an
assignment that maps `(symbol, args)` to a plain value (steps and turns as whole numbers,
named things and value-set members as their names). Expressions are compiled once into
closures (`compiled.py`); a binding whose guard the scenario alone makes false is not kept,
as its instance holds whatever the assignment.

Evaluation is three-valued: an application the assignment leaves out is `UNDECIDED`, and
`and`, `or`, `implies`, quantifiers and conditionals still give an answer when the decided
parts settle it.

The first assignment `failures` or `first_failure` is given is evaluated in full and kept as
the base, with the keys each instance read (noted once a second assignment comes, when the first
was said to come alone); a later one re-evaluates only the instances that read a key whose value
differs from the base's.
"""

from __future__ import annotations

__all__ = ["Reference", "Instance", "Key", "Value", "UNDECIDED", "plain_key"]

import bisect
import itertools
import operator
from array import array
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any, NamedTuple

from ..errors import EncodingError, Location
from ..language.encoding import Rule, RuleBase
from ..language.syntax import BoolOp, Call, Expr, Name
from ..scenario.model import Scenario
from ..vocabulary import MEMBER_OF, SYMBOLS, VALUE_SETS, SymbolKind
from .compiled import MISSING, UNDECIDED, Fn, State, compiler_for, free_names

Value = bool | int | str
Key = tuple[str, tuple[Value, ...]]


_NUMBERED = ("step", "turn", "int")
_BY_STEP: dict[str, Callable[[Any, Any], bool]] = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class Instance(NamedTuple):
    """One grounded rule instance: the rule and the values of its variables."""

    rule: Rule
    env: dict[str, Value]


def plain_key(symbol: str, args: tuple[str, ...]) -> Key:
    """The key of an application whose arguments are written as text (steps as their numbers)."""
    params = SYMBOLS[symbol].params
    return symbol, tuple(int(a) if p in _NUMBERED else a for p, a in zip(params, args))


def _pure(key: Any, deps: dict[Any, Any], purity: dict[Any, bool]) -> bool:
    """Whether a definition entry read nothing but pure entries, recursively (`deps`: what each entry
    read; `purity`: what is known so far); an outcome never is."""
    if key not in deps:
        return False
    found = purity.get(key)
    if found is None:
        found = purity[key] = all(_pure(k, deps, purity) for k in deps[key])
    return found


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
        self._attempts_at: dict[int, list[Value]] = {}
        for a in scenario.attempts:
            self._attempts_at.setdefault(a.step, []).append(a.id)
        self._compiler = compiler_for(rules)
        self._state = self._compiler.st
        self._known: dict[tuple[str, tuple[Any, ...]], Any] = {}
        self._rules = self.rules.active_rules(self.sc.interpretations)
        self._bodies: list[tuple[Fn, int]] = []
        self._bindings: list[list[tuple[Value, ...]]] = []
        self._starts: list[int] = []
        self._ground()
        # The first assignment checked, the instances that fail on it, and who reads what.
        self._base: dict[Key, Value] | None = None
        self._bad: dict[int, Any] = {}
        self._readers: dict[Any, array[int]] = {}
        self._def_keys: list[Any] = []
        self._noted = False  # what each instance of the base read is noted (see `first_failure`)

    # -- grounding ---------------------------------------------------------------------
    @property
    def instances(self) -> list[Instance]:
        """The rule instances checked, in rule order and then binding order, built afresh on each use.

        A binding whose guard the scenario alone makes false (so the instance holds whatever
        happens) is left out.
        """
        out: list[Instance] = []
        for rule, bindings in zip(self._rules, self._bindings):
            names = [n for n, _ in rule.params]
            out.extend(Instance(rule, dict(zip(names, values))) for values in bindings)
        return out

    def _enter(self) -> State:
        """The compiler's state, set to evaluate this reference's scenario."""
        state = self._state
        if state.ref is not self:
            state.ref = self
            state.generation += 1
            state.known = self._known
        return state

    def _ground(self) -> None:
        state = self._enter()
        state.asg, state.reads = {}, None
        purity: dict[Any, bool] = {}
        for rule in self._rules:
            self._bodies.append(self._compiler.compiled(rule.body, tuple(n for n, _ in rule.params)))
            self._starts.append(sum(len(b) for b in self._bindings))
            self._bindings.append(self._bind(rule, purity))
        self._count = sum(len(b) for b in self._bindings)
        state.memo, state.deps = {}, {}

    def _bind(self, rule: Rule, purity: dict[Any, bool]) -> list[tuple[Value, ...]]:
        """The bindings of `rule` kept: all of them, less the subtrees a guard prunes.

        The guard of `implies(guard, ...)` is a conjunction evaluated left to right (a definition
        applied to variables counts as its body's conjuncts). When, with the variables bound so
        far, the first conjuncts not yet settled evaluate, reading no outcome or choice, to
        true and then false, the guard is false and the instance true whatever the assignment,
        for every binding of the variables that follow; such subtrees are skipped.
        """
        domains = [self.domains[s] for _, s in rule.params]
        body = rule.body
        tests = self._guard_tests(body.args[0], rule, purity) \
            if isinstance(body, Call) and body.func == "implies" else []
        if not tests:
            return list(itertools.product(*domains))
        out: list[tuple[Value, ...]] = []
        env: list[Any] = [None] * len(domains)
        size = len(domains)

        # passed itself: a function that named itself would be in a cycle with its closure, which would keep
        # what it holds until garbage is collected
        def walk(again: Callable[..., None], depth: int, k: int) -> None:
            while k < len(tests) and tests[k][0] <= depth:
                v = tests[k][1](env)
                if v is False:
                    return
                if v is not True:
                    k = len(tests)
                    break
                k += 1
            if k == len(tests):
                prefix = tuple(env[:depth])
                out.extend(prefix + rest for rest in itertools.product(*domains[depth:]))
                return
            if depth + 1 < size:
                for value in domains[depth]:
                    env[depth] = value
                    again(again, depth + 1, k)
                env[depth] = None
                return
            last = tests[k:]
            for value in domains[depth]:
                env[depth] = value
                for _, test in last:
                    v = test(env)
                    if v is not True:
                        break
                if v is not False:
                    out.append(tuple(env))
            env[depth] = None

        if size:
            walk(walk, 0, 0)
        else:
            out.append(())
        return out

    def _guard_tests(self, guard: Expr, rule: Rule, purity: dict[Any, bool]) \
            -> list[tuple[int, Callable[[list[Any]], bool | None]]]:
        """The guard's conjuncts in evaluation order, each as (how many variables it needs bound, test).

        A test gives True or False when the conjunct reads no outcome or choice, else None.
        """
        names = tuple(n for n, _ in rule.params)
        frame: tuple[tuple[bool, Any], ...] = tuple((True, i) for i in range(len(names)))
        tests = []
        for expr, scope, sources in self._conjuncts(guard, names, frame):
            used = sorted({sources[scope.index(v)][1] for v in free_names(expr) & set(scope)
                           if sources[scope.index(v)][0]})
            tests.append((used[-1] + 1 if used else 0, self._test(expr, scope, sources, tuple(used), purity)))
        return tests

    def _conjuncts(self, e: Expr, scope: tuple[str, ...], sources: tuple[tuple[bool, Any], ...]) \
            -> list[tuple[Expr, tuple[str, ...], tuple[tuple[bool, Any], ...]]]:
        # sources: for each name of `scope`, (True, a rule variable's slot) or (False, a fixed value)
        if isinstance(e, BoolOp) and e.op == "and":
            return [c for part in e.operands for c in self._conjuncts(part, scope, sources)]
        if isinstance(e, Call) and e.func in self.rules.definitions:
            inner = []
            for a in e.args:
                if not isinstance(a, Name):
                    break
                if a.id in scope:
                    inner.append(sources[scope.index(a.id)])
                elif a.id in self.named or a.id in MEMBER_OF:
                    inner.append((False, a.id))
                else:
                    break
            else:
                d = self.rules.definitions[e.func]
                return self._conjuncts(d.body, tuple(p for p, _ in d.params), tuple(inner))
        return [(e, scope, sources)]

    def _test(self, expr: Expr, scope: tuple[str, ...], sources: tuple[tuple[bool, Any], ...], used: tuple[int, ...],
              purity: dict[Any, bool]) -> Callable[[list[Any]], bool | None]:
        fn, width = self._compiler.compiled(expr, scope)
        pad = [None] * (width - len(scope))
        state = self._state
        seen: dict[tuple[Any, ...], bool | None] = {}

        def test(env: list[Any]) -> bool | None:
            at = tuple([env[i] for i in used])
            if at in seen:
                return seen[at]
            reads: set[Any] = set()
            state.reads = reads
            try:
                v = fn([env[x] if slot else x for slot, x in sources] + pad)
            except Exception:
                v = None
            finally:
                state.reads = None
            result = v if (v is True or v is False) and all(_pure(k, state.deps, purity) for k in reads) else None
            seen[at] = result
            return result
        return test

    def _locate(self, i: int) -> tuple[int, tuple[Value, ...]]:
        r = bisect.bisect_right(self._starts, i) - 1
        return r, self._bindings[r][i - self._starts[r]]

    def label(self, inst: Instance) -> str:
        """How an instance is named in reports: its rule and the values of its variables."""
        shown = ", ".join(f"{n}={self.show(s, inst.env[n])}" for n, s in inst.rule.params)
        return f"{inst.rule.id}[{shown}]" if shown else inst.rule.id

    def _label(self, i: int) -> str:
        r, values = self._locate(i)
        rule = self._rules[r]
        return self.label(Instance(rule, dict(zip((n for n, _ in rule.params), values))))

    def show(self, sort: str, value: Value) -> str:
        """A value as labels show it (steps by their place in the timeline)."""
        if sort == "step" and isinstance(value, int):
            return self.sc.step_label(value)
        return str(value)

    # -- evaluation --------------------------------------------------------------------
    def evaluate(self, e: Expr, env: dict[str, Value], assignment: Mapping[Key, Value]) -> Any:
        """The value of `e` under `env` and `assignment`, or UNDECIDED."""
        names = tuple(env)
        fn, width_ = self._compiler.compiled(e, names)
        state = self._enter()
        state.asg, state.memo = assignment, {}
        try:
            return fn([*env.values(), *([None] * (width_ - len(names)))])
        finally:
            state.asg, state.memo = {}, {}

    def holds(self, inst: Instance, assignment: Mapping[Key, Value]) -> Any:
        """True, False or UNDECIDED: whether the instance holds under `assignment`."""
        return self.evaluate(inst.rule.body, inst.env, assignment)

    def failures(self, assignment: Mapping[Key, Value]) -> list[str]:
        """The labels of the rule instances that do not hold under a full assignment.

        An instance that needs an application the assignment lacks does not hold either.
        """
        bad = self._failing(assignment, None)
        for i in sorted(bad):
            if isinstance(bad[i], Exception):
                raise bad[i]
        return [self._label(i) for i in sorted(bad)]

    def first_failure(self, assignment: Mapping[Key, Value], leave_out: Collection[str] = (), alone: bool = False
                      ) -> str | None:
        """The label of the first rule instance that does not hold under `assignment`, if any,
        among the instances of rules not named in `leave_out`. With `alone` (no other assignment is expected),
        a first assignment is evaluated without noting which keys each instance reads; should another come,
        they are noted then, by evaluating the first again."""
        bad = self._failing(assignment, None if leave_out else 1, alone)
        if leave_out:
            bad = {i: v for i, v in bad.items() if self._rules[self._locate(i)[0]].id not in leave_out}
        if not bad:
            return None
        first = min(bad)
        if isinstance(bad[first], Exception):
            raise bad[first]
        return self._label(first)

    def _failing(self, assignment: Mapping[Key, Value], wanted: int | None, alone: bool = False) -> dict[int, Any]:
        """The instances that do not hold, by number, with their value or the error evaluating them raised.

        The first assignment is evaluated in full and kept as the base, noting which keys each
        instance (and each definition entry it used) read (unless `alone`: see `first_failure`). A later
        assignment re-evaluates only the instances that read a key whose value differs from the base's: any
        other instance reads the same values, so takes the same path to the same result. With `wanted` = 1,
        only what decides the first failure is worked out.
        """
        if self._base is None:
            self._evaluate_base(assignment, not alone)
            return dict(self._bad)
        if not self._noted:
            self._evaluate_base(self._base, True)
        dirty = sorted(self._dirty(assignment))
        if not dirty:
            return dict(self._bad)
        again = set(dirty)
        clean = sorted(i for i in self._bad if i not in again)
        out = {i: self._bad[i] for i in clean}
        bound = clean[0] if wanted == 1 and clean else None
        state = self._enter()
        state.asg, state.memo, state.reads = assignment, {}, None
        try:
            for i in dirty:
                if bound is not None and i > bound:
                    break
                v = self._run(i)
                if v is not True:
                    out[i] = v
                    if wanted == 1:
                        break
        finally:
            state.asg, state.memo = {}, {}
        return out

    def _run(self, i: int) -> Any:
        r, values = self._locate(i)
        fn, width = self._bodies[r]
        try:
            return fn([*values, *([None] * (width - len(values)))])
        except Exception as exc:  # kept, and raised if it is the first instance that does not hold
            return exc

    def _evaluate_base(self, assignment: Mapping[Key, Value], noted: bool) -> None:
        """Evaluate every instance on `assignment`, kept as the base; with `noted`, noting what each reads."""
        state = self._enter()
        readers = self._readers
        state.asg, state.memo, state.deps = assignment, {}, {}
        self._bad = {}
        i = 0
        try:
            reads: set[Any] = set()
            for (fn, width), bindings, rule in zip(self._bodies, self._bindings, self._rules):
                pad = [None] * (width - len(rule.params))
                for values in bindings:
                    if noted:
                        reads.clear()
                        state.reads = reads
                    try:
                        v = fn([*values, *pad])
                    except Exception as exc:
                        v = exc
                    if v is not True:
                        self._bad[i] = v
                    if noted:
                        _note_readers(readers, reads, i)
                    i += 1
            for j, (key, deps) in enumerate(state.deps.items() if noted else (), start=self._count):
                self._def_keys.append(key)
                _note_readers(readers, deps, j)
        finally:
            state.asg, state.memo, state.deps, state.reads = {}, {}, {}, None
        self._base = dict(assignment)
        self._noted = noted

    def _dirty(self, assignment: Mapping[Key, Value]) -> set[int]:
        """The instances that read a key whose value in `assignment` is not the base's."""
        base = self._base
        assert base is not None
        changed = []
        common = 0
        for key, v in assignment.items():
            was = base.get(key, MISSING)
            if was is MISSING:
                changed.append(key)
                continue
            common += 1
            if type(was) is not type(v) or was != v:
                changed.append(key)
        if common < len(base):
            changed.extend(k for k in base if k not in assignment)
        readers, count, def_keys = self._readers, self._count, self._def_keys
        dirty: set[int] = set()
        seen: set[int] = set()
        while changed:
            for node in readers.get(changed.pop(), ()):
                if node < count:
                    dirty.add(node)
                elif node not in seen:
                    seen.add(node)
                    changed.append(def_keys[node - count])
        return dirty

    def question(self, expr: Expr, kind: str, assignment: Mapping[Key, Value]) -> Any:
        """A question's value: a plain value, or for an activation order the rank of every ability."""
        if kind != "sequence":
            return self.evaluate(expr, {}, assignment)
        assert isinstance(expr, Call)
        attempt = self.evaluate(expr.args[0], {}, assignment)
        ranks = tuple(assignment.get(("activation_rank", (attempt, a)), UNDECIDED) for a in self.domains["ability"])
        return UNDECIDED if any(r is UNDECIDED for r in ranks) else ranks

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
        return self._state.asg.get(key, UNDECIDED)

    def attempts_by_step(self, op: str, step: Any) -> list[Value]:
        """The attempts, in timeline order, whose step is `op` `step` (`==`, `<`, `<=`, `>`, `>=`)."""
        if op == "==":
            return self._attempts_at.get(step, [])
        holds = _BY_STEP[op]
        return [a.id for a in self.sc.attempts if holds(a.step, step)]

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


def _note_readers(readers: dict[Any, array[int]], keys: Iterable[Any], index: int) -> None:
    """Note that the instance or definition `index` reads each of `keys`."""
    for key in keys:
        found = readers.get(key)
        if found is None:
            found = readers[key] = array("i")
        found.append(index)
