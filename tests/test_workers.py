"""Under pytest-xdist the tests that share an expensive session fixture run on one worker: each test carries
the group tests/conftest.py gives it (the case files' results, the gate's small repository, ...)."""

from __future__ import annotations

import os

import pytest


def test_a_test_run_by_a_worker_carries_its_group(request: pytest.FixtureRequest) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ or not request.config.getoption("loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@test_workers.py"), request.node.nodeid
