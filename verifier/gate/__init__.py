"""The CI gate: traceability and the lock, every case against its expectations, accepted findings, reports."""

from .findings import FINDINGS_FILE
from .junit import gate_junit
from .lock import LOCK_FILE
from .model import GateReport
from .render import gate_json, render_gate
from .run import GateOptions, renew_lock, run_gate
from .sarif import gate_sarif
from .survivors import SURVIVORS_FILE

__all__ = ["FINDINGS_FILE", "LOCK_FILE", "SURVIVORS_FILE", "GateOptions", "GateReport", "gate_json", "gate_junit", "gate_sarif",
           "render_gate", "renew_lock", "run_gate"]
