from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import msgspec
import pytest

from shared.tournaments.commands import Command, CreateTournament, RecordResult, Register, Start
from shared.tournaments.decide import DEFAULT_TURN_SECONDS, MAX_PLAYERS, decide
from shared.tournaments.errors import TournamentRejected
from shared.tournaments.events import (
    Event,
    ResultRecorded,
    RoundCompleted,
    RoundStarted,
    SeriesGameStarted,
    TournamentCreated,
    TournamentFinished,
    TournamentStarted,
)
from shared.tournaments.formats import Elimination, Format, Swiss
from shared.tournaments.rounds import swiss_standings
from shared.tournaments.state import State, evolve


def apply(state: State | None, command: Command) -> tuple[State, list[Event]]:
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state, events


def tournament(fmt: Format, players: int, *, game: str = "vortex", seats: tuple[int, int] = (2, 4),
               max_players: int | None = None) -> State:
    state, _ = apply(None, CreateTournament(tournament_id="t1", name="Cup", game=game, format=fmt,
                                            max_players=max_players or players, seats=seats))
    for i in range(players):
        state, _ = apply(state, Register(player_id=f"p{i}", bot="greedy"))
    return state


def refused(state: State | None, command: Command, code: str) -> None:
    before = msgspec.json.encode(state)
    with pytest.raises(TournamentRejected) as error:
        decide(state, command)
    assert error.value.code == code
    assert msgspec.json.encode(state) == before


def play_out(state: State, rng: random.Random) -> tuple[State, list[Event]]:
    log: list[Event] = []
    while not state.finished:
        game = rng.choice([g for g in state.games if g.winners is None])
        state, events = apply(state, RecordResult(game_id=game.game_id, winners=(rng.randrange(len(game.players)),)))
        log += events
    return state, log


def test_bad_commands_are_refused_and_change_nothing() -> None:
    refused(None, Register(player_id="p0"), "tournament.unknown")
    refused(None, Start(), "tournament.unknown")
    refused(None, CreateTournament(tournament_id="t1", name="Cup", game="hockeydice", format=Swiss(table_size=4),
                                   max_players=8, seats=(2, 2)), "tournament.format")
    refused(None, CreateTournament(tournament_id="t1", name="Cup", game="vortex", format=Elimination(best_of=2),
                                   max_players=8, seats=(2, 4)), "tournament.format")
    refused(None, CreateTournament(tournament_id="no spaces", name="Cup", game="vortex", format=Swiss(),
                                   max_players=8, seats=(2, 4)), "tournament.invalid")
    refused(None, CreateTournament(tournament_id="t1", name="Cup", game="vortex", format=Swiss(), max_players=8,
                                   seats=(2, 4), turn_seconds=0), "tournament.invalid")
    refused(None, CreateTournament(tournament_id="t1", name="Cup", game="vortex", format=Swiss(),
                                   max_players=MAX_PLAYERS + 1, seats=(2, 4)), "tournament.invalid")
    small = tournament(Swiss(table_size=4), 3, max_players=4)
    refused(small, CreateTournament(tournament_id="t1", name="Cup", game="vortex", format=Swiss(), max_players=8,
                                    seats=(2, 4)), "tournament.exists")
    refused(small, Start(), "tournament.too-few-players")
    refused(small, Register(player_id="p0", bot="random"), "tournament.already-registered")
    refused(small, Register(player_id="x", bot="clever"), "tournament.invalid")
    full, _ = apply(small, Register(player_id="p3"))
    refused(full, Register(player_id="p4"), "tournament.full")
    running, _ = apply(full, Start())
    refused(running, Start(), "tournament.already-started")
    refused(running, RecordResult(game_id="vortex-elsewhere", winners=(0,)), "tournament.unknown-game")
    refused(running, RecordResult(game_id=running.games[0].game_id, winners=(4,)), "tournament.bad-result")


def test_registering_again_and_recording_a_result_again_add_nothing() -> None:
    state = tournament(Swiss(table_size=2), 4)
    assert decide(state, Register(player_id="p1", bot="greedy")) == []
    state, _ = apply(state, Start())
    game_id = state.games[0].game_id
    state, events = apply(state, RecordResult(game_id=game_id, winners=(1,)))
    assert events and decide(state, RecordResult(game_id=game_id, winners=(0,))) == []


