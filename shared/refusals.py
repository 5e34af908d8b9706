"""The codes of the league's own refusals, each stated once with the HTTP status the gateway answers it with.

A service raises ``RejectedError(Refusal.ENGINE_GAME_OVER, message)`` (a ``Refusal`` is its code, a str); the gateway
answers ``status_of(code)``. Any code not listed here is a rule a move breaks (RULES.md's ids): 422.
"""

from __future__ import annotations

from enum import StrEnum

RULE_BROKEN = 422


class Refusal(StrEnum):
    status: int

    def __new__(cls, code: str, status: int) -> Refusal:
        refusal = str.__new__(cls, code)
        refusal._value_ = code
        refusal.status = status
        return refusal

    # 400: the body breaks the OpenAPI document's schema (the gateway's own decoding says where). 422: it fits the
    # schema, and the league refuses what it asks (options, seats, players or a format this game does not take).
    ENGINE_UNKNOWN_GAME = "engine.unknown-game", 404
    ENGINE_NOT_YOUR_SEAT = "engine.not-your-seat", 403
    ENGINE_COMMAND_INVALID = "engine.command.invalid", 400
    ENGINE_CREATE_INVALID = "engine.create.invalid", 422
    ENGINE_CREATE_OPTIONS = "engine.create.options", 422
    ENGINE_CREATE_EXISTS = "engine.create.exists", 409
    ENGINE_GAME_OVER = "engine.game-over", 409
    ENGINE_BUSY = "engine.busy", 503
    ENGINE_UNAVAILABLE = "engine.unavailable", 503
    ENGINE_NOT_OWNER = "engine.not-owner", 503
    ENGINE_SEEDING = "engine.seeding", 409
    ENGINE_CLIENT_SEED_NOT_SEATED = "engine.client-seed.not-seated", 403
    ENGINE_CLIENT_SEED_ALREADY_GIVEN = "engine.client-seed.already-given", 409
    ENGINE_CLIENT_SEED_CLOSED = "engine.client-seed.closed", 409
    ENGINE_CLIENT_SEED_LENGTH = "engine.client-seed.length", 400
    TOURNAMENT_UNKNOWN = "tournament.unknown", 404
    TOURNAMENT_EXISTS = "tournament.exists", 409
    TOURNAMENT_FULL = "tournament.full", 409
    TOURNAMENT_ALREADY_STARTED = "tournament.already-started", 409
    TOURNAMENT_ALREADY_REGISTERED = "tournament.already-registered", 409
    TOURNAMENT_NOT_ORGANISER = "tournament.not-organiser", 403
    TOURNAMENT_TOO_FEW_PLAYERS = "tournament.too-few-players", 409
    TOURNAMENT_INVALID = "tournament.invalid", 422
    TOURNAMENT_FORMAT = "tournament.format", 422
    TOURNAMENT_UNKNOWN_GAME = "tournament.unknown-game", 422
    TOURNAMENT_BUSY = "tournament.busy", 503
    REPLY_TOO_LARGE = "reply.too-large", 502
    SERVICE_UNAVAILABLE = "service.unavailable", 503
    BUS_UNAVAILABLE = "bus.unavailable", 503
    STORE_UNAVAILABLE = "store.unavailable", 503
    UPSTREAM_TIMEOUT = "upstream.timeout", 504
    EVENT_UNREADABLE = "event.unreadable", 409
    QUEUE_INVALID = "queue.invalid", 422
    REQUEST_OTHER_GAME = "request.other-game", 422
    BAD_REQUEST = "bad-request", 400
    INTERNAL = "internal", 502


_STATUS: dict[str, int] = {refusal.value: refusal.status for refusal in Refusal}


def status_of(code: str) -> int:
    return _STATUS.get(code, RULE_BROKEN)
