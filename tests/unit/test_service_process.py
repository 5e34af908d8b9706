"""A service process that dies before it is healthy says why, with the end of its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.infra.processes import ServiceProcess


def test_a_service_that_exits_at_start_quotes_its_log(tmp_path: Path) -> None:
    service = ServiceProcess("no_such_service", {}, tmp_path / "no_such_service.log")
    service.start()
    with pytest.raises(RuntimeError, match=r"exited with code 1; see .*its log ends:\n(.|\n)*No module named"):
        service.wait_healthy(30)
