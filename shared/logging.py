"""structlog JSON logs; the correlation id of the command being handled rides in a context variable."""

from __future__ import annotations

import logging
import re
import sys
import uuid
from contextvars import ContextVar, Token
from types import TracebackType
from typing import Any

import structlog


def configure_logging(service: str, level: str = "info") -> None:
    logging.basicConfig(format="%(message)s", stream=sys.stderr, level=level.upper())
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(service=service)


_correlation_id: ContextVar[str | None] = ContextVar("correlation_id", default=None)


class correlation:  # noqa: N801 - used as a function: ``with correlation(id):``
    """Bind a command's correlation id (and anything else) to every log line written inside the block. Runs once
    per request in every service: it sets and resets context variables by token, where structlog's own
    ``bound_contextvars`` copies the whole context first."""

    __slots__ = ("_values", "_tokens", "_own")

    def __init__(self, correlation_id: str | None, **more: Any) -> None:
        self._values = {"correlation_id": correlation_id, **more}

    def __enter__(self) -> None:
        self._tokens = structlog.contextvars.bind_contextvars(**self._values)
        self._own: Token[str | None] = _correlation_id.set(self._values["correlation_id"])

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        _correlation_id.reset(self._own)
        structlog.contextvars.reset_contextvars(**self._tokens)


CORRELATION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
"""What a correlation id taken from outside (an HTTP or NATS header) may look like; anything else is replaced."""


def new_correlation_id() -> str:
    return str(uuid.uuid4())


def correlation_id_or_new(given: str | None) -> str:
    """``given`` when it is a well-formed id, else a new one: every command has exactly one."""
    return given if given and CORRELATION_ID.match(given) else new_correlation_id()


def current_correlation_id() -> str | None:
    return _correlation_id.get() or None


def get_logger(name: str) -> structlog.typing.FilteringBoundLogger:
    return structlog.get_logger(name)  # type: ignore[no-any-return]
