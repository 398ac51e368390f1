"""regcheck: a constraint-checked rules verifier for the Redemption card game."""

__version__ = "0.1.0"

from .errors import CaseError, EncodingError, InputError, RegcheckError, RulesDocumentError, SolverError
from .verdicts import CaseResult, QuestionResult, Verdict

__all__ = [
    "__version__",
    "CaseError", "CaseResult", "EncodingError", "InputError", "QuestionResult", "RegcheckError",
    "RulesDocumentError", "SolverError", "Verdict",
]
