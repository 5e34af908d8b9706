"""Commands in, events out: each a pure function of the folded tournament; a refusal raises and changes nothing."""

from __future__ import annotations

import re
from typing import assert_never

from shared.tournaments.bracket import rounds_needed
from shared.tournaments.commands import Command, CreateTournament, RecordResult, Register, Start
from shared.tournaments.errors import TournamentRejected
from shared.tournaments.events import (
    Event,
    PlayerRegistered,
    ResultRecorded,
    Seed,
    TournamentCreated,
    TournamentStarted,
)
from shared.tournaments.formats import Elimination, Swiss, default_rounds
from shared.tournaments.rounds import after_result, first
from shared.tournaments.state import State, evolve

TOURNAMENT_ID = re.compile(r"^[A-Za-z0-9_]{1,64}$")
MAX_PLAYERS = 50_000
"""A round's pairings are one event (``RoundStarted``), and the relay sends each event as one NATS message: with the
league's ids an elimination's first round weighs about 96 bytes a player, so 50,000 players make 4.8 MB, well
inside the 8 MiB the league's NATS servers take (``shared.bus.envelope.MAX_PAYLOAD``)."""
PLAYER_ID = re.compile(r"^[A-Za-z0-9_.:@-]{1,128}$")
BOTS = ("greedy", "random")
DEFAULT_TURN_SECONDS = 120.0
"""Every tournament game has a turn timer (a player who vanished is played by the default bot, and the tournament
goes on); the organiser may set another."""


def decide(state: State | None, command: Command) -> list[Event]:
    match command:
        case CreateTournament():
            if state is not None:
                raise TournamentRejected("tournament.exists", f"tournament {command.tournament_id} exists")
            return [create(command)]
        case Register():
            return register(running(state, command), command)
        case Start():
            return start(running(state, command), command)
        case RecordResult():
            return record(running(state, command), command)
        case _:
            assert_never(command)


def running(state: State | None, command: Command) -> State:
    if state is None:
        raise TournamentRejected("tournament.unknown", f"no such tournament for {type(command).__name__}")
    return state


def create(command: CreateTournament) -> TournamentCreated:
    least, most = command.seats
    if not TOURNAMENT_ID.match(command.tournament_id):
        raise TournamentRejected("tournament.invalid", "a tournament id is 1 to 64 letters, digits or _")
    if not command.name.strip():
        raise TournamentRejected("tournament.invalid", "a tournament needs a name")
    fmt = command.format
    match fmt:
        case Swiss(table_size=size, min_table_size=min_size, rounds=rounds):
            if not least <= size <= most:
                raise TournamentRejected("tournament.format", f"{command.game} is for {least} to {most} seats")
            if min_size is not None and not least <= min_size <= size:
                raise TournamentRejected("tournament.format", f"min_table_size must be {least} to {size}")
            if rounds is not None and rounds < 1:
                raise TournamentRejected("tournament.format", "rounds must be at least 1")
            smallest = min_size or size
        case Elimination(best_of=best_of):
            if not least <= 2 <= most:
                raise TournamentRejected("tournament.format", f"{command.game} cannot be played by two")
            if best_of < 1 or best_of % 2 == 0:
                raise TournamentRejected("tournament.format", "best_of must be an odd number, 1 or more")
            smallest = 2
        case _:
            assert_never(fmt)
    if not smallest <= command.max_players <= MAX_PLAYERS:
        raise TournamentRejected("tournament.invalid", f"max_players must be {smallest} to {MAX_PLAYERS}")
    if command.turn_seconds is not None and not 1 <= command.turn_seconds <= 86_400:
        raise TournamentRejected("tournament.invalid", "turn_seconds must be between 1 and 86400")
    if command.client_seed_seconds is not None and not 1 <= command.client_seed_seconds <= 3_600:
        raise TournamentRejected("tournament.invalid", "client_seed_seconds must be between 1 and 3600")
    return TournamentCreated(tournament_id=command.tournament_id, name=command.name, game=command.game,
                             options=command.options, format=fmt, max_players=command.max_players,
                             turn_seconds=command.turn_seconds or DEFAULT_TURN_SECONDS,
                             client_seed_seconds=command.client_seed_seconds, organiser=command.organiser)


def register(state: State, command: Register) -> list[Event]:
    if not PLAYER_ID.match(command.player_id):
        raise TournamentRejected("tournament.invalid", f"bad player id {command.player_id!r}")
    if command.bot is not None and command.bot not in BOTS:
        raise TournamentRejected("tournament.invalid", f"bot must be one of {', '.join(BOTS)}")
    known = next((r for r in state.registered if r.player_id == command.player_id), None)
    if known is not None:
        if known.bot != command.bot:
            raise TournamentRejected("tournament.already-registered", f"{command.player_id} is registered")
        return []
    if state.started:
        raise TournamentRejected("tournament.already-started", "registration is closed: the tournament started")
    if len(state.registered) >= state.created.max_players:
        raise TournamentRejected("tournament.full", f"the tournament is full ({state.created.max_players})")
    return [PlayerRegistered(player_id=command.player_id, bot=command.bot)]


def start(state: State, command: Start) -> list[Event]:
    if command.by is not None and command.by != state.created.organiser:
        raise TournamentRejected("tournament.not-organiser",
                                 f"only the player who created {state.created.tournament_id} may start it")
    if state.started:
        raise TournamentRejected("tournament.already-started", "the tournament has started")
    players = state.player_ids()
    fmt = state.created.format
    match fmt:
        case Swiss(table_size=size, min_table_size=min_size, rounds=rounds):
            smallest = min_size or size
            planned = rounds or default_rounds(len(players), size)
        case Elimination():
            smallest = 2
            planned = rounds_needed(len(players))
        case _:
            assert_never(fmt)
    if len(players) < max(2, smallest):
        raise TournamentRejected("tournament.too-few-players", f"{len(players)} registered, {smallest} needed")
    order = sorted(range(len(players)), key=lambda i: (-command.ratings.get(players[i], 0.0), i))
    seeds = tuple(Seed(players[i], command.ratings.get(players[i], 0.0)) for i in order)
    started = TournamentStarted(seeds=seeds, rounds=planned)
    return [started, first(evolve(state, started))]


def record(state: State, command: RecordResult) -> list[Event]:
    game = state.game(command.game_id)
    if game is None:
        raise TournamentRejected("tournament.unknown-game", f"{command.game_id} is not a game of this tournament")
    if game.winners is not None:
        return []
    if any(not 0 <= seat < len(game.players) for seat in command.winners):
        raise TournamentRejected("tournament.bad-result", f"winning seats {command.winners} are not at the table")
    winners = tuple(game.players[seat] for seat in sorted(set(command.winners)))
    recorded = ResultRecorded(round=game.round, table=game.table, game_id=game.game_id, winners=winners)
    after = evolve(state, recorded)
    updated = after.game(game.game_id)
    assert updated is not None
    return [recorded, *after_result(after, updated)]
