"""The one exception hierarchy of regcheck."""

from __future__ import annotations

__all__ = [
    "RegcheckError",
    "InputError",
    "CaseError",
    "CaseRefused",
    "RulingError",
    "EncodingError",
    "RulesDocumentError",
    "SolverError",
    "ClusterError",
    "Location",
]

from typing import NamedTuple

from .escaping import escape_text


class Location(NamedTuple):
    """A place in an input file: path, 1-based line and column."""

    path: str
    line: int
    column: int = 0

    def __str__(self) -> str:
        if self.column:
            return f"{self.path}:{self.line}:{self.column}"
        return f"{self.path}:{self.line}"


class RegcheckError(Exception):
    """Base of every error regcheck raises on purpose."""


class InputError(RegcheckError):
    """A problem in an input file, reported with the place it was found.

    The message is kept as it is shown: whatever of the input it quotes, control and invisible
    characters are escaped (see `escaping`), and so is the file's path."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        self.message = escape_text(message)
        self.location = location
        super().__init__(f"{escape_text(str(location))}: {self.message}" if location else self.message)


class CaseError(InputError):
    """A case file that cannot be read as a scenario."""


class CaseRefused(CaseError):
    """A case regcheck will not answer: something a real card says, which regcheck does not carry out, could
    change one of its answers. The file is well formed; another timeline of the same cards may be answered."""


class EncodingError(InputError):
    """An encoding file that cannot be read or compiled."""


class RulingError(InputError):
    """A ruling file that cannot be read or names what does not exist."""


class RulesDocumentError(InputError):
    """A rules-document file that cannot be read."""


class UsageError(RegcheckError):
    """A request that cannot be carried out as asked (nothing to check a ruling's rules on)."""


class SolverError(RegcheckError):
    """The solver failed in a way that is not a verdict."""


class ClusterError(RegcheckError):
    """The cluster a sweep runs on cannot carry it on: its scheduler is lost, or a worker runs another regcheck
    or holds another rule base than the sweep's. The results written so far are kept."""
