"""Type checking of rule-language expressions against the vocabulary."""

from __future__ import annotations

__all__ = ["Definition", "TypeScope", "infer", "NUMERIC", "compatible", "recurrence_place", "recurrence_form",
           "RECURRENCE_START"]

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from ..errors import InputError, Location
from ..vocabulary import DOMAINS, MEMBER_OF, ORDERED_SORTS, SYMBOLS
from ..yamlsource import did_you_mean
from .syntax import Arith, BoolOp, Call, Compare, Const, Expr, IfElse, InSet, Name, Neg, Not, Quant, walk

NUMERIC = ("int", *ORDERED_SORTS)
BUILTINS = {"implies": (("bool", "bool"), "bool")}
# Forms a case's questions may ask besides expressions: the whole activation order of an attempt.
QUESTION_FORMS = {"activation_order": (("attempt",), "sequence")}


class Definition(NamedTuple):
    """A named, parameterised expression that rules may use like a symbol."""

    name: str
    params: tuple[tuple[str, str], ...]
    body: Expr
    result: str
    cites: tuple[str, ...]
    loc: Location


# A recurrence (a definition that applies itself at the step before) has no value of its own outside the
# timeline: there, before the first step included, it is this value of its type.
RECURRENCE_START: dict[str, bool | int] = {"bool": False, "int": 0}


def recurrence_form(name: str, params: tuple[tuple[str, str], ...], body: Expr) -> tuple[int | None, str, Location | None]:
    """Where the definition `name(params) = body` goes back one step when it applies itself: the place of that
    step parameter, or None when it does not apply itself; with a message and its place when an application of
    itself is not one step back with its other arguments unchanged (`name(x, s - 1)`)."""
    place: int | None = None
    names = [p for p, _ in params]
    for e in walk(body):
        if not (isinstance(e, Call) and e.func == name):
            continue
        wrong = (f"{name} applies itself other than at the step before: a recurrence is written "
                 f"{name}({', '.join(p if sort != 'step' else p + ' - 1' for p, sort in params)}) "
                 "(one step parameter one less, the others unchanged)")
        if len(e.args) != len(params):
            return None, wrong, e.loc
        back = [i for i, (a, (p, sort)) in enumerate(zip(e.args, params))
                if sort == "step" and isinstance(a, Arith) and a.op == "-" and isinstance(a.left, Name)
                and a.left.id == p and isinstance(a.right, Const) and a.right.value == 1
                and not isinstance(a.right.value, bool)]
        same = all(isinstance(a, Name) and a.id == p for i, (a, p) in enumerate(zip(e.args, names)) if i not in back)
        if len(back) != 1 or not same or (place is not None and back[0] != place):
            return None, wrong, e.loc
        place = back[0]
    return place, "", None


_PLACES: dict[int, tuple[Definition, int | None]] = {}


def recurrence_place(d: Definition) -> int | None:
    """The place of the step parameter along which the recurrence `d` goes back (it applies itself at `s - 1`
    there), or None when `d` does not apply itself."""
    known = _PLACES.get(id(d))
    if known is None or known[0] is not d:
        known = _PLACES[id(d)] = (d, recurrence_form(d.name, d.params, d.body)[0])
    return known[1]


@dataclass
class TypeScope:
    """What names mean where an expression is checked."""

    definitions: Mapping[str, Definition]
    constants: Mapping[str, str] = field(default_factory=dict)
    error: Callable[[str, Location], InputError] = InputError
    questions: bool = False


def compatible(expected: str, actual: str) -> bool:
    """Whether a value of type `actual` may stand where `expected` is wanted."""
    if expected == actual:
        return True
    return expected in NUMERIC and actual == "int"


