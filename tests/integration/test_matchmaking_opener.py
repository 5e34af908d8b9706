"""Opening a round's games: a game the engines could not open is named, alone, for ``retry_unopened``; the others
are opened. A stand-in engine on the real bus answers some games and leaves the rest unanswered."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client
from nats.aio.msg import Msg

from services.matchmaking.opener import Opener, create_game
from shared.bus.replies import Ok
from shared.messages.engine import CommandResult, CreateGame
from tests.infra import RunInfra


async def test_only_the_games_left_unanswered_are_named_as_not_opened(infra: RunInfra, nc: Client) -> None:
    ns = infra.spare_namespaces[0]
    games = [f"hockeydice-opener{n}" for n in range(12)]
    answered = set(games[::3])
    asked: list[str] = []

    async def engine(msg: Msg) -> None:
        create = msgspec.json.decode(msg.data, type=CreateGame)
        asked.append(create.game_id)
        if create.game_id in answered:
            await msg.respond(msgspec.json.encode(Ok(CommandResult(game_id=create.game_id, version=1))))

    subscription = await nc.subscribe(ns.command("engine", "*.command"), cb=engine)
    try:
        failed = await Opener(nc, ns, timeout=0.5).open_all(
            [create_game("hockeydice", game, ["a", "b"], [None, None], b"{}", tournament_id="t1") for game in games])
    finally:
        await subscription.unsubscribe()
    assert sorted(failed) == sorted(set(games) - answered)
    assert set(asked) == set(games)
