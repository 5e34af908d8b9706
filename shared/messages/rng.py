"""The RNG service's stream ``rng-<game_id>`` and its NATS requests (DESIGN.md "Dice / RNG audit")."""

from __future__ import annotations

import msgspec

from shared.games.draws import DrawRequest
from shared.messages.registry import registry


class SeedCommitted(msgspec.Struct, frozen=True, kw_only=True, tag="rng.SeedCommitted"):
    game_id: str
    commitment: str
    """sha256 of the server seed, hex; public before any draw."""
    recipe_version: str
    seats: int


class ClientSeedAdded(msgspec.Struct, frozen=True, kw_only=True, tag="rng.ClientSeedAdded"):
    seat: int
    client_seed: str


class Drawn(msgspec.Struct, frozen=True, kw_only=True, tag="rng.Drawn"):
    """A draw as the RNG service once recorded it, one event per draw while the engine waited. No longer written:
    the game stream's ``engine.DrawsUsed`` is the record the audit recomputes. Kept so that old streams still read
    (stored names are a contract) and their draws are still checked."""

    nonce: int
    request: DrawRequest
    values: tuple[int, ...]


class SeedRevealed(msgspec.Struct, frozen=True, kw_only=True, tag="rng.SeedRevealed"):
    server_seed: str
    """hex"""
    game_version: int | None = None
    """The game stream's version when the seed was revealed (the last event the revealer folded); None before."""
    game_hash: str | None = None
    """That event's hash in the game stream's chain, hex; None before."""


RngEvent = SeedCommitted | ClientSeedAdded | Drawn | SeedRevealed
registry.register_all([SeedCommitted, ClientSeedAdded, Drawn, SeedRevealed])


def rng_stream(game_id: str) -> str:
    return f"rng-{game_id}"


class CreateSeed(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seats: int
    auth: str


class GameSeats(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    seats: int


class CreateSeeds(msgspec.Struct, frozen=True, kw_only=True):
    """Commit the seeds of many games in one request (a round's tables): one database write for the sealed seeds,
    each game's ``SeedCommitted`` in its own stream. Idempotent per game, like ``CreateSeed``."""

    games: tuple[GameSeats, ...]
    auth: str
    """HMAC-SHA256(engine key, "create_many", [[game_id, seats], ...]), hex."""


class AddClientSeed(msgspec.Struct, frozen=True, kw_only=True):
    """A seated player's client seed, passed on by the engine (which checked the seat). Idempotent: the same seed
    for the same seat again changes nothing."""

    game_id: str
    seat: int
    client_seed: str
    auth: str
    """HMAC-SHA256(engine key, signed fields), hex: only the engine speaks for a seat."""


class NumberedDraw(msgspec.Struct, frozen=True, kw_only=True):
    nonce: int
    request: DrawRequest
    values: tuple[int, ...]


class WantedDraw(msgspec.Struct, frozen=True, kw_only=True):
    """Draw ``nonce`` of a game: a pure function of the seed, the client seeds, the game id, the nonce and the
    request, answered from memory and recorded by nobody but the engine (``DrawsUsed``). Asking again for the same
    nonce and request gives the same numbers, so an engine that crashed between drawing and appending cannot fish.
    """

    game_id: str
    nonce: int
    request: DrawRequest
    client_seeds: tuple[str, ...] | None = None
    """The game's client seeds in seat order, as the engine's stream holds them (signed with the rest). The RNG
    answers only when its own stream holds the same ones, re-reading it once when its cached copy differs. None:
    the engine does not say, and the RNG reads its stream before every draw (slower)."""
    correlation_id: str | None = None
    """The command's, for the RNG's log lines about this draw (a request carries many commands' draws)."""


class DrawNumbers(msgspec.Struct, frozen=True, kw_only=True):
    """The draws the engine's commands asked for at about the same time, many games' in one request (DESIGN.md
    "The hot path": several draws may be asked in one request). Each is answered, or refused, on its own."""

    draws: tuple[WantedDraw, ...]
    issued_at: float
    auth: str
    """HMAC-SHA256(engine key, ``draws_signed(draws, issued_at)``), hex: only the engine may ask for draws."""


class DrawAnswer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One wanted draw's answer: the numbers, or why the RNG refused it (``code``, ``message``)."""

    draw: NumberedDraw | None = None
    code: str | None = None
    message: str | None = None


class DrawAnswers(msgspec.Struct, frozen=True, kw_only=True):
    answers: tuple[DrawAnswer, ...]
    """One per ``DrawNumbers.draws``, in its order."""


class WantedBlocks(msgspec.Struct, frozen=True, kw_only=True):
    """Block 0 of the byte streams of draws ``first_nonce .. first_nonce + count - 1`` of a game, handed to the
    engine ahead of the commands that will use them (DESIGN.md "The hot path": draws off the write path). The engine
    answers a draw that fits in its block itself, with the public recipe, and asks a draw that does not (a long
    shuffle) as a ``WantedDraw``; either way the numbers are those the revealed seed gives, and ``DrawsUsed`` records
    them."""

    game_id: str
    first_nonce: int
    count: int
    client_seeds: tuple[str, ...]
    """The game's client seeds in seat order, as for ``WantedDraw.client_seeds``."""


class BlocksAhead(msgspec.Struct, frozen=True, kw_only=True):
    wanted: tuple[WantedBlocks, ...]
    issued_at: float
    auth: str
    """HMAC-SHA256(engine key, ``blocks_signed(wanted, issued_at)``), hex: only the engine may ask."""


class BlocksAnswer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One game's blocks (32 bytes each, in nonce order), or why the RNG refused them (``code``, ``message``)."""

    blocks: bytes | None = None
    code: str | None = None
    message: str | None = None


class BlocksAnswers(msgspec.Struct, frozen=True, kw_only=True):
    answers: tuple[BlocksAnswer, ...]
    """One per ``BlocksAhead.wanted``, in its order."""


class Commitment(msgspec.Struct, frozen=True, kw_only=True):
    game_id: str
    commitment: str
    recipe_version: str


class Commitments(msgspec.Struct, frozen=True, kw_only=True):
    commitments: tuple[Commitment, ...]
    """One per game of ``CreateSeeds``, in its order."""


def draws_signed(draws: tuple[WantedDraw, ...], issued_at: float) -> tuple[object, ...]:
    """The fields of a ``DrawNumbers`` the engine signs: every draw wanted (its client seeds only when it states
    them) and the time of asking."""
    return ("draws", issued_at, [[d.game_id, d.nonce, d.request] if d.client_seeds is None
                                 else [d.game_id, d.nonce, d.request, list(d.client_seeds)] for d in draws])


def blocks_signed(wanted: tuple[WantedBlocks, ...], issued_at: float) -> tuple[object, ...]:
    return ("blocks", issued_at, [[w.game_id, w.first_nonce, w.count, list(w.client_seeds)] for w in wanted])


def create_many_signed(games: tuple[GameSeats, ...]) -> tuple[object, ...]:
    return ("create_many", [[game.game_id, game.seats] for game in games])
