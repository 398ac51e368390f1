"""The `regcheck` command line: the command group, assembled from one module per command (`commands/`)."""

from __future__ import annotations

__all__ = ["main", "run", "find_root", "collect_cases"]

import gc
import sys

import click

from . import interruption
from .commands.cards import cards
from .commands.check import check
from .commands.common import EXIT_INTERRUPTED, collect_cases, exit_with, find_root, leave_at_once
from .commands.defaults import defaults
from .commands.docs import docs
from .commands.explain import explain
from .commands.explore import explore
from .commands.gate import gate
from .commands.mutate import mutate
from .commands.report import report
from .commands.rules import rules
from .commands.ruling import ruling
from .commands.sweep import sweep
from .files import ignore_file_size_signal


class _Commands(click.Group):
    """The command group; Ctrl-C ends any command with exit status 130 and one line, never a traceback."""

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


main.add_command(check)
main.add_command(explain)
main.add_command(ruling)
main.add_command(explore)
main.add_command(rules)
main.add_command(cards)
main.add_command(defaults)
main.add_command(report)
main.add_command(mutate)
main.add_command(docs)
main.add_command(gate)
main.add_command(sweep)


def run() -> None:
    """The `regcheck` program: the command line, ending the process as soon as the answer is out."""
    leave_at_once()
    main()
