"""services_running stops every service it started: after a start that fails, and after a block that fails."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from shared.infra.processes import services_running
from tests.infra import RunInfra


def processes_marked(mark: str) -> list[int]:
    """The live processes whose environment holds ``LEAGUE_TEST_MARK=mark`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and f"LEAGUE_TEST_MARK={mark}".encode() in (entry / "environ").read_bytes():
                found.append(int(entry.name))
        except OSError:  # gone meanwhile
            continue
    return found


def test_a_service_that_fails_to_start_leaves_none_of_the_others_running(migrated: RunInfra) -> None:
    mark = uuid.uuid4().hex
    env = {**migrated.env, "LOG_LEVEL": "warning", "LEAGUE_TEST_MARK": mark}
    with pytest.raises(RuntimeError, match="no_such_service exited"):
        with services_running("relay", "no_such_service", env=env,
                              log=lambda name: migrated.tmp / f"{name}-{mark}.log"):
            pytest.fail("the block ran although a service did not start")
    assert processes_marked(mark) == []


def test_a_block_that_fails_stops_every_service_it_had(migrated: RunInfra) -> None:
    mark = uuid.uuid4().hex
    env = {**migrated.env, "LOG_LEVEL": "warning", "LEAGUE_TEST_MARK": mark}
    with pytest.raises(ValueError, match="the block failed"):
        with services_running("relay", env=env, log=lambda name: migrated.tmp / f"{name}-{mark}.log") as services:
            assert processes_marked(mark) == [services["relay"].pid]
            raise ValueError("the block failed")
    assert processes_marked(mark) == []
