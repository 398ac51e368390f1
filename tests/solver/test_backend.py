"""The solver module's process handling (a context made in the background survives a fork), and its scopes."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from verifier.solver.backend import SAT, UNSAT, Session
from verifier.solver.grounding import Grounding

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


def test_what_a_scope_asserts_is_taken_back_and_can_be_asserted_again() -> None:
    g = Grounding({}, derived={"|x|": "bool"})
    session = Session(g, 10_000)
    session.push()
    g.derived["|y|"] = "bool"
    g.background.append("(= |y| (not |x|))")
    session.extend(["|y|"])
    assert session.check().status == SAT
    assert session.read(["|x|", "|y|"]) == {"|x|": False, "|y|": True}
    session.pop()
    assert session.check(extra=["(and |x| |y|)"]).status == SAT  # the scope's assertions are gone
    session.extend([])  # `y` stays declared; its background is asserted again
    assert session.check(extra=["(and |x| |y|)"]).status == UNSAT
