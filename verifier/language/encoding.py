"""Encoding files: the rules as declarative constraints, read into a checked rule base.

An encoding file (YAML) holds `definitions` (named expressions) and `rules`. A rule has an
`id`, the rules-document statements it `cites`, an English template (`says`), the finite
sorts it ranges `for`, and the constraint it `requires`. A rule marked `interpretation`
is a reading the rules document does not state; it `replaces` the rules it resolves and
is used only by cases that ask for it.
"""

from __future__ import annotations

__all__ = ["Rule", "RuleBase", "Waiver", "load_rule_base", "read_rule", "parse_at", "Definition"]

import keyword
import re
import string
from pathlib import Path
from typing import NamedTuple

from ..errors import EncodingError, InputError, Location
from ..escaping import quoted
from ..files import display_path
from ..vocabulary import DOMAINS, ENTITY_SORTS, MEMBER_OF, ORDERED_SORTS, SYMBOLS, TYPE_NAMES
from ..yamlsource import YMap, YNode, YScalar, YSeq, did_you_mean, editor_lines, load_yaml
from .syntax import QUANTIFIERS, Call, Expr, SourceText, parse_expression, walk
from .types import BUILTINS, QUESTION_FORMS, RECURRENCE_START, Definition, TypeScope, infer, recurrence_form

STATEMENT_ID = re.compile(r"^[A-Z]+(-[A-Z]+)*-\d+[a-z]?(-R\d+)?$")
RULE_ID = re.compile(r"^[A-Z]+(-[A-Z]+)*-\d+[a-z]?(-R\d+)?(-I\d*)?$")
NAME = re.compile(r"^[a-z][a-z0-9_]*$")
SORTS = (*ENTITY_SORTS, *ORDERED_SORTS)


class Rule(NamedTuple):
    """One encoded rule: a constraint grounded once per binding of its `for` variables."""

    id: str
    section: str
    cites: tuple[str, ...]
    says: str
    params: tuple[tuple[str, str], ...]
    body: Expr
    interpretation: bool
    replaces: tuple[str, ...]
    loc: Location


class Waiver(NamedTuple):
    """A statement deliberately left unencoded, with the reason."""

    statement: str
    reason: str
    loc: Location


class RuleBase(NamedTuple):
    """All encodings: their rules (in file order), definitions and waivers."""

    rules: tuple[Rule, ...]
    definitions: dict[str, Definition]
    waivers: tuple[Waiver, ...]
    files: tuple[str, ...]

    def rule(self, rule_id: str) -> Rule:
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)

    def active_rules(self, interpretations: tuple[str, ...] = ()) -> tuple[Rule, ...]:
        """The rules in force: every as-written rule, with the chosen interpretations swapped in."""
        chosen = [self.rule(i) for i in interpretations]
        replaced = {r for rule in chosen for r in rule.replaces}
        return tuple(
            r for r in self.rules
            if (not r.interpretation and r.id not in replaced) or r.id in interpretations
        )


def parse_at(node: YNode, text_lines: list[str], error: type[InputError], what: str) -> Expr:
    """Parse the expression held in a YAML scalar, keeping positions relative to the file."""
    if not isinstance(node, YScalar) or not isinstance(node.value, (str, int, bool)):
        node.fail(f"{what} must be an expression, got {node.kind}")
    if node.yaml11_word is not None:
        node.fail(f"{what}: '{node.yaml11_word}' is read by YAML as {str(node.value).lower()}: "
                  f"write {node.value} for the truth value, or quote it ('{node.yaml11_word}') for a name")
    text = str(node.value)
    loc = node.loc
    if node.style in ("|", ">"):
        # A block scalar: parse its lines as they stand in the file, so places are the file's.
        lines = text_lines[loc.line: max(node.end_line - 1, loc.line + 1)]
        return parse_expression("\n".join(lines), SourceText(loc.path, loc.line + 1, 0), error)
    if not node.style and node.end_line > loc.line:
        # A plain scalar continued on later lines: the same, from where it starts.
        lines = text_lines[loc.line - 1: node.end_line]
        lines[-1] = lines[-1][: node.end_column - 1] if len(lines) > 1 else lines[-1]
        lines[0] = lines[0][loc.column - 1:]
        return parse_expression("\n".join(lines), SourceText(loc.path, loc.line, loc.column - 1), error)
    shift = 1 if node.style in ('"', "'") else 0
    last_line = node.end_line if shift else 0
    return parse_expression(text, SourceText(loc.path, loc.line, loc.column - 1 + shift, last_line), error)


