"""Typed replies: every request gets ``Ok{value}`` or ``Rejected{code, message}``."""

from __future__ import annotations

from typing import Generic, TypeVar

import msgspec

T = TypeVar("T")


class Ok(msgspec.Struct, Generic[T], frozen=True, tag="Ok"):
    value: T


class Rejected(msgspec.Struct, frozen=True, tag="Rejected"):
    code: str
    message: str


class RejectedError(Exception):
    """Raised by a handler to reject a request, and by ``request`` when the reply is ``Rejected``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = str(code)  # a plain str when given a Refusal, as when decoded from a reply
        self.message = message
