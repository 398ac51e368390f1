"""The `regcheck` command line: the command group, assembled from one module per command (`commands/`)."""

from __future__ import annotations

__all__ = ["main", "run", "find_root", "collect_cases"]

import gc
import importlib
import sys

import click

from . import interruption
from .commands.common import EXIT_INTERRUPTED, collect_cases, exit_with, find_root, leave_at_once
from .files import ignore_file_size_signal

# Each command, in verifier/commands/ as a module of its name, is imported when it is run or listed: a run of one
# command does not load what the others need (the sweep's database and network, the HTML report, ...).
_COMMANDS = ("check", "explain", "ruling", "explore", "rules", "cards", "defaults", "report", "mutate", "docs", "gate",
             "sweep")


class _Commands(click.Group):
    """The command group, each command read from its module when asked for; Ctrl-C ends any command with exit
    status 130 and one line, never a traceback."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(_COMMANDS)

    def get_command(self, ctx: click.Context | None, cmd_name: str) -> click.Command | None:
        if cmd_name not in _COMMANDS:
            return None
        command: click.Command = getattr(importlib.import_module(f".commands.{cmd_name}", __package__), cmd_name)
        return command

    def invoke(self, ctx: click.Context) -> object:
        interruption.install()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            sys.stderr.write("\ninterrupted\n")
            sys.stderr.flush()
            exit_with(EXIT_INTERRUPTED)
            raise  # not reached: exit_with ends the command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="regcheck")
def main() -> None:
    """regcheck: check Redemption card combinations against the encoded rules."""
    # Grounding allocates many small objects that live until the case is done; collecting
    # garbage less often saves a third of the time of a one-case run and keeps memory bounded.
    gc.set_threshold(100_000, 50, 100)
    ignore_file_size_signal()  # a write past `ulimit -f` fails with an error regcheck reports


def run() -> None:
    """The `regcheck` program: the command line, ending the process as soon as the answer is out."""
    leave_at_once()
    main()
