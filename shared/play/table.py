"""A game stream folded: the rules' state plus what the engine needs (version, next nonce, commands seen)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from shared.eventstore import RecordedEvent
from shared.eventstore.hashing import GENESIS
from shared.games.rules import AnyRules
from shared.messages.engine import (
    ClientSeedGiven,
    CommandAccepted,
    DrawsUsed,
    GameAbandoned,
    GameEnded,
    GameOpened,
    GameStarted,
)
from shared.messages.games import rules_of
from shared.messages.readable import read


class NotAGame(Exception):
    pass


def seed_seats(players: tuple[str | None, ...], bots: tuple[str | None, ...]) -> tuple[int, ...]:
    """The seats that give client seeds: those a person holds (a bot seat or an empty one gives none)."""
    return tuple(seat for seat, player in enumerate(players)
                 if player is not None and (seat >= len(bots) or bots[seat] is None))


@dataclass
class Table:
    game_id: str
    opened: GameOpened | None = None
    rules: AnyRules | None = None
    state: Any = None
    version: int = 0
    next_nonce: int = 0
    accepted: dict[str, int] = field(default_factory=dict)
    """command id -> the stream version after its last event: a retried command returns its first result."""
    ended: GameEnded | None = None
    """Set by GameEnded, and by GameAbandoned (an end with no winners): no command may follow either."""
    abandoned: GameAbandoned | None = None
    last_recorded_at: datetime | None = None
    opened_at: datetime | None = None
    started: bool = False
    """False while the game waits for client seeds (``GameOpened.client_seed_seconds``): no rules state yet."""
    client_seeds: dict[int, str] = field(default_factory=dict)
    head: bytes | None = GENESIS
    """The hash of the event at ``version``, when known: the engine appends after it in one round trip."""

    def apply(self, recorded: RecordedEvent, event: Any = None) -> Any:
        """Fold ``recorded``; ``event`` is it decoded, when the caller has that already."""
        if event is None:
            event = read(recorded)  # UnreadableEvent names an event whose data no longer fit its type
        self.fold(event, recorded.version, recorded.metadata.command_id, recorded.recorded_at)
        self.head = recorded.hash
        return event

    def fold(self, event: Any, version: int, command_id: str | None, recorded_at: datetime, *,
             evolve: bool = True) -> None:
        """One event of the stream (see ``shared.play.layout``), at ``version``. ``evolve=False``: the caller has
        the rules' state after it already (it decided the event) and sets ``state`` itself."""
        match event:
            case GameOpened(game=game):
                self.opened = event
                self.rules = rules_of(game)
                self.state = self.rules.initial_state()
                self.opened_at = recorded_at
                self.started = event.client_seed_seconds is None
            case ClientSeedGiven(seat=seat, client_seed=seed):
                self.client_seeds[seat] = seed
            case GameStarted():
                self.started = True
            case CommandAccepted():
                pass
            case DrawsUsed(draws=draws):
                if draws:
                    self.next_nonce = draws[-1].nonce + 1
            case GameEnded():
                self.ended = event
            case GameAbandoned(game=game):
                self.abandoned = event
                self.ended = GameEnded(game=game, winners=())
            case _:
                if self.rules is None:
                    raise NotAGame(f"{self.game_id} v{version}: {type(event).__struct_config__.tag} before GameOpened")
                if evolve:
                    self.state = self.rules.evolve(self.state, event)
        if command_id and (command_id in self.accepted
                           or isinstance(event, GameOpened | CommandAccepted | ClientSeedGiven)):
            self.accepted[command_id] = version
        self.version = version
        self.last_recorded_at = recorded_at

    def apply_all(self, events: list[RecordedEvent]) -> Table:
        for recorded in events:
            self.apply(recorded)
        return self

    @property
    def over(self) -> bool:
        """Really over: a GameEnded is in this stream *and* the rules, folded over it, say the game is over. Any
        writer of the log could append a GameEnded; only this check makes it mean something."""
        return self.ended is not None and self.rules is not None and bool(self.rules.is_over(self.state))

    @property
    def closed(self) -> bool:
        """Nothing more can happen in it: over by the rules, or abandoned (no draw it used can still matter)."""
        return self.over or self.abandoned is not None

    @property
    def seeding(self) -> bool:
        """Waiting for client seeds: opened with a seed window that has not closed yet."""
        return self.opened is not None and not self.started and self.ended is None

    @property
    def seed_seats(self) -> tuple[int, ...]:
        return seed_seats(self.opened.players, self.opened.bots) if self.opened else ()

    @property
    def seeding_until(self) -> datetime | None:
        if not self.seeding or self.opened is None or self.opened_at is None:
            return None
        return self.opened_at + timedelta(seconds=self.opened.client_seed_seconds or 0)

    def seeds_missing(self) -> tuple[int, ...]:
        return tuple(seat for seat in self.seed_seats if seat not in self.client_seeds)

    def start_due(self, now: datetime) -> bool:
        """Waiting for client seeds, and has them all or its window's time ran out (by ``now``)."""
        until = self.seeding_until
        return until is not None and (not self.seeds_missing() or now >= until)

    def seat_of(self, player_id: str | None) -> int | None:
        players = self.opened.players if self.opened else ()
        return players.index(player_id) if player_id is not None and player_id in players else None

    def bot_of(self, seat: int) -> str | None:
        bots = self.opened.bots if self.opened else ()
        return bots[seat] if seat < len(bots) else None

    @property
    def game(self) -> str:
        if self.opened is None:
            raise NotAGame(f"{self.game_id} has not been opened")
        return self.opened.game
