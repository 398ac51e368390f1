"""What every command shares: finding the rules repository and the case files, the common options, exit codes."""

from __future__ import annotations

__all__ = ["EXIT_FINDING", "EXIT_INPUT", "EXIT_INTERRUPTED", "EXIT_OK", "collect_cases", "collect_scopes", "exit_with",
           "fail_input", "find_root", "format_option", "jobs_option", "leave_at_once", "memory_option",
           "progress_printer", "repository_root", "root_option", "scheduler_option", "selection_of", "show_warnings",
           "timeout_option"]

import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import click

from ..errors import InputError, RegcheckError
from ..escaping import escape_text
from ..solver.engine import DEFAULT_TIMEOUT_MS
from ..terminal import Selection, SelectionError

EXIT_OK, EXIT_FINDING, EXIT_INPUT = 0, 1, 2


def find_root(start: Path) -> Path | None:
    """The nearest folder at or above `start` holding both `rules/` and `encodings/`."""
    for folder in [start, *start.parents]:
        if (folder / "rules").is_dir() and (folder / "encodings").is_dir():
            return folder
    return None


def collect_cases(paths: tuple[str, ...]) -> list[Path]:
    """Case files named directly, or found recursively (*.yaml, *.yml) in named folders, sorted.

    Every such entry that is not a folder is listed, regular file or not: one that is not (a
    dangling link, a FIFO, a device) is reported as bad input when it is checked, never skipped.
    """
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found += sorted(f for f in path.rglob("*") if f.suffix in (".yaml", ".yml") and not f.is_dir())
        elif path.exists() or path.is_symlink():
            found.append(path)
        else:
            raise click.BadParameter(f"no such file or folder: {p}", param_hint="PATH")
    seen: set[Path] = set()
    unique = []
    for f in found:
        if f.resolve() not in seen:
            seen.add(f.resolve())
            unique.append(f)
    return unique


def repository_root(root_opt: str | None) -> Path:
    """The rules repository named by --root, or found from the current folder."""
    root = Path(root_opt) if root_opt else find_root(Path.cwd())
    if root is None or not (root / "encodings").is_dir() or not (root / "rules").is_dir():
        raise click.UsageError(
            "no rules repository found: need folders rules/ and encodings/ in the current folder "
            "or above it (or pass --root)")
    return root


def fail_input(err: InputError | RegcheckError) -> None:
    click.echo(f"error: {err}", err=True)


def show_warnings(warnings: Iterable[tuple[str, int, int, str]]) -> None:
    """A scenario's warnings (defaults that may not be what it means) on standard error, each once, in order."""
    for file, line, column, message in dict.fromkeys(warnings):
        click.echo(escape_text(f"warning: {file}:{line}:{column}: {message}"), err=True)


_leave_at_once = False  # set by `leave_at_once`


def exit_with(code: int) -> None:
    """End the command; in the command-line program, without tearing down the solver's objects one by one."""
    if _leave_at_once:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


root_option = click.option("--root", type=click.Path(file_okay=False, exists=True),
                           help="The rules repository (holding rules/ and encodings/); "
                                "found from the current folder by default.")


format_option = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
                             show_default=True, help="Output for people or for programs.")


EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a program ended by Ctrl-C


timeout_option = click.option("--timeout", type=click.FloatRange(0.01, 3600), default=DEFAULT_TIMEOUT_MS / 1000,
                              show_default=True, help="Seconds the solver may spend on one check.")


memory_option = click.option("--memory", type=click.IntRange(16, 1_000_000), default=None,
                             help="Megabytes of memory the solver may use.")


def scheduler_option(what: str = "") -> Callable[[Callable[..., None]], Callable[..., None]]:
    """The --scheduler option of the commands that run on a Dask cluster: `what` they run there (default: all)."""
    return click.option("--scheduler", default=None, metavar="ADDRESS",
                        help=f"Run {what + ' ' if what else ''}on the Dask cluster of this scheduler (tcp://HOST:PORT).")


jobs_option = click.option("--jobs", "-j", type=click.IntRange(1, 64), default=None,
                           help="Cases checked at once (default: one per processor).")


def collect_scopes(paths: tuple[str, ...]) -> list[Path]:
    found = collect_cases(paths)
    if not found:
        raise click.UsageError("no scope files (*.yaml) found in the given paths")
    return found


def selection_of(select: str | None) -> Selection | None:
    """A `-k` expression as given on the command line, or None without one; one it cannot read is a usage error."""
    try:
        return Selection(select) if select is not None else None
    except SelectionError as err:
        raise click.UsageError(str(err)) from None


def progress_printer(unit: str = "scenarios") -> Callable[[str, int, int], None]:
    """Progress of long work on standard error, counted in `unit`, for each thing it is told of (a scope, say):
    one updating line on a terminal, a line per tenth elsewhere."""
    tty = sys.stderr.isatty()
    shown: dict[str, int] = {}

    def show(what: str, done: int, total: int) -> None:
        if tty:
            click.echo(f"\r{escape_text(what)}: {done}/{total} {unit}", err=True, nl=done == total)
        elif done == total or done * 10 // max(total, 1) > shown.get(what, -1):
            shown[what] = done * 10 // max(total, 1)
            click.echo(f"{escape_text(what)}: {done}/{total} {unit}", err=True)
    return show


def leave_at_once() -> None:
    """Make `exit_with` end the process at once (the command-line program, not a test's runner)."""
    global _leave_at_once
    _leave_at_once = True
