"""Input text as it is shown to people: control, invisible and look-alike characters made visible.

What a file says reaches the terminal only through these. A control character (ESC, BEL, a
carriage return) could otherwise set the terminal's title, clear the screen or hide a line, and an
invisible character (U+200B) or a look-alike (a Cyrillic 'а' for a Latin 'a') would make two
different names print the same. JSON output keeps the exact strings: JSON escapes them itself.
"""

from __future__ import annotations

__all__ = ["escape_text", "escape_lines", "quoted", "how_they_differ"]

import unicodedata

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape_char(c: str) -> str:
    if c in _SHORT:
        return _SHORT[c]
    code = ord(c)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def escape_text(text: str) -> str:
    """`text` with every character that does not print as itself (controls, line breaks, format and
    separator characters other than the space) written as Python's repr writes it: `\\x1b`, `\\u200b`."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else _escape_char(c) for c in text)


def escape_lines(text: str) -> str:
    """`text` escaped line by line: its '\\n' line breaks kept, everything else made visible."""
    return "\n".join(escape_text(line) for line in text.split("\n"))


def quoted(name: str) -> str:
    """A name in quotes, as messages show it: Python's repr, which escapes what does not print."""
    return repr(name)


def _describe(c: str) -> str:
    name = unicodedata.name(c, "")
    shown = escape_text(c) if c.isprintable() else _escape_char(c)
    return f"'{shown}' (U+{ord(c):04X}{' ' + name if name else ''})"


def how_they_differ(given: str, other: str) -> str:
    """When `given` holds a character outside printable ASCII, where it differs from `other`: names that
    look alike in quotes (a Cyrillic 'а' for a Latin 'a', an accent written as a combining mark) are then
    told apart. Else an empty string."""
    if given == other or all(" " <= c <= "~" for c in given):
        return ""
    import difflib

    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, given, other, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        mine = ", ".join(_describe(c) for c in given[i1:i2][:3]) or "nothing"
        theirs = ", ".join(_describe(c) for c in other[j1:j2][:3]) or "nothing"
        return f"at character {i1 + 1}, yours has {mine} where {quoted(other)} has {theirs}"
    return ""
