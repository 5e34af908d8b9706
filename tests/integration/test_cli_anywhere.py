"""The ``league`` command from a folder far from the repository reaches the league that ``league up`` announced,
and prints its hints under the one name ``league``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from nats.aio.client import Client

from shared.cli.league_dir import announce
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.play import create, play_moves

OWN = ("DATABASE_URL", "NATS_URL", "GATEWAY_URL", "LEAGUE_DIR", "NATS_SUBJECT_PREFIX")


async def test_league_replay_from_another_folder_finds_the_announced_league(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess], tmp_path: Path
) -> None:
    game_id = await create(nc, migrated.namespace, "vortex", 2)
    await play_moves(nc, migrated.namespace, store, game_id, 3)
    data = tmp_path / "repo" / ".data"
    data.mkdir(parents=True)
    (data / "league.env").write_text(f"DATABASE_URL={migrated.database_url}\nNATS_URL={migrated.nats_url}\n")
    env = {k: v for k, v in os.environ.items() if k not in OWN} | {"XDG_STATE_HOME": str(tmp_path / "state")}
    announce(data, env)
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    league = Path(sys.executable).parent / "league"
    done = await asyncio.to_thread(subprocess.run, [str(league), "replay", game_id], cwd=elsewhere, env=env,
                                   capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert game_id in done.stdout

    nowhere = await asyncio.to_thread(subprocess.run, [str(league), "replay", game_id], cwd=elsewhere,
                                      env=env | {"XDG_STATE_HOME": str(tmp_path / "other-state")},
                                      capture_output=True, text=True, timeout=60)
    assert nowhere.returncode == 2
    assert "--league-dir" in nowhere.stderr and "LEAGUE_DIR" in nowhere.stderr
    flagged = await asyncio.to_thread(subprocess.run, [str(league), "--league-dir", str(data), "replay", game_id],
                                      cwd=elsewhere, env=env | {"XDG_STATE_HOME": str(tmp_path / "other-state")},
                                      capture_output=True, text=True, timeout=60)
    assert flagged.returncode == 0, flagged.stderr
