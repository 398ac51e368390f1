"""Why the rules give a question its answer: the derivation of a determined value, ranked with the rules
that decide it first, or the rules and statements that leave an open one open.

A derivation is a minimal set of rule instances and facts (without any one of them another value is
possible), so every member is needed; the ranking says how directly each bears on the question:

- **inertia**: the instances of the rules that encode CORE-2 and CORE-3 (a card starts where the
  case places it and stays there unless something moves it). They carry a card's place from step
  to step and come last, folded into runs of consecutive steps;
- every other rule gets a **rank**: 1 when one of its instances reads what the question asks,
  directly or through inertia only (these rules *decide* the question); 2 when it reads what a
  rank-1 instance reads; and so on. Rules of the same rank are listed with the fewest instances
  first, then in the order of `encodings/`;
- the facts follow the rules, those read by the lowest-ranked rules first; facts of the same text
  are shown once.
"""

from __future__ import annotations

__all__ = ["explain_case", "rank_derivation", "INERTIA_STATEMENTS"]

import heapq
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

from .errors import CaseError
from .language.encoding import RuleBase
from .rulesdoc import RulesDocument
from .scenario.model import Scenario
from .solver.engine import explain_scenario
from .verdicts import INERTIA_RANK, CaseResult, CoreItem, Derivation, Explanation, Fold, RankedFact, RankedRule, Ranking, Verdict
from .yamlsource import did_you_mean

INERTIA_STATEMENTS = frozenset({"CORE-2", "CORE-3"})  # a card starts where it is placed and stays unless moved


# Works out what the determined answers of a case's result rest on (`mutation.readings.with_rests_on`).
Readings = Callable[[CaseResult, Scenario, RuleBase, int, int | None], CaseResult]


def explain_case(scenario: Scenario, rules: RuleBase, doc: RulesDocument, question: str | None,
                 timeout_ms: int, memory_mb: int | None, readings: Readings | None = None) -> tuple[Explanation, ...]:
    """Explain every question of `scenario`, or only the one named `question`; with `readings`, each
    determined answer with the readings it rests on."""
    names = tuple(q.name for q in scenario.questions)
    if question is not None and question not in names:
        raise CaseError(f"{scenario.path} has no question '{question}'{did_you_mean(question, names)}; "
                        f"its questions: {', '.join(names)}")
    wanted = names if question is None else (question,)
    result, derivations = explain_scenario(scenario, rules, doc, wanted, timeout_ms, memory_mb)
    if readings is not None:
        asked = scenario if question is None else scenario._replace(
            questions=tuple(q for q in scenario.questions if q.name == question))
        rested = {r.question: r for r in readings(result, asked, rules, timeout_ms, memory_mb).results}
        result = replace(result, results=tuple(rested.get(r.question, r) for r in result.results))
    texts = {s.id: s.text for s in doc.statements}
    out = []
    for r in result.results:
        if r.question not in wanted:
            continue
        statements: tuple[tuple[str, str], ...] = ()
        if r.verdict in (Verdict.AMBIGUOUS, Verdict.CHOICE_DEPENDENT):
            cited = dict.fromkeys([*r.at_fault, *(sid for rid in r.rules_involved for sid in rules.rule(rid).cites)])
            statements = tuple((sid, texts.get(sid, "(not in the rules document)")) for sid in cited)
        d = derivations.get(r.question)
        ranking = rank_derivation(d, scenario) if d is not None and d.steps else None
        out.append(Explanation(r, d, statements, ranking))
    return tuple(out)


def _is_inertia(item: CoreItem) -> bool:
    return any(sid in INERTIA_STATEMENTS for sid, _ in item.statements)


def rank_derivation(d: Derivation, scenario: Scenario) -> Ranking:
    """The rules of a derivation ranked by how directly they bear on the question, each rule's
    instances folded, and its facts, each text once."""
    items = d.steps
    reads = [frozenset(r) for r in d.reads] if len(d.reads) == len(items) else [frozenset()] * len(items)
    rules = [i for i, it in enumerate(items) if it.kind != "fact"]
    inertia = {i for i in rules if _is_inertia(items[i])}
    # the fewest ranked instances on a path of shared outcomes from the question; inertia costs nothing
    cost = {i: 0 if i in inertia else 1 for i in rules}
    asks = frozenset(d.asks)
    best: dict[int, int] = {}
    queue = [(cost[i], i) for i in rules if reads[i] & asks]
    heapq.heapify(queue)
    while queue:
        r, i = heapq.heappop(queue)
        if i in best:
            continue
        best[i] = r
        for j in rules:
            if j not in best and reads[j] & reads[i]:
                heapq.heappush(queue, (r + cost[j], j))
    unreached = max(best.values(), default=0) + 1  # shares no outcome with the question, even at a distance
    by_rule: dict[str, list[int]] = defaultdict(list)
    for i in rules:
        by_rule[items[i].rule or items[i].label.split("[", 1)[0]].append(i)
    order = {s.label: s.position for s in scenario.steps}
    ranked: list[tuple[bool, int, int, int, RankedRule]] = []
    rank_of: dict[int, int] = {}
    for n, (rule_id, members) in enumerate(by_rule.items()):
        ranks = [max(best.get(i, unreached), 1) for i in members if i not in inertia]
        r = min(ranks) if ranks else INERTIA_RANK
        rank_of.update((i, r) for i in members)
        folds = _fold([items[i] for i in members], order)
        ranked.append((r == INERTIA_RANK, r, len(members), n, RankedRule(rule_id, r, tuple(items[i] for i in members), folds)))
    ranked.sort(key=lambda t: t[:4])
    facts: dict[tuple[str, str], list[int]] = {}
    for f, it in enumerate(items):
        if it.kind == "fact":
            facts.setdefault((it.text, it.location), []).append(f)

    def fact_rank(members: list[int]) -> int:
        ranks = [rank_of[i] for i in rules if any(reads[i] & reads[f] for f in members)]
        return min((r for r in ranks if r != INERTIA_RANK), default=INERTIA_RANK)

    shown = [(fact_rank(m), n, RankedFact(tuple(items[f] for f in m), fact_rank(m))) for n, m in enumerate(facts.values())]
    shown.sort(key=lambda t: (t[0] == INERTIA_RANK, t[0], t[1]))
    return Ranking(tuple(t[-1] for t in ranked), tuple(t[-1] for t in shown))


def _fold(instances: list[CoreItem], order: dict[str, int]) -> tuple[Fold, ...]:
    """Instances that differ only in their one step variable, as runs of consecutive steps; an
    instance with no step variable, or several, stands alone."""
    groups: dict[tuple[tuple[tuple[str, str], ...], str], list[tuple[int, CoreItem]]] = {}
    alone: list[Fold] = []
    for it in instances:
        steps = [(k, v) for k, v in it.binding if v in order]
        if len(steps) != 1:
            alone.append(Fold(it.binding, "", (), (it,)))
            continue
        name = steps[0][0]
        others = tuple((k, v) for k, v in it.binding if k != name)
        groups.setdefault((others, name), []).append((order[steps[0][1]], it))
    out: list[Fold] = []
    for (others, name), members in groups.items():
        members.sort(key=lambda m: m[0])
        runs: list[list[tuple[int, CoreItem]]] = []
        for m in members:
            if runs and m[0] == runs[-1][-1][0] + 1:
                runs[-1].append(m)
            else:
                runs.append([m])
        out.append(Fold(others, name, tuple((dict(r[0][1].binding)[name], dict(r[-1][1].binding)[name]) for r in runs),
                        tuple(it for _, it in members)))
    return tuple(out) + tuple(alone)