def test_players_are_seeded_by_rating_and_the_first_round_seats_the_seeds_in_order() -> None:
    state = tournament(Swiss(table_size=4), 8)
    state, events = apply(state, Start(ratings={"p7": 30.0, "p2": 20.0}))
    started, first = events
    assert isinstance(started, TournamentStarted) and isinstance(first, RoundStarted)
    assert [s.player_id for s in started.seeds] == ["p7", "p2", "p0", "p1", "p3", "p4", "p5", "p6"]
    assert [t.players for t in first.tables] == [("p7", "p2", "p0", "p1"), ("p3", "p4", "p5", "p6")]
    assert first.tables[0].game_id == "vortex-t1-r1-t1-g1"


def test_a_swiss_of_64_at_tables_of_4_plays_5_rounds_without_repeats_and_ranks_by_the_standings() -> None:
    state = tournament(Swiss(table_size=4), 64)
    state, _ = apply(state, Start())
    state, log = play_out(state, random.Random(4))
    rounds = [e for e in log if isinstance(e, RoundStarted)]
    assert state.rounds == 5 and [r.round for r in rounds] == [2, 3, 4, 5]
    assert sum(isinstance(e, RoundCompleted) for e in log) == 5
    pairs = [frozenset(p) for g in state.games for p in combinations(g.players, 2)]
    assert len(pairs) == len(set(pairs)) == 5 * 16 * 6
    assert isinstance(log[-1], TournamentFinished)
    assert log[-1].ranking == tuple(s.player_id for s in swiss_standings(state))


def test_an_odd_swiss_field_gives_the_bye_to_the_lowest_placed_player_without_one() -> None:
    state = tournament(Swiss(table_size=2), 5, game="hockeydice", seats=(2, 2))
    state, _ = apply(state, Start())
    state, _ = play_out(state, random.Random(1))
    byes = [p for _, p in state.byes]
    assert state.rounds == 3 and len(byes) == 3 and len(set(byes)) == 3
    assert byes[0] == "p4"
    standing = {s.player_id: s for s in swiss_standings(state)}
    for player in standing:
        wins = sum(1 for g in state.games if g.winners == (player,))
        assert standing[player].points == wins + byes.count(player)


def test_single_elimination_plays_best_of_3_series_and_ranks_the_champion_first() -> None:
    state = tournament(Elimination(best_of=3), 6, game="hockeydice", seats=(2, 2))
    state, events = apply(state, Start())
    first = events[-1]
    assert isinstance(first, RoundStarted) and first.byes == ("p0", "p1")
    assert [t.players for t in first.tables] == [("p3", "p4"), ("p2", "p5")]
    table = first.tables[0]
    state, events = apply(state, RecordResult(game_id=table.game_id, winners=(0,)))
    assert isinstance(events[0], ResultRecorded) and isinstance(events[1], SeriesGameStarted)
    assert events[1].seating.players == ("p4", "p3") and events[1].seating.game_id.endswith("-g2")
    state, events = apply(state, RecordResult(game_id=events[1].seating.game_id, winners=(1,)))
    assert [type(e) for e in events] == [ResultRecorded]
    state, log = play_out(state, random.Random(2))
    rounds = [e for e in log if isinstance(e, RoundStarted)]
    assert [len(r.tables) for r in rounds] == [2, 1]
    assert rounds[0].tables[0].players[0] == "p0" and rounds[0].tables[1].players[0] == "p1"
    final = rounds[-1].tables[0].players
    assert state.ranking is not None and set(state.ranking[:2]) == set(final)
    assert isinstance(log[-1], TournamentFinished) and len(log[-1].ranking) == 6


def test_every_tournament_has_a_turn_timer_the_league_s_default_unless_the_organiser_sets_one() -> None:
    def created(**fields: Any) -> TournamentCreated:
        (event,) = decide(None, CreateTournament(tournament_id="t1", name="Cup", game="vortex", format=Swiss(),
                                                 max_players=8, seats=(2, 4), **fields))
        assert isinstance(event, TournamentCreated)
        return event

    assert created().turn_seconds == DEFAULT_TURN_SECONDS
    assert created(turn_seconds=15).turn_seconds == 15
