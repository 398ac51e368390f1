"""Ground the rules over a scenario's finite sorts and write them as SMT-LIB terms.

Every rule is instantiated once per binding of its `for` variables; each instance and each
scenario fact becomes one named assertion, so a conflict can be reported as the instances
and facts involved. Inputs are solver constants pinned by those facts; the rule bodies name them,
except where `ground`'s `fold` is asked for (below), never on a grounding a conflict or an ambiguity
is worked out from. Structure (which step an attempt is at, the phase of a step) is known and
folded while grounding, which keeps the formulas small. A binding whose guard the structure or
the facts make false is not grounded at all: its instance holds wherever the facts hold.
Answering a case, the engine may ask for the rule bodies to read the pinned inputs as their
values too (`ground`'s `fold`): each instance is then the same where the facts hold, and a
conflict is looked for again on the grounding that names the inputs.
"""

from __future__ import annotations

__all__ = ["Grounding", "Tracked", "RuleInstance", "Term", "ground", "ground_and_keep", "RuleGrounder",
           "GroundingMemo",
           "ground_with_memo", "second_copy", "copy_since", "narrowed", "GroundedBase",
           "SymbolRef", "value_smt", "universe_names", "ANY_NUMBER", "MAX_RULE_INSTANCES", "rule_instances", "too_large"]

import gc
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, NamedTuple

from ..errors import EncodingError, Location, SolverError
from ..language.encoding import Rule, RuleBase
from ..language.syntax import (
    Arith,
    BoolOp,
    Call,
    Compare,
    Const,
    Expr,
    IfElse,
    InSet,
    Name,
    Neg,
    Not,
    Quant,
    children,
    step_bound,
)
from ..language.types import RECURRENCE_START, Definition, recurrence_place
from ..scenario.model import Fact, Question, Scenario
from ..vocabulary import DOMAINS, MEMBER_OF, SYMBOLS, VALUE_SETS, SymbolKind

Py = bool | int | str
_COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


class _GuardError(Exception):
    """An encoding error met while weighing a rule's guard before all its variables are bound."""

    def __init__(self, error: EncodingError) -> None:
        super().__init__(error.message)
        self.error = error


class Term(NamedTuple):
    """A grounded value: a known Python value, or an SMT-LIB term."""

    type: str
    const: Py | None = None
    smt: str | None = None

    @property
    def known(self) -> bool:
        return self.smt is None


_TAGS = {SymbolKind.INPUT: "i", SymbolKind.CHOICE: "c"}  # the solver names' tag by kind; outcomes take the prefix
_STEP_PLACES = {name: tuple(i for i, p in enumerate(sym.params) if p == "step") for name, sym in SYMBOLS.items()}
SHARE_LENGTH = 60  # a definition's term longer than this is named once and referred to
_new = tuple.__new__  # `_new(Term, (type, const, smt))` makes a Term without a Python call
TRUE = Term("bool", True)
FALSE = Term("bool", False)
Env = dict[str, Term]
Fn = Callable[[Env], Term]
Outer = Callable[[Env, frozenset[str]], Env]  # the names asked for, read from the rule's environment


class RuleInstance(NamedTuple):
    """One grounded instance of a rule: the rule and the values of its variables."""

    rule: Rule
    binding: tuple[tuple[str, str], ...]

    @property
    def label(self) -> str:
        inner = ", ".join(f"{k}={v}" for k, v in self.binding)
        return f"{self.rule.id}[{inner}]" if inner else self.rule.id

    @property
    def sentence(self) -> str:
        return self.rule.says.format(**dict(self.binding))


_SYMBOL = re.compile(r"\|[^|]*\|")


def mentioned(smt: str) -> frozenset[str]:
    """The solver constants an SMT-LIB term names."""
    return frozenset(_SYMBOL.findall(smt))


@dataclass(frozen=True)
class Tracked:
    """A named assertion: a rule instance or a scenario fact."""

    name: str
    body: str
    origin: RuleInstance | Fact

    @cached_property
    def mentions(self) -> frozenset[str]:
        return mentioned(self.body)


class SymbolRef(NamedTuple):
    """A solver constant standing for one application of a vocabulary symbol."""

    smt: str
    symbol: str
    args: tuple[str, ...]
    kind: SymbolKind
    type: str

    @property
    def display(self) -> str:
        return f"{self.symbol}({', '.join(self.args)})" if self.args else self.symbol


def smt_symbol(text: str) -> str:
    return "|" + text.replace("|", "/").replace("\\", "/") + "|"


def value_smt(raw: object) -> str:
    """An encoded value (bool or whole number) written as an SMT-LIB term."""
    if isinstance(raw, bool):
        return "true" if raw else "false"
    assert isinstance(raw, int)
    return str(raw) if raw >= 0 else f"(- {-raw})"


@dataclass
class Grounding:
    """The grounded problem: value names, constants, background and tracked assertions, questions.

    Members of value sets and named things of the scenario are numbered (their position in
    `names[type]`), so every solver constant is a whole number or a truth value.
    """

    names: dict[str, tuple[str, ...]]
    constants: dict[str, SymbolRef] = field(default_factory=dict)
    background: list[str] = field(default_factory=list)
    tracked: list[Tracked] = field(default_factory=list)
    questions: dict[str, tuple[Term, ...]] = field(default_factory=dict)
    derived: dict[str, str] = field(default_factory=dict)
    question_terms: dict[str, str] = field(default_factory=dict)
    shared: dict[str, str] = field(default_factory=dict)
    numbers: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict)
    steps: int = 0
    # With `ground`'s `fold`: the rules with an instance the pinned inputs make hold, left out here, that
    # grounding with the inputs named keeps (its body names an input); without `fold`, empty.
    held_by_inputs: set[str] = field(default_factory=set)

    def copy(self, **changes: Any) -> Grounding:
        """A grounding with containers of its own (what is added to one is not added to the other), with
        `changes` made."""
        return replace(self, **{"constants": dict(self.constants), "background": list(self.background),
                                "tracked": list(self.tracked), "questions": dict(self.questions),
                                "derived": dict(self.derived), "question_terms": dict(self.question_terms),
                                "shared": dict(self.shared), "numbers": dict(self.numbers),
                                "held_by_inputs": set(self.held_by_inputs), **changes})

    def largest(self, type_name: str) -> int | None:
        """The largest raw value a constant of this type takes (`never` for a step), None if unbounded."""
        if type_name == "bool":
            return 1
        if type_name == "step":
            return self.steps
        if type_name in self.names:
            return max(len(self.names[type_name]) - 1, 0)
        return None

    def number(self, name: str, args: tuple[str, ...]) -> int:
        """The number that names `name(args)` in the solver; both copies of the outcomes share it."""
        return self.numbers.setdefault((name, args), len(self.numbers))

    def closure(self, names: frozenset[str] | set[str]) -> set[str]:
        """`names` and every constant the shared terms among them are defined from."""
        out = set(names)
        todo = [n for n in out if n in self.shared]
        while todo:
            for m in mentioned(self.shared[todo.pop()]):
                if m not in out:
                    out.add(m)
                    if m in self.shared:
                        todo.append(m)
        return out

    def encode(self, type_name: str, value: Py) -> int | bool:
        """A plain value as the solver holds it."""
        if type_name in self.names:
            return self.names[type_name].index(str(value))
        assert isinstance(value, (bool, int))
        return value

    def decode(self, type_name: str, raw: object) -> Py:
        """A solver value as a plain value of the vocabulary."""
        if type_name in self.names and isinstance(raw, int) and not isinstance(raw, bool):
            names = self.names[type_name]
            return names[raw] if 0 <= raw < len(names) else f"<{raw}>"
        assert isinstance(raw, (bool, int))
        return raw

    def declaration(self, name: str, type_name: str) -> str:
        return f"(declare-const {name} {'Bool' if type_name == 'bool' else 'Int'})"


# With free structure, a rule variable of one of these sorts takes one value: a whole number the solver picks,
# any at all (a step, a turn or a number outside every timeline too), each sort a number of its own.
ANY_NUMBER = tuple(f"any number {i}" for i in range(4))


