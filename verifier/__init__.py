"""regcheck: a constraint-checked rules verifier for the Redemption card game."""

from .errors import CaseError, EncodingError, InputError, RegcheckError, RulesDocumentError, SolverError
from .verdicts import CaseResult, QuestionResult, Verdict

__all__ = [
    "CaseError", "CaseResult", "EncodingError", "InputError", "QuestionResult", "RegcheckError",
    "RulesDocumentError", "SolverError", "Verdict",
]
