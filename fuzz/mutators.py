"""Mutations of valid input files and expressions, each driven by a `random.Random`.

Three families work on a file's text: bytes (flip, insert, delete, broken UTF-8, truncation),
lines (delete, duplicate, swap, re-indent) and tokens (a word, number or sign replaced by
another from the file or from a list of awkward values). One family works on the parsed YAML
tree and writes it back: keys and list items deleted, duplicated, swapped or renamed, scalars
replaced by values of other types, huge numbers, deep nesting, names nobody declared. One adds
YAML features the readers refuse or must survive: anchors, aliases, merge keys, tags, several
documents, directives, block scalars. One writes the vocabulary of the later rules sections into a
case (`SECTION_FIELDS`): a card's alignment, traits, brigades and owner; the descriptions of an
ability's targets (type, alignment, traits, how many, 'all', whose), its use limit, what it cannot be
(negated, interrupted, prevented), the kinds an ongoing negation negates, what an affliction
inflicts; and an attempt turned into the negate of an earlier one. Mostly well-formed values, so that
the case still loads and reaches the rules of those sections, and some awkward ones.

`mutate_file` applies one to four mutations and returns bytes; `mutate_expression` does the same
for one expression of the rule language, or writes a random one from the vocabulary.
"""

from __future__ import annotations

__all__ = ["mutate_file", "mutate_expression", "random_expression", "AWKWARD_SCALARS", "AWKWARD_TOKENS",
           "SECTION_FIELDS"]

import random
import re
from collections.abc import Callable
from typing import Any

import yaml

from verifier.scenario.cardreading import TRAITS
from verifier.scenario.descriptions import ALIGNMENTS
from verifier.vocabulary import DOMAINS, SYMBOLS, VALUE_SETS

# Values a scalar may be replaced with: other types, limits, YAML's own spellings of null/bool/float.
AWKWARD_SCALARS: list[Any] = [
    None, True, False, 0, -1, 1, 2, 61, 250, 10**6, 10**6 + 1, 10**30, -(10**30), 2**63, 1.5, float("inf"),
    float("nan"), "", " ", "no", "yes", "on", "off", "null", "~", "-", "0x1F", "1e309", "x" * 300,
    "\u00e9lijah", "\U0001f600", "a\tb", "\x00", "turn 1", "Battle", "hand", "territory", "Hero",
    "Evil_Character", "alice", "bob", "carol", "nobody", "elijah", "ghost_card", "set aside", "1 turn",
    "99 turns", "until end of battle", "none", "determined", "unknown", "ambiguous", "zone(elijah, 0)",
    "legal(", "count(c for c in cards)", "__import__('os')", "open('x')", "{}", "[]", [], {}, [[[]]],
    {"kind": "set aside"}, ["alice", "alice"], ["a"] * 5,
]

# Tokens put in place of a token of the text.
AWKWARD_TOKENS = [
    "-", "?", ":", "::", "[", "]", "{", "}", ",", "#", "&a", "*a", "!", "!!str", "!!int", "!!binary", "!!set",
    "!!python/object/apply:os.system", "!custom", "<<", "|", ">", "|-", ">+2", "'", '"', "`", "%", "@", "\\",
    "---", "...", "\t", "\r", "\u2028", "\ufeff", "\x85", "null", "~", ".nan", ".inf", "-.inf", "0o17", "0x_1",
    "1_000", "+1", "1e3", "9" * 40, "-" + "9" * 40, "True", "False", "None", "yes", "no", "lambda", "for", "in",
    "not", "and", "or", "if", "else", "==", "!=", "<=", "(", ")", "()", "(((", ")))", "__class__", "x.y",
    "f'x'", "b'x'", "1.0", "1j", ":=", "**", "/", "//", "%", "*", "@", "~", "^", "<<", ">>", "ghost", "\u0130",
]

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d+|[^\sA-Za-z0-9_]")
_BROKEN_UTF8 = [b"\xff", b"\xfe", b"\xc3", b"\xc3(", b"\xe2\x82", b"\xf0\x9f\x98", b"\xed\xa0\x80", b"\xc0\xaf",
                b"\x80", b"\x00", b"\xef\xbb\xbf"]


