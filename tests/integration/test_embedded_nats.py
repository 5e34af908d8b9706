"""The embedded nats-server runs Go's code on one thread unless the environment says otherwise, and takes messages
as large as the league's configs let them be (its /varz tells)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from shared.bus.envelope import MAX_PAYLOAD
from shared.infra.embedded_nats import EmbeddedNats


def varz(server: EmbeddedNats) -> dict[str, object]:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.monitor_port}/varz", timeout=5) as response:
        found: dict[str, object] = json.loads(response.read())
        return found


@pytest.mark.parametrize(("environment", "expected"), [(None, 1), ("2", 2)])
def test_the_embedded_server_takes_one_go_thread_unless_gomaxprocs_is_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, environment: str | None, expected: int) -> None:
    if environment is None:
        monkeypatch.delenv("GOMAXPROCS", raising=False)
    else:
        monkeypatch.setenv("GOMAXPROCS", environment)
    server = EmbeddedNats(tmp_path / "nats")
    server.start()
    try:
        assert varz(server)["gomaxprocs"] == expected
    finally:
        server.stop()


def test_the_embedded_server_takes_messages_of_max_payload(tmp_path: Path) -> None:
    server = EmbeddedNats(tmp_path / "nats")
    server.start()
    try:
        assert varz(server)["max_payload"] == MAX_PAYLOAD
    finally:
        server.stop()
