"""Reading YAML into located values: only the safe subset, every value with its file:line:column."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.errors import CaseError, EncodingError, InputError, Location
from verifier.yamlsource import MAX_DEPTH, MAX_FILE_BYTES, YMap, YNode, YScalar, YSeq, did_you_mean, load_yaml


def load(tmp_path: Path, text: str | bytes, error: type[InputError] = CaseError) -> YNode:
    path = tmp_path / "doc.yaml"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    node, _ = load_yaml(path, error, display="doc.yaml")
    return node


def failure(tmp_path: Path, text: str | bytes) -> tuple[str, int, int]:
    with pytest.raises(CaseError) as info:
        load(tmp_path, text)
    loc = info.value.location
    assert loc is not None and loc.path == "doc.yaml"
    return info.value.message, loc.line, loc.column


def test_values_and_places(tmp_path: Path) -> None:
    root = load(tmp_path, "a: 1\nb:\n  - x\n  - true\n  - ~\nc: {d: 2.5}\n")
    assert isinstance(root, YMap)
    assert root.keys() == ["a", "b", "c"]
    a = root.get("a")
    assert isinstance(a, YScalar) and a.value == 1 and a.loc == Location("doc.yaml", 1, 4)
    b = root.get("b")
    assert isinstance(b, YSeq) and b.loc.line == 3
    assert [i.value for i in b if isinstance(i, YScalar)] == ["x", True, None]
    assert [i.kind for i in b] == ["text", "true/false", "nothing"]
    c = root.get("c")
    assert isinstance(c, YMap) and c.get("d").value == 2.5  # type: ignore[union-attr]
    assert root.get("zzz") is None


def test_text_is_returned(tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    assert load_yaml(path, CaseError)[1] == "a: 1\n"


@pytest.mark.parametrize("key", ["on", "no", "yes", "off", "true", "null", "1"])
def test_keys_stay_text(tmp_path: Path, key: str) -> None:
    root = load(tmp_path, f"{key}: x\n")
    assert isinstance(root, YMap) and root.keys() == [key]


@pytest.mark.parametrize(
    ("text", "value"),
    [("v: yes", True), ("v: 'yes'", "yes"), ("v: 0x10", 16), ("v: 1_000", 1000), ("v: .inf", float("inf")),
     ("v: '3'", "3"), ("v: \"\"", "")],
)
def test_scalars(tmp_path: Path, text: str, value: object) -> None:
    root = load(tmp_path, text + "\n")
    assert isinstance(root, YMap) and root.get("v").value == value  # type: ignore[union-attr]


def test_scalar_helpers(tmp_path: Path) -> None:
    root = load(tmp_path, "n: 7\nb: true\nt: hello\nbig: 99999999999999999999\nf: 1.5\n")
    assert isinstance(root, YMap)
    n, b, t, big, f = (root.get(k) for k in ("n", "b", "t", "big", "f"))
    assert isinstance(n, YScalar) and n.integer("n", 1, 10) == 7
    assert isinstance(b, YScalar) and b.boolean("b") is True
    assert isinstance(t, YScalar) and t.text("t") == "hello"
    with pytest.raises(CaseError, match="doc.yaml:4:6: big must be between 1 and 10, got 99999999999999999999"):
        big.integer("big", 1, 10)  # type: ignore[union-attr]
    with pytest.raises(CaseError, match="b must be a whole number, got true/false"):
        b.integer("b", 0, 1)
    with pytest.raises(CaseError, match="n must be true or false, got a number"):
        n.boolean("n")
    with pytest.raises(CaseError, match="n must be text, got a number"):
        n.text("n")
    with pytest.raises(CaseError, match="f must be a whole number, got 1.5"):
        f.integer("f", 0, 5)  # type: ignore[union-attr]


def test_check_keys(tmp_path: Path) -> None:
    root = load(tmp_path, "title: x\nplayrs: [a]\n")
    assert isinstance(root, YMap)
    with pytest.raises(CaseError) as info:
        root.check_keys(("title", "players"), "a case")
    assert str(info.value) == "doc.yaml:2:1: unknown field 'playrs' in a case (did you mean 'players'?)"
    with pytest.raises(CaseError, match="a case is missing 'cards'"):
        root.require("cards", "a case")


def test_did_you_mean() -> None:
    assert did_you_mean("hnad", ["hand", "territory"]) == " (did you mean 'hand'?)"
    assert did_you_mean("qqqq", ["hand", "territory"]) == ""
    assert did_you_mean("x", []) == ""


def test_error_class_is_the_callers(tmp_path: Path) -> None:
    with pytest.raises(EncodingError):
        load(tmp_path, "a: [\n", EncodingError)


# -- refused input -----------------------------------------------------------------------------
# (the "malformed YAML" texts are libyaml's, which the loader uses when PyYAML has it)


@pytest.mark.parametrize(
    ("text", "message", "line", "column"),
    [
        ("a: 1\na: 2\n", "duplicate key 'a' (first at line 1)", 2, 1),
        ("m:\n  k: 1\n  'k': 2\n", "duplicate key 'k' (first at line 2)", 3, 3),
        # reported at the anchor: the alias hands back the very same node
        ("a: &x 1\nb: *x\n", "anchors and aliases are not allowed", 1, 4),
        ("a: &x [1, 2]\nb: *x\n", "anchors and aliases are not allowed", 1, 4),
        ("base: &b {k: 1}\nother:\n  <<: *b\n", "anchors and aliases are not allowed", 1, 7),
        ("a: !!python/object:os.system x\n", "tag 'tag:yaml.org,2002:python/object:os.system' is not allowed", 1, 4),
        ("a: !custom 1\n", "tag '!custom' is not allowed", 1, 4),
        ("a: !!set {x, y}\n", "tag 'tag:yaml.org,2002:set' is not allowed", 1, 4),
        ("a: 2001-12-14\n", "tag 'tag:yaml.org,2002:timestamp' is not allowed", 1, 4),
        ("a: !!binary aGVsbG8=\n", "tag 'tag:yaml.org,2002:binary' is not allowed", 1, 4),
        ("? [a, b]\n: 1\n", "mapping keys must be plain names", 1, 3),
        ("a: [1, 2\n", "malformed YAML: did not find expected ',' or ']'", 2, 1),
        ("a: 1\n b: 2\n", "malformed YAML: mapping values are not allowed in this context", 2, 3),
        ("a: 'open\n", "malformed YAML: found unexpected end of stream", 2, 1),
        ("a:\n\t- 1\n", "malformed YAML: found character that cannot start any token", 2, 1),
        ("--- 1\n--- 2\n", "malformed YAML: expected a single document in the stream, but found another document", 2, 1),
        ("", "file is empty", 1, 0),
        ("# only a comment\n", "file is empty", 1, 0),
        (b"a: \xff\xfe\n", "file is not valid UTF-8", 1, 0),
        (b"a: 1\nb: 2\nc: \xc3\n", "file is not valid UTF-8", 3, 0),
    ],
)
def test_refused(tmp_path: Path, text: str | bytes, message: str, line: int, column: int) -> None:
    assert failure(tmp_path, text) == (message, line, column)


def test_too_deep(tmp_path: Path) -> None:
    text = "a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n"
    message, line, _ = failure(tmp_path, text)
    assert message == f"nesting deeper than {MAX_DEPTH} levels" and line == 1


def test_extremely_deep_is_refused_without_a_crash(tmp_path: Path) -> None:
    message, _, _ = failure(tmp_path, "[" * 20_000 + "]" * 20_000 + "\n")
    assert message == f"nesting deeper than {MAX_DEPTH} levels" or message.startswith("malformed YAML")


def test_too_large(tmp_path: Path) -> None:
    assert failure(tmp_path, "a: " + "x" * MAX_FILE_BYTES + "\n")[:2] == (
        f"file is larger than {MAX_FILE_BYTES} bytes", 1)


def test_too_long_text(tmp_path: Path) -> None:
    assert failure(tmp_path, "a: " + "x" * 20_001 + "\n") == ("text longer than 20000 characters", 1, 4)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CaseError) as info:
        load_yaml(tmp_path / "nope.yaml", CaseError, display="nope.yaml")
    assert str(info.value) == "nope.yaml:1: cannot read file: No such file or directory"


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    text = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n'
    assert failure(tmp_path, text)[0] == "anchors and aliases are not allowed"


# -- whatever the text, the only failure is a located input error --------------------------------


YAMLISH = st.text(alphabet=st.sampled_from(list("ab: -[]{},&*!|>'\"#?\n\t 1.%@`~\\")), max_size=80)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(YAMLISH)
def test_any_text_loads_or_fails_cleanly(tmp_path: Path, text: str) -> None:
    path = tmp_path / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        node, _ = load_yaml(path, CaseError, display="fuzz.yaml")
    except CaseError as err:
        assert err.location is not None and err.location.path == "fuzz.yaml"
        assert err.location.line >= 1
        return
    assert isinstance(node, (YMap, YSeq, YScalar))


@pytest.mark.parametrize(
    ("text", "shown", "value"),
    [("turn: 1:00", "1:00", "60"), ("turn: 1:30:00", "1:30:00", "5400"), ("x: -2:05", "-2:05", "-125"),
     ("x: 1:30.5", "1:30.5", "90.5"), ("x: !!int 1:00", "1:00", "60")],
)
def test_base_60_numbers_are_refused(tmp_path: Path, text: str, shown: str, value: str) -> None:
    """Defect 10: YAML 1.1 reads `1:00` as 60. A number written with a colon is refused, with the reading."""
    message, line, column = failure(tmp_path, text + "\n")
    assert message == (f"'{shown}' is read by YAML as the base-60 number {value}: write the number meant, "
                       f"or quote it ('{shown}') for text")
    assert (line, column) == (1, text.index(":") + 3)


def test_times_in_quotes_stay_text(tmp_path: Path) -> None:
    root = load(tmp_path, "a: '1:00'\nb: 1.5\nc: 60\n")
    assert isinstance(root, YMap)
    assert [getattr(root.get(k), "value", None) for k in "abc"] == ["1:00", 1.5, 60]


@pytest.mark.parametrize("word", ["on", "off", "yes", "no", "Yes", "OFF"])
def test_yaml11_truth_words_where_text_or_a_number_is_wanted(tmp_path: Path, word: str) -> None:
    root = load(tmp_path, f"a: {word}\nb: '{word}'\nc: true\n")
    assert isinstance(root, YMap)
    a, b, c = (root.get(k) for k in "abc")
    assert isinstance(a, YScalar) and isinstance(b, YScalar) and isinstance(c, YScalar)
    truth = str(a.value).lower()
    assert a.yaml11_word == word and b.yaml11_word is None and c.yaml11_word is None
    with pytest.raises(CaseError) as info:
        a.text("title")
    assert info.value.message == (f"title must be text, got true/false ('{word}' is read by YAML as {truth}: "
                                  f"write it in quotes ('{word}') for the word)")
    with pytest.raises(CaseError) as info:
        a.integer("turn", 1, 60)
    assert info.value.message == f"turn must be a whole number, got true/false ('{word}' is read by YAML as {truth})"
    assert b.text("title") == word and c.boolean("flag") is True


def test_did_you_mean_follows_the_words_before_the_letters() -> None:
    steps = ["turn 3 Draw (alice)", "turn 3 Preparation (alice)", "turn 2 Preparation (bob)"]
    assert did_you_mean("turn 3 Prep", steps) == " (did you mean 'turn 3 Preparation (alice)'?)"
    assert did_you_mean("Prep", ["Preparation", "Battle"]) == " (did you mean 'Preparation'?)"
    assert did_you_mean("provisons", ["provisions", "elijah"]).startswith(" (did you mean 'provisions'?")
    assert did_you_mean("zz", ["Preparation"]) == ""
def _editor_lines(text: str) -> list[str]:
    """The lines an editor shows: ended by CR LF, LF or CR alone (never by NEL, LS or PS, which YAML also takes)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


