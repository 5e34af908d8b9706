"""Each game's position in its own terms: ``build(options, position) -> state`` and ``describe(state) -> dict``."""

from __future__ import annotations

from typing import Any, Protocol


class PositionError(ValueError):
    """A scenario's position that does not describe a legal position of its game."""


class Positions(Protocol):
    def build(self, options: Any, position: dict[str, Any]) -> Any: ...
    def describe(self, state: Any) -> dict[str, Any]: ...
    def expand(self, state: Any, step: dict[str, Any]) -> list[dict[str, Any]]: ...


def known(position: dict[str, Any], allowed: set[str], game: str) -> None:
    if stray := sorted(set(position) - allowed):
        raise PositionError(f"a {game} position has no {', '.join(stray)}; it may give {', '.join(sorted(allowed))}")


def per_seat(position: dict[str, Any], key: str, seats: int, default: Any) -> list[Any]:
    values = position.get(key)
    if values is None:
        return [default] * seats
    if not isinstance(values, list) or len(values) != seats:
        raise PositionError(f"{key} needs one value per seat ({seats})")
    return list(values)


def positions_of(game: str) -> Positions:
    from shared.scenario.positions import hockeydice, phantoms, vortex

    table: dict[str, Positions] = {"phantoms": phantoms, "vortex": vortex, "hockeydice": hockeydice}
    try:
        return table[game]
    except KeyError:
        raise PositionError(f"no scenarios for game {game!r}; known: {', '.join(sorted(table))}") from None
