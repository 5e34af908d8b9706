"""structlog JSON logs; the correlation id of the command being handled rides in a context variable."""

from __future__ import annotations

import logging
import re
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def correlation(correlation_id: str | None, **more: Any) -> Iterator[None]:
    """Bind a command's correlation id (and anything else) to every log line written inside the block."""
    with structlog.contextvars.bound_contextvars(correlation_id=correlation_id, **more):
        yield


CORRELATION_ID = re.compile(r"^[A-Za-z0-9_.:-]{1,128}$")
"""What a correlation id taken from outside (an HTTP or NATS header) may look like; anything else is replaced."""


def new_correlation_id() -> str:
    return str(uuid.uuid4())


def correlation_id_or_new(given: str | None) -> str:
    """``given`` when it is a well-formed id, else a new one: every command has exactly one."""
    return given if given and CORRELATION_ID.match(given) else new_correlation_id()


def current_correlation_id() -> str | None:
    value = structlog.contextvars.get_contextvars().get("correlation_id")
    return str(value) if value else None


def get_logger(name: str) -> structlog.typing.FilteringBoundLogger:
    return structlog.get_logger(name)  # type: ignore[no-any-return]