@pytest.mark.parametrize(("text", "line", "column"), [
    ("a: 1\rb: [\rc: 3\r", 4, 1),
    ("a: 1\r\nb: [\r\nc: 3\r\n", 4, 1),
    ("a: 1\nb: [\nc: 3\n", 4, 1),
    ("a: 1\r\rb: {", 3, 5),
    ("a: x\x85b: [", 1, 10),  # NEL: a line end to YAML, a character within the line to an editor
    ("a: x\u2028b: [\nc", 2, 2),
    ("\ufeffa: 1\rb: [", 2, 5),  # a byte-order mark takes no column
])
def test_a_malformed_file_is_placed_as_an_editor_counts_its_lines(tmp_path: Path, text: str, line: int,
                                                                   column: int) -> None:
    _, got_line, got_column = failure(tmp_path, text)
    assert (got_line, got_column) == (line, column)


def test_an_empty_document_after_a_carriage_return_is_placed_inside_the_file(tmp_path: Path) -> None:
    node = load(tmp_path, b"\r#ti\n---")  # CR, then LF: three lines to an editor; the document is empty
    assert isinstance(node, YScalar) and node.value is None
    assert (node.loc.line, node.loc.column) == (3, 4)


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_values_are_placed_at_the_same_line_and_column_for_every_line_end(tmp_path: Path, end: str) -> None:
    text = end.join(["a: 1", "b:", "  - x", "  - {c: 'é😀', d: 2}", "e: |", "  one", "  two", "f: end", ""])
    node = load(tmp_path, text)
    assert isinstance(node, YMap)
    b, e, f = node.get("b"), node.get("e"), node.get("f")
    assert isinstance(b, YSeq) and isinstance(e, YScalar) and isinstance(f, YScalar)
    inner = b.items[1]
    assert isinstance(inner, YMap)
    assert [(n.loc.line, n.loc.column) for n in (b.items[0], inner, inner.require("d", ""), e, f)] == \
        [(3, 5), (4, 5), (4, 18), (5, 4), (8, 4)]
    assert (e.end_line, f.end_line) == (8, 8)


