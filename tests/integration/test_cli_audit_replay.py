from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from nats.aio.client import Client

from shared.eventstore import EventStore
from shared.infra.processes import ServiceProcess
from tests.infra import RunInfra
from tests.integration.play import create, play_to_end

ROOT = Path(__file__).resolve().parents[2]


def league(infra: RunInfra | None, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    where = {"DATABASE_URL": infra.env["DATABASE_URL"], "SECRETS_DIR": infra.env["SECRETS_DIR"]} if infra else {}
    env = {"PATH": "/usr/bin:/bin"} | where  # as league.env says: the auditor's login
    return subprocess.run([sys.executable, "-m", "shared.cli.main", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120, check=False)


async def test_audit_export_bundle_and_replay_from_the_command_line(
    nc: Client, store: EventStore, migrated: RunInfra, game_services: dict[str, ServiceProcess], tmp_path: Path
) -> None:
    root = ROOT
    game_id = await create(nc, migrated.namespace, "hockeydice", 2)
    running = await create(nc, migrated.namespace, "vortex", 2)
    await play_to_end(nc, migrated.namespace, store, game_id, seed=3)

    audited = league(migrated, "audit", game_id, cwd=root)
    assert audited.returncode == 0, audited.stderr
    assert f"{game_id}: verified" in audited.stdout

    bundle = tmp_path / "game.jsonl"
    exported = league(migrated, "export", game_id, "-o", str(bundle), cwd=root)
    assert exported.returncode == 0, exported.stderr
    offline = league(None, "audit", "--bundle", str(bundle))
    assert offline.returncode == 0 and "verified" in offline.stdout, offline.stderr

    lines = bundle.read_text().splitlines()
    drawn = next(i for i, line in enumerate(lines) if '"type":"engine.DrawsUsed"' in line)
    event = json.loads(lines[drawn])
    event["data"]["draws"][0]["values"][0] = event["data"]["draws"][0]["values"][0] % 6 + 1
    lines[drawn] = json.dumps(event)
    bundle.write_text("\n".join(lines) + "\n")
    tampered = league(migrated, "audit", "--bundle", str(bundle), cwd=root)
    assert tampered.returncode == 1 and "DISCREPANCY" in tampered.stdout and event["event_id"] in tampered.stdout

    not_yet = league(migrated, "export", running, cwd=root)
    assert not_yet.returncode == 2 and "still running" in not_yet.stderr
    refused = league(migrated, "audit", running, cwd=root)
    assert refused.returncode == 2 and "still running" in refused.stderr

    at_five = league(migrated, "replay", game_id, "--to", "5", cwd=root)
    assert at_five.returncode == 0 and f"{game_id} at v5" in at_five.stdout
    stepped = league(migrated, "replay", game_id, "--step", cwd=root)
    assert stepped.returncode == 0 and stepped.stdout.count("=== ") > 5
    assert league(migrated, "replay", "vortex-nosuchgame", cwd=root).returncode == 2


def test_the_command_line_says_when_there_is_no_league(tmp_path: Path) -> None:
    done = league(None, "--data-dir", str(tmp_path), "audit", "x-1")
    assert done.returncode == 2 and "make run" in done.stderr
