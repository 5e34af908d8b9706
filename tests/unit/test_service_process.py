"""A service process that dies before it is healthy says why, with the end of its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.infra.processes import ServiceProcess


def test_a_service_that_exits_at_start_quotes_its_log(tmp_path: Path) -> None:
    log = tmp_path / "no_such_service.log"
    log.write_text("an earlier run's last words\n")
    service = ServiceProcess("no_such_service", {}, log)
    service.start()
    with pytest.raises(RuntimeError, match=r"(?s)exited with code 1; see .*its log ends:\n.*No module named") as raised:
        service.wait_healthy(30)
    assert "earlier run" not in str(raised.value)
