"""Commands: what a manager asks for. Every command names the seat that sends it."""

from __future__ import annotations

from typing import get_args

import msgspec

from shared.games.phantoms.cards import Position


class TakeFromPile(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TakeFromPile"):
    """Opening draft: take the top card of a pile."""

    seat: int
    pile: Position


class Trade(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Trade"):
    seat: int
    opponent: int


class PickTradeCard(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.PickTradeCard"):
    """Pick one of the opponent's six face-down cards, 1-6."""

    seat: int
    index: int


class ReturnCard(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ReturnCard"):
    seat: int
    card: str


class Draft(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Draft"):
    seat: int
    card: str


class Challenge(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Challenge"):
    """Play a game against an opponent."""

    seat: int
    opponent: int


class FieldTeam(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.FieldTeam"):
    """Team variant: the six who play this game; Troll or Bear named in ``forwards`` play as forwards."""

    seat: int
    cards: tuple[str, ...]
    forwards: tuple[str, ...] = ()


class ChooseCard(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ChooseCard"):
    """Lay a player face down for this round."""

    seat: int
    card: str


class FlipPile(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.FlipPile"):
    """Sitting Bull: flip the top card of a pile (or None to decline)."""

    seat: int
    pile: Position | None


class ClaimWin(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ClaimWin"):
    """Jolly Judge: claim the tied game (claim=True) or go to sudden death."""

    seat: int
    claim: bool


class Rest(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Rest"):
    """Team variant: the three players who rest during the next game."""

    seat: int
    cards: tuple[str, ...]


class TimeOut(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TimeOut"):
    """Sent by the engine when ``seat`` let its ``turn_seconds`` run out: the default (greedy) bot moves for it."""

    seat: int


Command = (
    TakeFromPile | Trade | PickTradeCard | ReturnCard | Draft | Challenge | FieldTeam | ChooseCard | FlipPile
    | ClaimWin | Rest | TimeOut
)
COMMAND_TYPES: tuple[type, ...] = get_args(Command)