_PIECES = st.sampled_from(["a:", " 1", "- x", "[", "]", "{", "}", "'", '"', "#c", "---", "...", "  ", "b: [1,", "&x",
                           "*x", "!!int", "|", ">", "\t", "é", "😀", "\ufeff", "? k", ": v"])
_ENDS = st.sampled_from(["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.lists(_PIECES, max_size=4), _ENDS), max_size=8), st.booleans())
def test_every_place_is_inside_the_file(tmp_path: Path, lines: list[tuple[list[str], str]], last_end: bool) -> None:
    text = "".join("".join(pieces) + end for pieces, end in lines)
    if not last_end and text:
        text = text[:-1].rstrip("\r")
    shown = _editor_lines(text)
    try:
        node = load(tmp_path, text)
    except CaseError as err:
        places = [err.location] if err.location is not None else []
    else:
        places, todo = [], [node]
        while todo:
            n = todo.pop()
            places.append(n.loc)
            todo.extend(n.items if isinstance(n, YSeq) else [v for kv in n.entries for v in kv] if isinstance(n, YMap) else [])
    for place in places:
        assert 1 <= place.line <= len(shown), (text, place)
        assert place.column <= len(shown[place.line - 1]) + 1, (text, place)


def test_blank_text_is_called_empty(tmp_path: Path) -> None:
    node = load(tmp_path, "a: ''\nb: '  '\n")
    assert isinstance(node, YMap)
    for key in ("a", "b"):
        with pytest.raises(CaseError, match=f": {key} must be text, got empty text$"):
            node.require(key, "").text(key)  # type: ignore[union-attr]
