"""Writes ``league.json``, the Grafana dashboard over the metrics the services expose (``python
deploy/grafana/make_dashboard.py``; ``tests/e2e/test_metrics.py`` checks that the file is what this writes and that
every metric it names exists on a running league's ``/metrics``). Import it into Grafana with a Prometheus data
source that scrapes each service's ``/metrics`` (one job per service)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SERVICE = '{job=~"$job"}'

PANELS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("HTTP requests per second by route", "reqps",
     [(f"sum by (route) (rate(http_responses_total{SERVICE}[1m]))", "{{route}}")]),
    ("HTTP latency p95 by route", "s",
     [(f"histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{SERVICE}[5m])))",
       "{{route}}")]),
    ("HTTP errors by route and code", "reqps",
     [('sum by (route, status, code) (rate(http_responses_total{job=~"$job", status=~"[45].."}[5m]))',
       "{{route}} {{status}} {{code}}")]),
    ("NATS requests per second by subject", "reqps",
     [(f"sum by (subject) (rate(nats_replies_total{SERVICE}[1m]))", "{{subject}}")]),
    ("NATS latency p95 by subject", "s",
     [(f"histogram_quantile(0.95, sum by (le, subject) (rate(nats_request_duration_seconds_bucket{SERVICE}[5m])))",
       "{{subject}}")]),
    ("NATS refusals by subject and code", "reqps",
     [('sum by (subject, code) (rate(nats_replies_total{job=~"$job", code!="ok"}[5m]))', "{{subject}} {{code}}")]),
    ("Engine partitions owned per replica", "short",
     [("engine_partitions_owned", "{{instance}}"), ("engine_replicas_seen", "replicas seen by {{instance}}")]),
    ("Engine games in memory, loads and conflicts", "short",
     [("engine_games_in_memory", "in memory {{instance}}"), ("engine_game_loads", "loaded since start {{instance}}"),
      ("engine_conflicts", "conflicts since start {{instance}}"),
      ("sum by (kind) (rate(engine_requests_total[1m]))", "requests/s {{kind}}")]),
    ("PostgreSQL pool: connections in use and the most allowed", "short",
     [(f"db_pool_connections{SERVICE} - db_pool_connections_idle{SERVICE}", "in use {{job}} {{instance}}"),
      (f"db_pool_connections_max{SERVICE}", "max {{job}} {{instance}}")]),
    ("PostgreSQL reads per second: streaming replica (DATABASE_READ_URL) and primary", "reqps",
     [(f"deriv(db_reads_from_replica{SERVICE}[1m])", "replica {{job}} {{instance}}"),
      (f"deriv(db_reads_from_primary{SERVICE}[1m])", "primary {{job}} {{instance}}")]),
    ("Relay: events waiting and their age", "short",
     [("relay_lag_events", "events"), ("relay_lag_seconds", "seconds"), ("relay_stalled_seconds", "stalled s"),
      ("deriv(relay_events_published[1m])", "published/s")]),
    ("Standings: events behind and fold delay p95", "short",
     [("standings_lag_events", "events behind"), ("standings_lag_seconds", "seconds behind"),
      ("histogram_quantile(0.95, sum by (le) (rate(standings_fold_delay_seconds_bucket[5m])))", "fold delay p95")]),
]


def panel(number: int, title: str, unit: str, targets: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "id": number, "type": "timeseries", "title": title,
        "gridPos": {"h": 8, "w": 12, "x": 12 * (number % 2), "y": 8 * (number // 2)},
        "datasource": {"type": "prometheus", "uid": "${datasource}"},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [{"refId": chr(ord("A") + i), "expr": expr, "legendFormat": legend}
                    for i, (expr, legend) in enumerate(targets)],
    }


def dashboard() -> dict[str, Any]:
    return {
        "title": "Phantom League", "uid": "phantom-league", "schemaVersion": 39, "version": 1,
        "tags": ["phantom-league"], "time": {"from": "now-1h", "to": "now"}, "refresh": "10s",
        "templating": {"list": [
            {"name": "datasource", "type": "datasource", "query": "prometheus"},
            {"name": "job", "type": "query", "datasource": {"type": "prometheus", "uid": "${datasource}"},
             "query": "label_values(service_info, job)", "includeAll": True, "multi": True,
             "current": {"text": "All", "value": "$__all"}},
        ]},
        "panels": [panel(n, title, unit, targets) for n, (title, unit, targets) in enumerate(PANELS)],
    }


def main(argv: list[str]) -> None:
    """``make_dashboard.py [FILE]``: FILE defaults to league.json beside it."""
    target = Path(argv[0]) if argv else HERE / "league.json"
    target.write_text(json.dumps(dashboard(), indent=2) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
