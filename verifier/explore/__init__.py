"""Search over scenarios: scope files, their scenarios, and the findings a search reports."""

from .scope import Scope, ScopeText, load_scope
from .search import ExploreFinding, ExploreOptions, ExploreResult, explore_scope

__all__ = ["Scope", "ScopeText", "load_scope", "ExploreFinding", "ExploreOptions", "ExploreResult", "explore_scope"]
