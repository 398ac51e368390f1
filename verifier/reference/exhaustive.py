"""Every question's verdict for a small scenario, found by enumerating assignments exhaustively.

Each outcome and choice application a rule instance or question could read takes, in turn,
every value of its sort; an assignment survives when every rule instance holds on it. Each
instance is evaluated (three-valued) whenever one of the applications it reads is assigned,
so a partial assignment is dropped as soon as some instance is false on it. The verdicts then
follow the design's semantics directly: no surviving assignment is a contradiction; one value
of a question over all of them is determined; two values for the same choices is ambiguous;
otherwise the value depends on the choices only.

A subtree whose every question value, with its choices, is already known to be possible is
skipped, so the search needs one surviving assignment per distinct answer, not all of them.
Nothing else is skipped: backjumping passes over only depths that cannot change why the
values below failed, so the enumeration stays exhaustive.
"""

from __future__ import annotations

__all__ = ["Answer", "exhaustive_answers"]

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..language.syntax import Call
from ..verdicts import Verdict
from ..vocabulary import SYMBOLS, SymbolKind
from .evaluator import Key, Reference, Value
from .residual import Residual, Residuals


class Answer(NamedTuple):
    """A question's verdict by enumeration, with its value when determined."""

    verdict: Verdict
    value: Any = None


def _time(ref: Reference, key: Key) -> int:
    """The step an application is about: its own step, or the step of the attempt it concerns."""
    name, args = key
    at = 0
    for param, a in zip(SYMBOLS[name].params, args):
        if param == "step":
            at = max(at, int(a))
        elif param == "attempt":
            at = max(at, ref.attempts[str(a)].step)
    return at


def _order(ref: Reference, deps: list[set[Key]], rest: set[Key]) -> list[Key]:
    """Applications in time order; within a step, those of the instance closest to complete first."""
    when = {k: _time(ref, k) for k in rest}
    order: list[Key] = []
    placed: set[Key] = set()
    remaining = [len(d) for d in deps]
    watch: dict[Key, list[int]] = {}
    for i, d in enumerate(deps):
        for k in d:
            watch.setdefault(k, []).append(i)

    def place(k: Key) -> None:
        placed.add(k)
        order.append(k)
        for j in watch.get(k, ()):
            remaining[j] -= 1

    def name(k: Key) -> tuple[str, tuple[str, ...]]:
        return k[0], tuple(map(str, k[1]))

    for t in sorted(set(when.values())):
        now = {k for k, w in when.items() if w == t}
        while now - placed:
            best = min((remaining[j], j) for k in now - placed for j in watch.get(k, [-1]) if j >= 0) \
                if any(watch.get(k) for k in now - placed) else None
            if best is None:
                for k in sorted(now - placed, key=name):
                    place(k)
                break
            for k in sorted((deps[best[1]] & now) - placed, key=name):
                place(k)
    return order