# -- bytes ------------------------------------------------------------------------------------------
def _flip_byte(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]


def _insert_bytes(rng: random.Random, data: bytes) -> bytes:
    i = rng.randrange(len(data) + 1)
    chunk = rng.choice(_BROKEN_UTF8) if rng.random() < 0.6 else bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
    return data[:i] + chunk + data[i:]


def _delete_bytes(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 16):]


def _truncate(rng: random.Random, data: bytes) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def _repeat_chunk(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    chunk = data[i: i + rng.randint(1, 40)]
    return data[:i] + chunk * rng.randint(2, 50) + data[i:]


# -- lines ------------------------------------------------------------------------------------------
def _lines_op(op: Callable[[random.Random, list[str]], list[str]]) -> Callable[[random.Random, bytes], bytes]:
    def apply(rng: random.Random, data: bytes) -> bytes:
        lines = data.decode("utf-8", "surrogateescape").split("\n")
        return "\n".join(op(rng, lines)).encode("utf-8", "surrogateescape")

    apply.__name__ = op.__name__
    return apply


def _delete_line(rng: random.Random, lines: list[str]) -> list[str]:
    i = rng.randrange(len(lines))
    return lines[:i] + lines[i + rng.randint(1, 3):]


def _duplicate_line(rng: random.Random, lines: list[str]) -> list[str]:
    i = rng.randrange(len(lines))
    n = rng.randint(1, 4)
    return lines[: i + n] + lines[i: i + n] + lines[i + n:]


def _swap_lines(rng: random.Random, lines: list[str]) -> list[str]:
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines = list(lines)
    lines[i], lines[j] = lines[j], lines[i]
    return lines


def _reindent_line(rng: random.Random, lines: list[str]) -> list[str]:
    i = rng.randrange(len(lines))
    stripped = lines[i].lstrip(" ")
    indent = len(lines[i]) - len(stripped)
    lines = list(lines)
    lines[i] = rng.choice([" " * max(indent + rng.choice([-4, -2, -1, 1, 2, 4]), 0), "\t", " \t", ""]) + stripped
    return lines


def _copy_line_elsewhere(rng: random.Random, lines: list[str]) -> list[str]:
    line = rng.choice(lines)
    i = rng.randrange(len(lines) + 1)
    return lines[:i] + [line] + lines[i:]


# -- tokens -----------------------------------------------------------------------------------------
def _replace_token(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    found = list(_TOKEN.finditer(text))
    if not found:
        return data
    m = rng.choice(found)
    if rng.random() < 0.5:
        new = rng.choice(found).group()
    elif rng.random() < 0.8:
        new = rng.choice(AWKWARD_TOKENS)
    else:
        new = m.group() + rng.choice(["s", "_", "x", "2", "é"])
    return (text[: m.start()] + new + text[m.end():]).encode("utf-8", "surrogateescape")


def _delete_token(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    found = list(_TOKEN.finditer(text))
    if not found:
        return data
    m = rng.choice(found)
    return (text[: m.start()] + text[m.end():]).encode("utf-8", "surrogateescape")


# -- YAML features ----------------------------------------------------------------------------------
def _yaml_feature(rng: random.Random, data: bytes) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    keyed = [i for i, line in enumerate(lines) if re.match(r"^\s*(- )?[A-Za-z_][\w-]*:", line)]
    kind = rng.randrange(9)
    if kind == 0 and len(keyed) >= 2:  # an anchor on one value, an alias of it on another
        i, j = sorted(rng.sample(keyed, 2))
        lines[i] = re.sub(r":(\s|$)", r": &a\1", lines[i], count=1)
        lines[j] = re.sub(r":.*$", ": *a", lines[j], count=1)
    elif kind == 1 and keyed:  # a merge key
        i = rng.choice(keyed)
        indent = len(lines[i]) - len(lines[i].lstrip())
        lines.insert(i + 1, " " * indent + "<<: {type: Hero}")
    elif kind == 2 and keyed:  # a tag on a value
        i = rng.choice(keyed)
        tag = rng.choice(["!!str", "!!int", "!!float", "!!bool", "!!null", "!!binary", "!!set", "!!omap", "!!timestamp",
                          "!!python/name:os.system", "!local", "!<tag:example.com,2000:x>", "!!map", "!!seq"])
        lines[i] = re.sub(r":(\s|$)", rf": {tag}\1", lines[i], count=1)
    elif kind == 3:  # a second document
        i = rng.randrange(len(lines) + 1)
        lines.insert(i, rng.choice(["---", "...", "--- !!map", "--- |"]))
    elif kind == 4:  # a directive
        lines.insert(0, rng.choice(["%YAML 1.1", "%YAML 1.2", "%YAML 2.0", "%TAG ! tag:example.com,2000:", "%FOO bar"]))
        lines.insert(1, "---")
    elif kind == 5 and keyed:  # a block scalar where a value was
        i = rng.choice(keyed)
        indent = len(lines[i]) - len(lines[i].lstrip())
        lines[i] = re.sub(r":.*$", ": " + rng.choice(["|", ">", "|-", ">+", "|2", ">9"]), lines[i], count=1)
        lines.insert(i + 1, " " * (indent + rng.choice([0, 1, 2, 4])) + rng.choice(["zone(elijah, 0)", "x", "", "- a"]))
    elif kind == 6 and keyed:  # a complex key
        i = rng.choice(keyed)
        lines[i] = re.sub(r"^(\s*(- )?)", r"\1? [a, b]\n\1", lines[i], count=1)
    elif kind == 7 and keyed:  # a flow collection left open or a quote left unclosed
        i = rng.choice(keyed)
        lines[i] = lines[i] + rng.choice([" [", " {", " '", ' "', " [a, {b: ", " &", " *", " !"])
    else:  # a byte-order mark, a comment or a carriage return in an odd place
        i = rng.randrange(len(lines))
        lines[i] = rng.choice(["\ufeff", "#", "\r", "\t"]) + lines[i]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


# -- the YAML tree ----------------------------------------------------------------------------------
def _containers(tree: Any) -> list[Any]:
    """Every mapping and list in `tree`, each once (aliases make shared parts, even cycles)."""
    out: list[Any] = []
    seen: set[int] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list)) and id(node) not in seen:
            seen.add(id(node))
            out.append(node)
            stack.extend(node.values() if isinstance(node, dict) else node)
    return out


def _names_in(tree: Any) -> list[str]:
    out: list[str] = []
    for c in _containers(tree):
        out += [k for k in c if isinstance(k, str)] if isinstance(c, dict) else []
        out += [v for v in (c.values() if isinstance(c, dict) else c) if isinstance(v, str) and len(v) < 40]
    return out or ["x"]


def _awkward(rng: random.Random, tree: Any) -> Any:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(AWKWARD_SCALARS)
    if roll < 0.65:
        return rng.choice(_names_in(tree))
    if roll < 0.75:
        deep: Any = rng.choice(["x", 1, None])
        for _ in range(rng.randint(5, 120)):
            deep = [deep] if rng.random() < 0.5 else {"k": deep}
        return deep
    if roll < 0.85:
        return rng.choice([10**rng.randint(6, 400), -(10**rng.randint(6, 400)), rng.randint(-70, 300)])
    name = rng.choice(_names_in(tree))
    return name + rng.choice(["_x", "2", "s", "_ghost"]) if rng.random() < 0.5 else name[:-1]


def _tree_edit(rng: random.Random, tree: Any) -> None:
    containers = _containers(tree)
    target = rng.choice(containers)
    op = rng.randrange(7)
    if isinstance(target, dict):
        keys = list(target)
        if not keys:
            target[rng.choice(_names_in(tree))] = _awkward(rng, tree)
            return
        key = rng.choice(keys)
        if op == 0:
            del target[key]
        elif op == 1 and len(keys) >= 2:
            other = rng.choice(keys)
            target[key], target[other] = target[other], target[key]
        elif op == 2:  # rename: a typo, an unknown field, a name of something else
            value = target.pop(key)
            new_key = _awkward(rng, tree) if rng.random() < 0.3 else rng.choice(_names_in(tree))
            target[new_key if not isinstance(new_key, (list, dict)) else "x"] = value
        elif op == 3:  # a subtree copied from elsewhere
            target[key] = rng.choice(containers)
        elif op == 4:  # an extra key
            target[rng.choice(_names_in(tree) + ["extra", "id", "turn", "kind", "x"])] = _awkward(rng, tree)
        else:
            target[key] = _awkward(rng, tree)
    elif isinstance(target, list):
        if not target:
            target.append(_awkward(rng, tree))
            return
        i = rng.randrange(len(target))
        if op == 0:
            del target[i]
        elif op == 1:
            target.insert(i, target[i])
        elif op == 2 and len(target) >= 2:
            j = rng.randrange(len(target))
            target[i], target[j] = target[j], target[i]
        elif op == 3:
            target[i] = rng.choice(containers)
        elif op == 4:
            target.extend([target[i]] * rng.randint(1, 300))
        else:
            target[i] = _awkward(rng, tree)


def _deep_copy(tree: Any, budget: list[int], depth: int = 0) -> Any:
    """A copy without shared parts (which yaml would write as aliases), cut short when very large or deep.

    A subtree copied into itself makes a cycle; the depth limit cuts it.
    """
    budget[0] -= 1
    if budget[0] < 0 or depth > 150:
        return None
    if isinstance(tree, dict):
        return {k: _deep_copy(v, budget, depth + 1) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_deep_copy(v, budget, depth + 1) for v in tree]
    return tree


def _structural(rng: random.Random, data: bytes) -> bytes:
    try:
        tree = yaml.load(data.decode("utf-8"), Loader=_LOADER)  # the safe loader, in C where there is one
    except Exception:  # noqa: BLE001 - PyYAML's own reader fails in many ways on a mutated file
        return _replace_token(rng, data)
    if not isinstance(tree, (dict, list)):
        return yaml.safe_dump(_awkward(rng, {}), allow_unicode=True).encode("utf-8")
    tree = _deep_copy(tree, [20_000])
    for _ in range(rng.randint(1, 3)):
        _tree_edit(rng, tree)
        tree = _deep_copy(tree, [20_000])
    try:
        text = yaml.dump(tree, Dumper=_DUMPER, sort_keys=False, allow_unicode=rng.random() < 0.8,
                         default_flow_style=rng.choice([False, None, True]), width=rng.choice([80, 10**6]))
    except Exception:  # noqa: BLE001 - e.g. a float key PyYAML cannot write back
        return data
    return text.encode("utf-8")


# -- the later sections' vocabulary -------------------------------------------------------------------
_BRIGADES = sorted(VALUE_SETS["brigade"])
_TYPES = ["Hero", "Evil Character", "Evil_Character", "GE", "EE", "Lost Soul", "Artifact", "Fortress", "Site", "Weapon"]
_ALIGNED = ("Hero", "Evil_Character", "GE", "EE")  # the types that give a card its alignment
SECTION_FIELDS: dict[str, dict[str, list[Any]]] = {
    "card": {
        "alignment": [*ALIGNMENTS, *ALIGNMENTS, "Good", "chaotic", ""],
        "traits": [[t] for t in TRAITS] + [list(TRAITS[:3]), [], "human", ["human", "human"], ["ghost"]],
        "brigade": [*_BRIGADES, _BRIGADES[:2], "Multi", "multi", []],
        "owner": ["alice", "bob", "carol", ""],
    },
    "ability": {
        "target_type": [*_TYPES, _TYPES[:2], [], "Dominant"],
        "target_alignment": ["good", "evil", "good", "evil", "neutral", "Evil", "both"],
        "target_traits": [*TRAITS[:6], list(TRAITS[:2]), [], "ghost"],
        "target_count": [1, 1, 2, 0, -1, 10**9, "up to 2", "at least 1", "all", "all", "any number", "each", "none",
                         "up to 0"],
        "targets_own": [True, False, "yes"],
        "targets_opponents": [True],
        "targets_all_in_location": [True],
        "limit": ["once per game", "once per turn", "twice per game", "3 times per turn", "0 times per game",
                  "once", "per game"],
        "cannot_be_negated": [True, False],
        "cannot_be_interrupted": [True, False, "no"],
        "cannot_be_prevented": [True, False, 1],
        "negates": ["heal", "afflict", "restore abilities", ["heal", "afflict"], "negate", []],
        "kind": ["negate", "negate", "afflict", "restore abilities", "heal", "discard"],
        "inflicts": ["poisoned", "diseased", "paralyzed", "decreased", ["poisoned", "paralyzed"], "healed"],
    },
}


def _section_field(rng: random.Random, data: bytes) -> bytes:
    try:
        tree = yaml.load(data.decode("utf-8"), Loader=_LOADER)
    except Exception:  # noqa: BLE001 - PyYAML's own reader fails in many ways on a mutated file
        return _replace_token(rng, data)
    cards = tree.get("cards") if isinstance(tree, dict) else None
    if not isinstance(cards, dict) or not cards:
        return _structural(rng, data)
    tree = _deep_copy(tree, [20_000])
    for entry in tree.get("timeline") or [] if isinstance(tree.get("timeline"), list) else []:
        if isinstance(entry, dict) and True in entry:  # YAML 1.1 reads the key `on` as true: written back as `on`
            entry["on"] = entry.pop(True)
    cards = tree["cards"]
    timeline = tree.get("timeline")
    uses = [e for e in timeline if isinstance(e, dict) and isinstance(e.get("id"), str)] if isinstance(timeline, list) else []
    roll = rng.random()
    if roll < 0.15 and len(uses) >= 2:  # a later attempt becomes the negate of an earlier one
        i = rng.randrange(1, len(uses))
        entry = uses[i]
        for action in ("play", "activate", "return", "negate", "enter_battle", "choose_return", "end_battle", "discard"):
            entry.pop(action, None)
        entry["negate"] = rng.choice(uses[:i] if rng.random() < 0.9 else uses)["id"]
        entry["by"] = rng.choice(list(cards))
    else:
        card = cards[rng.choice(list(cards))]
        if not isinstance(card, dict):
            return _structural(rng, data)
        abilities = card.get("abilities")
        if roll < 0.5:
            field = rng.choice(sorted(SECTION_FIELDS["card"]))
            card[field] = rng.choice(SECTION_FIELDS["card"][field])
        else:
            if not isinstance(abilities, list) or not abilities or not isinstance(abilities[0], dict):
                abilities = card["abilities"] = [{"kind": rng.choice(SECTION_FIELDS["ability"]["kind"])}]
            ability = rng.choice([a for a in abilities if isinstance(a, dict)] or [abilities[0]])
            for _ in range(rng.randint(1, 3)):
                field = rng.choice(sorted(SECTION_FIELDS["ability"]))
                ability[field] = rng.choice(SECTION_FIELDS["ability"][field])
                # a description naming traits or an alignment is answered only where the cards state theirs
                if field == "target_traits" and rng.random() < 0.7:
                    for other in cards.values():
                        if isinstance(other, dict):
                            other["traits"] = rng.sample(TRAITS[:4], rng.randint(0, 2))
                if field == "target_alignment" and rng.random() < 0.7:
                    for other in cards.values():
                        if isinstance(other, dict) and str(other.get("type", "")).replace(" ", "_") not in _ALIGNED:
                            other["alignment"] = rng.choice(ALIGNMENTS)
    try:
        return yaml.dump(tree, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=10**6).encode("utf-8")
    except Exception:  # noqa: BLE001 - e.g. a float key PyYAML cannot write back
        return data


_FILE_MUTATIONS: list[tuple[Callable[[random.Random, bytes], bytes], int]] = [
    (_flip_byte, 2), (_insert_bytes, 2), (_delete_bytes, 2), (_truncate, 1), (_repeat_chunk, 1),
    (_lines_op(_delete_line), 3), (_lines_op(_duplicate_line), 3), (_lines_op(_swap_lines), 2),
    (_lines_op(_reindent_line), 2), (_lines_op(_copy_line_elsewhere), 2),
    (_replace_token, 8), (_delete_token, 2), (_yaml_feature, 4), (_structural, 10), (_section_field, 10),
]
_FILE_OPS = [op for op, _ in _FILE_MUTATIONS]
_FILE_WEIGHTS = [w for _, w in _FILE_MUTATIONS]


def mutate_file(rng: random.Random, data: bytes) -> bytes:
    """`data` after one to four mutations chosen at random."""
    for op in rng.choices(_FILE_OPS, _FILE_WEIGHTS, k=rng.choice([1, 1, 1, 2, 2, 3, 4])):
        data = op(rng, data)
    return data


# -- expressions ------------------------------------------------------------------------------------
_FUNCTIONS = sorted(SYMBOLS) + ["implies", "activation_order", "at", "ghost", "len", "print", "open"]
_NAMES = sorted({v for values in VALUE_SETS.values() for v in values} | set(DOMAINS)) + [
    "alice", "bob", "elijah", "provisions", "play_provisions", "x", "c", "s", "True", "False", "None"]


def random_expression(rng: random.Random, depth: int = 0) -> str:
    """A random expression over the vocabulary: mostly well formed, sometimes not, sometimes deep."""
    roll = rng.random()
    if depth > rng.choice([3, 5, 8, 40]) or roll < 0.2:
        return rng.choice([rng.choice(_NAMES), str(rng.choice([0, 1, 2, 5, -3, 10**6, 10**7, 10**30])),
                           rng.choice(["1.5", "'text'", "b'x'", "None", "...", "1j", "x.y", "x[0]", "{}", "[]"])])
    sub = lambda: random_expression(rng, depth + 1)  # noqa: E731
    if roll < 0.5:
        func = rng.choice(_FUNCTIONS)
        args = ", ".join(sub() for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4])))
        return f"{func}({args})"
    if roll < 0.6:
        return f"{sub()} {rng.choice(['==', '!=', '<', '<=', '>', '>=', 'in', 'not in', 'is'])} {sub()}"
    if roll < 0.7:
        return f"({sub()} {rng.choice(['and', 'or', '+', '-', '*', '/', '%', '**', '|', '&'])} {sub()})"
    if roll < 0.75:
        return f"{rng.choice(['not ', '-', '+', '~'])}{sub()}"
    if roll < 0.8:
        return f"({sub()} if {sub()} else {sub()})"
    if roll < 0.9:
        kind = rng.choice(["all", "any", "count", "sum", "max", "min"])
        var = rng.choice(["c", "s", "x", "cards", "zone"])
        cond = f" if {sub()}" if rng.random() < 0.4 else ""
        return f"{kind}({sub()} for {var} in {rng.choice(sorted(DOMAINS) + ['ghosts', 'x'])}{cond})"
    if roll < 0.95:
        return f"({', '.join(sub() for _ in range(rng.randint(0, 3)))})"
    return rng.choice(["lambda: 1", "(x := 1)", "f'{x}'", "[c for c in cards]", "{1: 2}", "*x", "await x",
                       "yield", "x if y", "(", ")", "zone(elijah, 0", "\\", "#", "\n", "\x00", "é", "\u2028"])


def mutate_expression(rng: random.Random, text: str) -> str:
    """`text` with a token replaced, dropped or repeated, or nested deeply; or a random expression."""
    roll = rng.random()
    if roll < 0.3 or not text:
        return random_expression(rng)
    found = list(_TOKEN.finditer(text))
    if roll < 0.45:
        n = rng.choice([10, 60, 200, 1000])
        return rng.choice(["not " * n + text, "(" * n + text + ")" * n, " + ".join([text] * n), "-" * n + text,
                           f"implies({text}, " * n + "True" + ")" * n])
    if not found:
        return text + rng.choice(AWKWARD_TOKENS)
    m = rng.choice(found)
    if roll < 0.75:
        new = rng.choice([rng.choice(found).group(), rng.choice(AWKWARD_TOKENS), rng.choice(_NAMES),
                          rng.choice(_FUNCTIONS), random_expression(rng, 3)])
    elif roll < 0.85:
        new = ""
    else:
        new = m.group() * rng.randint(2, 5)
    return text[: m.start()] + new + text[m.end():]
