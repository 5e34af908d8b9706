"""What the game-engine writes into a game stream around the rules' own events.

A game stream ``<game>-<id>`` holds ``GameOpened``, then for the opening and for each accepted command:
``CommandAccepted`` (who did what; absent for the opening), ``DrawsUsed`` (the numbered draws the rules asked for,
hidden from every seat until the game ends) and the events the rules decided; ``GameEnded`` closes it.
Audit re-runs the rules on each command with its recorded draws and expects the same events.
"""

from __future__ import annotations

import msgspec

from shared.messages.registry import registry
from shared.messages.rng import NumberedDraw


class GameOpened(msgspec.Struct, frozen=True, kw_only=True, tag="engine.GameOpened"):
    game: str
    """The rules package: phantoms, vortex or hockeydice."""
    seats: int
    options: msgspec.Raw
    players: tuple[str | None, ...] = ()
    """The player id seated at each seat (None: nobody, e.g. a bot seat)."""
    bots: tuple[str | None, ...] = ()
    """The bot playing each seat ("random" or "greedy"), or None for a person."""
    turn_seconds: float | None = None
    """A seat that has not acted this long after its turn came gets the default bot's move."""
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None
    commitment: str | None = None
    """sha256 of the game's server seed (hex), given by the RNG service before any draw: published with the game,
    so that a seed swapped later, even with every stored event rewritten, no longer matches what players saw."""


class CommandAccepted(msgspec.Struct, frozen=True, kw_only=True, tag="engine.CommandAccepted"):
    seat: int
    command: msgspec.Raw
    """The rules' command, JSON with its tag."""
    by_bot: str | None = None
    """Set when a bot chose this move (a bot seat, or the default bot after a turn timer ran out)."""


class DrawsUsed(msgspec.Struct, frozen=True, kw_only=True, tag="engine.DrawsUsed"):
    draws: tuple[NumberedDraw, ...]


class GameEnded(msgspec.Struct, frozen=True, kw_only=True, tag="engine.GameEnded"):
    game: str
    winners: tuple[int, ...] = ()


EngineEvent = GameOpened | CommandAccepted | DrawsUsed | GameEnded
registry.register_all([GameOpened, CommandAccepted, DrawsUsed, GameEnded])


class CreateGame(msgspec.Struct, frozen=True, kw_only=True, tag="engine.CreateGame"):
    game: str
    game_id: str
    seats: int
    options: msgspec.Raw = msgspec.Raw(b"{}")
    players: tuple[str | None, ...] = ()
    bots: tuple[str | None, ...] = ()
    turn_seconds: float | None = None
    tournament_id: str | None = None
    round: int | None = None
    table: int | None = None
    command_id: str


class PlayCommand(msgspec.Struct, frozen=True, kw_only=True, tag="engine.PlayCommand"):
    game_id: str
    command: msgspec.Raw
    command_id: str
    """Chosen by the client: a retried command returns its first result and appends nothing."""
    player_id: str | None = None
    """Who sends it, as the gateway authenticated them: the engine refuses a seat that is not theirs.
    None only for trusted callers inside the league (tests, the engine's own bots)."""
    actor: str = "player"
    by_bot: str | None = None


EngineRequest = CreateGame | PlayCommand


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    """The stream version after this command (of its first run, when it was a retry)."""
    duplicate: bool = False
    ended: bool = False
    commitment: str | None = None
    """On opening a game: its seed commitment (GameOpened.commitment)."""


class GetView(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    player_id: str | None = None
    """The player asking: they see their seat's view; anyone else (or None) a spectator's public view."""


class GetLegal(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    player_id: str


class LegalCommands(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seat: int | None
    version: int
    commands: msgspec.Raw
    """A JSON list of the commands this seat may send now."""


class GameView(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    game: str
    version: int
    ended: bool
    seat: int | None
    """The seat whose view this is; None for a spectator."""
    pending_seats: tuple[int, ...]
    winners: tuple[int, ...]
    view: msgspec.Raw
    commitment: str | None = None
    """sha256 of the game's server seed, public from the start; ``league audit --commitment`` checks against it."""
