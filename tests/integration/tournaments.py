"""Tournaments made, started and waited for over matchmaking's NATS verbs, as the integration tests use them."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client

from shared.bus.rpc import request
from shared.messages.tournaments import (
    CreateTournamentRequest,
    Elimination,
    GetTournament,
    RegisterPlayer,
    StartTournament,
    Swiss,
    TournamentRef,
    TournamentView,
)
from tests.infra import RunInfra
from tests.integration.helpers import NotYet, until


def subject(infra: RunInfra, verb: str) -> str:
    return infra.namespace.command("matchmaking", verb)


async def new_tournament(nc: Client, infra: RunInfra, game: str, fmt: Swiss | Elimination, players: list[str],
                         options: dict[str, object] | None = None, bot: str | None = "greedy",
                         timeout: float = 5.0) -> str:
    """A tournament with ``players`` registered, each played by matchmaking's ``bot`` (None: by nobody); not
    started."""
    ref = await request(nc, subject(infra, "create"), CreateTournamentRequest(
        name=f"{game} cup", game=game, format=fmt, max_players=len(players),
        options=msgspec.Raw(msgspec.json.encode(options or {}))), TournamentRef, timeout=timeout)
    for player in players:
        await request(nc, subject(infra, "register"),
                      RegisterPlayer(tournament_id=ref.tournament_id, player_id=player, bot=bot), TournamentRef)
    return ref.tournament_id


async def start(nc: Client, infra: RunInfra, tournament_id: str, timeout: float = 5.0) -> TournamentView:
    return await request(nc, subject(infra, "start"), StartTournament(tournament_id=tournament_id), TournamentView,
                         timeout=timeout)


async def finished(nc: Client, infra: RunInfra, tournament_id: str, timeout: float = 120) -> TournamentView:
    """The tournament's view once matchmaking says it has finished."""
    async def view() -> TournamentView | NotYet:
        got = await request(nc, subject(infra, "get"), GetTournament(tournament_id=tournament_id), TournamentView)
        return got if got.status == "finished" else NotYet(str(got))

    found: TournamentView = await until(f"tournament {tournament_id} finished", view, timeout)
    return found