def _names(node: YNode, what: str, pattern: re.Pattern[str]) -> tuple[str, ...]:
    if not isinstance(node, YSeq):
        node.fail(f"{what} must be a list")
    out = []
    for item in node:
        if not isinstance(item, YScalar) or not isinstance(item.value, str) or not pattern.match(item.value):
            item.fail(f"{what}: {getattr(item, 'value', item.kind)!r} is not a valid ID")
        out.append(item.value)
    return tuple(out)


def _params(node: YNode | None, what: str, allowed_types: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    if node is None:
        return ()
    if not isinstance(node, YMap):
        node.fail(f"{what} must map variable names to sorts, like {{c: card, s: step}}")
    out = []
    for key, value in node.entries:
        name = str(key.value)
        if not NAME.match(name):
            key.fail(f"'{name}' is not a valid variable name (lower case letters, digits, _)")
        if name in MEMBER_OF or name in SYMBOLS or name in BUILTINS:
            key.fail(f"variable '{name}' hides a name of the vocabulary; pick another")
        if not isinstance(value, YScalar) or value.value not in allowed_types:
            shown = value.value if isinstance(value, YScalar) else value.kind
            value.fail(f"'{shown}' is not a sort{did_you_mean(str(shown), allowed_types)}; use one of {', '.join(allowed_types)}")
        out.append((name, str(value.value)))
    return tuple(out)


def _reserved(name: str) -> str:
    """Why `name` may not name a definition (beyond the vocabulary's own names), or an empty string."""
    if keyword.iskeyword(name) or keyword.issoftkeyword(name):
        return "is a keyword of the rule language"
    if name in QUANTIFIERS:
        return f"hides the quantifier {name}(... for ... in ...)"
    if name in QUESTION_FORMS:
        return f"hides the question form {name}(...)"
    if name in DOMAINS:
        return f"hides the domain '{name}' quantifiers range over"
    if name in TYPE_NAMES:
        return f"hides the sort '{name}'"
    if name in ("max", "min", "abs", "len"):
        return f"hides the built-in {name}(...)"
    return ""


def _called(expr: Expr) -> set[str]:
    return {e.func for e in walk(expr) if isinstance(e, Call)}


MAX_TEMPLATE = 2_000  # characters of a rule's English template, before its variables are filled in


def _check_template(node: YScalar, params: tuple[tuple[str, str], ...]) -> str:
    """A rule's English template: text with `{name}` fields naming the rule's variables, nothing more.

    Format specs (`{c:>999999999}`), conversions (`{c!r}`), attribute and index access (`{c.x}`,
    `{c[0]}`) and positional fields (`{}`, `{0}`) are refused: the template is filled in with
    `str.format`, and each of those would let an encoding choose what filling it in costs or shows.
    The filled-in text is at most the template plus one value (a name) per field."""
    text = node.text("says")
    if len(text) > MAX_TEMPLATE:
        node.fail(f"says: the template is longer than {MAX_TEMPLATE} characters")
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(text) if f is not None]
    except ValueError as exc:
        node.fail(f"says: malformed template ({exc})")
    bound = {n for n, _ in params}
    for f, spec, conv in fields:
        if conv is not None or spec:
            written = f"{{{f}{'!' + conv if conv is not None else ''}{':' + spec if spec else ''}}}"
            node.fail(f"says: {quoted(written)} is not a plain field: write {{name}} with one of the rule's "
                      f"variables, without a format or conversion")
        if not NAME.match(f):
            node.fail(f"says: {quoted('{' + f + '}')} is not a plain field: write {{name}} with one of the rule's "
                      f"variables" + (f" ({', '.join(sorted(bound))})" if bound else " (it has none)"))
        if f not in bound:
            node.fail(f"says: '{{{f}}}' is not one of the rule's variables{did_you_mean(f, bound)}")
    return text


