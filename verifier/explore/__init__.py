"""Search over scenarios: scope files, their scenarios, and the findings a search reports."""

from .scope import Scope, load_scope
from .search import ExploreFinding, ExploreOptions, ExploreResult, explore_scope

__all__ = ["Scope", "load_scope", "ExploreFinding", "ExploreOptions", "ExploreResult", "explore_scope"]
