"""Events: what happened, past tense. Private events carry hidden cards; their public twins say only that it
happened. ``visible_to`` says who may read which."""

from __future__ import annotations

from typing import Any, Literal, get_args

import msgspec

from shared.games.phantoms.cards import Deck, Position
from shared.games.phantoms.options import Options

InjuryRule = Literal["draft", "out_for_season"]
"""How an injured player is replaced (RULES.md): ``draft`` (Phantoms of the Ice: he goes to the bottom of his pile
and the top card comes back) or ``out_for_season`` (Power Play: he is set aside for good, the top card comes)."""
EDITION_INJURIES: dict[str, InjuryRule] = {"poti": "draft", "powerplay": "out_for_season"}


class SeasonOpened(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.SeasonOpened"):
    """Schema v2 added ``injuries``; a v1 event is lifted by ``lift_season_opened_v1`` (see ``SCHEMA``)."""

    options: Options
    edition: str
    deck: Deck
    deck_fingerprint: str
    seats: int
    injuries: InjuryRule | None = None
    """The injury rule this season plays (``new_game`` writes it); None: the edition's (``EDITION_INJURIES``)."""


def lift_season_opened_v1(payload: dict[str, Any]) -> dict[str, Any]:
    """Seasons opened before v2 set every injured player aside for good, in both editions (the ``poti`` reading was
    wrong, issue 14): they go on, and audit, with the rule they were played with."""
    return {**payload, "injuries": "out_for_season"}


class PilesShuffled(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.PilesShuffled"):
    """Pile order, top first. Nobody may read it before the season ends."""

    forwards: tuple[str, ...]
    defense: tuple[str, ...]
    goalies: tuple[str, ...]


class TeamsAssigned(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TeamsAssigned"):
    """Team variant: seat i manages ``teams[i]``; the other cards leave the game."""

    teams: tuple[str, ...]
    unused: tuple[str, ...]


class TeamDealt(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TeamDealt"):
    """Team variant: a manager's ten team players and his random mask card (private)."""

    seat: int
    cards: tuple[str, ...]
    mask: str


class OpeningPickMade(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.OpeningPickMade"):
    seat: int
    pile: Position


class OpeningCardDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.OpeningCardDrawn"):
    seat: int
    card: str


class TurnStarted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TurnStarted"):
    seat: int


class TradeStarted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeStarted"):
    seat: int
    opponent: int


class TradeOffered(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeOffered"):
    """The opponent's six, in the drawn face-down order (private to the opponent who holds them)."""

    seat: int
    opponent: int
    order: tuple[str, ...]


class TradeCardPicked(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeCardPicked"):
    seat: int
    opponent: int
    index: int


class TradeCardTaken(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeCardTaken"):
    seat: int
    opponent: int
    card: str


class TradeCardReturned(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeCardReturned"):
    seat: int
    opponent: int
    card: str
    forced: bool = False


class TradeCompleted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.TradeCompleted"):
    seat: int
    opponent: int


class Drafted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Drafted"):
    seat: int
    given: str
    received: str


class DraftMade(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.DraftMade"):
    seat: int
    pile: Position


class Challenged(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Challenged"):
    seat: int
    opponent: int


class GameStarted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.GameStarted"):
    home: int
    away: int
    kind: str
    """regular, tiebreak, final or playoff"""


class LineupFielded(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.LineupFielded"):
    seat: int
    cards: tuple[str, ...]


class LineupReady(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.LineupReady"):
    seat: int


class CardChosen(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.CardChosen"):
    seat: int
    card: str


class CardLaidDown(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.CardLaidDown"):
    seat: int


class CardsRevealed(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.CardsRevealed"):
    block: int
    round: int
    home_card: str
    away_card: str


class CardTakenBack(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.CardTakenBack"):
    """Rumpelstockchen: ``seat`` takes back ``taken_back`` and plays ``played`` instead."""

    seat: int
    taken_back: str
    played: str


class PileFlipped(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.PileFlipped"):
    """Sitting Bull: the top card of ``pile`` adds its value, then goes to the bottom."""

    seat: int
    pile: Position
    card: str
    value: float


class FlipDeclined(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.FlipDeclined"):
    seat: int


class RoundScored(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.RoundScored"):
    block: int
    round: int
    home_card: str
    away_card: str
    home_value: float
    away_value: float
    goal: int | None
    """The seat that scored."""
    injured: tuple[str, ...]
    """In replacement order."""


class WinClaimed(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.WinClaimed"):
    seat: int


class ClaimDeclined(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ClaimDeclined"):
    seat: int
    block: int


class ReplacementDrawn(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ReplacementDrawn"):
    seat: int
    injured: str
    card: str


class InjuredPlayerDrafted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.InjuredPlayerDrafted"):
    """The Draft procedure for an injured player (``poti``): ``injured`` goes to the bottom of his pile and ``card``,
    the top card, comes back to ``seat``. The injured card can come back later in the season."""

    seat: int
    injured: str
    card: str


class InjuryReplaced(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.InjuryReplaced"):
    seat: int
    injured: str


class InjuredPlayerStays(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.InjuredPlayerStays"):
    """The pile of his type is empty, so nobody can replace him."""

    seat: int
    injured: str


class SuddenDeathStarted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.SuddenDeathStarted"):
    block: int


class GameEnded(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.GameEnded"):
    home: int
    away: int
    home_goals: int
    away_goals: int
    winner: int | None
    kind: str
    claimed: bool = False
    forfeit: bool = False
    sudden_deaths: int = 0


class PlayersRested(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.PlayersRested"):
    seat: int
    cards: tuple[str, ...]


class MoveTimedOut(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.MoveTimedOut"):
    """The seat's turn timer ran out; the events that follow are the default bot's move for it."""

    seat: int


class SeasonEnded(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.SeasonEnded"):
    leader: int
    wins: tuple[int, ...]
    goals: tuple[int, ...]


class ManagersEliminated(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ManagersEliminated"):
    """They leave the game; their players are removed, not returned to the piles."""

    seats: tuple[int, ...]
    cards: tuple[str, ...]


class StageStarted(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.StageStarted"):
    purpose: str
    """second (tie-breaker for the series), final (championship series) or playoff (all teams)"""
    mode: str
    """one_game, round_robin, knockout, series, playoff"""
    teams: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]
    wins_needed: int


class ChampionDecided(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ChampionDecided"):
    seat: int


Event = (
    SeasonOpened | PilesShuffled | TeamsAssigned | TeamDealt | OpeningPickMade | OpeningCardDrawn | TurnStarted
    | TradeStarted | TradeOffered | TradeCardPicked | TradeCardTaken | TradeCardReturned | TradeCompleted | Drafted
    | DraftMade | Challenged | GameStarted | LineupFielded | LineupReady | CardChosen | CardLaidDown | CardsRevealed
    | CardTakenBack | PileFlipped | FlipDeclined | RoundScored | WinClaimed | ClaimDeclined | ReplacementDrawn
    | InjuryReplaced | InjuredPlayerStays | SuddenDeathStarted | GameEnded | PlayersRested | SeasonEnded
    | ManagersEliminated | StageStarted | ChampionDecided | MoveTimedOut | InjuredPlayerDrafted
)
EVENT_TYPES: tuple[type, ...] = get_args(Event)
SCHEMA: dict[type, int] = {SeasonOpened: 2}
"""Stored schema versions above 1."""
UPCASTERS: dict[tuple[str, int], Any] = {("phantoms.SeasonOpened", 1): lift_season_opened_v1}
"""(stored name, version) -> the function lifting such a payload one version up."""


def visible_to(event: object) -> frozenset[int] | None:
    """None for public events; otherwise the seats that may read the event before the season ends."""
    match event:
        case PilesShuffled():
            return frozenset()
        case TeamDealt(seat=seat) | OpeningCardDrawn(seat=seat) | Drafted(seat=seat) | LineupFielded(seat=seat):
            return frozenset({seat})
        case CardChosen(seat=seat) | ReplacementDrawn(seat=seat) | InjuredPlayerDrafted(seat=seat):
            return frozenset({seat})
        case TradeOffered(opponent=opponent):
            return frozenset({opponent})
        case TradeCardTaken(seat=seat, opponent=opponent) | TradeCardReturned(seat=seat, opponent=opponent):
            return frozenset({seat, opponent})
        case _:
            return None