def load_rule_base(folder: Path) -> RuleBase:
    """Read every `*.yaml` file in `folder` (sorted) into a type-checked rule base."""
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    if not files:
        raise EncodingError(f"no encoding files (*.yaml) in {folder}")
    raw_defs: list[tuple[YMap, str, list[str]]] = []
    raw_rules: list[tuple[YMap, str, list[str]]] = []
    raw_waivers: list[tuple[YMap, str, list[str]]] = []
    for path in files:
        root, text = load_yaml(path, EncodingError)
        lines = editor_lines(text)
        if not isinstance(root, YMap):
            root.fail("an encoding file must be a mapping with 'section' and 'rules'")
        root.check_keys(("section", "title", "definitions", "rules", "waivers"), "an encoding file")
        section_node = root.require("section", "the encoding file")
        section = section_node.text("section") if isinstance(section_node, YScalar) else section_node.fail("section must be text")
        for key, target in (("definitions", raw_defs), ("rules", raw_rules), ("waivers", raw_waivers)):
            node = root.get(key)
            if node is None:
                continue
            if not isinstance(node, YSeq):
                node.fail(f"'{key}' must be a list")
            for item in node:
                if not isinstance(item, YMap):
                    item.fail(f"each entry of '{key}' must be a mapping")
                target.append((item, section, lines))

    definitions = _load_definitions(raw_defs)
    scope = TypeScope(definitions, {}, EncodingError)
    rules: list[Rule] = []
    seen: dict[str, Location] = {}
    for item, section, lines in raw_rules:
        rules.append(read_rule(item, section, lines, scope, seen))
    rule_ids = {r.id for r in rules}
    for r in rules:
        for replaced in r.replaces:
            if replaced not in rule_ids:
                raise EncodingError(f"rule {r.id} replaces unknown rule '{replaced}'{did_you_mean(replaced, rule_ids)}", r.loc)
    waivers: list[Waiver] = []
    for item, _section, _lines in raw_waivers:
        item.check_keys(("statement", "reason"), "a waiver")
        st = item.require("statement", "a waiver")
        if not isinstance(st, YScalar) or not isinstance(st.value, str) or not STATEMENT_ID.match(st.value):
            st.fail("waiver statement must be a statement ID like SA-3")
        reason = item.require("reason", "a waiver")
        if not isinstance(reason, YScalar):
            reason.fail("reason must be text")
        waivers.append(Waiver(st.value, reason.text("reason").strip(), item.loc))
    return RuleBase(tuple(rules), definitions, tuple(waivers), tuple(display_path(f) for f in files))


def id_problem(value: object) -> str:
    """What is wrong with a rule ID that `RULE_ID` refuses, in a few words."""
    if not isinstance(value, str) or not value:
        return "it is not text" if not isinstance(value, str) else "it is empty"
    odd = next((ch for ch in value if not (ch.isascii() and (ch.isalnum() or ch == "-"))), None)
    if odd is not None:
        return f"it holds {odd!r}; an ID is capital letters, digits and dashes"
    parts = value.split("-")
    if any(not part for part in parts):
        return "it has an empty part between dashes"
    number = next((i for i, part in enumerate(parts) if part[0].isdigit()), None)
    if number is None or number == 0:
        return "it needs capital letters, then a dash and a number" if number is None else "it starts with a digit"
    for part in parts[:number]:
        if not part.isupper() or not part.isalpha():
            return f"'{part}' is not capital letters only: the letters before the number name the section"
    if not re.fullmatch(r"\d+[a-z]?", parts[number]):
        return f"'{parts[number]}' is not a number, with at most one small letter after it (4, 4b)"
    return (f"'-{'-'.join(parts[number + 1:])}' after the number is neither -R<n> (a reading) nor -I<n> "
            "(an interpretation), in that order")


def read_rule(item: YMap, section: str, lines: list[str], scope: TypeScope, seen: dict[str, Location],
              keys: tuple[str, ...] = ("id", "cites", "says", "for", "requires", "interpretation", "replaces"),
              ) -> Rule:
    """One rule entry, type-checked; `seen` holds the rule IDs read so far, and gains this one."""
    item.check_keys(keys, "a rule")
    id_node = item.require("id", "a rule")
    if not isinstance(id_node, YScalar) or not isinstance(id_node.value, str) or not RULE_ID.match(id_node.value):
        value = getattr(id_node, "value", "")
        id_node.fail(f"rule id {value!r} is not valid: {id_problem(value)} (like SA-4, SA-4b, SA-5-I1 or RUL-HEAL-1)")
    rid = id_node.value
    if rid in seen:
        id_node.fail(f"duplicate rule id '{rid}' (first at {seen[rid]})")
    seen[rid] = id_node.loc
    cites = _names(item.require("cites", f"rule {rid}"), f"rule {rid} cites", STATEMENT_ID)
    if not cites:
        item.fail(f"rule {rid} must cite at least one statement")
    params = _params(item.get("for"), f"rule {rid}: for", SORTS)
    says_node = item.require("says", f"rule {rid}")
    if not isinstance(says_node, YScalar):
        says_node.fail("says must be text")
    says = _check_template(says_node, params)
    body = parse_at(item.require("requires", f"rule {rid}"), lines, EncodingError, "requires")
    got = infer(body, dict(params), scope)
    if got != "bool":
        body_loc = body.loc
        raise EncodingError(f"rule {rid}: 'requires' must be a condition (bool), got {got}", body_loc)
    interp_node = item.get("interpretation")
    interpretation = interp_node.boolean("interpretation") if isinstance(interp_node, YScalar) else False
    if interp_node is not None and not isinstance(interp_node, YScalar):
        interp_node.fail("interpretation must be true or false")
    replaces_node = item.get("replaces")
    replaces = _names(replaces_node, f"rule {rid} replaces", RULE_ID) if replaces_node else ()
    if replaces and not interpretation:
        replaces_node.fail("only an interpretation may replace rules")  # type: ignore[union-attr]
    return Rule(rid, section, cites, says, params, body, interpretation, replaces, item.loc)


