"""Whether a game may be audited: only once its secrets are public. The RNG's ``SeedRevealed`` says the game ended
(the revealer checked the stream before revealing), so a game whose stream was cut short after the end, or whose
events were tampered with, is still audited, and the audit names what is wrong; a game the RNG has not revealed is
audited only when its own stream, folded, shows the end."""

from __future__ import annotations

from shared.eventstore import RecordedEvent, category_of
from shared.messages.readable import UnreadableEvent
from shared.messages.registry import message_name
from shared.messages.rng import SeedRevealed
from shared.play.table import NotAGame, Table

SEED_REVEALED = message_name(SeedRevealed)


class NotAuditable(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def auditable(game_id: str, game_events: list[RecordedEvent], rng_events: list[RecordedEvent]) -> str:
    """The game's name when it may be audited now; NotAuditable (with an HTTP status) says why not."""
    if not game_events:
        raise NotAuditable(404, "audit.unknown-game", f"no game {game_id}")
    if any(e.type == SEED_REVEALED for e in rng_events):
        return category_of(game_id)
    try:
        table = Table(game_id).apply_all(game_events)
    except UnreadableEvent as error:
        raise NotAuditable(409, error.code, f"{error.message}; the game is audited once it has ended") from error
    except NotAGame as error:
        raise NotAuditable(409, "audit.not-a-game", str(error)) from error
    if table.ended is None:
        raise NotAuditable(409, "audit.game-running", f"{game_id} is still running: its seed and hidden cards are "
                                                      "not public until it ends")
    return table.game
