"""Why the rules give a question its answer: the derivation of a determined value, or the rules
and statements that leave an open one open."""

from __future__ import annotations

__all__ = ["explain_case"]

from .errors import CaseError
from .language.encoding import RuleBase
from .rulesdoc import RulesDocument
from .scenario.model import Scenario
from .solver.engine import explain_scenario
from .verdicts import Explanation, Verdict
from .yamlsource import did_you_mean


def explain_case(scenario: Scenario, rules: RuleBase, doc: RulesDocument, question: str | None,
                 timeout_ms: int, memory_mb: int | None) -> tuple[Explanation, ...]:
    """Explain every question of `scenario`, or only the one named `question`."""
    names = tuple(q.name for q in scenario.questions)
    if question is not None and question not in names:
        raise CaseError(f"{scenario.path} has no question '{question}'{did_you_mean(question, names)}; "
                        f"its questions: {', '.join(names)}")
    wanted = names if question is None else (question,)
    result, derivations = explain_scenario(scenario, rules, doc, wanted, timeout_ms, memory_mb)
    texts = {s.id: s.text for s in doc.statements}
    out = []
    for r in result.results:
        if r.question not in wanted:
            continue
        statements: tuple[tuple[str, str], ...] = ()
        if r.verdict in (Verdict.AMBIGUOUS, Verdict.CHOICE_DEPENDENT):
            cited = dict.fromkeys(sid for rid in r.rules_involved for sid in rules.rule(rid).cites)
            statements = tuple((sid, texts.get(sid, "(not in the rules document)")) for sid in cited)
        out.append(Explanation(r, derivations.get(r.question), statements))
    return tuple(out)
