"""A rules repository opened for checking: its folder, its rule base and its rules document."""

from __future__ import annotations

__all__ = ["Repository", "open_repository", "shown_path"]

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .files import display_path
from .language.cache import cached_rule_base
from .language.encoding import RuleBase, load_rule_base
from .rulesdoc import RulesDocument, load_rules_document


@dataclass(frozen=True)
class Repository:
    """A rules repository: its folder, its rule base, and its rules document (read when first needed)."""

    root: Path
    rules: RuleBase
    document: Callable[[], RulesDocument]


def open_repository(root: Path) -> Repository:
    """Read the rule base of the repository at `root` (from its cache when unchanged)."""
    rules_folder = root / "rules"
    return Repository(root, cached_rule_base(root / "encodings", load_rule_base),
                      functools.cache(lambda: load_rules_document(rules_folder)))


def shown_path(repo: Repository, path: Path) -> str:
    """A scope's name in findings: its path in the repository (so fingerprints do not depend on the
    current folder), or as given when it lies outside."""
    try:
        return (path.parent.resolve() / path.name).relative_to(repo.root.resolve()).as_posix()
    except ValueError:
        return display_path(path)