def _load_definitions(raw: list[tuple[YMap, str, list[str]]]) -> dict[str, Definition]:
    parsed: dict[str, tuple[tuple[tuple[str, str], ...], Expr, tuple[str, ...], YMap]] = {}
    for item, _section, lines in raw:
        item.check_keys(("name", "params", "means", "cites"), "a definition")
        name_node = item.require("name", "a definition")
        name = name_node.text("name") if isinstance(name_node, YScalar) else name_node.fail("name must be text")
        if not NAME.match(name):
            name_node.fail(f"'{name}' is not a valid definition name (lower case letters, digits, _)")
        if name in SYMBOLS or name in MEMBER_OF or name in BUILTINS:
            name_node.fail(f"definition '{name}' hides a name of the vocabulary")
        reserved = _reserved(name)
        if reserved:
            name_node.fail(f"definition '{name}' {reserved}; pick another")
        if name in parsed:
            name_node.fail(f"definition '{name}' is defined twice (first at {parsed[name][3].loc})")
        params = _params(item.get("params"), f"definition {name}: params", TYPE_NAMES)
        cites_node = item.get("cites")
        cites = _names(cites_node, f"definition {name} cites", STATEMENT_ID) if cites_node else ()
        body = parse_at(item.require("means", f"definition {name}"), lines, EncodingError, "means")
        parsed[name] = (params, body, cites, item)

    # Definitions may use each other, but never in a cycle; one may apply itself one step back (a recurrence).
    for n, (params, body, _cites, item) in parsed.items():
        _place, wrong, where = recurrence_form(n, params, body)
        if wrong:
            raise EncodingError(f"definition {n}: {wrong}", where or item.loc)
    graph = {n: sorted((_called(p[1]) & parsed.keys()) - {n}) for n, p in parsed.items()}
    state: dict[str, int] = {}

    def visit(n: str, trail: list[str]) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            cycle = trail[trail.index(n):] + [n]
            raise EncodingError(f"definitions refer to each other in a cycle: {' -> '.join(cycle)}", parsed[n][3].loc)
        state[n] = 1
        for m in graph[n]:
            visit(m, trail + [n])
        state[n] = 2

    for n in sorted(parsed):
        visit(n, [])

    definitions: dict[str, Definition] = {}
    order: list[str] = []
    done: set[str] = set()

    def topo(n: str) -> None:
        if n in done:
            return
        done.add(n)
        for m in graph[n]:
            topo(m)
        order.append(n)

    for n in sorted(parsed):
        topo(n)
    for n in order:
        params, body, cites, item = parsed[n]
        if n in _called(body):
            result = _recurrence_type(n, params, body, cites, item, definitions)
        else:
            result = infer(body, dict(params), TypeScope(definitions, {}, EncodingError))
        definitions[n] = Definition(n, params, body, result, cites, item.loc)
    return {n: definitions[n] for n in sorted(definitions)}


def _recurrence_type(name: str, params: tuple[tuple[str, str], ...], body: Expr, cites: tuple[str, ...], item: YMap,
                     definitions: dict[str, Definition]) -> str:
    """The type of a recurrence: a truth value or a number, the one its body has when it applies itself as one."""
    first: EncodingError | None = None
    for candidate in RECURRENCE_START:
        scope = TypeScope({**definitions, name: Definition(name, params, body, candidate, cites, item.loc)}, {},
                          EncodingError)
        try:
            result = infer(body, dict(params), scope)
        except EncodingError as exc:
            first = first or exc
            continue
        if result == candidate:
            return result
    if first is not None:
        raise first
    raise EncodingError(f"definition {name} applies itself, so it must be a truth value or a number", item.loc)