def infer(expr: Expr, variables: Mapping[str, str], scope: TypeScope) -> str:
    """The type of `expr`; raises the scope's error at the offending node if it is ill-typed."""
    err = scope.error

    def want(e: Expr, expected: str, what: str) -> None:
        got = infer(e, variables, scope)
        if not compatible(expected, got):
            raise err(f"{what} must be {expected}, got {got}", e.loc)

    if isinstance(expr, Const):
        return "bool" if isinstance(expr.value, bool) else "int"
    if isinstance(expr, Name):
        if expr.id in variables:
            return variables[expr.id]
        if expr.id in scope.constants:
            return scope.constants[expr.id]
        if expr.id in MEMBER_OF:
            return MEMBER_OF[expr.id]
        sym = SYMBOLS.get(expr.id)
        if sym is not None and not sym.params:
            return sym.result
        if sym is not None or expr.id in scope.definitions:
            raise err(f"'{expr.id}' needs arguments: write {expr.id}(...)", expr.loc)
        known = [*variables, *scope.constants, *MEMBER_OF, *SYMBOLS, *scope.definitions]
        raise err(f"unknown name '{expr.id}'{did_you_mean(expr.id, known)}", expr.loc)
    if isinstance(expr, Not):
        want(expr.operand, "bool", "the operand of 'not'")
        return "bool"
    if isinstance(expr, Neg):
        want(expr.operand, "int", "the operand of '-'")
        return "int"
    if isinstance(expr, BoolOp):
        for operand in expr.operands:
            want(operand, "bool", f"each operand of '{expr.op}'")
        return "bool"
    if isinstance(expr, Arith):
        left = infer(expr.left, variables, scope)
        right = infer(expr.right, variables, scope)
        if left not in NUMERIC or right not in NUMERIC:
            raise err(f"'{expr.op}' needs numbers, steps or turns, got {left} and {right}", expr.loc)
        if left in ORDERED_SORTS and right == "int":
            return left
        if expr.op == "+" and left == "int" and right in ORDERED_SORTS:
            return right
        if left == right or (left == "int" and right == "int"):
            return "int"
        raise err(f"cannot combine {left} and {right} with '{expr.op}'", expr.loc)
    if isinstance(expr, Compare):
        left = infer(expr.left, variables, scope)
        right = infer(expr.right, variables, scope)
        if expr.op in ("==", "!="):
            if not (compatible(left, right) or compatible(right, left)):
                raise err(f"cannot compare {left} with {right}", expr.loc)
        elif left not in NUMERIC or right not in NUMERIC:
            raise err(f"'{expr.op}' compares numbers, steps or turns, got {left} and {right}", expr.loc)
        return "bool"
    if isinstance(expr, IfElse):
        want(expr.cond, "bool", "the condition")
        then = infer(expr.then, variables, scope)
        other = infer(expr.other, variables, scope)
        if compatible(then, other):
            return then
        if compatible(other, then):
            return other
        raise err(f"both branches must have one type, got {then} and {other}", expr.loc)
    if isinstance(expr, InSet):
        item = infer(expr.item, variables, scope)
        for option in expr.options:
            want(option, item, "each listed value")
        return "bool"
    if isinstance(expr, Quant):
        if expr.domain not in DOMAINS:
            raise err(f"unknown domain '{expr.domain}'{did_you_mean(expr.domain, DOMAINS)}", expr.loc)
        if expr.var in variables or expr.var in MEMBER_OF or expr.var in SYMBOLS:
            raise err(f"variable '{expr.var}' hides another name; pick a new one", expr.loc)
        inner = {**variables, expr.var: DOMAINS[expr.domain]}
        if expr.cond is not None:
            cond_type = infer(expr.cond, inner, scope)
            if cond_type != "bool":
                raise err(f"the 'if' condition must be bool, got {cond_type}", expr.cond.loc)
        body = infer(expr.body, inner, scope)
        if expr.kind == "sum":
            if body not in NUMERIC:
                raise err(f"the body of sum(...) must be a number, got {body}", expr.body.loc)
            return "int"
        if body != "bool":
            raise err(f"the body of {expr.kind}(...) must be bool, got {body}", expr.body.loc)
        return "int" if expr.kind == "count" else "bool"
    if isinstance(expr, Call):
        params: tuple[str, ...]
        if expr.func in BUILTINS:
            params, result = BUILTINS[expr.func]
        elif expr.func in QUESTION_FORMS and scope.questions:
            params, result = QUESTION_FORMS[expr.func]
        elif expr.func in SYMBOLS:
            params, result = SYMBOLS[expr.func].params, SYMBOLS[expr.func].result
        elif expr.func in scope.definitions:
            d = scope.definitions[expr.func]
            params, result = tuple(t for _, t in d.params), d.result
        else:
            known = [*BUILTINS, *SYMBOLS, *scope.definitions]
            raise err(f"unknown function '{expr.func}'{did_you_mean(expr.func, known)}", expr.loc)
        if len(expr.args) != len(params):
            raise err(f"{expr.func} takes {len(params)} argument(s), got {len(expr.args)}", expr.loc)
        for i, (arg, expected) in enumerate(zip(expr.args, params), 1):
            want(arg, expected, f"argument {i} of {expr.func}")
        return result
    raise err("unsupported expression", expr.loc)
