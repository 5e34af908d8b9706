"""What the game-engine writes into a game stream around the rules' own events.

A game stream ``<game>-<id>`` holds ``GameOpened``; a game opened with a client-seed window then holds a
``ClientSeedGiven`` per seated player who gave one and ``GameStarted`` when the window closed. Then, for the opening
and for each accepted command:
``CommandAccepted`` (who did what; absent for the opening), ``DrawsUsed`` (the numbered draws the rules asked for,
hidden from every seat until the game ends) and the events the rules decided; ``GameEnded`` closes it, or
``GameAbandoned`` when an organiser stopped it before the rules ended it.
Audit re-runs the rules on each command with its recorded draws and expects the same events.
"""

from __future__ import annotations

from datetime import datetime

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
    client_seed_seconds: float | None = None
    """When set, the opening waits until every seated player has given a client seed, or this many seconds: the
    RNG mixes those seeds into every draw, so the server's committed seed alone does not decide the game."""


class ClientSeedGiven(msgspec.Struct, frozen=True, kw_only=True, tag="engine.ClientSeedGiven"):
    """A seated player's client seed, recorded by the engine before the RNG service gets it at the start."""

    seat: int
    client_seed: str


class GameStarted(msgspec.Struct, frozen=True, kw_only=True, tag="engine.GameStarted"):
    """The client-seed window closed: the seeds of ``seeded_seats`` go into every draw; the opening follows."""

    seeded_seats: tuple[int, ...]
    deadline_passed: bool
    """True when the window's time ran out before every seated player had given a seed."""


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


class GameAbandoned(msgspec.Struct, frozen=True, kw_only=True, tag="engine.GameAbandoned"):
    """The game was stopped before the rules ended it, and nobody won: it closes the stream as GameEnded would
    (no command after it), between two actions or while the game waited for client seeds. Recorded by the engine on
    an organiser's order (``league abandon``) or for the games of a demo that was interrupted."""

    game: str
    reason: str
    by: str
    """Who ordered it: ``organiser <user>`` (``league abandon``), ``league up`` (an interrupted demo's games)."""
    pending_seats: tuple[int, ...] = ()
    """The seats the game was waiting for when it was stopped."""


EngineEvent = GameOpened | ClientSeedGiven | GameStarted | CommandAccepted | DrawsUsed | GameEnded | GameAbandoned
registry.register_all([GameOpened, ClientSeedGiven, GameStarted, CommandAccepted, DrawsUsed, GameEnded,
                       GameAbandoned])


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
    client_seed_seconds: float | None = None
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


class GiveClientSeed(msgspec.Struct, frozen=True, kw_only=True, tag="engine.GiveClientSeed"):
    """A seated player's client seed, while the game waits for them (``GameOpened.client_seed_seconds``)."""

    game_id: str
    player_id: str
    """As the gateway authenticated them: the seed is for the seat this player holds."""
    client_seed: str


class AbandonGame(msgspec.Struct, frozen=True, kw_only=True):
    """An organiser's order to stop a running game with nobody winning (``league.engine.p<n>.abandon``): the owner
    appends ``GameAbandoned``. Asking again for a game already abandoned is answered as a retry."""

    game_id: str
    reason: str
    by: str


EngineRequest = CreateGame | PlayCommand | GiveClientSeed


class CommandResult(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    version: int
    """The stream version after this command (of its first run, when it was a retry)."""
    duplicate: bool = False
    ended: bool = False
    commitment: str | None = None
    """On opening a game: its seed commitment (GameOpened.commitment)."""
    seeding: bool = False
    """The game still waits for client seeds before its opening."""
    view: GameView | None = None
    """The acting player's view after the command (with their legal moves): one round trip for the player."""


class GetView(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    player_id: str | None = None
    """The player asking: they see their seat's view; anyone else (or None) a spectator's public view."""
    at_least_version: int | None = None
    """The asker has seen the game reach this version: the owner, which answers from its fold in memory, reads the
    log beyond it only when its fold is behind that (another writer moved the game). None: the fold as it is."""


class GetLegal(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    player_id: str


class LegalCommands(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seat: int | None
    version: int
    commands: msgspec.Raw
    """A JSON list of the commands this seat may send now."""


NULL = msgspec.Raw(b"null")


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
    seeding_until: datetime | None = None
    """Set while the game waits for client seeds (``view`` is then null, ``pending_seats`` the seated players
    who have not given one): it starts when all have, or at this time."""
    seeded_seats: tuple[int, ...] = ()
    """The seats whose client seed was given (all draws mix them in)."""
    legal: msgspec.Raw = msgspec.field(default_factory=lambda: NULL)
    """The commands this seat may send now (a JSON list) when the view was made for a seated player, else null."""


class GameChanged(msgspec.Struct, frozen=True, kw_only=True):
    """The owner's push after each change of a game: every seat's view (``views[seat]``), then a spectator's."""

    game_id: str
    version: int
    views: tuple[GameView, ...]
