"""Cards and decks: plain data, loaded from JSON files."""

from __future__ import annotations

from typing import Literal

import msgspec

Position = Literal["F", "D", "G"]
Edition = Literal["poti", "powerplay"]
Special = Literal[
    "tiny_tim",
    "rumpelstickskin",
    "troll",
    "bear",
    "hydra",
    "jolly_judge",
    "rosalinde",
    "rumpelstockchen",
    "sitting_bull",
    "willy_winzig",
]

POSITIONS: tuple[Position, ...] = ("F", "D", "G")
PILE_INDEX: dict[str, int] = {"F": 0, "D": 1, "G": 2}
LINEUP: dict[str, int] = {"F": 3, "D": 2, "G": 1}
MASK = "mask"
FLEXIBLE: frozenset[str] = frozenset({"troll", "bear"})
DRAGON = "Dragon"
"""The mask card that is no bruiser: a forward."""
SPECIAL_NAMES: dict[str, str] = {
    "tiny_tim": "Tiny Tim",
    "rumpelstickskin": "Rumpelstickskin",
    "troll": "Troll",
    "bear": "Bear",
    "hydra": "Hydra",
    "jolly_judge": "Jolly Judge",
    "rosalinde": "Rosalinde",
    "rumpelstockchen": "Rumpelstockchen",
    "sitting_bull": "Sitting Bull",
    "willy_winzig": "Willy Winzig",
}
SPECIAL_POSITIONS: dict[str, str] = {"tiny_tim": "D", "troll": "D", "bear": "D", "willy_winzig": "FD"}
"""Where RULES.md and the seeds place a special (Willy Winzig scores when played against a goalie, so he is none);
the others may play anywhere."""


class Card(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    position: Position
    value: float
    team: str
    bruiser: bool = False
    special: Special | None = None


class Deck(msgspec.Struct, frozen=True, kw_only=True):
    edition: Edition
    name: str
    cards: tuple[Card, ...]


def strongest(cards: list[Card], value: dict[str, float] | None = None) -> Card:
    """The highest card; ties go to the lowest card id (RULES.md)."""
    values = value or {}
    return min(cards, key=lambda c: (-values.get(c.id, c.value), c.id))
