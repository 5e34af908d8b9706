"""``league abandon <game> --reason TEXT``: an organiser stops a running game; the engine that owns it records
``engine.GameAbandoned`` (nobody wins; a tournament goes on without it), over NATS like any other request."""

from __future__ import annotations

import asyncio
import getpass
import os
from pathlib import Path

from nats.aio.client import Client

from shared.bus.connect import connect
from shared.bus.engine_requests import ask_engine
from shared.bus.namespace import Namespace
from shared.bus.replies import RejectedError
from shared.cli.connection import NoLeague, nats_url, operator_nkey
from shared.messages.engine import AbandonGame, CommandResult

ASK_SECONDS = 15.0
CONNECT_SECONDS = 10.0


async def abandon_with(nc: Client, ns: Namespace, game_id: str, reason: str, by: str) -> CommandResult:
    return await ask_engine(nc, ns, game_id, "abandon", AbandonGame(game_id=game_id, reason=reason, by=by),
                            CommandResult, timeout=ASK_SECONDS)


async def abandon_command(data_dir: Path, game_id: str, reason: str) -> int:
    url = nats_url(data_dir)
    try:
        # nats-py keeps trying a server that refuses the credentials: give up after a while and say so.
        nc = await asyncio.wait_for(connect(url, name="league-abandon", attempts=1,
                                            nkey_file=operator_nkey(data_dir)), CONNECT_SECONDS)
    except (OSError, TimeoutError) as error:
        why = str(error) or "no answer"
        raise NoLeague(f"cannot reach the league's NATS at {url} within {CONNECT_SECONDS:.0f}s ({why}; a closed NATS"
                       " needs the league's secrets: SECRETS_DIR or --league-dir)") from error
    try:
        result = await abandon_with(nc, Namespace(os.environ.get("NATS_SUBJECT_PREFIX", "")), game_id, reason,
                                    f"organiser {getpass.getuser()}")
    except RejectedError as error:
        print(f"league: {game_id} not abandoned: {error.code}: {error.message}")
        return 1
    finally:
        await nc.close()
    if result.duplicate:
        print(f"{game_id} was abandoned already (version {result.version})")
    else:
        print(f"{game_id} abandoned at version {result.version}: nobody wins; `league audit {game_id}` checks it "
              "up to the abandonment")
    return 0
