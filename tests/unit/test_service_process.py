"""A service process that dies before it is healthy, or does not stop cleanly, says why with the end of its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from shared.infra.processes import ServiceProcess, services_running


def test_a_service_that_exits_at_start_quotes_its_log(tmp_path: Path) -> None:
    log = tmp_path / "no_such_service.log"
    log.write_text("an earlier run's last words\n")
    service = ServiceProcess("no_such_service", {}, log)
    service.start()
    with pytest.raises(RuntimeError, match=r"(?s)exited with code 1; see .*its log ends:\n.*No module named") as raised:
        service.wait_healthy(30)
    assert "earlier run" not in str(raised.value)


def test_a_service_that_does_not_stop_cleanly_is_named_with_the_end_of_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The block ran well, then matchmaking needed SIGKILL: the failure says so and quotes what it last logged."""
    (tmp_path / "matchmaking.log").write_text('{"event": "shutdown.waiting", "for": "the follower"}\n')
    (tmp_path / "engine.log").write_text('{"event": "stopped"}\n')
    monkeypatch.setattr(ServiceProcess, "start", lambda self: None)
    monkeypatch.setattr(ServiceProcess, "wait_healthy", lambda self, timeout=60: None)
    monkeypatch.setattr(ServiceProcess, "stop", lambda self, timeout=30: -9 if self.name == "matchmaking" else 0)
    with pytest.raises(AssertionError) as raised, \
            services_running("engine", "matchmaking", env={}, log=lambda name: tmp_path / f"{name}.log"):
        pass
    message = str(raised.value)
    assert "not stopped cleanly on SIGTERM: {'matchmaking': -9, 'engine': 0}" in message
    assert "matchmaking (exit -9); its log ends:" in message and "shutdown.waiting" in message
    assert "stopped" not in message.replace("not stopped cleanly", "")
