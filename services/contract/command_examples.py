"""Each game's commands as a player sends them: the field list of each type the gateway decodes, and an example
that the rules themselves offered (``legal_commands`` over seeded games played through the pure rules), so an
example is always a command the gateway accepts."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from services.gateway.schemas import ENGINE_ONLY_COMMANDS
from shared.games.draws import SeededDraws
from shared.messages.games import GAMES

TABLES: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "vortex": [(4, {})],
    "hockeydice": [(2, {}), (2, {"power_chip_reroll": True})],
    "phantoms": [(4, {"edition": "poti"}), (4, {"edition": "powerplay"}),
                 (5, {"edition": "powerplay", "team_variant": True})],
}
"""The tables the examples are looked for at, each tried with a few seeds."""
SEEDS = range(1, 41)
MOVES = 20_000


def player_commands(game: str) -> list[type]:
    return [t for t in GAMES[game].command_types if t not in ENGINE_ONLY_COMMANDS]


def tag_of(command_type: type[msgspec.Struct]) -> str:
    return str(command_type.__struct_config__.tag)


def _properties(command_type: type) -> tuple[dict[str, Any], dict[str, Any]]:
    schema = msgspec.json.schema(command_type)
    defs = schema.get("$defs", {})
    return (defs[command_type.__name__] if command_type.__name__ in defs else schema)["properties"], defs


def fields_of(command_type: type) -> list[tuple[str, str]]:
    """(field, its JSON type as msgspec's schema says) for each field a player sends, the ``type`` tag first."""
    properties, defs = _properties(command_type)
    return [(name, _json_type(prop, defs)) for name, prop in properties.items()]


def _json_type(prop: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in prop:
        return _json_type(defs[prop["$ref"].rsplit("/", 1)[-1]], defs)
    if "enum" in prop:
        return " or ".join(msgspec.json.encode(v).decode() for v in prop["enum"])
    if "anyOf" in prop:
        return " or ".join(_json_type(p, defs) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return f"array of {_json_type(prop.get('items', {}), defs)}"
    return str(prop.get("type", "any"))


def examples(game: str) -> dict[str, bytes]:
    """The first legal command of each type met, as JSON; types the seeded games never offered are absent."""
    rules = GAMES[game]
    wanted = {tag_of(t) for t in player_commands(game)}
    found: dict[str, bytes] = {}
    for seats, options in TABLES[game]:
        for seed in SEEDS:
            if wanted <= found.keys():
                return found
            rng = random.Random(seed)
            draws = SeededDraws(rng)
            state = rules.initial_state()
            for event in rules.new_game(msgspec.convert(options, rules.options_type), seats, draws):
                state = rules.evolve(state, event)
            for _move in range(MOVES):
                if rules.is_over(state):
                    break
                seat = min(rules.pending_seats(state))
                legal = list(rules.legal_commands(state, seat))
                for command in legal:
                    found.setdefault(tag_of(type(command)), msgspec.json.encode(command))
                for event in rules.decide(state, rng.choice(legal), draws):
                    state = rules.evolve(state, event)
    return found


PLACEHOLDERS: dict[str, Any] = {"integer": 0, "number": 0, "string": "", "boolean": False, "array": [],
                                "object": {}, "null": None}


def shaped(command_type: type) -> bytes:
    """An example made from the type alone (the first choice of each field), checked by decoding it as that type:
    for a command the seeded games never offered (a shoot-out shot)."""
    properties, defs = _properties(command_type)
    value = {name: _first(prop, defs) for name, prop in properties.items()}
    return msgspec.json.encode(msgspec.convert(value, command_type))


def _first(prop: dict[str, Any], defs: dict[str, Any]) -> Any:
    if "$ref" in prop:
        return _first(defs[prop["$ref"].rsplit("/", 1)[-1]], defs)
    if "enum" in prop:
        return prop["enum"][0]
    if "anyOf" in prop:
        return _first(prop["anyOf"][0], defs)
    return PLACEHOLDERS.get(prop.get("type", "null"))
