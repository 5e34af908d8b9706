"""The live feeds as a contract: the AsyncAPI 3 document is served beside /openapi.json by the gateway and the
standings service, is the one kept in docs/asyncapi.json, passes the AsyncAPI parser (npm @asyncapi/parser, pinned
in tests/contract), and what the feeds really send decodes as the types its schemas were made from."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import aiohttp
import msgspec
import pytest

from services.contract.asyncapi import FEEDS_VERSION, PREVIOUS, document_bytes
from services.standings.hub import Entry
from services.standings.projections.base import Change
from shared.client.table import bot_game
from shared.infra.processes import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = ROOT / "tests" / "contract"
KEPT = ROOT / "docs" / "asyncapi.json"


def parser_installed() -> Path:
    """The pinned parser under tests/contract/node_modules, installed from the npm registry the first time."""
    npm = shutil.which("npm")
    assert npm is not None and shutil.which("node"), "node and npm are needed (Debian: apt-get install nodejs npm)"
    if not (CONTRACT / "node_modules" / "@asyncapi" / "parser").exists():
        subprocess.run([npm, "ci", "--prefix", str(CONTRACT), "--ignore-scripts", "--no-audit", "--no-fund"],
                       check=True, capture_output=True, timeout=600, env={**os.environ, "SCARF_ANALYTICS": "false"})
    return CONTRACT / "validate.mjs"


def fetch(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("application/json")
        return bytes(response.read())


def test_the_asyncapi_document_is_served_kept_in_docs_and_valid(league: dict[str, ServiceProcess],
                                                                tmp_path: Path) -> None:
    served = {name: fetch(f"{league[name].url}/asyncapi.json") for name in ("gateway", "standings")}
    assert served["gateway"] == served["standings"] == document_bytes()
    assert KEPT.read_bytes() == document_bytes(), (
        "docs/asyncapi.json is not what the services serve: `python -m services.contract.asyncapi > "
        "docs/asyncapi.json`, and raise FEEDS_VERSION when a consumer sees the change")
    document = json.loads(served["gateway"])
    assert document["asyncapi"].startswith("3.") and document["info"]["version"] == FEEDS_VERSION
    entry = document["components"]["schemas"]["Entry"]
    assert set(entry["properties"]) == {f.encode_name for f in msgspec.structs.fields(Entry)}
    assert "engine.GameAbandoned" in document["info"]["x-event-schema-versions"]

    (tmp_path / "asyncapi.json").write_bytes(served["gateway"])
    checked = subprocess.run(["node", str(parser_installed()), str(tmp_path / "asyncapi.json")], capture_output=True,
                             text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not [line for line in checked.stdout.splitlines() if line.startswith("error")]


def test_the_previous_major_version_is_served_beside_as_it_was_published(league: dict[str, ServiceProcess]) -> None:
    for name in ("gateway", "standings"):
        previous = fetch(f"{league[name].url}/asyncapi/1.json")
        assert previous == PREVIOUS["1"].read_bytes()
        assert json.loads(previous)["info"]["version"].startswith("1.")
        with pytest.raises(urllib.error.HTTPError) as refused:
            fetch(f"{league[name].url}/asyncapi/7.json")
        assert refused.value.code == 404
        assert json.loads(refused.value.read())["code"] == "asyncapi.unknown-version"
    assert FEEDS_VERSION.split(".")[0] not in PREVIOUS


def test_the_parser_refuses_a_broken_document(tmp_path: Path) -> None:
    broken = json.loads(document_bytes())
    del broken["operations"]["followFeed"]["action"]
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    checked = subprocess.run(["node", str(parser_installed()), str(tmp_path / "broken.json")], capture_output=True,
                             text=True, timeout=120)
    assert checked.returncode == 1 and "action" in checked.stdout


async def test_what_the_feed_sends_is_an_entry_of_changes(league: dict[str, ServiceProcess]) -> None:
    async with aiohttp.ClientSession() as session:
        game_id, _, _ = await bot_game(session, league["gateway"].url, "vortex", 2, {"max_rounds": 2}, seed=5)
        async with session.get(f"{league['standings'].url}/v1/feed") as response:
            lines: list[str] = []
            while not any(game_id in line for line in lines):
                lines.append((await asyncio.wait_for(response.content.readline(), 30)).decode())
    data = [line.removeprefix("data: ") for line in lines if line.startswith("data: ")]
    assert data
    for text in data:
        entry = msgspec.json.decode(text, type=Entry)
        assert entry.id == f"{entry.tx}-{entry.position}"
        assert msgspec.json.decode(entry.changes, type=list[Change])
