"""The `questions` and `expect` sections of a case: what is asked, and the answers the case expects."""

from __future__ import annotations

__all__ = ["QuestionsSection"]

import re

from ...errors import CaseError
from ...language.encoding import RuleBase, parse_at
from ...language.syntax import Call, walk
from ...language.types import QUESTION_FORMS, TypeScope, infer
from ...vocabulary import VALUE_SETS, display_value
from ...yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean
from ..model import NEVER_LABEL, Ability, Attempt, Card, Claim, Expectation, Question, Step, step_label
from .fields import VERDICT_NAMES, _name, _scalar
from .timeline import TimelineSection


class QuestionsSection(TimelineSection):
    """Reads the questions and the expected answers."""

    # -- questions -------------------------------------------------------------------------
    def questions(self, constants: dict[str, str], rules: RuleBase) -> list[Question]:
        if not self.questions_required and self.root.get("questions") is None:
            return []
        node = self.root.require("questions", "the case")
        if not isinstance(node, YMap) or not node.entries:
            node.fail("questions must map question names to expressions")
        scope = TypeScope(rules.definitions, constants, CaseError, questions=True)
        out = []
        for key, value in node.entries:
            name = _name(key, "question name")
            expr = parse_at(value, self.lines, CaseError, f"question '{name}'")
            qtype = infer(expr, {}, scope)
            nested = [c for c in walk(expr) if isinstance(c, Call) and c.func in QUESTION_FORMS]
            if nested and not (isinstance(expr, Call) and expr.func in QUESTION_FORMS and len(nested) == 1):
                raise CaseError(f"{nested[0].func}(...) is a whole question; it cannot be part of an expression",
                                nested[0].loc)
            out.append(Question(name, expr, qtype, str(getattr(value, "value", "")).strip(), key.loc))
        return out

    def expectations(self, questions: list[Question], steps: list[Step], players: tuple[str, ...],
                     cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> list[Expectation]:
        out = []
        for key, value, question in self.answers_to("expect", "expect must map question names to verdicts", questions):
            name = question.name
            if isinstance(value, YScalar):
                verdict_node: YNode = value
                value_node: YNode | None = None
            elif isinstance(value, YMap):
                value.check_keys(("verdict", "value"), "an expectation")
                verdict_node = value.require("verdict", "an expectation")
                value_node = value.get("value")
            else:
                value.fail("an expectation is a verdict name or {verdict: ..., value: ...}")
            verdict = str(_scalar(verdict_node).value)
            if verdict not in VERDICT_NAMES:
                verdict_node.fail(f"unknown verdict '{verdict}'{did_you_mean(verdict, VERDICT_NAMES)}"
                                  f"{_scalar(verdict_node).yaml11_hint()}; "
                                  f"one of: {', '.join(VERDICT_NAMES)}")
            expected_value = None
            if value_node is not None:
                if verdict != "determined":
                    value_node.fail("only a 'determined' expectation has a value")
                expected_value = self.expected_value(value_node, question.type, steps, players,
                                                     cards, attempts, abilities)
            elif verdict == "determined":
                verdict_node.fail("a 'determined' expectation needs the value: {verdict: determined, value: ...}")
            out.append(Expectation(name, verdict, expected_value, key.loc))
        return out

    def claims(self, questions: list[Question], steps: list[Step], players: tuple[str, ...],
               cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> list[Claim]:
        return [Claim(q.name, self.expected_value(value, q.type, steps, players, cards, attempts, abilities), key.loc)
                for key, value, q in self.answers_to(
                    "claims", "claims must map question names to the values the ruling claims", questions, True)]

    def answers_to(self, field: str, shape: str, questions: list[Question],
                   non_empty: bool = False) -> list[tuple[YScalar, YNode, Question]]:
        """The entries of a mapping from question names (`expect`, `claims`), each with its question."""
        node = self.root.get(field)
        if node is None:
            return []
        if not isinstance(node, YMap) or (non_empty and not node.entries):
            node.fail(shape)
        by_name = {q.name: q for q in questions}
        out = []
        for key, value in node.entries:
            name = str(key.value)
            if name not in by_name:
                key.fail(f"{field} names unknown question '{name}'{did_you_mean(name, by_name)}")
            out.append((key, value, by_name[name]))
        return out

    def expected_sequence(self, node: YNode, abilities: list[Ability]) -> str:
        ids = [a.id for a in abilities]
        if isinstance(node, YSeq):
            items = [(_name(i, "ability"), i) for i in node]
        elif isinstance(node, YScalar) and str(node.value or "").strip().lower() in ("", "nothing activates"):
            items = []
        else:
            text = _scalar(node).text("value")
            items = [(part.strip(), node) for part in re.split(r"\s*(?:->|,)\s*", text.strip()) if part.strip()]
        for ability, where in items:
            if ability not in ids:
                where.fail(f"unknown ability '{ability}'{did_you_mean(ability, ids)}")
        return " -> ".join(a for a, _ in items) or "nothing activates"

    def expected_value(self, node: YNode, qtype: str, steps: list[Step], players: tuple[str, ...],
                       cards: list[Card], attempts: list[Attempt], abilities: list[Ability]) -> str:
        if qtype == "sequence":
            return self.expected_sequence(node, abilities)
        s = _scalar(node)
        options: list[str]
        aliases: dict[str, str] = {}
        if qtype == "bool":
            if isinstance(s.value, bool):
                return display_value(s.value)
            options = ["yes", "no"]
        elif qtype == "step":
            options = [st.label for st in steps] + [NEVER_LABEL]
            # a step may be written without its active player, as labels were before they named it
            at = {a.step: a.id for a in attempts}
            aliases = {step_label(st.turn, st.phase, None, at.get(st.position)): st.label for st in steps}
        elif qtype in ("int", "turn"):
            return str(s.integer("value", -1_000_000, 1_000_000))
        elif qtype in VALUE_SETS:
            options = [display_value(v) for v in VALUE_SETS[qtype]]
        else:
            options = list({"player": players, "card": [c.name for c in cards],
                            "attempt": [a.id for a in attempts], "ability": [a.id for a in abilities]}[qtype])
        if s.yaml11_word is not None and qtype not in ("int", "turn"):
            s.fail(f"'{s.yaml11_word}' is not a possible {qtype} value{s.yaml11_hint()}")
        given = str(s.value).strip()

        def norm(text: str) -> str:
            return " ".join(text.lower().replace("_", " ").replace("-", " ").split())

        for option in options:
            if norm(option) == norm(given):
                return option
        for alias, option in aliases.items():
            if norm(alias) == norm(given):
                return option
            if norm(alias) == norm(re.sub(r"\s*\([^)]*\)", "", given, count=1)):
                step = next(st for st in steps if st.label == option)
                s.fail(f"'{given}' names the wrong player: turn {step.turn} is {step.active_player}'s turn "
                       f"(write '{option}', or leave the player out)")
        s.fail(f"'{given}' is not a possible {qtype} value{did_you_mean(given, options)}")
