"""A move's body decoded as a command of the game in the path: a command of another game is named as such (422, a
body the document allows on this path but this game does not take), and a whole number written ``0.0`` is taken."""

from __future__ import annotations

from typing import Any

import msgspec

from services.gateway.body import decode
from shared.bus.replies import RejectedError
from shared.messages.games import GAMES, command_decoder
from shared.refusals import Refusal

OTHER_GAME = Refusal.REQUEST_OTHER_GAME


def decode_command(game: str, raw: bytes) -> Any:
    try:
        return decode(command_decoder(game), raw)
    except msgspec.ValidationError:
        tag = _tag(raw)
        other = tag.split(".", 1)[0] if tag else None
        if other in GAMES and other != game:
            raise RejectedError(OTHER_GAME, f"{tag} is a command of {other}, and this game is {game}") from None
        raise


def _tag(raw: bytes) -> str | None:
    try:
        body = msgspec.json.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        return None
    tag = body.get("type") if isinstance(body, dict) else None
    return tag if isinstance(tag, str) else None
