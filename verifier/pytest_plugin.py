"""A pytest plugin: the case files of a rules repository as test items, one per question.

Installed with regcheck (entry point `pytest11`), it collects only YAML files inside a `cases/`
folder of a rules repository (a folder holding `rules/` and `encodings/`), so `pytest cases/`
checks every case, with IDs like `cases/set-aside/provisions-returns-after-two-turns.yaml::returns_at`.
A question fails when it does not get its expected verdict, when the solver gives up, or, with
no expectation, when the rules contradict each other; the report shows the verdict, the
expectation and the evidence as `regcheck check` prints them. A case file that cannot be read
is one failing item with the file:line message. `-p no:regcheck` turns the plugin off.
"""

from __future__ import annotations

__all__ = ["pytest_collect_file", "CaseFile", "CaseQuestion", "rules_repository"]

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from .api import Repository
    from .scenario.model import Scenario
    from .verdicts import CaseResult, QuestionResult

_REPOSITORIES: dict[Path, Repository | str] = {}


def rules_repository(path: Path) -> Path | None:
    """The rules repository whose `cases/` folder holds `path`, or None."""
    for folder in path.parents:
        if folder.name == "cases" and (folder.parent / "rules").is_dir() and (folder.parent / "encodings").is_dir():
            return folder.parent
    return None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A case file of a rules repository, as a collector of its questions; anything else is left alone."""
    if file_path.suffix not in (".yaml", ".yml") or rules_repository(file_path) is None:
        return None
    return CaseFile.from_parent(parent, path=file_path)  # type: ignore[no-any-return]


def _repository(root: Path) -> Repository | str:
    """The rules repository (its rule base and rules document read once per session), or the message
    of its error."""
    if root not in _REPOSITORIES:
        from . import api
        from .errors import RegcheckError

        try:
            repo = api.open_repository(root)
            repo.document()
            _REPOSITORIES[root] = repo
        except RegcheckError as err:
            _REPOSITORIES[root] = str(err)
    return _REPOSITORIES[root]


class CaseInputProblem(Exception):
    """A case file (or the rules it is checked against) that cannot be read."""


class QuestionFailure(Exception):
    """A question that did not pass: its result says why."""

    def __init__(self, result: QuestionResult) -> None:
        super().__init__(result.question)
        self.result = result


class CaseFile(pytest.File):
    """One case file: an item per question, checked together the first time one of them runs."""

    scenario: Scenario | None = None
    _result: CaseResult | None = None

    def collect(self) -> Iterator[pytest.Item]:
        from . import api
        from .errors import RegcheckError

        root = rules_repository(self.path)
        loaded = _repository(root) if root else "not in a rules repository"
        if isinstance(loaded, str):
            yield CaseInputItem.from_parent(self, name="case file", message=loaded)
            return
        try:
            self.scenario = api.load(loaded, self.path)
        except RegcheckError as err:
            yield CaseInputItem.from_parent(self, name="case file", message=str(err))
            return
        for q in self.scenario.questions:
            yield CaseQuestion.from_parent(self, name=q.name, line=q.loc.line)

    def result(self) -> CaseResult:
        """The engine's result for the whole case, worked out once."""
        if self._result is None:
            from . import api

            root = rules_repository(self.path)
            assert root is not None and self.scenario is not None
            loaded = _repository(root)
            assert not isinstance(loaded, str)
            self._result = api.answer(loaded, self.scenario)
        return self._result


class CaseQuestion(pytest.Item):
    """One question of a case: passes when it gets its expected verdict (and is never unknown)."""

    def __init__(self, *, line: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.line = line

    def runtest(self) -> None:
        assert isinstance(self.parent, CaseFile)
        found = {r.question: r for r in self.parent.result().results}
        if not found[self.name].ok:
            raise QuestionFailure(found[self.name])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, QuestionFailure):
            from .report import render_question

            r = excinfo.value.result
            lines = render_question(r)
            if r.expected is None:
                lines.insert(1, "    no expected verdict, and this verdict is never a pass without one")
            return "\n".join(lines)
        return str(super().repr_failure(excinfo, style))  # type: ignore[arg-type]

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.line - 1, f"{self.nodeid}"


class CaseInputItem(pytest.Item):
    """A case file that cannot be read, as one failing item carrying the file:line message."""

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message

    def runtest(self) -> None:
        raise CaseInputProblem(self.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, CaseInputProblem):
            return f"cannot read the case: {excinfo.value}"
        return str(super().repr_failure(excinfo, style))  # type: ignore[arg-type]

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"{self.nodeid}"