def exhaustive_answers(ref: Reference, limit: int = 200_000) -> dict[str, Answer] | None:
    """Each question's answer by exhaustive enumeration, or None when it needs more than `limit` tries."""
    sc = ref.sc
    folds = Residuals(ref)
    live: list[tuple[Callable[[Mapping[Key, Value]], Any], set[Key]]] = []
    for inst in ref.instances:
        held = folds.fold(inst.rule.body, dict(inst.env))
        if held is True:
            continue
        if held is False or not isinstance(held, Residual):
            return {q.name: Answer(Verdict.CONTRADICTION) for q in sc.questions}
        live.append((held.fn, set(held.keys)))
    asked: list[list[Any]] = []
    for q in sc.questions:
        if q.type == "sequence":
            assert isinstance(q.expr, Call)
            attempt = folds.fold(q.expr.args[0], {})
            rank = Call(q.expr.loc, "activation_rank", ())
            asked.append([folds.application(rank, (attempt, a)) for a in ref.domains["ability"]])
        else:
            asked.append([folds.fold(q.expr, {})])
    q_deps = [set().union(*(x.keys for x in parts if isinstance(x, Residual))) for parts in asked]
    every = set().union(*(d for _, d in live), *q_deps)
    choices = sorted((k for k in every if SYMBOLS[k[0]].kind is SymbolKind.CHOICE),
                     key=lambda k: (k[0], tuple(map(str, k[1]))))
    order = _order(ref, [d for _, d in live], every)
    place = {k: n for n, k in enumerate(order)}
    # Each instance is evaluated whenever one of its applications is assigned, with the
    # positions of all of them: when it fails, the ones assigned are the culprits.
    checks: list[list[tuple[Callable[[Mapping[Key, Value]], Any], tuple[int, ...]]]] = [[] for _ in order]
    unconditional: list[int] = []
    for i, (fn, d) in enumerate(live):
        if not d:
            unconditional.append(i)
        at = tuple(sorted(place[k] for k in d))
        for p in at:
            checks[p].append((fn, at))
    if any(live[i][0]({}) is not True for i in unconditional):
        return {q.name: Answer(Verdict.CONTRADICTION) for q in sc.questions}
    asked_at = {place[k] for k in set().union(*q_deps, choices)}
    known_at = max(asked_at, default=-1)
    # An instance that reads one application only narrows that application's values once, here.
    narrow: dict[Key, list[Callable[[Mapping[Key, Value]], Any]]] = {}
    for fn, d in live:
        if len(d) == 1:
            narrow.setdefault(next(iter(d)), []).append(fn)
    domains = [[v for v in ref.value_range(SYMBOLS[k[0]].result)
                if all(fn({k: v}) is not False for fn in narrow.get(k, ()))] for k in order]
    if not all(domains):
        return {q.name: Answer(Verdict.CONTRADICTION) for q in sc.questions}
    found: list[set[tuple[tuple[Value, ...], Any]]] = [set() for _ in sc.questions]
    asg: dict[Key, Value] = {}
    tries = 0

    def answers() -> list[tuple[tuple[Value, ...], Any]]:
        chosen = tuple(asg[k] for k in choices)
        out = []
        for parts, q in zip(asked, sc.questions):
            values = tuple(x.fn(asg) if isinstance(x, Residual) else x for x in parts)
            out.append((chosen, values if q.type == "sequence" else values[0]))
        return out

    def enter(depth: int) -> bool:
        """Whether the search goes on below `depth`; records the answers of a complete assignment."""
        if depth > known_at:
            keys = answers()
            if not any(key not in seen for key, seen in zip(keys, found)):
                return False
            if depth == len(order):
                for key, seen in zip(keys, found):
                    seen.add(key)
                return False
        return True

    # Depth-first with conflict-directed backjumping: each depth keeps the earlier depths that
    # its rejected values depend on; when its values run out, the search goes straight back to
    # the latest of them, since changing anything in between cannot help. After a complete
    # assignment, and where known answers cut a subtree short, every depth that made the
    # answers counts.
    # A depth entered again tries first the value that last passed its checks there.
    n = len(order)
    nxt = [0] * n
    blame: list[set[int]] = [set() for _ in range(n)]
    values = [list(d) for d in domains]
    saved: list[Any] = [d[0] for d in domains]
    depth = 0
    if n and enter(0):
        while depth >= 0:
            if nxt[depth] == len(values[depth]):
                culprits = blame[depth]
                back = max(culprits, default=-1)
                for j in range(back + 1, depth + 1):
                    del asg[order[j]]
                    blame[j] = set()
                if back >= 0:
                    blame[back] |= culprits - {back}
                depth = back
                continue
            value = asg[order[depth]] = values[depth][nxt[depth]]
            nxt[depth] += 1
            tries += 1
            if tries > limit:
                return None
            failed = next((at for fn, at in checks[depth] if fn(asg) is False), None)
            if failed is not None:
                blame[depth].update(p for p in failed if p < depth)
                continue
            saved[depth] = value
            if depth + 1 == n:
                enter(n)
                blame[depth].update(range(depth))
            elif enter(depth + 1):
                depth += 1
                nxt[depth] = 0
                if values[depth][0] != saved[depth]:
                    values[depth] = [saved[depth], *(v for v in domains[depth] if v != saved[depth])]
            else:
                blame[depth].update(p for p in asked_at if p < depth)
    if not any(found):
        return {q.name: Answer(Verdict.CONTRADICTION) for q in sc.questions}
    out = {}
    for q, seen in zip(sc.questions, found):
        possible = {v for _, v in seen}
        if len(possible) == 1:
            out[q.name] = Answer(Verdict.DETERMINED, next(iter(possible)))
            continue
        by_choice: dict[tuple[Value, ...], set[Any]] = {}
        for chosen, v in seen:
            by_choice.setdefault(chosen, set()).add(v)
        split = any(len(vs) > 1 for vs in by_choice.values())
        out[q.name] = Answer(Verdict.AMBIGUOUS if split else Verdict.CHOICE_DEPENDENT)
    return out
