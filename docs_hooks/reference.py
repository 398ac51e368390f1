"""MkDocs hook: the reference pages generated from the repository when the manual is built.

- `reference/case-schema.md`, `reference/scope-schema.md`, `reference/ruling-schema.md`: the JSON
  Schemas of `schemas/` (themselves generated from regcheck's code by `regcheck docs --write`), field by
  field;
- `reference/rules/<section>.md`: each rules section of `rules/`, as the repository has it;
- `reference/card-mechanics.md`: the table of mechanics the card grammar names in a sentence it does not
  read (`verifier.scenario.cardmechanics.MECHANICS`).

The pages exist only in the built site; the functions that write their Markdown are plain functions of
the files, so a test can call them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = {"case": "Case files", "scope": "Scope files", "ruling": "Ruling files"}


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _literal(text: str) -> str:
    """Text shown exactly as it is, in a table cell, whatever Markdown or HTML would make of its characters."""
    special = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "|": "&#124;", "\\": "&#92;", "*": "&#42;", "_": "&#95;",
               "`": "&#96;", "[": "&#91;", "]": "&#93;"}
    return "<code>" + "".join(special.get(c, c) for c in text) + "</code>"


def _type_of(spec: dict[str, Any]) -> str:
    """A field's value in words: its type, its items, its choices, its reference to a definition."""
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{name})"
    if "enum" in spec:
        return "one of " + ", ".join(f"`{v}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    for key in ("oneOf", "anyOf"):
        if key in spec:
            return " or ".join(_type_of(s) for s in spec[key])
    kind = spec.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"list of {_type_of(spec['items'])}"
    if kind == "object" and isinstance(spec.get("additionalProperties"), dict):
        return f"mapping of names to {_type_of(spec['additionalProperties'])}"
    bounds = [f"{word} {spec[key]}" for key, word in (("minimum", "at least"), ("maximum", "at most")) if key in spec]
    return kind + (f" ({', '.join(bounds)})" if bounds else "")


def _fields(spec: dict[str, Any]) -> list[str]:
    required = set(spec.get("required", ()))
    rows = ["| field | value | required | meaning |", "| --- | --- | --- | --- |"]
    for name, field in spec.get("properties", {}).items():
        rows.append(f"| `{name}` | {_cell(_type_of(field))} | {'yes' if name in required else ''} | "
                    f"{_cell(field.get('description', ''))} |")
    return rows if len(rows) > 2 else ["Any of the forms above."]


def schema_page(kind: str, root: Path = ROOT) -> str:
    """The Markdown reference of `schemas/KIND.schema.json`."""
    path = root / "schemas" / f"{kind}.schema.json"
    schema = json.loads(path.read_text(encoding="utf-8"))
    out = [f"# {SCHEMAS[kind]}: the schema", "",
           f"Generated from `schemas/{kind}.schema.json` (JSON Schema {schema.get('$schema', '').rsplit('/', 2)[-2]}), "
           "which `regcheck docs --write` generates from regcheck's own code. Editors with the YAML language server "
           f"check a file against it given the line `# yaml-language-server: $schema=PATH/{kind}.schema.json`. "
           "[The case format](../case-format.md) explains every field and its default in words.", "",
           f"## {schema.get('title', kind)}", ""]
    if schema.get("description"):
        out += [schema["description"], ""]
    if "properties" in schema:
        out += _fields(schema)
    if "if" in schema:  # one shape when the file has the `if` fields, another when it does not
        wanted = ", ".join(f"`{f}`" for f in schema["if"].get("required", ()))
        out += [f"### With {wanted}", "", *_fields(schema["then"]), "", f"### Without {wanted}", "", *_fields(schema["else"])]
    for name, spec in schema.get("$defs", {}).items():
        out += ["", f"## {name}", ""]
        if spec.get("description"):
            out += [spec["description"], ""]
        if "properties" in spec:
            out += _fields(spec)
        else:
            out += [f"Value: {_type_of(spec)}."]
    return "\n".join(out) + "\n"


def rules_sections(root: Path = ROOT) -> list[Path]:
    return sorted((root / "rules").glob("*.md"))


def rules_page(path: Path) -> str:
    """A rules section as `rules/` has it, with where it comes from."""
    text = path.read_text(encoding="utf-8")
    return text.rstrip("\n") + f"\n\n---\n\nThis page is `rules/{path.name}` of the repository.\n"


def mechanics_page() -> str:
    """The card mechanics table: each mechanic, the words that name it in a sentence, the reason given."""
    from verifier.scenario.cardmechanics import MECHANICS, NOT_UNDERSTOOD

    out = ["# The card mechanics table", "",
           "A sentence of a card's text that the card grammar does not read is given a reason: every mechanic of this "
           "table whose words the sentence says (lower-cased), in the table's order, or "
           f"\"{NOT_UNDERSTOOD}\" for none. The words are regular expressions. Recognising a mechanic never makes a text "
           "read: only the reason changes. Generated from `verifier/scenario/cardmechanics.py`.", "",
           "| mechanic | words (regular expression) | reason |", "| --- | --- | --- |"]
    for m in MECHANICS:
        out.append(f"| {_cell(m.name)} | {_literal(m.words.pattern)} | {_cell(m.reason)} |")
    return "\n".join(out) + "\n"


def generated_pages(root: Path = ROOT) -> dict[str, str]:
    """Every generated page, by its path in the site's sources."""
    pages = {f"reference/{kind}-schema.md": schema_page(kind, root) for kind in SCHEMAS}
    pages.update({f"reference/rules/{p.name}": rules_page(p) for p in rules_sections(root)})
    pages["reference/card-mechanics.md"] = mechanics_page()
    return pages


def on_files(files: Any, config: Any) -> Any:
    """Add the generated pages to the site's files (MkDocs hook)."""
    from mkdocs.structure.files import File

    for uri, content in generated_pages().items():
        files.append(File.generated(config, uri, content=content))
    return files
