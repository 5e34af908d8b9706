"""Every service's /metrics shows its HTTP request histogram (and the NATS one where it answers requests), its
database pool, and everything the Grafana dashboard in deploy/grafana/ draws."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import aiohttp

from shared.client.table import bot_game
from shared.infra.processes import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "league.json"
NATS_SERVING = {"engine": "engine.command", "rng": "rng.create", "matchmaking": "matchmaking.get"}
"""A subject each service answers for the test's game: the game opens alone, so its seed is committed by rng.create
(its draws may all come from the blocks the engine asked ahead, with no rng.draws request at all)."""
PROMQL_WORDS = {"sum", "by", "rate", "deriv", "histogram_quantile", "le", "without", "avg", "max", "min", "count"}


def scrape(url: str) -> str:
    with urllib.request.urlopen(f"{url}/metrics", timeout=10) as response:
        return str(response.read().decode())


def sample_names(text: str) -> set[str]:
    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in text.splitlines() if line and not line.startswith("#")}


def metrics_named(expr: str) -> set[str]:
    """The metric names in a PromQL expression: what is left once label matchers, grouping labels, ranges and
    strings are taken out, less PromQL's own words."""
    expr = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\"[^\"]*\"", " ", expr)
    expr = re.sub(r"\b(by|without)\s*\([^)]*\)", " ", expr)
    return {word for word in re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", expr) if word not in PROMQL_WORDS}


async def test_every_service_measures_its_requests_and_the_dashboard_names_only_metrics_that_exist(
    league: dict[str, ServiceProcess]
) -> None:
    gateway = league["gateway"].url
    async with aiohttp.ClientSession() as session:
        await bot_game(session, gateway, "vortex", 2, {"max_rounds": 2}, seed=3)
        async with session.get(f"{gateway}/v1/tournaments/none") as response:
            assert response.status == 404  # asked of matchmaking over NATS: a refusal counted by its code
    texts = {name: scrape(service.url) for name, service in league.items()}
    for name, text in texts.items():
        assert 'http_request_duration_seconds_bucket{le="0.005",route="GET /healthz"}' in text, name
        assert re.search(r'http_responses_total\{code="",route="GET /healthz",status="200"\} [1-9]', text), name
        assert "db_pool_connections_max " in text, name
    assert re.search(r'http_request_duration_seconds_count\{route="POST /v1/games/\{game_id\}/commands"\} [1-9]',
                     texts["gateway"])
    assert re.search(r'http_responses_total\{code="tournament.unknown",route="GET /v1/tournaments/\{tournament_id\}",'
                     r'status="404"\} 1', texts["gateway"])
    for name, subject in NATS_SERVING.items():
        assert re.search(rf'nats_request_duration_seconds_count\{{subject="{re.escape(subject)}"\}} [1-9]',
                         texts[name]), name
    assert re.search(r'nats_replies_total\{code="tournament.unknown",subject="matchmaking.get"\} 1',
                     texts["matchmaking"])
    assert re.search(r"^engine_partitions_owned 64\.0$", texts["engine"], re.MULTILINE)

    exposed = set().union(*(sample_names(text) for text in texts.values()))
    dashboard = json.loads(DASHBOARD.read_text())
    exprs = [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]
    named = set().union(*(metrics_named(expr) for expr in exprs))
    assert named >= {"http_request_duration_seconds_bucket", "nats_replies_total", "engine_partitions_owned",
                     "db_pool_connections_idle"}
    assert named - exposed == set()


def test_the_dashboard_file_is_what_its_script_writes(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "deploy" / "grafana" / "make_dashboard.py"), str(tmp_path / "d.json")],
                   check=True)
    assert (tmp_path / "d.json").read_text() == DASHBOARD.read_text()
