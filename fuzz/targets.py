"""The readers fuzzed inputs are fed to, and the one rule they must keep.

A reader may accept an input or refuse it with the project's `InputError`, whose location names
the file read and a line inside it. Anything else (another exception, an error without a place, a
place in another file or past the file's end, an input that takes seconds) is a `Failure`.

- `CaseTarget`: a case file through `load_case`, then grounded against the rules when it loads
  and is within the grounding limit (grounding is where a case's structure meets the rules), or,
  with `checked`, answered by the engine (`check_scenario`: grounding, solving, minimising and
  re-checking; a case past the grounding limit or the solver's timeout is answered `unknown`);
- `EncodingTarget`: an encoding file, put in place of one of the real ones in a temporary copy of
  the encodings folder, through `load_rule_base`;
- `ExpressionTarget`: one rule-language expression, asked as the question of a small valid case,
  through `load_case` and grounding.
"""

from __future__ import annotations

__all__ = ["Failure", "CaseTarget", "EncodingTarget", "ExpressionTarget", "ACCEPTED", "REFUSED", "EXPRESSION_CASE",
           "section_fields"]

import json
import re
import shutil
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import yaml

from verifier.errors import InputError
from verifier.files import display_path
from verifier.language.encoding import RuleBase, load_rule_base
from verifier.rulesdoc import RulesDocument
from verifier.scenario.loader import load_case
from verifier.solver.engine import check_scenario
from verifier.solver.grounding import MAX_RULE_INSTANCES, ground, rule_instances

ACCEPTED, REFUSED = "accepted", "refused"
SLOW_SECONDS = 5.0

# The case an expression is asked in: two players, a Hero, a set-aside card played on it.
EXPRESSION_CASE = """\
players: [alice, bob]
cards:
  elijah:
    type: Hero
  provisions:
    card: Provisions
timeline:
  - id: play_provisions
    turn: 1
    phase: Preparation
    play: provisions
    on: elijah
    targets: [elijah]
questions:
  asked: {expression}
"""
EXPRESSION_LINE = 14  # the line `asked:` is on


class Failure(AssertionError):
    """A reader broke the rule: `signature` tells one kind of failure from another, `detail` shows it."""

    def __init__(self, signature: str, detail: str) -> None:
        self.signature = signature
        self.detail = detail
        super().__init__(f"{signature}\n{detail}")


def _signature(exc: BaseException) -> str:
    """The exception's type and the last place in regcheck's own code it passed through."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/verifier/" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(exc).__name__} at {where}"


def _line_count(data: bytes) -> int:
    """The number of lines of a file as an editor shows them: lines end with LF, CR LF or CR alone (YAML also
    breaks lines at NEL, LS and PS, which an editor shows within a line)."""
    return len(re.findall(rb"\r\n|\r|\n", data)) + 1


def _judge(run: Callable[[], object], files: dict[str, int], slow: float = SLOW_SECONDS) -> str:
    """Run a reader; `files` maps each path an error may name to the number of lines it has. An input whose
    reading takes more than `slow` seconds of this process's CPU time (not of the clock: other work on the
    machine does not count) is a failure."""
    started = time.process_time()
    try:
        run()
    except InputError as err:
        loc = err.location
        if loc is None:
            raise Failure(f"{type(err).__name__} without a place: {err.message[:60]}", str(err)) from err
        if loc.path not in files:
            raise Failure(f"{type(err).__name__} names another file", f"{err} (files: {sorted(files)})") from err
        if not 1 <= loc.line <= files[loc.path]:
            raise Failure(f"{type(err).__name__} names a line outside the file",
                          f"{err} (the file has {files[loc.path]} lines)") from err
        if not err.message.strip() or "Traceback" in err.message:
            raise Failure(f"{type(err).__name__} with an empty or raw message", str(err)) from err
        outcome = REFUSED
    except Exception as exc:  # noqa: BLE001 - anything but InputError is what is looked for
        raise Failure(_signature(exc), "".join(traceback.format_exception(exc))) from exc
    else:
        outcome = ACCEPTED
    took = time.process_time() - started
    if took > slow:
        raise Failure("slow input", f"took {took:.1f} s of CPU time")
    return outcome


class _Folder:
    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="regcheck-fuzz-"))

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class CaseTarget(_Folder):
    """A case file's bytes through the case loader (and grounding, when `grounded` and it loads, or the
    engine's whole check, when `checked`)."""

    def __init__(self, rules: RuleBase, grounded: bool = True, max_instances: int = MAX_RULE_INSTANCES,
                 slow: float = SLOW_SECONDS, checked: bool = False, doc: RulesDocument | None = None,
                 timeout_ms: int = 5_000) -> None:
        """`max_instances`: a loaded case with more rule instances is not grounded (it would take long
        and, near the engine's own limit, gigabytes). `checked`: the engine answers every question of a
        case that loads and is within `max_instances`, each solver check bounded by `timeout_ms`; the
        others are counted as `too large for this run`."""
        super().__init__()
        self.rules = rules
        self.grounded = grounded
        self.max_instances = max_instances
        self.slow = slow
        self.checked = checked
        self.doc = doc
        self.timeout_ms = timeout_ms
        self.verdicts: dict[str, int] = {}
        self.fields: Counter[str] = Counter()  # accepted cases holding each field of the later sections
        self.path = self.folder / "case.yaml"
        self.encoding_files = {f: 10**6 for f in rules.files}

    def __call__(self, data: bytes) -> str:
        self.path.write_bytes(data)

        def run() -> None:
            scenario = load_case(self.path, self.rules, display="case.yaml")
            if self.checked and rule_instances(scenario, self.rules) > self.max_instances:
                self.verdicts["too large for this run"] = self.verdicts.get("too large for this run", 0) + 1
                return
            if self.checked:
                result = check_scenario(scenario, self.rules, self.doc, self.timeout_ms)
                for r in result.results:
                    self.verdicts[r.verdict.value] = self.verdicts.get(r.verdict.value, 0) + 1
                return
            # a case past the grounding limit is answered unknown without grounding, as the engine does
            if self.grounded and rule_instances(scenario, self.rules) <= self.max_instances:
                ground(scenario, self.rules)

        # Grounding may blame a rule for what a case did (a rule instance with no value): then the
        # error names the encoding file; any line of it may be meant.
        outcome = _judge(run, {"case.yaml": _line_count(data), **self.encoding_files}, self.slow)
        if outcome == ACCEPTED:
            self.fields.update(section_fields(data))
        return outcome


