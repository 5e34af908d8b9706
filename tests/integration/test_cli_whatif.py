"""``league replay --try`` on a game the engine recorded: the fork runs through the same rules with the game's own
draws, prints what really happened beside it, and writes nothing."""

from __future__ import annotations

import json

from nats.aio.client import Client

from shared.cli.replay import steps
from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from shared.messages.engine import CommandAccepted
from shared.messages.stored import loaded
from tests.infra import RunInfra
from tests.integration.play import create, play_to_end
from tests.integration.test_cli_audit_replay import ROOT, league


async def test_replay_try_forks_a_recorded_game_with_its_own_draws_and_writes_nothing(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess]
) -> None:
    game_id = await create(nc, migrated.namespace, "hockeydice", 2)
    await play_to_end(nc, migrated.namespace, store, game_id, seed=5)
    events = await store.read_stream(game_id)
    heads = {e.version: e for e in events if e.type == CommandAccepted.__struct_config__.tag}
    at = next(v for v in steps(events)[:-1]
              if (head := heads.get(v + 1)) is not None and json.loads(bytes(loaded(head).command))["type"]  # type: ignore[attr-defined]
              == "hockeydice.Roll")

    tried = league(migrated, "replay", game_id, "--to", str(at), "--try", '{"type": "Roll"}', "--as", "1",
                   cwd=ROOT)
    assert tried.returncode == 0, tried.stderr
    out = tried.stdout
    assert f"what if at v{at}" in out and "nothing is written to the log" in out
    assert "--- tried: hockeydice.Roll seat=1 ---" in out and "--- what really happened: hockeydice.Roll" in out
    assert "[recorded #" in out and "FRESH" not in out  # the same roll takes the same recorded dice

    refused = league(migrated, "replay", game_id, "--to", str(at), "--try", '{"type": "Shoot", "seat": 0}',
                     cwd=ROOT)
    assert refused.returncode == 0 and "REFUSED hockey." in refused.stdout

    bad = league(migrated, "replay", game_id, "--to", str(at), "--try", "not json", cwd=ROOT)
    assert bad.returncode == 2 and "--try is not JSON" in bad.stderr
    assert len(await store.read_stream(game_id)) == len(events)


def test_scenario_run_from_the_command_line() -> None:
    files = sorted((ROOT / "docs" / "scenarios").glob("*.toml"))
    done = league(None, "scenario", "run", "-q", *(str(p) for p in files))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("PASSED") == len(files)
