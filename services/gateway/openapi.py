"""``GET /openapi.json``: every route, its parameters, bodies and errors, with schemas made from the msgspec types."""

from __future__ import annotations

from functools import cache
from typing import Any, Union

import msgspec
from aiohttp import web

from services.gateway import (
    audit_routes,
    routes_bundle,
    routes_games,
    routes_live,
    routes_play,
    routes_players,
    routes_tokens,
    routes_tournaments,
)
from services.gateway.path_parameters import GAME_ID, TOURNAMENT_ID
from services.gateway.routes import Route
from services.gateway.routes_tournaments import Entry, MyTable, NewTournament, QueueEntry
from services.gateway.schemas import (
    ENGINE_ONLY_COMMANDS,
    ClientSeed,
    ClientSeedTaken,
    CommandDone,
    Error,
    GameCreated,
    Me,
    NewGame,
    Registered,
    RegisterPlayer,
    TokenIssued,
)
from shared.messages.engine import GameView, LegalCommands
from shared.messages.games import GAMES
from shared.messages.tournaments import QueueTicket, TournamentRef, TournamentView

BEARER: list[dict[str, list[str]]] = [{"bearer": []}]
GAME_LINKS = {verb: {"operationId": operation, "parameters": {"game_id": "$response.body#/game_id"}}
              for verb, operation in (("view", "getGame"), ("legal", "getLegal"), ("command", "sendCommand"),
                                      ("clientSeed", "sendClientSeed"), ("audit", "getAudit"))}