def section_fields(data: bytes) -> set[str]:
    """The fields of the later rules sections' vocabulary (fuzz.mutators.SECTION_FIELDS) a case file holds, and
    `negate` when its timeline holds a negate."""
    from fuzz.mutators import SECTION_FIELDS

    try:
        case = yaml.load(data.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, UnicodeDecodeError):
        return set()
    found: set[str] = set()
    cards = case.get("cards") if isinstance(case, dict) else None
    for card in cards.values() if isinstance(cards, dict) else []:
        if isinstance(card, dict):
            found |= set(card) & set(SECTION_FIELDS["card"])
            for ability in card.get("abilities") or [] if isinstance(card.get("abilities"), list) else []:
                found |= set(ability) & set(SECTION_FIELDS["ability"]) if isinstance(ability, dict) else set()
    timeline = case.get("timeline") if isinstance(case, dict) else None
    if isinstance(timeline, list) and any(isinstance(e, dict) and "negate" in e for e in timeline):
        found.add("negate")
    return found


class EncodingTarget(_Folder):
    """An encoding file's bytes in place of `replaced` in a copy of the `encodings` folder."""

    def __init__(self, encodings: Path, slow: float = SLOW_SECONDS) -> None:
        super().__init__()
        self.source = encodings
        self.slow = slow
        for path in sorted(encodings.glob("*.yaml")):
            shutil.copy(path, self.folder / path.name)
        self.lines = {p.name: _line_count(p.read_bytes()) for p in self.folder.glob("*.yaml")}

    def __call__(self, data: bytes, replaced: str) -> str:
        target = self.folder / replaced
        original = (self.source / replaced).read_bytes()
        target.write_bytes(data)
        files = {display_path(self.folder / name): count for name, count in self.lines.items()}
        files[display_path(target)] = _line_count(data)
        try:
            return _judge(lambda: load_rule_base(self.folder), files, self.slow)
        finally:
            target.write_bytes(original)


class ExpressionTarget(_Folder):
    """One expression as the question of `EXPRESSION_CASE`, loaded and grounded."""

    def __init__(self, rules: RuleBase, slow: float = SLOW_SECONDS) -> None:
        super().__init__()
        self.cases = CaseTarget(rules, slow=slow)

    @staticmethod
    def case_text(expression: str) -> str:
        """The case asking `expression`: a block scalar if it spans lines, else a quoted one."""
        lines = expression.split("\n")
        if len(lines) > 1 and all(line.isprintable() for line in lines):
            block = "|\n" + "\n".join("    " + line for line in lines)
            return EXPRESSION_CASE.format(expression=block)
        return EXPRESSION_CASE.format(expression=json.dumps(expression))

    def __call__(self, expression: str) -> str:
        return self.cases(self.case_text(expression).encode("utf-8", "surrogatepass"))

    def close(self) -> None:
        self.cases.close()
        super().close()
