"""Another revision of the rules repository, taken from git, and what changed in the answers since.

The rules/, encodings/ and cases/ folders of the revision are extracted with `git archive`
into a temporary folder; the working tree is never touched.
"""

from __future__ import annotations

__all__ = ["extract_revision", "answers", "compare_answers"]

import io
import subprocess
import tarfile
from pathlib import Path

from ..errors import InputError
from ..verdicts import CaseResult
from .model import Change, Place

FOLDERS = ("rules", "encodings", "cases")


def _git(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)
    except OSError as exc:
        raise InputError(f"--base needs git, which cannot be run: {exc.strerror or exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(message[-1] if message else f"git {args[0]} failed")
    return done.stdout


def extract_revision(root: Path, revision: str, into: Path) -> Path:
    """Write rules/, encodings/ and cases/ of the rules repository at `revision` under `into`; returns that root."""
    if revision.startswith("-"):
        raise InputError(f"--base {revision}: not a revision")
    try:
        _git(root, "rev-parse", "--is-inside-work-tree")
    except InputError:
        raise InputError(f"--base {revision}: {root} is not in a git repository") from None
    try:
        commit = _git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{revision}^{{commit}}")
    except InputError:
        raise InputError(f"--base {revision}: no such revision in the git repository of {root}") from None
    prefix = _git(root, "rev-parse", "--show-prefix").decode("utf-8").strip()
    archive = _git(root, "archive", "--format=tar", f"{commit.decode().strip()}:{prefix}")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        members = [m for m in tar.getmembers() if m.name.split("/", 1)[0] in FOLDERS]
        tar.extractall(into, members=members, filter="data")
    if not (into / "rules").is_dir() or not (into / "encodings").is_dir():
        raise InputError(f"--base {revision}: the revision has no rules/ and encodings/ in {prefix or 'its root'}")
    (into / "cases").mkdir(exist_ok=True)
    return into


def answers(results: dict[str, CaseResult | str]) -> dict[tuple[str, str | None], str]:
    """Each question's answer as one line ('determined = yes'); a case that cannot be read, as its error."""
    out: dict[tuple[str, str | None], str] = {}
    for case, result in results.items():
        if isinstance(result, str):
            out[(case, None)] = f"cannot be read: {result}"
            continue
        for r in result.results:
            out[(case, r.question)] = r.answer
    return out


def compare_answers(before: dict[tuple[str, str | None], str], after: dict[tuple[str, str | None], str],
                    places: dict[tuple[str, str | None], Place]) -> list[Change]:
    """Every case or question whose answer was added, removed or changed, sorted by case and question."""
    cases_before = {c for c, _ in before}
    cases_after = {c for c, _ in after}
    changes = []
    for case in sorted(cases_before - cases_after):
        changes.append(Change(case, None, "case present", None, None))
    for case in sorted(cases_after - cases_before):
        changes.append(Change(case, None, None, "case present", places.get((case, None))))
    for key in sorted(set(before) | set(after), key=lambda k: (k[0], k[1] or "")):
        if before.get(key) != after.get(key):
            changes.append(Change(key[0], key[1], before.get(key), after.get(key), places.get(key)))
    changes.sort(key=lambda c: (c.case, c.question or ""))
    return changes