class _Grounder:
    _builders: dict[type, Callable[[_Grounder, Any], Fn]] = {}

    # The closures built from the rule base read the scenario being grounded from `self` when
    # they run, so one grounder serves every scenario checked against the same rule base.
    def __init__(self, rules: RuleBase) -> None:
        self.rb = rules
        self.fns: dict[int, tuple[Expr, Fn]] = {}
        self.plans: dict[int, tuple[Rule, tuple[list[str], tuple[tuple[Fn, ...], ...]]]] = {}
        self.structural: dict[str, bool] = {}
        self.opened: dict[str, tuple[Definition, list[str], Fn]] = {}  # a definition's parameter names and body
        self.free_structure = False  # structure symbols are solver constants too (see `RuleGrounder`)
        self.left_open: frozenset[str] = frozenset()  # definitions whose applications are left to the solver
        self.folder: _Folder | None = None  # reads the guards' conditions (see `_plan`)
        self.fold_inputs = False  # an input a fact pins is read as its value in rule bodies too (see `ground`)

    def start(self, scenario: Scenario, prefix: str, g: Grounding) -> _Grounder:
        """Ground `scenario` next, writing into `g`, with outcome names starting with `prefix`."""
        self.sc = scenario
        self.prefix = prefix
        self.g = g
        self.n_steps = len(scenario.steps)
        self.turns = max(s.turn for s in scenario.steps)
        self.domains: dict[str, list[Py]] = {
            "player": list(scenario.players),
            "card": [c.name for c in scenario.cards],
            "ability": [a.id for a in scenario.abilities],
            "attempt": [a.id for a in scenario.attempts],
            "modifier": [m.id for m in scenario.modifiers],
            "step": list(range(self.n_steps)),
            "turn": list(range(1, self.turns + 1)),
        }
        self.domains.update({name: list(members) for name, members in VALUE_SETS.items()})
        self.domain_terms = {sort: [Term(sort, v) for v in values] for sort, values in self.domains.items()}
        if self.free_structure:
            self.domain_terms.update({sort: [self._any_number(sort)] for sort in ANY_NUMBER})
        self.constants: dict[str, str] = scenario.constants()
        self.modifiers = {m.id: m for m in scenario.modifiers}
        self.cards = {c.name: c for c in scenario.cards}
        self.attempts = {a.id: a for a in scenario.attempts}
        self.abilities = {a.id: a for a in scenario.abilities}
        self.def_cache: dict[tuple[str, tuple[Py, ...]], Term] = {}
        self.refs: dict[tuple[str, tuple[Py, ...]], Term] = {}
        self.structures: dict[tuple[str, tuple[Py, ...]], Term] = {}
        self.shown: dict[str, list[str]] = {}
        self.attempts_at: dict[int, list[Term]] | None = None  # the attempts at each step (`_attempts_by_step`)
        # with `fold_inputs`: a grounding and tables of its own for the bodies compiled with the inputs named
        self.plain: tuple[Grounding, dict[tuple[str, tuple[Py, ...]], Term], dict[tuple[str, tuple[Py, ...]], Term]] | None = None
        self.phase_end: dict[tuple[int, str], int] = {}
        for s in scenario.steps:
            self.phase_end[(s.turn, s.phase)] = s.position
        if not self.free_structure:
            if self.folder is None:
                self.folder = _Folder(self.rb)
                self.folder.left_open = self.left_open
            self.folder.begin(self)
        return self

    def memo(self) -> GroundingMemo:
        """A copy of what grounding the current scenario has worked out so far."""
        return GroundingMemo(dict(self.def_cache), dict(self.refs), dict(self.structures))

    def resume(self, memo: GroundingMemo) -> None:
        """Take up the current scenario where `memo` (of this scenario) left it, on copies of its tables."""
        self.def_cache, self.refs, self.structures = dict(memo.definitions), dict(memo.refs), dict(memo.structures)

    # -- symbols -----------------------------------------------------------------------
    def ref(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        """The solver constant for `name(args)`, declared on first use; with `fold_inputs`, the value of an
        input a fact pins."""
        cached = self.refs.get((name, args))
        if cached is not None:
            return cached
        if self.fold_inputs and SYMBOLS[name].kind is SymbolKind.INPUT:
            assert self.folder is not None
            value = self.folder.pinned.get((name, tuple(map(str, args))))
            if value is not None:
                term = self.refs[(name, args)] = Term(SYMBOLS[name].result, value)
                return term
        term = self.refs[(name, args)] = self.constant(name, args, loc)
        return term

    def constant(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        """The solver constant for `name(args)`, declared on first use (an input too, whatever `fold_inputs`)."""
        sym = SYMBOLS[name]
        for i in _STEP_PLACES[name]:
            if i < len(args):
                value = args[i]
                if not (isinstance(value, int) and 0 <= value < self.n_steps):
                    raise EncodingError(f"{name}(...) is applied to step {value}, outside the timeline "
                                        "(guard it with a condition on the step)", loc)
        shown = tuple(map(str, args))
        tag = _TAGS.get(sym.kind, self.prefix)
        numbers = self.g.numbers
        # Short solver names keep the text Z3 parses small; SymbolRef keeps the readable one.
        key = f"|{tag}:{numbers.setdefault((name, shown), len(numbers))}|"
        if key not in self.g.constants:
            self.g.constants[key] = SymbolRef(key, name, shown, sym.kind, sym.result)
            if sym.result == "step":
                self.g.background.append(f"(and (<= 0 {key}) (<= {key} {self.n_steps}))")
            elif sym.result in self.g.names:
                self.g.background.append(f"(and (<= 0 {key}) (< {key} {len(self.g.names[sym.result])}))")
        return _new(Term, (sym.result, None, key))

    def structure(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        """The value of a structure symbol, read off the scenario."""
        cached = self.structures.get((name, args))
        if cached is None:
            make = self._free if self.free_structure and name != "never" else self._structure
            cached = self.structures[(name, args)] = make(name, args, loc)
        return cached

    def _any_number(self, sort: str) -> Term:
        """The one value of a sort of `ANY_NUMBER`: a whole number left to the solver, unbounded."""
        key = f"|s:{self.g.number(sort, ())}|"
        if key not in self.g.constants:
            self.g.constants[key] = SymbolRef(key, sort, (), SymbolKind.STRUCTURE, "int")
        return _new(Term, ("int", None, key))

    def _free(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        """A structure symbol's application as a solver constant of its own (`|s:N|`), within its result's
        range and otherwise free: it stands for the value any timeline, attempt or card could give it. A step
        it gives is one of the timeline's (an attempt's, a phase's last), never `never`."""
        sym = SYMBOLS[name]
        shown = tuple(str(a) for a in args)
        key = f"|s:{self.g.number(name, shown)}|"
        if key not in self.g.constants:
            self.g.constants[key] = SymbolRef(key, name, shown, sym.kind, sym.result)
            if sym.result == "step":
                self.g.background.append(f"(and (<= 0 {key}) (< {key} {self.n_steps}))")
            elif sym.result == "turn":
                self.g.background.append(f"(and (<= 1 {key}) (<= {key} {self.turns}))")
            elif sym.result in self.g.names:
                self.g.background.append(f"(and (<= 0 {key}) (< {key} {len(self.g.names[sym.result])}))")
        return _new(Term, (sym.result, None, key))

    def _structure(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        sym = SYMBOLS[name]

        def undefined(what: str) -> EncodingError:
            return EncodingError(f"{name}({', '.join(map(str, args))}) has no value: {what}", loc)

        if name == "never":
            return Term("step", self.n_steps)
        if name == "at":
            turn, phase = args
            if (turn, phase) not in self.phase_end:
                raise undefined(f"turn {turn} is not in the timeline")
            return Term("step", self.phase_end[(turn, phase)])  # type: ignore[index]
        if sym.params == ("step",):
            i = args[0]
            if not isinstance(i, int) or not 0 <= i < self.n_steps:
                raise undefined("the step is outside the timeline")
            st = self.sc.steps[i]
            value: Py
            if name == "phase_last":
                value = self.phase_end[(st.turn, st.phase)]
            elif name == "turn_of":
                value = st.turn
            elif name == "phase_of":
                value = st.phase
            elif name == "phase_start":
                value = st.phase_start
            else:
                value = st.active_player
            return _new(Term, (sym.result, value, None))
        if name == "source":
            return Term("card", self.abilities[str(args[0])].card)
        if name == "equipped_to":
            card = self.cards[str(args[0])]
            return Term("card", card.equipped_to or card.name)
        if name == "modifier_of":
            return Term("ability", self.modifiers[str(args[0])].ability)
        attempt = self.attempts[str(args[0])]
        fields: dict[str, Py | None] = {
            "step_of": attempt.step, "attempt_kind": attempt.kind, "card_of": attempt.card,
            "ability_of": attempt.ability, "played_on": attempt.played_on,
            "plays_on_character": attempt.played_on is not None,
            "negated_attempt": attempt.negated_attempt, "set_aside_attempt": attempt.set_aside_attempt,
        }
        field_value = fields[name]
        if field_value is None:
            raise undefined(f"attempt '{attempt.id}' ({attempt.kind.replace('_', ' ')}) has none; "
                            "guard the use with attempt_kind(...)")
        return _new(Term, (sym.result, field_value, None))

    # -- expressions -------------------------------------------------------------------
    # Each syntax node is turned once into a closure from variable bindings to a Term;
    # grounding an instance then runs closures instead of walking the syntax tree again.
    def smt(self, t: Term) -> str:
        if t.smt is not None:
            return t.smt
        assert t.const is not None
        return value_smt(self.g.encode(t.type, t.const))

    def compile(self, e: Expr, env: Env) -> Term:
        return self.fn(e)(env)

    def fn(self, e: Expr) -> Fn:
        # Keyed by identity; the node is kept with its closure so its id cannot be reused.
        entry = self.fns.get(id(e))
        if entry is None or entry[0] is not e:
            entry = self.fns[id(e)] = (e, self._builders[type(e)](self, e))
        return entry[1]

    def _const(self, e: Const) -> Fn:
        t = Term("bool" if isinstance(e.value, bool) else "int", e.value)
        return lambda env: t

    def _name(self, e: Name) -> Fn:
        ident = e.id
        member = Term(MEMBER_OF[ident], ident) if ident in MEMBER_OF else None

        def f(env: Env) -> Term:
            t = env.get(ident)
            if t is not None:
                return t
            sort = self.constants.get(ident)
            if sort is not None:
                return _new(Term, (sort, ident, None))
            return member if member is not None else self.structure(ident, (), e.loc)
        return f

    def _not(self, e: Not) -> Fn:
        g = self.fn(e.operand)

        def f(env: Env) -> Term:
            v = g(env)
            if v.smt is None:
                return FALSE if v.const else TRUE
            return _new(Term, ("bool", None, f"(not {v.smt})"))
        return f

    def _neg(self, e: Neg) -> Fn:
        g = self.fn(e.operand)

        def f(env: Env) -> Term:
            v = g(env)
            return _new(Term, ("int", -v.const, None)) if v.smt is None else _new(Term, ("int", None, f"(- {v.smt})"))  # type: ignore[operator]
        return f

    def _boolop(self, e: BoolOp) -> Fn:
        parts = [self.fn(o) for o in e.operands]
        op = e.op
        absorbing = op == "or"
        stop, neutral = Term("bool", absorbing), Term("bool", not absorbing)

        def f(env: Env) -> Term:
            terms = []
            for part in parts:
                v = part(env)
                if v.smt is None:
                    if bool(v.const) == absorbing:
                        return stop
                    continue
                terms.append(v.smt)
            if not terms:
                return neutral
            if len(terms) == 1:
                return _new(Term, ("bool", None, terms[0]))
            return _new(Term, ("bool", None, f"({op} {' '.join(terms)})"))
        return f

    def _compare(self, e: Compare) -> Fn:
        left, right, op = self.fn(e.left), self.fn(e.right), e.op
        holds = _COMPARISONS[op]

        def f(env: Env) -> Term:
            a, b = left(env), right(env)
            if a.smt is None and b.smt is None:
                return TRUE if holds(a.const, b.const) else FALSE
            return self.compare(op, a, b)
        return f

    def _arith(self, e: Arith) -> Fn:
        fl, fr, op = self.fn(e.left), self.fn(e.right), e.op

        def f(env: Env) -> Term:
            left, right = fl(env), fr(env)
            rtype = left.type if left.type != "int" else right.type
            if left.type == right.type and left.type != "int":
                rtype = "int"
            if left.smt is None and right.smt is None:
                val = left.const + right.const if op == "+" else left.const - right.const  # type: ignore[operator]
                return _new(Term, (rtype, val, None))
            return _new(Term, (rtype, None, f"({op} {self.smt(left)} {self.smt(right)})"))
        return f

    def _ifelse(self, e: IfElse) -> Fn:
        fc, ft, fo = self.fn(e.cond), self.fn(e.then), self.fn(e.other)

        def f(env: Env) -> Term:
            cond = fc(env)
            if cond.smt is None:
                return ft(env) if cond.const else fo(env)
            then, other = ft(env), fo(env)
            rtype = then.type if then.type != "int" else other.type
            return _new(Term, (rtype, None, f"(ite {cond.smt} {self.smt(then)} {self.smt(other)})"))
        return f

    def _inset(self, e: InSet) -> Fn:
        item_fn = self.fn(e.item)
        options = [self.fn(o) for o in e.options]

        def f(env: Env) -> Term:
            item = item_fn(env)
            terms = []
            for option in options:
                v = self.compare("==", item, option(env))
                if v.smt is None:
                    if v.const:
                        return TRUE
                    continue
                terms.append(v.smt)
            if not terms:
                return FALSE
            return _new(Term, ("bool", None, terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"))
        return f

    def _attempts_by_step(self, op: str, step: Py | None) -> list[Term]:
        """The attempts, in timeline order, whose step is `op` `step` (`==`, `<`, `<=`, `>`, `>=`)."""
        at = self.attempts_at
        if at is None:
            at = self.attempts_at = {}
            for t in self.domain_terms["attempt"]:
                at.setdefault(self.attempts[str(t.const)].step, []).append(t)
        if op == "==":
            return at.get(step, []) if isinstance(step, int) else []
        holds = _COMPARISONS[op]
        return [t for t in self.domain_terms["attempt"] if holds(self.attempts[str(t.const)].step, step)]

    def _quant(self, e: Quant) -> Fn:
        sort = DOMAINS[e.domain]
        var, kind = e.var, e.kind
        cond_fn = self.fn(e.cond) if e.cond is not None else None
        body_fn = self.fn(e.body)
        # Over attempts whose condition first compares their step with a value the timeline knows, only the
        # attempts that comparison keeps are tried: the condition is false at every other, reading nothing else.
        bound = step_bound(e)
        step_op, step_fn = (bound[0], self.fn(bound[1])) if bound is not None else ("", None)
        # One closure per kind, over the values whose condition can hold (a missing condition holds).

        def candidates(env: Env) -> Iterator[tuple[Term, Term]]:
            inner = dict(env)
            values = self.domain_terms[sort]
            if step_fn is not None and values and not self.free_structure:
                step = step_fn(env)
                if step.smt is None:
                    values = self._attempts_by_step(step_op, step.const)
            for value in values:
                inner[var] = value
                cond = cond_fn(inner) if cond_fn is not None else TRUE
                if cond.smt is None and not cond.const:
                    continue
                yield cond, body_fn(inner)

        def every(env: Env) -> Term:
            terms: list[str] = []
            for cond, body in candidates(env):
                if body.smt is None:
                    if body.const:
                        continue
                    if cond.smt is None:
                        return FALSE
                    terms.append(f"(not {cond.smt})")
                else:
                    terms.append(body.smt if cond.smt is None else f"(=> {cond.smt} {body.smt})")
            if not terms:
                return TRUE
            return _new(Term, ("bool", None, terms[0] if len(terms) == 1 else f"(and {' '.join(terms)})"))

        def some(env: Env) -> Term:
            terms: list[str] = []
            for cond, body in candidates(env):
                if body.smt is None:
                    if not body.const:
                        continue
                    if cond.smt is None:
                        return TRUE
                    terms.append(cond.smt)
                else:
                    terms.append(body.smt if cond.smt is None else f"(and {cond.smt} {body.smt})")
            if not terms:
                return FALSE
            return _new(Term, ("bool", None, terms[0] if len(terms) == 1 else f"(or {' '.join(terms)})"))

        def total_of(terms: list[str], total: int) -> Term:
            if not terms:
                return Term("int", total)
            if total:
                terms.append(value_smt(total))
            return _new(Term, ("int", None, terms[0] if len(terms) == 1 else f"(+ {' '.join(terms)})"))

        def sum_of(env: Env) -> Term:
            terms: list[str] = []
            total = 0
            for cond, body in candidates(env):
                if cond.smt is None and body.smt is None:
                    total += body.const  # type: ignore[operator]
                elif cond.smt is None:
                    terms.append(body.smt)  # type: ignore[arg-type]
                else:
                    terms.append(f"(ite {cond.smt} {self.smt(body)} 0)")
            return total_of(terms, total)

        def count(env: Env) -> Term:
            terms: list[str] = []
            total = 0
            for cond, body in candidates(env):
                if cond.smt is None:
                    full = body
                elif body.smt is None:
                    full = cond if body.const else FALSE
                else:
                    full = _new(Term, ("bool", None, f"(and {cond.smt} {body.smt})"))
                if full.smt is None:
                    total += 1 if full.const else 0
                else:
                    terms.append(f"(ite {full.smt} 1 0)")
            return total_of(terms, total)

        return {"all": every, "any": some, "sum": sum_of}.get(kind, count)

    def _call(self, e: Call) -> Fn:
        if e.func == "implies":
            fa, fb = self.fn(e.args[0]), self.fn(e.args[1])

            def implies(env: Env) -> Term:
                cond = fa(env)
                if cond.smt is None:
                    return fb(env) if cond.const else TRUE
                body = fb(env)
                if body.smt is None:
                    return TRUE if body.const else _new(Term, ("bool", None, f"(not {cond.smt})"))
                return _new(Term, ("bool", None, f"(=> {cond.smt} {body.smt})"))
            return implies
        arg_fns = [self.fn(a) for a in e.args]
        if e.func in self.rb.definitions:
            d = self.rb.definitions[e.func]
            dname = d.name
            if len(arg_fns) == 1:
                only_arg = arg_fns[0]

                def define1(env: Env) -> Term:
                    a = only_arg(env)
                    if a.smt is None:
                        known = self.def_cache.get((dname, (a.const,)))  # type: ignore[arg-type]
                        if known is not None:
                            return known
                    return self.define(d, [a])
                return define1
            if len(arg_fns) == 2:
                first_arg, second_arg = arg_fns

                def define2(env: Env) -> Term:
                    a, b = first_arg(env), second_arg(env)
                    if a.smt is None and b.smt is None:
                        known = self.def_cache.get((dname, (a.const, b.const)))  # type: ignore[arg-type]
                        if known is not None:
                            return known
                    return self.define(d, [a, b])
                return define2
            return lambda env: self.define(d, [g(env) for g in arg_fns])
        name, loc = e.func, e.loc
        structural = SYMBOLS[name].kind is SymbolKind.STRUCTURE
        lookup = self.structure if structural else self.ref
        if len(arg_fns) == 1:
            only = arg_fns[0]

            def apply1(env: Env) -> Term:
                a = only(env)
                if a.smt is not None:
                    return self.expand(e, [a], 0)
                args = (a.const,)
                known = (self.structures if structural else self.refs).get((name, args))  # type: ignore[arg-type]
                return known or lookup(name, args, loc)  # type: ignore[arg-type]
            return apply1
        if len(arg_fns) == 2:
            first, second = arg_fns

            def apply2(env: Env) -> Term:
                a, b = first(env), second(env)
                if a.smt is not None or b.smt is not None:
                    return self.expand(e, [a, b], 0)
                args = (a.const, b.const)
                known = (self.structures if structural else self.refs).get((name, args))  # type: ignore[arg-type]
                return known or lookup(name, args, loc)  # type: ignore[arg-type]
            return apply2

        def apply(env: Env) -> Term:
            args = [g(env) for g in arg_fns]
            for a in args:
                if a.smt is not None:
                    return self.expand(e, args, 0)
            consts = tuple(a.const for a in args)
            if structural:
                return self.structure(name, consts, loc)  # type: ignore[arg-type]
            return self.ref(name, consts, loc)  # type: ignore[arg-type]
        return apply

    def compare(self, op: str, left: Term, right: Term) -> Term:
        if left.smt is None and right.smt is None:
            return TRUE if _COMPARISONS[op](left.const, right.const) else FALSE
        ltype = left.type if left.type != "int" else right.type
        ls = left.smt if left.smt is not None else value_smt(self.g.encode(ltype, left.const))  # type: ignore[arg-type]
        rs = right.smt if right.smt is not None else value_smt(self.g.encode(ltype, right.const))  # type: ignore[arg-type]
        if op == "==":
            return _new(Term, ("bool", None, f"(= {ls} {rs})"))
        if op == "!=":
            return _new(Term, ("bool", None, f"(not (= {ls} {rs}))"))
        return _new(Term, ("bool", None, f"({op} {ls} {rs})"))

    def domain(self, sort: str) -> list[Py]:
        return self.domains[sort]

    def expand(self, e: Call, args: list[Term], start: int) -> Term:
        """Apply a symbol whose argument the solver decides, by cases over that argument's domain."""
        for i in range(start, len(args)):
            if args[i].smt is not None:
                param = SYMBOLS[e.func].params[i]
                if not self.domain(param) and self.free_structure:
                    return self._undecided(e, args)
                if not self.domain(param):
                    raise EncodingError(f"{e.func}(...) is applied to a {param} the solver decides, and the case "
                                        f"has no {param}", e.loc)
                branches = []
                for v in self.domain(param):
                    fixed = list(args)
                    fixed[i] = Term(param, v)
                    branches.append((v, self.expand(e, fixed, i + 1)))
                text = self.smt(branches[-1][1])
                for v, branch in reversed(branches[:-1]):
                    text = f"(ite (= {args[i].smt} {value_smt(self.g.encode(param, v))}) {self.smt(branch)} {text})"
                return Term(SYMBOLS[e.func].result, None, text)
        consts = tuple(a.const for a in args)
        if SYMBOLS[e.func].kind is SymbolKind.STRUCTURE:
            return self.structure(e.func, consts, e.loc)  # type: ignore[arg-type]
        return self.ref(e.func, consts, e.loc)  # type: ignore[arg-type]

    def _undecided(self, e: Call, args: list[Term]) -> Term:
        """With free structure, a symbol applied to a value of a sort the scenario has none of: a constant of
        its own for that application, left free (no scenario can give it a value that matters)."""
        shown = tuple(a.smt if a.smt is not None else str(a.const) for a in args)
        key = f"|s:{self.g.number(e.func, shown)}|"
        if key not in self.g.constants:
            sym = SYMBOLS[e.func]
            self.g.constants[key] = SymbolRef(key, e.func, shown, SymbolKind.STRUCTURE, sym.result)
        return Term(SYMBOLS[e.func].result, None, key)

    def define(self, d: Definition, args: list[Term]) -> Term:
        if d.name in self.left_open:
            return self._left_open(d, args)
        key: tuple[str, tuple[Py, ...]] | None = None
        for a in args:
            if a.smt is not None:
                break
        else:
            key = (d.name, tuple([a.const for a in args]))  # type: ignore[misc]
            cached = self.def_cache.get(key)
            if cached is not None:
                return cached
        place = recurrence_place(d)
        if place is not None:
            return self._recurrence(d, args, place, key)
        known = self.opened.get(d.name)
        if known is None or known[0] is not d:
            known = self.opened[d.name] = (d, [name for name, _ in d.params], self.fn(d.body))
        result = known[2](dict(zip(known[1], args)))
        if key is not None:
            if result.smt is not None and len(result.smt) > SHARE_LENGTH:
                result = self.share(f"{d.name}({','.join(map(str, key[1]))})", result)
            self.def_cache[key] = result
        return result

    def _left_open(self, d: Definition, args: list[Term]) -> Term:
        """A definition left open applied to `args`: a constant of its own for that application, which the
        solver may give any value of the definition's result (the same in both copies of the outcomes)."""
        shown = tuple(a.smt if a.smt is not None else str(a.const) for a in args)
        key = f"|s:{self.g.number('left open ' + d.name, shown)}|"
        if key not in self.g.constants:
            self.g.constants[key] = SymbolRef(key, d.name, shown, SymbolKind.STRUCTURE, d.result)
            if d.result == "step":
                self.g.background.append(f"(and (<= 0 {key}) (<= {key} {self.n_steps}))")
            elif d.result == "turn":
                self.g.background.append(f"(and (<= 1 {key}) (<= {key} {self.turns}))")
            elif d.result in self.g.names:
                self.g.background.append(f"(and (<= 0 {key}) (< {key} {len(self.g.names[d.result])}))")
        return Term(d.result, None, key)

    def _recurrence(self, d: Definition, args: list[Term], place: int,
                    key: tuple[str, tuple[Py, ...]] | None) -> Term:
        """A recurrence applied to `args`: its start value outside the timeline; at a step the solver decides, by
        cases over the steps; otherwise from the step before, each step up to this one worked out in turn (from
        the first not yet known), so the value at the last step never waits on a chain of calls as long as the
        timeline."""
        step = args[place]
        if step.smt is not None:
            text = value_smt(RECURRENCE_START[d.result])
            for v in reversed(range(self.n_steps)):
                fixed = list(args)
                fixed[place] = Term("step", v)
                text = f"(ite (= {step.smt} {v}) {self.smt(self.define(d, fixed))} {text})"
            return Term(d.result, None, text)
        assert key is not None
        at = step.const
        assert isinstance(at, int) and not isinstance(at, bool)
        if not 0 <= at < self.n_steps:
            return Term(d.result, RECURRENCE_START[d.result])
        first = at
        while first > 0 and (d.name, key[1][:place] + (first - 1,) + key[1][place + 1:]) not in self.def_cache:
            first -= 1
        for t in range(first, at + 1):
            fixed = list(args)
            fixed[place] = Term("step", t)
            self._define_at(d, fixed, (d.name, key[1][:place] + (t,) + key[1][place + 1:]))
        return self.def_cache[key]

    def _define_at(self, d: Definition, args: list[Term], key: tuple[str, tuple[Py, ...]]) -> Term:
        """The body of `d` on known `args`, named when long, and kept under `key`."""
        known = self.opened.get(d.name)
        if known is None or known[0] is not d:
            known = self.opened[d.name] = (d, [name for name, _ in d.params], self.fn(d.body))
        result = known[2](dict(zip(known[1], args)))
        if result.smt is not None and len(result.smt) > SHARE_LENGTH:
            result = self.share(f"{d.name}({','.join(map(str, key[1]))})", result)
        self.def_cache[key] = result
        return result

    def share(self, name: str, term: Term) -> Term:
        """A long term written once: a constant of its own, defined equal to the term."""
        const = f"|{self.prefix}d:{self.g.number(name, ())}|"
        if const not in self.g.shared:
            self.g.shared[const] = term.smt  # type: ignore[assignment]
            self.g.derived[const] = term.type
            self.g.background.append(f"(= {const} {term.smt})")
        return Term(term.type, None, const)

    # -- rules -------------------------------------------------------------------------
    def show(self, sort: str, value: Py) -> str:
        if sort == "step":
            return self.sc.step_label(int(value))
        return str(value)

    def instances(self, rule: Rule) -> Iterator[tuple[RuleInstance, Term]]:
        """Each instance of `rule` that does not hold whatever happens, with its body, in binding order.

        Bindings are made one variable at a time; a condition of the rule's guard that the
        structure or the facts fold to false drops every binding that extends the ones made so far, without
        building them (see `_plan`). The instances are all made before the first is given.
        """
        names, stages = self._plan(rule)
        domains = [self.domain_terms[sort] for _, sort in rule.params]
        if not all(domains):
            return iter(())
        shown = [self._shown(sort) for _, sort in rule.params]
        depth = len(names)
        env: Env = {}
        terms: list[Term] = []
        labels: list[str] = []
        found: list[tuple[RuleInstance, Term]] = []

        # The recursion is passed the function itself: a function that named itself would be in a cycle with
        # its closure, which would keep `found` until garbage is collected.
        def bindings(again: Callable[..., None], level: int, guarded: bool) -> None:
            if guarded and stages[level]:
                held = self._holds(stages[level], env)
                if held is None:
                    return
                guarded = held
            if level == depth:
                try:
                    body = self.compile(rule.body, env)
                except EncodingError as exc:
                    raise self._grounding_error(rule, names, terms, exc) from None
                if body.smt is None and body.const:
                    if self.fold_inputs and rule.id not in self.g.held_by_inputs and self._named_body(rule, env):
                        self.g.held_by_inputs.add(rule.id)
                    return
                found.append((RuleInstance(rule, tuple(zip(names, labels))), body))
                return
            name = names[level]
            terms.append(domains[level][0])
            labels.append("")
            for value, label in zip(domains[level], shown[level]):
                env[name] = terms[level] = value
                labels[level] = label
                again(again, level + 1, guarded)
            terms.pop()
            labels.pop()
            del env[name]

        try:
            bindings(bindings, 0, True)
        except _GuardError as exc:
            first = list(terms) + [d[0] for d in domains[len(terms):]]
            raise self._grounding_error(rule, names, first, exc.error) from None
        return iter(found)

    def _named_body(self, rule: Rule, env: Env) -> bool:
        """Whether the body of `rule` at the binding `env`, which reads the pinned inputs as their values and
        holds whatever happens, is a solver term when it names the inputs (grounding without `fold` keeps it).
        It is compiled beside the grounding, into tables of its own, so the grounding gains nothing."""
        kept = self.g, self.refs, self.def_cache
        if self.plain is None:
            self.plain = (Grounding(self.g.names, steps=self.g.steps), {}, {})
        self.g, self.refs, self.def_cache = self.plain
        self.fold_inputs = False
        try:
            body = self.compile(rule.body, env)
        finally:
            self.fold_inputs = True
            self.g, self.refs, self.def_cache = kept
        return body.smt is not None or not body.const

    def _shown(self, sort: str) -> list[str]:
        """How an instance's label shows each value of `sort` (`domain_terms[sort]`, in order)."""
        known = self.shown.get(sort)
        if known is None:
            known = self.shown[sort] = [self.show(t.type, t.const) for t in self.domain_terms[sort]]  # type: ignore[arg-type]
        return known

    def weight(self, rule: Rule) -> int:
        """How many bindings of `rule` `instances` compiles, without compiling them.

        The guard's conditions are weighed as `instances` weighs them, the last variable's too (a rule
        bound over an attempt and a step whose guard keeps the steps after the attempt is counted as
        it is grounded). A condition that cannot be weighed (an encoding error, reported by grounding)
        is counted as holding.
        """
        names, stages = self._plan(rule)
        domains = [self.domain_terms[sort] for _, sort in rule.params]
        depth = len(names)
        sizes = [math.prod(len(d) for d in domains[k:]) for k in range(depth + 1)]
        if not sizes[0]:
            return 0
        env: Env = {}

        def count(again: Callable[..., int], level: int, guarded: bool) -> int:  # passed itself (see `instances`)
            if guarded and stages[level]:
                try:
                    held = self._holds(stages[level], env)
                except _GuardError:
                    held = False
                if held is None:
                    return 0
                guarded = held
            if level >= depth or not guarded or not any(stages[level + 1:]):
                return sizes[level]
            total = 0
            for value in domains[level]:
                env[names[level]] = value
                total += again(again, level + 1, guarded)
            del env[names[level]]
            return total

        return count(count, 0, True)

    def _holds(self, conditions: tuple[Fn, ...], env: Env) -> bool | None:
        """None if one of `conditions` folds to false; else whether all fold to true (False: one is a solver term)."""
        for condition in conditions:
            try:
                v = condition(env)
            except EncodingError as exc:
                raise _GuardError(exc) from None
            if v.smt is not None:
                return False
            if not v.const:
                return None
        return True

    def _grounding_error(self, rule: Rule, names: list[str], terms: list[Term], exc: EncodingError) -> EncodingError:
        label = RuleInstance(rule, self.binding(names, tuple(terms))).label
        return EncodingError(f"{exc.message} (while grounding {label} for {self.sc.path})", exc.location)

    # A rule `implies(guard, body)` holds whatever happens at every binding where its guard folds
    # to false, and a guard that is a conjunction folds to false as soon as one condition does.
    # The conditions at the head of the guard that read only structure and inputs (no outcome or
    # choice) are weighed as soon as the variables they read are bound, by the folder (`_Folder`),
    # which reads the inputs the facts pin as their values and declares nothing in the grounding: so
    # leaving out a binding they fold to false changes nothing else, and its instance holds wherever
    # the facts do.
    def _plan(self, rule: Rule) -> tuple[list[str], tuple[tuple[Fn, ...], ...]]:
        """The rule's variables, and for each k the guard's conditions to weigh once the first k are bound."""
        entry = self.plans.get(id(rule))
        if entry is not None and entry[0] is rule:
            return entry[1]
        names = [n for n, _ in rule.params]
        position = {n: i + 1 for i, n in enumerate(names)}
        stages: list[list[Fn]] = [[] for _ in range(len(names) + 1)]
        level = 0
        for fn, reads in self._conditions(self._guard(rule.body), None, {n: frozenset((n,)) for n in names}):
            if reads is None:
                break
            level = max([level, *(position[n] for n in reads)])
            stages[level].append(fn)
        plan = names, tuple(tuple(s) for s in stages)
        self.plans[id(rule)] = (rule, plan)
        return plan

    def _guard(self, body: Expr) -> list[Expr]:
        """The guards of `implies(g1, implies(g2, ...))`, outermost first: the body holds if one folds to false."""
        guards = []
        while isinstance(body, Call) and body.func == "implies":
            guards.append(body.args[0])
            body = body.args[1]
        return guards

    def _conditions(self, es: list[Expr], outer: Outer | None,
                    scope: dict[str, frozenset[str] | None]) -> Iterator[tuple[Fn, frozenset[str] | None]]:
        """The conditions of the conjunctions `es`, in the order grounding meets them, with the rule variables each reads.

        `outer` makes the environment the expressions are read in (a definition's parameters) from
        the rule's; `scope` gives the rule variables each name there reads (None: a solver term).
        Definitions whose arguments read only structure are opened up.
        """
        for e in es:
            reads = self._reads(e, scope)
            if reads is None and isinstance(e, BoolOp) and e.op == "and":
                yield from self._conditions(list(e.operands), outer, scope)
                continue
            if (reads is None and isinstance(e, Call) and e.func in self.rb.definitions
                    and recurrence_place(self.rb.definitions[e.func]) is None):
                arg_reads = [self._reads(a, scope) for a in e.args]
                if all(r is not None for r in arg_reads):
                    d = self.rb.definitions[e.func]
                    yield from self._conditions([d.body], self._params(d, e, outer),
                                                {p: r for (p, _), r in zip(d.params, arg_reads)})
                    continue
            f = self._reader.fn(e)
            yield (f if outer is None else self._within(f, outer, _free_names(e))), reads

    def _params(self, d: Definition, call: Call, outer: Outer | None) -> Outer:
        """The parameters of `d` (those asked for) as `call` gives them, from the rule's environment."""
        args = {p: (self._reader.fn(a), _free_names(a)) for (p, _), a in zip(d.params, call.args)}

        def params(env: Env, needed: frozenset[str]) -> Env:
            wanted = [(p, *args[p]) for p in needed if p in args]
            if outer is not None:
                env = outer(env, frozenset().union(*(names for _, _, names in wanted)))
            return {p: f(env) for p, f, _ in wanted}
        return params

    @staticmethod
    def _within(f: Fn, outer: Outer, needed: frozenset[str]) -> Fn:
        return lambda env: f(outer(env, needed))

    def _reads(self, e: Expr, scope: dict[str, frozenset[str] | None]) -> frozenset[str] | None:
        """The rule variables `e` reads, or None if it reads what a guard cannot be weighed on before the solver
        runs (an outcome or a choice; an input too with free structure)."""
        if isinstance(e, Name):
            return scope.get(e.id, frozenset())
        parts: list[tuple[Expr, dict[str, frozenset[str] | None]]] = []
        if isinstance(e, Quant):
            inner = {**scope, e.var: frozenset()}
            parts = [(e.body, inner)] + ([(e.cond, inner)] if e.cond is not None else [])
        else:
            if isinstance(e, Call) and e.func != "implies":
                if e.func in self.rb.definitions:
                    if not self._structural(self.rb.definitions[e.func]):
                        return None
                elif SYMBOLS[e.func].kind not in self._known_kinds:
                    return None
            parts = [(c, scope) for c in children(e)]
        found: frozenset[str] = frozenset()
        for part, where in parts:
            r = self._reads(part, where)
            if r is None:
                return None
            found |= r
        return found

    @property
    def _reader(self) -> _Grounder:
        """What compiles a guard's conditions: the folder, which reads pinned inputs as their values, or this
        grounder itself with free structure."""
        return self if self.folder is None else self.folder

    @property
    def _known_kinds(self) -> tuple[SymbolKind, ...]:
        """The kinds of symbol whose values a guard's condition may be weighed on before the solver runs."""
        return (SymbolKind.STRUCTURE,) if self.free_structure else (SymbolKind.STRUCTURE, SymbolKind.INPUT)

    def _structural(self, d: Definition) -> bool:
        """Whether the definition reads only what a guard can be weighed on (see `_reads`) and its parameters."""
        if d.name in self.left_open:
            return False
        known = self.structural.get(d.name)
        if known is None:
            self.structural[d.name] = True  # a recurrence reads structure only if the rest of its body does
            known = self.structural[d.name] = self._reads(d.body, {p: frozenset() for p, _ in d.params}) is not None
        return known

    def binding(self, names: list[str], terms: tuple[Term, ...]) -> tuple[tuple[str, str], ...]:
        return tuple((n, self.show(t.type, t.const)) for n, t in zip(names, terms))  # type: ignore[arg-type]


def _free_names(e: Expr) -> frozenset[str]:
    """The names `e` reads that no quantifier inside it binds."""
    if isinstance(e, Name):
        return frozenset((e.id,))
    found = frozenset().union(*(_free_names(c) for c in children(e)))
    return found - {e.var} if isinstance(e, Quant) else found


class _Folder(_Grounder):
    """Weighs the conditions of rules' guards with every input the case's facts pin read as its value.

    A binding whose guard the pinned inputs fold to false is left out: its instance holds wherever the
    facts hold, and every check asserts the facts (a correction set keeps them too). What else the
    conditions meet (an outcome, a choice, an input no fact pins) stays a solver term, declared in a
    grounding of the folder's own, so reading a guard never adds to the real one.
    """

    def __init__(self, rules: RuleBase) -> None:
        super().__init__(rules)
        self.pinned: dict[tuple[str, tuple[str, ...]], Py] = {}

    def begin(self, main: _Grounder) -> None:
        """Read guards over the scenario `main` has just started grounding."""
        for name in ("sc", "prefix", "n_steps", "turns", "domains", "domain_terms", "constants", "modifiers",
                     "cards", "attempts", "abilities", "phase_end", "structures", "shown"):
            setattr(self, name, getattr(main, name))
        self.g = Grounding(main.g.names, steps=main.g.steps)
        self.def_cache, self.refs = {}, {}
        self.attempts_at = None
        values: dict[tuple[str, tuple[str, ...]], set[Py]] = {}
        for fact in main.sc.facts:
            if fact.symbol in SYMBOLS and SYMBOLS[fact.symbol].kind is SymbolKind.INPUT:
                values.setdefault((fact.symbol, tuple(fact.args)), set()).add(fact.value)  # type: ignore[arg-type]
        # Facts that disagree on one input pin nothing: the case conflicts, and the solver shows it.
        self.pinned = {key: next(iter(v)) for key, v in values.items() if len(v) == 1}

    def ref(self, name: str, args: tuple[Py, ...], loc: Location) -> Term:
        if SYMBOLS[name].kind is SymbolKind.INPUT:
            value = self.pinned.get((name, tuple(map(str, args))))
            if value is not None:
                return Term(SYMBOLS[name].result, value)
        return super().ref(name, args, loc)


_Grounder._builders = {
    Const: _Grounder._const, Name: _Grounder._name, Not: _Grounder._not, Neg: _Grounder._neg,
    BoolOp: _Grounder._boolop, Compare: _Grounder._compare, Arith: _Grounder._arith,
    IfElse: _Grounder._ifelse, InSet: _Grounder._inset, Quant: _Grounder._quant, Call: _Grounder._call,
}


_GROUNDERS: dict[int, tuple[RuleBase, _Grounder]] = {}


def _grounder(rules: RuleBase) -> _Grounder:
    """The grounder of `rules`, built once per process so its closures are built once too."""
    entry = _GROUNDERS.get(id(rules))
    if entry is None or entry[0] is not rules:
        entry = _GROUNDERS[id(rules)] = (rules, _Grounder(rules))
    return entry[1]


def universe_names(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    """The names of the scenario's universe, by sort: its players, cards, abilities, attempts and modifiers,
    and the value sets' members."""
    names = dict(VALUE_SETS)
    names["player"] = scenario.players
    names["card"] = tuple(c.name for c in scenario.cards)
    names["ability"] = tuple(a.id for a in scenario.abilities)
    names["attempt"] = tuple(a.id for a in scenario.attempts)
    names["modifier"] = tuple(m.id for m in scenario.modifiers)
    return names


def _question(g: Grounding, name: str, term: Term) -> Term:
    """Name a question's term by a constant of its own, so its value can be read from a model."""
    if term.smt is None:
        return term
    const = smt_symbol(name)
    g.derived[const] = term.type
    g.background.append(f"(= {const} {term.smt})")
    return Term(term.type, None, const)


def _question_terms(gr: _Grounder, q: Question) -> list[Term]:
    """A question's terms, unnamed: one, or one per ability for an activation order."""
    if q.type == "sequence":
        assert isinstance(q.expr, Call)
        attempt = gr.compile(q.expr.args[0], {})
        if attempt.smt is not None:
            raise EncodingError("activation_order(...) needs a named attempt", q.loc)
        return [gr.ref("activation_rank", (attempt.const, a.id), q.loc) for a in gr.sc.abilities]  # type: ignore[arg-type]
    return [gr.compile(q.expr, {})]


def _question_parts(gr: _Grounder, g: Grounding, q: Question, prefix: str,
                    terms: list[Term] | None = None) -> tuple[tuple[Term, ...], str]:
    """A question's terms (`terms`, when already compiled), each named by a constant of its own, and their
    SMT-LIB text."""
    if terms is None:
        terms = _question_terms(gr, q)
    text = " ".join(t.smt for t in terms if t.smt is not None)
    if len(terms) == 1:
        return (_question(g, f"{prefix}:{q.name}", terms[0]),), text
    return tuple(_question(g, f"{prefix}:{q.name}#{i}", t) for i, t in enumerate(terms)), text


def _ground_rules(gr: _Grounder, rules: list[Rule]) -> Iterator[tuple[RuleInstance, str]]:
    """Every rule instance's body, in rule order; instances that hold whatever happens are left out."""
    for rule in rules:
        for inst, body in gr.instances(rule):
            yield inst, "false" if body.smt is None else body.smt


# Grounding compiles the rule bodies of the bindings whose guard can hold (`rule_instances` bounds
# how many); past this many the Python work alone takes a minute and the solver's problem gigabytes,
# and the solver does not answer within its default timeout, so the case is answered `unknown` at
# once instead. Generated cases (benchmarks/scenarios.py) weigh: 20 cards over 20 turns some 83,000,
# 50 over 20 some 212,000 (both grounded); 100 over 20 some 499,000 and 200 over 20 some 1,360,000
# (not grounded). Most of a large case's weight is the rules over every card and step of the zones, and
# those over every attempt that enters battle and pair of abilities of the ability activation order.
MAX_RULE_INSTANCES = 450_000


def _weigh(gr: _Grounder, scenario: Scenario, rules: RuleBase) -> int:
    return sum(gr.weight(rule) for rule in rules.active_rules(scenario.interpretations))


def rule_instances(scenario: Scenario, rules: RuleBase) -> int:
    """How many bindings of rule variables grounding `scenario` compiles.

    Bindings whose guard the structure or the facts fold to false are not counted (see `_Grounder.instances`);
    those whose body folds to true once compiled are.
    """
    return _weigh(_grounder(rules).start(scenario, "o", Grounding(universe_names(scenario))), scenario, rules)


def _too_large(scenario: Scenario, count: int) -> str:
    if count <= MAX_RULE_INSTANCES:
        return ""
    return (f"the case is too large to ground: its {len(scenario.cards)} cards, {len(scenario.attempts)} attempts and "
            f"{len(scenario.steps)} steps give {count:,} rule instances to weigh, more than the limit of "
            f"{MAX_RULE_INSTANCES:,}")


def too_large(scenario: Scenario, rules: RuleBase) -> str:
    """Why `scenario` is too large to ground (the limit it hits), or an empty string."""
    return _too_large(scenario, rule_instances(scenario, rules))


_KEPT: list[tuple[Scenario, RuleBase, bool, Grounding]] = []


def ground_and_keep(scenario: Scenario, rules: RuleBase, keep: list[GroundedBase] | None = None,
                    fold: bool = False) -> Grounding:
    """`ground`, with the grounding kept for the next `ground` of this very scenario and rule base with the same
    `fold`, which takes it instead of grounding again (the caller only reads it). With `keep`, the
    scenario's base is appended to it (see `ground`)."""
    g = ground(scenario, rules, keep=keep, fold=fold)
    _KEPT[:] = [(scenario, rules, fold, g)]
    return g


class GroundingMemo(NamedTuple):
    """What grounding a scenario worked out on the way: definitions applied to known arguments, symbol
    applications and structure values."""

    definitions: dict[tuple[str, tuple[Py, ...]], Term]
    refs: dict[tuple[str, tuple[Py, ...]], Term]
    structures: dict[tuple[str, tuple[Py, ...]], Term]


class GroundedBase(NamedTuple):
    """A scenario's rules and facts as grounding left them before its questions, kept so that the same
    scenario with other questions is grounded from here (see `ground`)."""

    scenario: Scenario  # without its questions
    rules: RuleBase
    grounding: Grounding  # a copy of its own, before any question
    memo: GroundingMemo
    folded: bool = False  # the rule bodies read the inputs the facts pin as their values (`ground`'s `fold`)

    def serves(self, scenario: Scenario, rules: RuleBase) -> bool:
        """Whether `scenario` is this one, whatever its questions, over the same rule base."""
        return rules is self.rules and scenario._replace(questions=()) == self.scenario


def ground(scenario: Scenario, rules: RuleBase, base: GroundedBase | None = None,
           keep: list[GroundedBase] | None = None, fold: bool = False) -> Grounding:
    """Ground the rules in force for `scenario`, its facts and its questions.

    With a `base` that serves the scenario (see `GroundedBase.serves`), only the questions are grounded,
    on a copy of the base: the grounding is the one grounding the scenario afresh gives (its rules and
    facts come first, and every constant is numbered in the order it is met). With `keep`, the base of
    this scenario is appended to it. Raises `SolverError` when the case is larger than `too_large` allows.

    With `fold` (and no `base`), the rule instances read every input a fact pins as its
    value, as the guards do: the inputs stay solver constants pinned by the facts, but no rule
    body names them, and an instance the pinned values make hold whatever happens is left out (its rule is
    in the grounding's `held_by_inputs` when grounding without `fold` keeps it). Every
    instance is then the one grounded without `fold` as it reads where the facts hold, so a check that
    asserts the facts gets the same answer; a conflict minimised over such instances could leave out the
    facts it rests on, so conflicts are found on the grounding without `fold` (see `engine`). A base kept
    with `fold` is a folded one (`GroundedBase.folded`), and so is a grounding made from it.
    """
    fold = fold and base is None
    if _KEPT:
        kept = _KEPT.pop()
        if kept[0] is scenario and kept[1] is rules and kept[2] == fold:
            return kept[3]
    if base is not None and base.serves(scenario, rules):
        g = base.grounding.copy()
        gr = _grounder(rules).start(scenario, "o", g)
        gr.resume(base.memo)
        _ground_questions(gr, g, scenario)
        return g
    # Grounding makes many small objects and few cycles: the cyclic collector, run as often as it is by
    # default, would walk them again and again, so it waits until grounding is done (the garbage of one
    # grounding is collected after it).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _ground(scenario, rules, keep, fold)
    finally:
        if collecting:
            gc.enable()


def _ground_questions(gr: _Grounder, g: Grounding, scenario: Scenario) -> None:
    for q in scenario.questions:
        g.questions[q.name], g.question_terms[q.name] = _question_parts(gr, g, q, "q")


def _ground(scenario: Scenario, rules: RuleBase, keep: list[GroundedBase] | None = None,
            fold: bool = False) -> Grounding:
    g = Grounding(universe_names(scenario), steps=len(scenario.steps))
    gr = _grounder(rules).start(scenario, "o", g)
    gr.fold_inputs = fold
    try:
        return _ground_with(gr, g, scenario, rules, keep)
    finally:
        gr.fold_inputs = False


def _ground_with(gr: _Grounder, g: Grounding, scenario: Scenario, rules: RuleBase,
                 keep: list[GroundedBase] | None) -> Grounding:
    active = rules.active_rules(scenario.interpretations)
    # Weighing the guards costs a pass over the rules; a case whose every binding is within the limit needs none.
    every = sum(math.prod(len(gr.domain_terms[sort]) for _, sort in rule.params) for rule in active)
    reason = "" if every <= MAX_RULE_INSTANCES else _too_large(scenario, _weigh(gr, scenario, rules))
    if reason:
        raise SolverError(reason)
    for inst, body in _ground_rules(gr, list(active)):
        g.tracked.append(Tracked(f"|t:{len(g.tracked)}|", body, inst))  # as smt_symbol names it
    for fact in scenario.facts:
        sym = SYMBOLS[fact.symbol]
        term = gr.constant(fact.symbol, tuple(fact.args), fact.loc)
        name = smt_symbol(f"f:{len(g.tracked)}")
        fact_body = f"(= {term.smt} {value_smt(g.encode(sym.result, fact.value))})"  # type: ignore[arg-type]
        g.tracked.append(Tracked(name, fact_body, fact))
    folded = gr.fold_inputs
    if folded:
        # A question reads the inputs as solver constants, as without `fold`: one an input decides is still
        # answered by the solver, not as fixed by the scenario's structure.
        gr.fold_inputs = False
        gr.refs, gr.def_cache = {}, {}
    if keep is not None:
        keep.append(GroundedBase(scenario._replace(questions=()), rules, g.copy(), gr.memo(), folded))
    _ground_questions(gr, g, scenario)
    return g


class RuleGrounder:
    """Grounds chosen rules of a rule base (a variant of the one a scenario was grounded with) over that
    scenario, beside its grounding: the constants and shared terms they need are added to the grounding,
    named as grounding the whole scenario names them, so the bodies can be asserted beside its own. One
    grounder serves every scenario, so the rules' expressions are compiled once."""

    def __init__(self, rules: RuleBase, free_structure: bool = False, left_open: frozenset[str] = frozenset()) -> None:
        """With `free_structure`, structure symbols (the step of an attempt, the phase of a step, ...) are not
        read off the scenario but left to the solver, each application a constant within its result's range:
        the instances then hold for every structure over the scenario's players, cards, attempts, steps and
        turns at once (no binding is left out for its structure, so there are many more). The definitions
        named in `left_open` are left to the solver too, each application a constant of its own (they must
        have names the scenario's own grounding does not use: see `ground`)."""
        self._gr = _Grounder(rules)  # not the shared one of `rules`: a variant is met for a while only
        self._gr.free_structure = free_structure
        self._gr.left_open = left_open

    def ground(self, scenario: Scenario, g: Grounding, chosen: list[Rule], seen: GroundingMemo | None = None
               ) -> list[tuple[RuleInstance, str]]:
        """The instances of `chosen` over `scenario`, whose grounding is `g`. `seen`: what grounding the
        scenario with the original rule base worked out, reused for every definition the variant keeps
        (a definition it changes must have another name). Raises `EncodingError` when a rule cannot be
        grounded over the scenario."""
        gr = self._gr.start(scenario, "o", g)
        if seen is not None:
            gr.resume(seen)
        return list(_ground_rules(gr, chosen))

    def ground_question(self, scenario: Scenario, g: Grounding, q: Question, name: str,
                        seen: GroundingMemo | None = None) -> tuple[Term, ...] | None:
        """The terms of the question `q` (an expression of this grounder's rule base) over `scenario`, whose
        grounding is `g`, each named by a constant of its own as `name`'s parts, as the scenario's questions
        are; None when they are the very terms `g` already has for the question of `q`'s name. `seen` as for
        `ground`. Raises `EncodingError` when the question cannot be grounded over the scenario."""
        gr = self._gr.start(scenario, "o", g)
        if seen is not None:
            gr.resume(seen)
        terms = _question_terms(gr, q)
        text = " ".join(t.smt for t in terms if t.smt is not None)
        known = tuple(t.const for t in terms)
        if text == g.question_terms.get(q.name) and known == tuple(t.const for t in g.questions.get(q.name, ())):
            return None
        return _question_parts(gr, g, q._replace(name=name), "q", terms)[0]


def ground_with_memo(scenario: Scenario, rules: RuleBase, base: GroundedBase | None = None
                     ) -> tuple[Grounding, GroundingMemo]:
    """`ground` (from `base`, when it serves the scenario), and what it worked out on the way (for
    `RuleGrounder.ground`)."""
    g = ground(scenario, rules, base)
    gr = _grounder(rules)
    return g, gr.memo()


_FIRST_COPY = re.compile(r"\|(o|od|q):")


def copied(text: str) -> str:
    """SMT-LIB text over the first copy of the outcomes, renamed to the second copy (see `second_copy`)."""
    # No two of the three prefixes `_FIRST_COPY` matches overlap and no renamed one holds another, so
    # renaming them one after another renames exactly what the pattern matches.
    return text.replace("|o:", "|o2:").replace("|od:", "|o2d:").replace("|q:", "|q2:")


def second_copy(g: Grounding) -> list[str]:
    """A second copy of every rule over fresh outcome constants (inputs and choices shared).

    The copy is the first copy's text renamed: outcome constants `|o:N|` become `|o2:N|`, shared
    terms `|od:N|` become `|o2d:N|` and question terms `|q:name|` become `|q2:name|`. Adds the copy's
    constants, shared terms, background and question terms (named `@2:<question>`) to `g`, and
    returns the copy's rule bodies to assert untracked.
    """
    rename = copied

    for name, ref in list(g.constants.items()):
        if name.startswith("|o:"):
            renamed = rename(name)
            g.constants[renamed] = ref._replace(smt=renamed)
    for name, type_name in list(g.derived.items()):
        if name.startswith(("|od:", "|q:")):
            g.derived[rename(name)] = type_name
    for name, term in list(g.shared.items()):
        g.shared[rename(name)] = rename(term)
    g.background += [rename(b) for b in g.background if _FIRST_COPY.search(b)]
    for q, parts in list(g.questions.items()):
        if not q.startswith("@2:"):
            g.questions["@2:" + q] = tuple(t if t.smt is None else t._replace(smt=rename(t.smt)) for t in parts)
    return [rename(t.body) for t in g.tracked if isinstance(t.origin, RuleInstance)]


_SPLIT = re.compile(r"(\|[^|]*\|)")  # splits SMT-LIB text around its constants' names


def narrowed(g: Grounding, fixed: Mapping[str, bool | int]) -> Grounding:
    """`g` with every constant of `fixed` (those that take one value in every outcome, see `Session.forced`) read
    as its value: its assertions and shared terms' definitions with those values written in, the ones that then
    name no constant left out (they hold wherever the constants take those values), and those constants no longer
    declared. A check of it has the answer a check of `g` has, and its outcomes with `fixed` are `g`'s."""
    table = {n: value_smt(v) for n, v in fixed.items()}
    texts = [t.body for t in g.tracked] + g.background
    parts = _SPLIT.split("\0".join(texts))  # no SMT-LIB text holds a NUL
    read = "".join([table.get(part, part) for part in parts]).split("\0")
    assert len(read) == len(texts)
    tracked = [t if body == t.body else Tracked(t.name, body, t.origin)
               for t, body in zip(g.tracked, read) if "|" in body]
    background = [b for b in read[len(g.tracked):] if "|" in b]
    return g.copy(constants={n: r for n, r in g.constants.items() if n not in table},
                  derived={n: t for n, t in g.derived.items() if n not in table},
                  shared={n: t for n, t in g.shared.items() if n not in table},
                  background=background, tracked=tracked)


def copy_since(g: Grounding, background_start: int) -> None:
    """Extend the second copy (see `second_copy`) to what `g` gained since it was made: constants, shared
    terms, and the background from position `background_start` on."""
    for name, ref in list(g.constants.items()):
        if name.startswith("|o:") and copied(name) not in g.constants:
            g.constants[copied(name)] = ref._replace(smt=copied(name))
    for name, type_name in list(g.derived.items()):
        if name.startswith(("|od:", "|q:")) and copied(name) not in g.derived:
            g.derived[copied(name)] = type_name
    for name, term in list(g.shared.items()):
        if name.startswith("|od:") and copied(name) not in g.shared:
            g.shared[copied(name)] = copied(term)
    g.background += [copied(b) for b in g.background[background_start:] if _FIRST_COPY.search(b)]
