"""``GET /asyncapi.json`` (gateway and standings): the live feeds as an AsyncAPI 3 document, with every message
schema made from the msgspec types that are sent. ``FEEDS_VERSION`` is the contract's version; what a consumer may
rely on across versions is written in ``COMPATIBILITY`` (and in docs/feeds.md). A copy is kept in
docs/asyncapi.json, where a change shows in review: ``python -m services.contract.asyncapi > docs/asyncapi.json``.
The previous major version's document is served beside it, as it was published (``PREVIOUS``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Union

import msgspec
from aiohttp import web

import shared.messages.games  # noqa: F401 - registers every game's messages
import shared.messages.players  # noqa: F401
import shared.messages.rng  # noqa: F401
import shared.messages.tournaments  # noqa: F401
import shared.notary.checkpoint  # noqa: F401 - the notary's checkpoints are events of the public log too
from services.standings.hub import Entry
from services.standings.projections.base import Change
from shared.bus.envelope import BATCH_BYTES, BATCH_EVENTS, EventBatch
from shared.http.errors import json_error
from shared.messages.engine import GameView
from shared.messages.games import GAMES
from shared.messages.registry import registry

FEEDS_VERSION = "2.0.0"
COMPATIBILITY = """\
Versions follow semantic versioning. Within one major version a consumer may rely on this: no field of a message
is removed, renamed or given another type; new fields may appear (ignore fields you do not know); new event types,
projections and change keys may appear (ignore those you do not know); stored event names (`type`) never change,
and an event whose shape changed is published with a higher `schema_version` (the league's upcasters read old
versions; a consumer reads the versions it knows). Feed ids stay `<tx>-<position>`, ordered, and resumable with
`Last-Event-ID` / `?after=`. A minor version adds; a major version may remove, and the previous major version's
document stays published beside it for at least one release."""
ROUTES = "/asyncapi.json"
PREVIOUS = {"1": Path(__file__).with_name("asyncapi_v1.json")}
"""Each earlier major version's document, served at ``/asyncapi/<major>.json`` for at least one release after.
Version 1 (1.1.0) published one ``EventEnvelope`` a message on the event subjects; version 2 publishes an
``EventBatch``, the events of one stream and transaction."""


def _strip_openapi_discriminators(node: Any) -> Any:
    """msgspec writes OpenAPI's ``discriminator`` object on a tagged union; AsyncAPI's schema dialect has a
    different keyword of that name (a property name string). The ``type`` tag inside each member says it all."""
    if isinstance(node, dict):
        return {k: _strip_openapi_discriminators(v) for k, v in node.items()
                if not (k == "discriminator" and isinstance(v, dict))}
    if isinstance(node, list):
        return [_strip_openapi_discriminators(v) for v in node]
    return node


def event_types() -> tuple[type, ...]:
    commands = {t for rules in GAMES.values() for t in rules.command_types}
    return tuple(entry.type for entry in (registry.entry(n) for n in registry.names()) if entry.type not in commands)


def message(name: str, title: str, summary: str, payload: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "title": title, "summary": summary, "contentType": "application/json",
            "payload": {"$ref": f"#/components/schemas/{payload}"}, **extra}


@cache
def document() -> dict[str, Any]:
    events = event_types()
    roots, schemas = msgspec.json.schema_components(
        [Entry, Change, GameView, EventBatch, Union[events]], ref_template="#/components/schemas/{name}")  # noqa: UP007
    schemas["StoredEvent"] = roots[-1]
    schemas["Entry"]["properties"]["changes"] = {"type": "array", "items": {"$ref": "#/components/schemas/Change"}}
    schemas["EventEnvelope"]["properties"]["data"] = {
        "$ref": "#/components/schemas/StoredEvent",
        "description": "The event itself, its `type` tag first: one of the league's stored event types."}
    versions = {registry.entry(n).name: registry.entry(n).version for n in registry.names()
                if registry.entry(n).type in events}
    game_id = {"description": "<game>-<id>, e.g. vortex-3f2a...", "examples": ["vortex-3f2a9c01d2e4b5a6c7d8"]}
    stripped: dict[str, Any] = _strip_openapi_discriminators({
        "asyncapi": "3.0.0",
        "info": {
            "title": "Phantom League live feeds", "version": FEEDS_VERSION,
            "description": "What dashboards and clients outside the league may follow: the standings feed (SSE and "
                           "WebSocket), a player's game WebSocket, and the public event subjects on NATS.\n\n"
                           + COMPATIBILITY + "\n\nEarlier major versions: "
                           + ", ".join(f"{major} at `/asyncapi/{major}.json`" for major in PREVIOUS) + ".",
            "x-event-schema-versions": versions,
        },
        "servers": {
            "standings": {"host": "127.0.0.1:8081", "protocol": "http",
                          "description": "The standings service (8081 under `make run`): the SSE feed"},
            "standingsWs": {"host": "127.0.0.1:8081", "protocol": "ws",
                            "description": "The standings service's WebSocket feed"},
            "gatewayWs": {"host": "127.0.0.1:8080", "protocol": "ws",
                          "description": "The gateway (8080 under `make run`): a game's live view"},
            "nats": {"host": "127.0.0.1:4222", "protocol": "nats",
                     "description": "The league's NATS; with NATS_SUBJECT_PREFIX set, every subject starts with it"},
        },
        "channels": {
            "feed": {
                "address": "/v1/feed", "servers": [{"$ref": "#/servers/standings"}],
                "title": "Standings feed (SSE)",
                "description": "Server-sent events: each `event: change` carries one Entry as `data` and its id as "
                               "`id`; a comment line `: heartbeat` every 15 s of quiet. Resume with the "
                               "`Last-Event-ID` header (or `?after=<id>`); `?from=now` skips the past.",
                "messages": {"change": {"$ref": "#/components/messages/FeedEntry"}},
            },
            "feedWebSocket": {
                "address": "/v1/feed/ws", "servers": [{"$ref": "#/servers/standingsWs"}],
                "title": "Standings feed (WebSocket)",
                "description": "One Entry per text message; `?after=<id>` or `?from=now` as for the SSE feed.",
                "messages": {"change": {"$ref": "#/components/messages/FeedEntry"}},
            },
            "gameView": {
                "address": "/v1/games/{game_id}/ws", "servers": [{"$ref": "#/servers/gatewayWs"}],
                "title": "A game's live view (WebSocket)",
                "description": "Your seat's view (a spectator's without a token; a browser may pass it as "
                               "`?access_token=`) on connecting and after each change, until the game ends "
                               "(close 1000) or the league cannot send it (close 1011: reconnect).",
                "parameters": {"game_id": game_id},
                "messages": {"view": {"$ref": "#/components/messages/GameView"}},
            },
            "events": {
                "address": "events.{category}.{stream_id}", "servers": [{"$ref": "#/servers/nats"}],
                "title": "Stored events (NATS JetStream, stream EVENTS)",
                "description": "Every public stored event (no `metadata.visibility`) as the relay publishes "
                               "it, in the log's order, a transaction at a time: each message an EventBatch of "
                               "the events one stream got in one transaction, in version order (more than "
                               f"{BATCH_EVENTS} events or {BATCH_BYTES // 1024} KB of them fill several "
                               "messages), with `Nats-Msg-Id` = `<its first event's id>+<its number of events>` "
                               "(a re-publication of the same message is deduplicated; should a relay of another "
                               "version cut a page it had begun otherwise, an event may arrive twice: keep the "
                               "first of each `event_id`). Events private to seats go to "
                               "`private.{category}.{stream_id}` "
                               "(stream PRIVATE_EVENTS), which only the auditor user may read. The NATS server "
                               "asks for credentials: dashboards connect as the read-only `public` user "
                               "(`public.nkey` in the league's secrets).",
                "parameters": {"category": {"description": "the stream's category: the part of its id before "
                                                           "the first '-' (vortex, phantoms, hockeydice, rng, "
                                                           "tournament, player)"},
                               "stream_id": {"description": "the stream the event belongs to"}},
                "messages": {"events": {"$ref": "#/components/messages/StoredEvents"}},
            },
        },
        "operations": {
            "followFeed": {"action": "receive", "channel": {"$ref": "#/channels/feed"},
                           "summary": "Follow the public changes of the standings",
                           "messages": [{"$ref": "#/channels/feed/messages/change"}]},
            "followFeedWebSocket": {"action": "receive", "channel": {"$ref": "#/channels/feedWebSocket"},
                                    "summary": "The same entries over a WebSocket",
                                    "messages": [{"$ref": "#/channels/feedWebSocket/messages/change"}]},
            "followGame": {"action": "receive", "channel": {"$ref": "#/channels/gameView"},
                           "summary": "Follow one game as your seat sees it",
                           "messages": [{"$ref": "#/channels/gameView/messages/view"}]},
            "followEvents": {"action": "receive", "channel": {"$ref": "#/channels/events"},
                             "summary": "Read the stored events from JetStream",
                             "messages": [{"$ref": "#/channels/events/messages/events"}]},
        },
        "components": {
            "messages": {
                "FeedEntry": message("FeedEntry", "Feed entry",
                                     "The public changes one stored event caused (a board's only at the last event of"
                                     " the fold's batch that changed it)", "Entry"),
                "GameView": message("GameView", "Game view", "What one seat (or a spectator) sees of a game now",
                                    "GameView"),
                "StoredEvents": message("StoredEvents", "Stored events",
                                        "Events of one stream from one transaction of the log, each with its metadata",
                                        "EventBatch"),
            },
            "schemas": schemas,
        },
    })
    return stripped


@cache
def document_bytes() -> bytes:
    return msgspec.json.format(msgspec.json.encode(document()), indent=2) + b"\n"


async def asyncapi(request: web.Request) -> web.Response:
    return web.Response(body=document_bytes(), content_type="application/json")


@cache
def previous_bytes(major: str) -> bytes:
    return PREVIOUS[major].read_bytes()


async def previous_asyncapi(request: web.Request) -> web.Response:
    major = request.match_info["major"]
    if major not in PREVIOUS:
        return json_error(404, "asyncapi.unknown-version", f"no AsyncAPI document of major version {major!r}: "
                          f"{', '.join(PREVIOUS)} here, {FEEDS_VERSION.split('.')[0]} at {ROUTES}")
    return web.Response(body=previous_bytes(major), content_type="application/json")


def add_asyncapi_route(app: web.Application) -> None:
    app.router.add_get(ROUTES, asyncapi)
    app.router.add_get("/asyncapi/{major}.json", previous_asyncapi)


if __name__ == "__main__":  # python -m services.contract.asyncapi > docs/asyncapi.json
    import sys

    sys.stdout.buffer.write(document_bytes())
