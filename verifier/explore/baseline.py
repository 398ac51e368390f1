"""Searches of scopes told apart by the accepted-findings baseline: what is new, what was accepted."""

from __future__ import annotations

__all__ = ["ScopeReport", "ExploreReport", "finding_of", "explore"]

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..repository import Repository, shown_path
from .scope import ScopeText, load_scope
from .search import ExploreFinding, ExploreOptions, ExploreResult, explore_scope

if TYPE_CHECKING:
    from ..gate.model import AcceptedFinding, Finding


@dataclass(frozen=True)
class ScopeReport:
    """One scope's search, with each finding's place in the accepted-findings baseline."""

    result: ExploreResult
    new: tuple[ExploreFinding, ...]
    accepted: tuple[tuple[ExploreFinding, AcceptedFinding], ...]

    @property
    def passed(self) -> bool:
        return not self.new and self.result.complete


@dataclass(frozen=True)
class ExploreReport:
    """Every scope's search; it passes when nothing new was found and no search was cut short."""

    scopes: tuple[ScopeReport, ...]

    @property
    def passed(self) -> bool:
        return all(s.passed for s in self.scopes)


def finding_of(f: ExploreFinding) -> Finding:
    """An explore finding as the baseline records it: by scope, verdict and statements at fault (its cause,
    whatever question shows it)."""
    from ..gate.model import Finding

    return Finding(f.scope, None, f.verdict, f.at_fault)


def explore(repo: Repository, scopes: Sequence[Path | ScopeText], options: ExploreOptions | None = None,
            progress: Callable[[str, int, int], None] | None = None, exitfirst: bool = False) -> ExploreReport:
    """Search every scenario of each scope (a file, or a scope's text) for contradictions and ambiguities;
    findings listed in the repository's accepted-findings file are told apart from new ones. With
    `exitfirst`, the scopes after the first that does not pass (a new finding, a search cut short) are
    not searched."""
    from ..gate.findings import FINDINGS_FILE, read_baseline

    options = options or ExploreOptions()
    # every scope's errors before any search
    loaded = [load_scope(p, repo.rules, p.name if isinstance(p, ScopeText) else shown_path(repo, p)) for p in scopes]
    baseline = {a.finding.fingerprint: a for a in read_baseline(repo.root / FINDINGS_FILE, repo.root)}
    out = []
    for scope in loaded:
        step = (lambda done, total, s=scope.path: progress(s, done, total)) if progress else None
        result = explore_scope(scope, repo.rules, options, step)
        accepted = tuple((f, baseline[finding_of(f).fingerprint]) for f in result.findings
                         if finding_of(f).fingerprint in baseline)
        new = tuple(f for f in result.findings if finding_of(f).fingerprint not in baseline)
        out.append(ScopeReport(result, new, accepted))
        if exitfirst and not out[-1].passed:
            break
    return ExploreReport(tuple(out))
