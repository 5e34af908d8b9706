"""What counts as "the database or the bus is out of reach" (a 503 to try again) and what stays a fault of ours."""

from __future__ import annotations

import asyncpg
from nats import errors as nats_errors

from shared.refusals import Refusal
from shared.unavailable import unavailable


def test_a_connection_postgresql_dropped_under_the_pool_is_an_outage() -> None:
    named = unavailable(asyncpg.InterfaceError("connection is closed"))
    assert named is not None and named[0] == Refusal.STORE_UNAVAILABLE


def test_a_connection_left_mid_answer_when_postgresql_went_away_is_an_outage() -> None:
    error = asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in progress")
    named = unavailable(error)
    assert named is not None and named[0] == Refusal.STORE_UNAVAILABLE
    assert unavailable(asyncpg.InternalClientError("unknown error in protocol implementation")) is None


def test_a_misused_connection_is_not_an_outage() -> None:
    assert unavailable(asyncpg.InterfaceError("the number of query arguments cannot exceed 32767")) is None
    assert unavailable(asyncpg.exceptions.DataError("invalid input for query argument $1")) is None


def test_outages_of_postgresql_and_nats_are_named_and_a_timeout_is_left_to_the_caller() -> None:
    assert unavailable(asyncpg.exceptions.CannotConnectNowError("the database system is starting up")) is not None
    assert unavailable(ConnectionRefusedError()) is not None
    assert unavailable(nats_errors.ConnectionClosedError()) is not None
    assert unavailable(nats_errors.TimeoutError()) is None
    assert unavailable(ValueError("a bug")) is None
