"""The solver module's process handling: a context made in the background survives a fork."""

from __future__ import annotations

import subprocess
import sys
import textwrap

CHILD_CHECKS = textwrap.dedent("""
    import os
    import z3
    from verifier.solver import backend

    backend.prepare_context()
    pid = os.fork()  # at once: the background thread is still making its context
    if pid == 0:
        solver = z3.Solver(ctx=backend._fresh_context())
        solver.add(z3.Bool("x", solver.ctx))
        os._exit(0 if solver.check() == z3.sat else 1)
    _, status = os.waitpid(pid, 0)
    raise SystemExit(os.waitstatus_to_exitcode(status))
""")


def test_a_process_forked_while_a_context_is_made_in_the_background_can_check() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD_CHECKS], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
