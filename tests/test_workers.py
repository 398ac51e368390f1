"""Under pytest-xdist the tests that share an expensive session fixture run on one worker: each test carries
the group tests/conftest.py gives it (the case files' results, the gate's small repository, ...), and the groups
that take longest are collected first, longest first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def test_a_test_run_by_a_worker_carries_its_group(request: pytest.FixtureRequest) -> None:
    if "PYTEST_XDIST_WORKER" not in os.environ or not request.config.getoption("loadgroup", False):
        pytest.skip("not run by pytest-xdist with --dist loadgroup")
    assert request.node.nodeid.endswith("@test_workers.py"), request.node.nodeid


def test_the_longest_groups_are_collected_first_and_each_is_a_group(request: pytest.FixtureRequest,
                                                                      longest_groups: tuple[str, ...]) -> None:
    tests = Path(__file__).resolve().parent
    for group in longest_groups:
        assert group == "case-results" or (tests / group).exists(), f"{group} names no folder or file of tests/"
    order = {group: number for number, group in enumerate(longest_groups)}
    ranks = [order.get(_group(item), len(order)) for item in request.session.items]
    assert ranks == sorted(ranks)


def _group(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("xdist_group")
    return None if marker is None else str(marker.args[0])
