"""Accepted survivors: rules whose deletion no case notices, each listed with the reason it is accepted.

The gate deletes every rule in turn (not an interpretation, which is off unless a case asks for it) and
checks the deletion against the case table. A rule whose deletion survives is a rule no case depends on:
the gate fails on it unless `accepted-survivors.yaml` lists it with a reason (say, that a definition other
rules apply already says the same, or that no case reaches it yet). A listed rule whose deletion is now
noticed fails the gate too, so that the list stays true.

    survivors:
      - rule: SA-6b
        reason: no question asks when a set-aside without a duration is scheduled to return
"""

from __future__ import annotations

__all__ = ["SURVIVORS_FILE", "AcceptedSurvivor", "read_survivors"]

from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError
from ..language.encoding import RuleBase
from ..yamlsource import YMap, YScalar, YSeq, did_you_mean, load_yaml
from .model import Place

SURVIVORS_FILE = "accepted-survivors.yaml"


@dataclass(frozen=True)
class AcceptedSurvivor:
    """A rule whose deletion no case notices, accepted with a reason, and where the file lists it."""

    rule: str
    reason: str
    place: Place


def _text(node: object, what: str) -> str:
    if not isinstance(node, YScalar) or not isinstance(node.value, str) or not node.value.strip():
        if isinstance(node, (YScalar, YMap, YSeq)):
            node.fail(f"{what} must be text")
        raise InputError(f"{what} is missing")
    return node.value.strip()


def read_survivors(path: Path, root: Path, rules: RuleBase) -> list[AcceptedSurvivor]:
    """The accepted survivors; none when the file does not exist. A malformed entry, a rule that does not
    exist or is an interpretation, or a rule listed twice is an input error at its line."""
    if not path.is_file():
        return []
    node, _ = load_yaml(path, InputError)
    if not isinstance(node, YMap):
        node.fail("the accepted-survivors file must be a mapping with a list of 'survivors'")
    node.check_keys(["survivors"], "the accepted-survivors file")
    entries = node.get("survivors")
    if entries is None or (isinstance(entries, YScalar) and entries.value is None):
        return []
    if not isinstance(entries, YSeq):
        entries.fail("'survivors' must be a list")
    by_id = {r.id: r for r in rules.rules}
    seen: dict[str, Place] = {}
    out: list[AcceptedSurvivor] = []
    for entry in entries:
        if not isinstance(entry, YMap):
            entry.fail("a survivor must be a mapping with 'rule' and 'reason'")
        entry.check_keys(["rule", "reason"], "a survivor")
        rule_node = entry.require("rule", "a survivor")
        rule = _text(rule_node, "rule")
        if rule not in by_id:
            rule_node.fail(f"no rule '{rule}' in the encodings{did_you_mean(rule, by_id)}")
        if by_id[rule].interpretation:
            rule_node.fail(f"{rule} is an interpretation, off unless a case asks for it: the gate does not "
                           "delete it, so it cannot survive; remove the entry")
        place = Place.of(entry.loc, root)
        if rule in seen:
            rule_node.fail(f"rule {rule} is listed twice (first at {seen[rule]})")
        seen[rule] = place
        out.append(AcceptedSurvivor(rule, _text(entry.require("reason", f"the survivor {rule}"), "reason"), place))
    return out