TOURNAMENT_LINKS = {verb: {"operationId": operation,
                           "parameters": {"tournament_id": "$response.body#/tournament_id"}}
                    for verb, operation in (("view", "getTournament"), ("enter", "enterTournament"),
                                            ("start", "startTournament"), ("mine", "getMyTable"))}


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def body(name: str, *, required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": ref(name)}}}


def answer(description: str, name: str | None = None, links: dict[str, Any] | None = None) -> dict[str, Any]:
    described: dict[str, Any] = {"description": description}
    if name is not None:
        described["content"] = {"application/json": {"schema": ref(name)}}
    if links:
        described["links"] = links
    return described


def errors(*statuses: int) -> dict[str, Any]:
    meaning = {400: "malformed JSON, a wrong type, an unknown field (the message names it)",
               401: "no token, or one unknown, expired, rotated or revoked",
               403: "not yours: another seat, a command only the league sends, another's tournament",
               404: "no such game", 409: "the game has ended, already exists, has not started (it waits for client "
                                         "seeds) or has started (too late for a client seed)",
               408: "the body did not arrive in time", 413: "body too large", 415: "not application/json",
               422: "the body fits the schema and the league refuses what it asks: a move that breaks a rule (`code` "
                    "is the rule id, RULES.md), options, seats, players or a format the game does not take, a "
                    "command of another game, an Idempotency-Key used for another command (`idempotency.key-reused`)",
               502: "a service's answer was too large to carry (`reply.too-large`)",
               503: "the league cannot answer now (a service restarting, NATS or the database out of reach, too "
                    "many connections from your address): send it again after `Retry-After` seconds",
               504: "the league did not answer in time: send it again after `Retry-After` seconds"}
    return {str(s): answer(meaning[s], "Error") for s in statuses}


BODY_ERRORS = (400, 408, 413, 415)
"""What any route that reads a body may answer about it."""
OUTAGES = (502, 503, 504)
"""What any route that asks the league may answer while part of it is out of reach."""
ROUTES: tuple[Route, ...] = (*routes_players.ROUTES, *routes_tokens.ROUTES, *routes_games.ROUTES, *routes_live.ROUTES,
                             *routes_tournaments.ROUTES, *audit_routes.ROUTES, *routes_bundle.ROUTES,
                             *routes_play.ROUTES)
"""The gateway's own routes, in the order the document lists their paths (then /healthz and the rest)."""


@cache
def document() -> bytes:
    commands = tuple(t for rules in GAMES.values() for t in rules.command_types if t not in ENGINE_ONLY_COMMANDS)
    types = [RegisterPlayer, Registered, Me, TokenIssued, NewGame, GameCreated, ClientSeed, ClientSeedTaken,
             CommandDone, GameView, LegalCommands, Error,
             NewTournament, Entry, TournamentRef, TournamentView, MyTable, QueueEntry, QueueTicket,
             Union[commands]]  # noqa: UP007
    schemas, components = msgspec.json.schema_components(types, ref_template="#/components/schemas/{name}")
    components["Command"] = schemas[-1]
    for variant in schemas[-1]["anyOf"]:  # the gateway refuses a field no command has (body.unknown_fields)
        components[variant["$ref"].rsplit("/", 1)[1]]["additionalProperties"] = False
    idempotency_key = {"name": "Idempotency-Key", "in": "header",
                       "schema": {"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,100}$"}}
    operations: dict[str, dict[str, Any]] = {
        "registerPlayer": {
            "summary": "Register a player; the token is shown once",
            "requestBody": body("RegisterPlayer"),
            "responses": {"201": answer("registered", "Registered"), **errors(*BODY_ERRORS, *OUTAGES)}},
        "getMe": {
            "summary": "Who your token says you are, and when it expires", "security": BEARER,
            "responses": {"200": answer("you", "Me"), **errors(401, *OUTAGES)}},
        "rotateToken": {
            "summary": "Rotate your token: a new one (shown once, with a new expiry) replaces the one you send, which "
                       "every gateway refuses from now on", "security": BEARER,
            "responses": {"200": answer("the new token", "TokenIssued"), **errors(401, *OUTAGES)}},
        "revokeToken": {
            "summary": "Revoke the token you send: every gateway refuses it from now on",
            "security": BEARER, "responses": {"204": answer("revoked"), **errors(401, *OUTAGES)}},
        "createGame": {
            "summary": "Create a game; with an Idempotency-Key a retry gets the same game (200) and opens nothing "
                       "(422 when it comes with other settings)",
            "security": BEARER, "requestBody": body("NewGame"),
            "parameters": [{**idempotency_key, "required": False}],
            "responses": {"201": answer("created", "GameCreated", GAME_LINKS),
                          "200": answer("a retry", "GameCreated", GAME_LINKS),
                          **errors(*BODY_ERRORS, 401, 409, 422, *OUTAGES)}},
        "getGame": {
            "summary": "Your seat's view (a spectator's without a token: public facts only)",
            "parameters": [GAME_ID],
            "responses": {"200": answer("the view", "GameView"), **errors(401, 404, 409, *OUTAGES)}},
        "getLegal": {
            "summary": "The moves your seat may send now", "security": BEARER,
            "parameters": [GAME_ID],
            "responses": {"200": answer("legal moves", "LegalCommands"), **errors(401, 403, 404, 409, *OUTAGES)}},
        "sendCommand": {
            "summary": "Send a move; with an Idempotency-Key a retry returns the first result and appends nothing "
                       "(422 when it comes with a different command); without one a retry is a new move",
            "security": BEARER, "parameters": [GAME_ID, {**idempotency_key, "required": False}],
            "requestBody": body("Command"),
            "responses": {"200": answer("accepted", "CommandDone"),
                          **errors(*BODY_ERRORS, 401, 403, 404, 409, 422, *OUTAGES)}},
        "sendClientSeed": {
            "summary": "Your seat's client seed, while a game opened with client_seed_seconds waits for them; the "
                       "RNG mixes it into every draw. The same seed again is a retry (200)",
            "security": BEARER, "parameters": [GAME_ID], "requestBody": body("ClientSeed"),
            "responses": {"201": answer("recorded", "ClientSeedTaken"), "200": answer("a retry", "ClientSeedTaken"),
                          **errors(*BODY_ERRORS, 401, 403, 404, 409, *OUTAGES)}},
        "watchGame": {
            "summary": "WebSocket: your view (a GameView JSON message) each time the game changes; a browser may "
                       "pass its token as ?access_token=", "parameters": [GAME_ID],
            "responses": {"101": answer("switching to WebSocket"), **errors(400, 401, 404, 409, *OUTAGES)}},
        "createTournament": {
            "summary": "Create a tournament (Swiss or single elimination); its games have a turn timer "
                       "(`turn_seconds`, 120 unless set)", "security": BEARER,
            "requestBody": body("NewTournament"),
            "responses": {"201": answer("created", "TournamentRef", TOURNAMENT_LINKS),
                          **errors(*BODY_ERRORS, 401, 409, 422, *OUTAGES)}},
        "getTournament": {
            "summary": "Players, rounds, tables and games, standings (Median-Buchholz), the final ranking",
            "parameters": [TOURNAMENT_ID], "responses": {"200": answer("the tournament", "TournamentView"),
                                                         **errors(404, 409, *OUTAGES)}},
        "enterTournament": {
            "summary": "Enter the tournament yourself (optionally letting a league bot play your seats); the body "
                       "may be left out", "security": BEARER, "parameters": [TOURNAMENT_ID],
            "requestBody": body("Entry", required=False),
            "responses": {"201": answer("registered", "TournamentRef"),
                          **errors(*BODY_ERRORS, 401, 404, 409, 422, *OUTAGES)}},
        "startTournament": {
            "summary": "Seed by rating and open round 1 (only the player who created it)", "security": BEARER,
            "parameters": [TOURNAMENT_ID],
            "responses": {"200": answer("started", "TournamentView"), **errors(401, 403, 404, 409, *OUTAGES)}},
        "getMyTable": {
            "summary": "Your game to play now, if any", "security": BEARER,
            "parameters": [TOURNAMENT_ID],
            "responses": {"200": answer("your table", "MyTable"), **errors(401, 404, 409, *OUTAGES)}},
        "joinQueue": {
            "summary": "Quick play: wait for a table, seated by rating band widening over time",
            "security": BEARER, "requestBody": body("QueueEntry"),
            "responses": {"200": answer("your ticket", "QueueTicket"),
                          **errors(*BODY_ERRORS, 401, 409, 422, *OUTAGES)}},
        "getQueue": {
            "summary": "Waiting, or seated with your game id", "security": BEARER,
            "responses": {"200": answer("your ticket", "QueueTicket"), **errors(401, *OUTAGES)}},
        "leaveQueue": {
            "summary": "Leave the queue", "security": BEARER,
            "responses": {"200": answer("your ticket", "QueueTicket"), **errors(401, *OUTAGES)}},
        "getAudit": {
            "summary": "The referee's audit of an ended game", "parameters": [GAME_ID],
            "responses": {"200": answer("the report (verified or the first discrepancy)"),
                          **errors(400, 404, 409, *OUTAGES)}},
        **routes_bundle.OPERATIONS,
        **routes_play.OPERATIONS,
    }
    paths: dict[str, Any] = {}
    for route in ROUTES:
        paths.setdefault(route.path, {})[route.method.lower()] = {"operationId": route.operation,
                                                                  **operations[route.operation]}
    paths |= {
        "/healthz": {"get": {"operationId": "health", "summary": "Health of the gateway and what it depends on",
                             "responses": {"200": answer("healthy"), "503": answer("unhealthy")}}},
        "/metrics": {"get": {"operationId": "metrics", "summary": "Prometheus metrics",
                             "responses": {"200": answer("text exposition")}}},
        "/openapi.json": {"get": {"operationId": "openapi", "summary": "This document",
                                  "responses": {"200": answer("OpenAPI 3.1")}}},
        "/asyncapi.json": {"get": {"operationId": "asyncapi",
                                   "summary": "The live feeds (this gateway's game WebSocket, the standings feeds, "
                                              "the event subjects) as an AsyncAPI 3 document",
                                   "responses": {"200": answer("AsyncAPI 3")}}},
        "/asyncapi/{major}.json": {"get": {
            "operationId": "previousAsyncapi",
            "summary": "An earlier major version's AsyncAPI document, as it was published (kept one release at least)",
            "parameters": [{"name": "major", "in": "path", "required": True, "schema": {"type": "string"},
                            "example": "1"}],
            "responses": {"200": answer("AsyncAPI 3"), "404": answer("no such major version",
                                                                     "Error")}}},
    }
    return msgspec.json.encode({
        "openapi": "3.1.0",
        "info": {"title": "Phantom League gateway", "version": "1"},
        "paths": paths,
        "components": {"schemas": components,
                       "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}}},
    })


async def openapi(request: web.Request) -> web.Response:
    return web.Response(body=document(), content_type="application/json")


def add_openapi_route(app: web.Application) -> None:
    app.router.add_get("/openapi.json", openapi)
