"""A game's RNG stream folded into what the service needs to answer the next request."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.eventstore import RecordedEvent
from shared.messages.readable import read
from shared.messages.rng import ClientSeedAdded, Drawn, SeedCommitted, SeedRevealed


@dataclass
class Ledger:
    version: int = 0
    commitment: SeedCommitted | None = None
    client_seeds: dict[int, str] = field(default_factory=dict)
    drawn: bool = False
    """A draw was made: an old stream holds an ``rng.Drawn``, or this process has answered one (best effort: another
    replica's draws are not known here; the audit's recomputation is the real check of a late seed)."""
    revealed: bool = False

    def fold(self, events: list[RecordedEvent]) -> None:
        for recorded in events:
            event = read(recorded)
            match event:
                case SeedCommitted():
                    self.commitment = event
                case ClientSeedAdded(seat=seat, client_seed=seed):
                    self.client_seeds[seat] = seed
                case Drawn():
                    self.drawn = True
                case SeedRevealed():
                    self.revealed = True
            self.version = recorded.version

    def seeds_in_seat_order(self) -> tuple[str, ...]:
        return tuple(self.client_seeds[seat] for seat in sorted(self.client_seeds))
