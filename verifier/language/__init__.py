"""The rule language: expression syntax, types and encoding files."""

from .encoding import Rule, RuleBase, Waiver, load_rule_base
from .syntax import Expr, parse_expression

__all__ = ["Expr", "Rule", "RuleBase", "Waiver", "load_rule_base", "parse_expression"]
