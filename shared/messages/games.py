"""The games the league hosts, with their commands and events registered as stored names."""

from __future__ import annotations

from functools import cache
from typing import Any, Union

import msgspec

from shared.bus.replies import RejectedError
from shared.games import hockeydice, phantoms, vortex
from shared.games.rules import AnyRules
from shared.messages.registry import registry

GAMES: dict[str, AnyRules] = {
    "phantoms": phantoms.rules,
    "vortex": vortex.rules,
    "hockeydice": hockeydice.rules,
}

for _rules in GAMES.values():
    registry.register_all([*_rules.event_types, *_rules.command_types])
    for _type, _version in getattr(_rules, "event_versions", {}).items():
        registry.register(_type, version=_version)
    for (_name, _from), _lift in getattr(_rules, "upcasters", {}).items():
        registry.upcaster(_name, _from)(_lift)


class UnknownGame(Exception):
    pass


def rules_of(game: str) -> AnyRules:
    try:
        return GAMES[game]
    except KeyError:
        raise UnknownGame(f"unknown game {game!r}; the league hosts {', '.join(sorted(GAMES))}") from None


@cache
def command_decoder(game: str) -> msgspec.json.Decoder[Any]:
    types = tuple(rules_of(game).command_types)
    return msgspec.json.Decoder(Union[types] if len(types) > 1 else types[0])  # noqa: UP007


@cache
def options_decoder(game: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(rules_of(game).options_type)


def requested_options(game: str, options: msgspec.Raw, code: str, options_code: str | None = None) -> Any:
    """A request's ``options`` decoded as ``game``'s, or the refusal: ``code`` for a game the league does not host,
    ``options_code`` (else ``code``) for options that game does not take."""
    try:
        return options_decoder(game).decode(options)
    except UnknownGame as error:
        raise RejectedError(code, str(error)) from error
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise RejectedError(options_code or code, f"options for {game}: {error}") from error
