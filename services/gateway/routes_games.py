"""Games over HTTP: create, read your own view, list your legal moves, send a move (an Idempotency-Key makes it
safe to retry)."""

from __future__ import annotations

import re
import uuid

import msgspec
from aiohttp import web

from services.gateway.auth import player_of, require_player
from services.gateway.body import body_of, unknown_fields
from services.gateway.command_body import decode_command
from services.gateway.idempotency import opened_under, same_command, same_opening
from services.gateway.keys import ENGINE_CLIENT
from services.gateway.routes import Route, add_routes
from services.gateway.schemas import (
    ENGINE_ONLY_COMMANDS,
    ClientSeed,
    ClientSeedTaken,
    CommandDone,
    GameCreated,
    NewGame,
)
from shared.bus.replies import RejectedError
from shared.eventstore.types import STREAM_ID
from shared.http.errors import json_error
from shared.messages.engine import CreateGame, GiveClientSeed, PlayCommand
from shared.messages.games import GAMES
from shared.refusals import Refusal
from shared.service.keys import POOL

IDEMPOTENCY_KEY = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
GAME_IDS = uuid.UUID("5b0d7c1e-4f7a-4c55-8e0b-2a9a1f3c6d21")
_encoder = msgspec.json.Encoder()


def json(obj: object, status: int = 200) -> web.Response:
    return web.Response(status=status, body=_encoder.encode(obj), content_type="application/json")


def game_of(game_id: str) -> str:
    """The game of a path's game id; 404 for an id no game can have (an unknown game, a character a stream id
    may not hold), before anything is asked of the engine."""
    game = game_id.split("-", 1)[0]
    if game not in GAMES or "-" not in game_id:
        raise web.HTTPNotFound(text=f"no game {game_id}")
    if not STREAM_ID.match(game_id):
        raise RejectedError(Refusal.ENGINE_UNKNOWN_GAME,
                            f"no game {game_id!r}: an id is <game>-<letters, digits, _ or ->")
    return game


async def create_game(request: web.Request) -> web.Response:
    """POST /v1/games, with an optional Idempotency-Key: a retry under the same key gets the same game."""
    player_id = await require_player(request)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        return json_error(400, "request.idempotency-key",
                          "an Idempotency-Key header is 1-100 letters, digits or _.:- per distinct game")
    body = await body_of(request, NewGame)
    if body.game not in GAMES:
        return json_error(400, "request.invalid", f"unknown game {body.game!r} - at `$.game`")
    players = tuple(body.players) or ((player_id,) + (None,) * (body.seats - 1))
    token = uuid.uuid5(GAME_IDS, f"{player_id}:{key}") if key is not None else uuid.uuid4()
    game_id = f"{body.game}-{token.hex[:20]}"
    if key is not None and (other := await opened_under(
            request.app[POOL], [f"{game}-{token.hex[:20]}" for game in GAMES if game != body.game])):
        return json_error(422, "idempotency.key-reused",
                          f"Idempotency-Key {key!r} already opened {other}; send a new key for a new game")
    create = CreateGame(
        game=body.game, game_id=game_id, seats=body.seats, options=msgspec.Raw(_encoder.encode(body.options)),
        players=players, bots=tuple(body.bots), turn_seconds=body.turn_seconds,
        client_seed_seconds=body.client_seed_seconds,
        command_id=f"create:{player_id}:{key}" if key is not None else f"create:{game_id}")
    result = await request.app[ENGINE_CLIENT].create(create)
    if result.duplicate and not await same_opening(request.app[POOL], create):
        return json_error(422, "idempotency.key-reused",
                          f"Idempotency-Key {key!r} already opened {game_id} with other settings;"
                          " send a new key for a new game")
    return json(GameCreated(game_id=game_id, version=result.version, duplicate=result.duplicate,
                            commitment=result.commitment), 200 if result.duplicate else 201)


async def get_game(request: web.Request) -> web.Response:
    """GET /v1/games/{game_id}: your seat's view, or a spectator's (public facts only)."""
    game_id = request.match_info["game_id"]
    game_of(game_id)
    return json(await request.app[ENGINE_CLIENT].view(game_id, await player_of(request)))


async def legal(request: web.Request) -> web.Response:
    """GET /v1/games/{game_id}/legal: the moves your seat may send now."""
    game_id = request.match_info["game_id"]
    game_of(game_id)
    return json(await request.app[ENGINE_CLIENT].legal(game_id, await require_player(request)))


async def send_command(request: web.Request) -> web.Response:
    """POST /v1/games/{game_id}/commands, with an optional Idempotency-Key: a retry under it returns the first
    result; the key with a different command is refused (422), whichever replica saw the first. Without a key a
    retry is a new command."""
    player_id = await require_player(request)
    game_id = request.match_info["game_id"]
    game = game_of(game_id)
    key = request.headers.get("Idempotency-Key")
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        return json_error(400, "request.idempotency-key",
                          "an Idempotency-Key header is 1-100 letters, digits or _.:- per distinct command")
    if request.content_type != "application/json":
        raise web.HTTPUnsupportedMediaType(text="send the body as application/json")
    raw = await request.read()
    command = decode_command(game, raw)
    extra = unknown_fields(msgspec.json.decode(raw), command)
    if extra:
        return json_error(400, "request.invalid", f"unknown field `{extra[0]}` for {type(command).__name__}")
    if type(command) in ENGINE_ONLY_COMMANDS:
        tag = type(command).__struct_config__.tag
        return json_error(403, "request.engine-only", f"{tag} is sent by the league itself, never by a player")
    command_id = f"{player_id}:{key}" if key is not None else f"{player_id}:once:{uuid.uuid4().hex}"
    result = await request.app[ENGINE_CLIENT].play(PlayCommand(
        game_id=game_id, command=msgspec.Raw(raw), command_id=command_id, player_id=player_id, actor=player_id))
    if result.duplicate and not await same_command(request.app[POOL], game_id, command_id, command):
        return json_error(422, "idempotency.key-reused",
                          f"Idempotency-Key {key!r} was already used for a different command in {game_id};"
                          " send a new key for a new command")
    return json(CommandDone(game_id=game_id, version=result.version, duplicate=result.duplicate,
                            ended=result.ended, view=result.view))


async def client_seed(request: web.Request) -> web.Response:
    """POST /v1/games/{game_id}/client-seed: your seat's client seed, while the game waits for them. Sending the
    same seed again is a harmless retry; another seed for the same seat is refused (409)."""
    player_id = await require_player(request)
    game_id = request.match_info["game_id"]
    game_of(game_id)
    body = await body_of(request, ClientSeed)
    result = await request.app[ENGINE_CLIENT].give_client_seed(
        GiveClientSeed(game_id=game_id, player_id=player_id, client_seed=body.client_seed))
    return json(ClientSeedTaken(game_id=game_id, version=result.version, duplicate=result.duplicate,
                                started=not result.seeding), 200 if result.duplicate else 201)


ROUTES = (
    Route("POST", "/v1/games", create_game, "createGame"),
    Route("GET", "/v1/games/{game_id}", get_game, "getGame"),
    Route("GET", "/v1/games/{game_id}/legal", legal, "getLegal"),
    Route("POST", "/v1/games/{game_id}/commands", send_command, "sendCommand"),
    Route("POST", "/v1/games/{game_id}/client-seed", client_seed, "sendClientSeed"),
)


def add_game_routes(app: web.Application) -> None:
    add_routes(app, ROUTES)
