from __future__ import annotations

import json
import urllib.request

from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read().decode()


def test_a_service_reports_health_and_metrics_logs_json_and_stops_on_sigterm(migrated: RunInfra) -> None:
    log = migrated.tmp / "engine-skeleton.log"
    service = ServiceProcess("engine", migrated.env, log)
    service.start()
    try:
        service.wait_healthy(60)
        status, body = get(f"{service.url}/healthz")
        health = json.loads(body)
        assert status == 200 and health["service"] == "engine" and health["status"] == "ok"
        status, metrics = get(f"{service.url}/metrics")
        assert status == 200 and 'service_info{name="engine"} 1.0' in metrics
    finally:
        code = service.stop(15)
    assert code == 0
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]
    events = [line["event"] for line in lines]
    assert "service.start" in events and "service.stopped" in events
    assert all(line["service"] == "engine" for line in lines)


def test_a_service_with_a_missing_setting_names_it(migrated: RunInfra) -> None:
    env = {k: v for k, v in migrated.env.items() if k != "DATABASE_URL"}
    log = migrated.tmp / "engine-missing.log"
    service = ServiceProcess("engine", {**env, "DATABASE_URL": ""}, log)
    service.start()
    assert service.process is not None
    assert service.process.wait(30) != 0
    assert "DATABASE_URL" in log.read_text()
