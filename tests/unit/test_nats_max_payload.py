"""Every nats-server the league ships a config for takes messages of ``MAX_PAYLOAD``: the largest event the relay can
publish (a big tournament's rounds weigh megabytes)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shared.bus.envelope import MAX_PAYLOAD

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


@pytest.mark.parametrize("config", ["nats.conf", "compose/nats-cluster.conf", "k8s/base/nats.yaml"])
def test_each_deployed_server_takes_the_league_s_largest_message(config: str) -> None:
    found = re.findall(r"^\s*max_payload:\s*(\d+)\s*$", (DEPLOY / config).read_text(), flags=re.MULTILINE)
    assert found == [str(MAX_PAYLOAD)]
