"""The embedded nats-server runs Go's code on one thread unless the environment says otherwise (its /varz tells)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from shared.infra.embedded_nats import EmbeddedNats


def gomaxprocs(server: EmbeddedNats) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.monitor_port}/varz", timeout=5) as response:
        return int(json.loads(response.read())["gomaxprocs"])


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
        assert gomaxprocs(server) == expected
    finally:
        server.stop()
