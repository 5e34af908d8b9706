"""What happened in a race. Rolled values and resulting coin totals are in the events, so evolve never rolls."""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

from shared.games.vortex.board import Board, RegionName
from shared.games.vortex.commands import Direction, MonsterKind
from shared.games.vortex.options import Options

SpiralColour = Literal["purple", "orange"]


class GameStarted(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.GameStarted"):
    options: Options
    seats: int
    board: Board
    starts: tuple[int, ...]
    """Green spiral stone of each seat's phantom."""


class Rolled(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.Rolled"):
    seat: int
    value: int


class PhantomMoved(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.PhantomMoved"):
    seat: int
    region: RegionName
    start: int
    stone: int
    steps: int
    direction: Direction


class CoinsCollected(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.CoinsCollected"):
    seat: int
    amount: int
    coins: int


class Dug(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.Dug"):
    seat: int
    roll: int
    found: bool
    coins: int


class MonsterBattled(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.MonsterBattled"):
    seat: int
    owner: int
    monster: MonsterKind
    headstone: str
    roll: int
    won: bool
    coins: int


class SentinelIgnored(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.SentinelIgnored"):
    seat: int
    region: RegionName
    stone: int
    coins: int


class SentinelBattled(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.SentinelBattled"):
    seat: int
    region: RegionName
    stone: int
    roll: int
    won: bool
    coins: int


class VortexTried(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.VortexTried"):
    seat: int
    roll: int
    outcome: Literal["mastered", "orange", "purple"]


class VortexDeclined(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.VortexDeclined"):
    seat: int


class PhantomTransported(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.PhantomTransported"):
    seat: int
    region: RegionName
    stone: int
    coins: int


class RecallRolled(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.RecallRolled"):
    seat: int
    roll: int
    recalled: bool


class MonsterPlaced(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.MonsterPlaced"):
    seat: int
    monster: MonsterKind
    headstone: str


class MonsterMoved(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.MonsterMoved"):
    seat: int
    monster: MonsterKind
    start: str
    headstone: str


class MonsterKept(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.MonsterKept"):
    seat: int
    monster: MonsterKind
    headstone: str


class TurnEnded(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.TurnEnded"):
    seat: int
    next_seat: int
    round: int
    """The round the next seat plays in (rounds count from 1)."""


class RaceEnded(msgspec.Struct, frozen=True, kw_only=True, tag="vortex.RaceEnded"):
    winners: tuple[int, ...]
    """One seat, or several that tie when ``max_rounds`` ends the race."""
    reason: Literal["vortex", "max_rounds"]


Event = (
    GameStarted | Rolled | PhantomMoved | CoinsCollected | Dug | MonsterBattled | SentinelIgnored | SentinelBattled
    | VortexTried | VortexDeclined | PhantomTransported | RecallRolled | MonsterPlaced | MonsterMoved | MonsterKept
    | TurnEnded | RaceEnded
)
EVENT_TYPES: tuple[type, ...] = get_args(Event)
