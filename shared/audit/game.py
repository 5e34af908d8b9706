"""Re-run a game from its stream: each action through the rules with the draws it recorded, each draw recomputed
from the RNG stream's revealed seed and client seeds, and the events that come out against the events stored."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

import msgspec

from shared.audit.load import load as loaded
from shared.audit.report import AuditReport, Discrepancy, Found
from shared.audit.rng import CheckedRng, check_rng
from shared.audit.truncation import end_mismatch
from shared.eventstore import RecordedEvent, verify_events
from shared.games.draws import Draw, DrawMismatch, Draws, DrawsExhausted, RecordedDraws
from shared.games.rules import C, E, GameRules, RuleViolation, S
from shared.messages.engine import (
    ClientSeedGiven,
    CommandAccepted,
    DrawsUsed,
    GameAbandoned,
    GameEnded,
    GameOpened,
    GameStarted,
)
from shared.messages.games import UnknownGame, command_decoder, options_decoder, rules_of
from shared.messages.registry import registry
from shared.play.layout import StreamReader
from shared.play.table import seed_seats


def _at(event: RecordedEvent, check: str, expected: object, found: object) -> Found:
    return Found(Discrepancy(stream_id=event.stream_id, version=event.version, event_id=event.event_id,
                             check=check, expected=str(expected), found=str(found)))


def _show(event: Any) -> str:
    return msgspec.json.encode(event).decode()


def audit_game(game_id: str, game_events: list[RecordedEvent], rng_events: list[RecordedEvent],
               commitment: str | None = None) -> AuditReport:
    """``commitment``: the seed commitment a player or referee noted when the game was opened, if any."""
    actions = 0
    draws = 0
    try:
        for stream_id, events in ((game_id, game_events), (f"rng-{game_id}", rng_events)):
            chain = verify_events(stream_id, events)
            if chain.first_bad is not None:
                raise Found(Discrepancy(stream_id=stream_id, version=chain.first_bad.version,
                                        event_id=chain.first_bad.event_id, check="hash chain",
                                        expected="each event hashes to its stored hash, versions 1, 2, 3, ...",
                                        found=chain.first_bad.reason))
        rng = check_rng(game_id, rng_events)
        _check_commitment(game_events, rng, commitment)
        try:
            actions, draws, abandoned = replay_game(game_id, game_events, rng)
        except Found as found:
            cut = end_mismatch(game_id, game_events, rng)
            tail = game_events[-1].version if game_events else 0
            if cut is not None and (found.discrepancy.version is None or found.discrepancy.version >= tail):
                raise Found(cut) from found  # what the replay found at the tail is the cut's symptom
            raise
        if (cut := end_mismatch(game_id, game_events, rng)) is not None:
            raise Found(cut)
    except Found as found:
        return AuditReport(game_id=game_id, game_events=len(game_events), rng_events=len(rng_events),
                           actions=actions, draws=draws, discrepancy=found.discrepancy)
    return AuditReport(game_id=game_id, game_events=len(game_events), rng_events=len(rng_events), actions=actions,
                       draws=draws, abandoned=None if abandoned is None else f"by {abandoned.by}: {abandoned.reason}")


def _check_commitment(events: list[RecordedEvent], rng: CheckedRng, noted: str | None) -> None:
    if noted is not None and noted.lower() != rng.commitment:
        raise Found(Discrepancy(stream_id=f"{events[0].stream_id if events else '?'}", version=None, event_id=None,
                                check="the seed commitment is the one published when the game opened",
                                expected=noted.lower(), found=rng.commitment))
    opening = loaded(events[0]) if events else None
    if isinstance(opening, GameOpened) and opening.commitment is not None and opening.commitment != rng.commitment:
        raise _at(events[0], "the game opened with the RNG stream's seed commitment", opening.commitment,
                  rng.commitment)


def replay_game(game_id: str, events: list[RecordedEvent], rng: CheckedRng) -> tuple[int, int, GameAbandoned | None]:
    """The actions re-run, the draws checked, and the abandonment that closed the game (None: the rules ended it)."""
    if not events:
        raise Found(Discrepancy(stream_id=game_id, version=None, event_id=None, check="game stream",
                                expected="engine.GameOpened", found="no events"))
    opening = loaded(events[0])
    if not isinstance(opening, GameOpened):
        raise _at(events[0], "a game stream starts with GameOpened", "engine.GameOpened", events[0].type)
    try:
        rules = rules_of(opening.game)
        options = options_decoder(opening.game).decode(opening.options)
    except (UnknownGame, msgspec.ValidationError) as error:
        raise _at(events[0], "the game and its options are known", "a hosted game", error) from error
    groups = StreamReader(events)
    if (abandoned := _check_seed_window(events[0], opening, groups, rng)) is not None:
        return 0, 0, abandoned
    used = 0
    actions = 0
    state = rules.initial_state()
    ended = None
    first = True
    while not groups.done:
        head, draws_event, body = groups.take_action()
        if first:
            if head is not None:
                raise _at(head, "the opening comes before any command", "the rules' opening events", head.type)
            recorded_draws, used = _check_draws(draws_event, rng, used)
            recomputed = _run(events[0], lambda d: rules.new_game(options, opening.seats, d), recorded_draws)
            first = False
        else:
            if head is None:
                anchor = draws_event or (body[0] if body else events[groups.i - 1])
                raise _at(anchor, "each action starts with the command that caused it", "engine.CommandAccepted",
                          anchor.type)
            accepted = loaded(head)
            assert isinstance(accepted, CommandAccepted)
            if ended is not None:
                raise _at(head, "no command after the game ended", "no command", head.type)
            try:
                command = command_decoder(opening.game).decode(accepted.command)
            except msgspec.ValidationError as error:
                raise _at(head, "the command is a command of this game", opening.game, error) from error
            if command.seat != accepted.seat:
                raise _at(head, "the command is sent by its seat", f"seat {accepted.seat}", f"seat {command.seat}")
            recorded_draws, used = _check_draws(draws_event, rng, used)
            recomputed = _run(head, partial(rules.decide, state, command), recorded_draws)
            actions += 1
        state = _compare(rules, state, recomputed, body, head or events[0])
        end = groups.take_end()
        if end is not None:
            ended = end
            claimed = loaded(end)
            assert isinstance(claimed, GameEnded)
            if tuple(claimed.winners) != tuple(rules.winners(state)):
                raise _at(end, "the winners are the ones the rules give", list(rules.winners(state)),
                          list(claimed.winners))
        if rules.is_over(state) and ended is None:
            raise _at(events[groups.i - 1], "the game ends when the rules say it is over", "engine.GameEnded",
                      "the stream goes on" if not groups.done else "no GameEnded")
        if end is not None and not rules.is_over(state):
            raise _at(end, "the game ends only when the rules say it is over", "the game goes on", "GameEnded")
        if ended is None and (abandoned := _abandonment(groups, rules.pending_seats(state))) is not None:
            _check_all_draws_used(rng, used)
            return actions, used, abandoned
    if ended is None:
        raise Found(Discrepancy(stream_id=game_id, version=None, event_id=None, check="only ended games are audited",
                                expected="engine.GameEnded", found="the game is still running"))
    _check_all_draws_used(rng, used)
    return actions, used, None


def _check_all_draws_used(rng: CheckedRng, used: int) -> None:
    if rng.draws and used != len(rng.draws):
        recorded, _ = rng.draws[used]
        raise _at(recorded, "every draw the RNG made was used by the game", f"{used} draws used",
                  f"draw {used} was made but never used")


def _abandonment(groups: StreamReader, pending: Any) -> GameAbandoned | None:
    """A GameAbandoned next in the stream: the last event, naming the seats the game was waiting for."""
    recorded = groups.take_abandonment()
    if recorded is None:
        return None
    event = loaded(recorded)
    assert isinstance(event, GameAbandoned)
    if not groups.done:
        following = groups.events[groups.i]
        raise _at(following, "nothing follows the game's abandonment", "the end of the stream", following.type)
    if tuple(event.pending_seats) != tuple(sorted(pending)):
        raise _at(recorded, "the abandonment names the seats the game was waiting for", sorted(pending),
                  list(event.pending_seats))
    return event


def _check_seed_window(opened_event: RecordedEvent, opening: GameOpened, groups: StreamReader,
                       rng: CheckedRng) -> GameAbandoned | None:
    """The seeds the RNG mixed in are exactly those the seated players gave, each by its own player, and the game
    started only with all of them or after its window's time; or it was abandoned while it waited (returned)."""
    given, started = groups.take_seed_window()
    seeds: dict[int, str] = {}
    if opening.client_seed_seconds is None:
        if given or started:
            first = given[0] if given else started
            assert first is not None
            raise _at(first, "only a game opened with a seed window takes client seeds", "the opening", first.type)
    else:
        seated = seed_seats(opening.players, opening.bots)
        for recorded in given:
            event = loaded(recorded)
            assert isinstance(event, ClientSeedGiven)
            if event.seat not in seated or event.seat in seeds:
                raise _at(recorded, "one client seed per seated player", f"a seat of {list(seated)} without one",
                          f"seat {event.seat}")
            if recorded.metadata.actor != opening.players[event.seat]:
                raise _at(recorded, f"seat {event.seat}'s client seed is sent by its player",
                          opening.players[event.seat], recorded.metadata.actor)
            seeds[event.seat] = event.client_seed
        if started is None and (abandoned := _abandonment(groups, [s for s in seated if s not in seeds])):
            if rng.draws:
                raise _at(rng.draws[0][0], "no draw for a game abandoned before it started", "no draw",
                          "a draw was made")
            return abandoned
        if started is None:
            anchor = groups.events[groups.i] if not groups.done else opened_event
            raise _at(anchor, "the seed window closes with GameStarted before the opening", "engine.GameStarted",
                      anchor.type)
        start = loaded(started)
        assert isinstance(start, GameStarted)
        missing = [seat for seat in seated if seat not in seeds]
        if (tuple(start.seeded_seats), start.deadline_passed) != (tuple(sorted(seeds)), bool(missing)):
            raise _at(started, "the start names the seats that gave seeds, and whether time ran out",
                      f"seeded {sorted(seeds)}, time ran out: {bool(missing)}",
                      f"seeded {list(start.seeded_seats)}, time ran out: {start.deadline_passed}")
        waited = (started.recorded_at - opened_event.recorded_at).total_seconds()
        if missing and waited < opening.client_seed_seconds:
            raise _at(started, "a game starts without every seed only after its window's time",
                      f"{opening.client_seed_seconds}s after the opening", f"{waited:.3f}s")
    mixed = {seat: seed for seat, (_event, seed) in rng.client_seeds.items()}
    if mixed != seeds:
        seat = min(set(mixed) ^ set(seeds) or {s for s in seeds if mixed[s] != seeds[s]})
        anchor = rng.client_seeds[seat][0] if seat in rng.client_seeds else (given[-1] if given else opened_event)
        raise _at(anchor, f"the RNG mixed in the client seeds the players gave (seat {seat})",
                  repr(seeds.get(seat, "no seed")), repr(mixed.get(seat, "no seed")))
    return None


def _check_draws(draws_event: RecordedEvent | None, rng: CheckedRng, used: int) -> tuple[list[Draw], int]:
    """Each draw the game used, numbered on from the last (0, 1, 2, ... over the whole game, no gap), recomputed
    from the revealed seed; and, in an old stream that recorded its draws, the very draw the RNG recorded."""
    if draws_event is None:
        return [], used
    event = loaded(draws_event)
    assert isinstance(event, DrawsUsed)
    out = []
    for numbered in event.draws:
        if numbered.nonce != used:
            raise _at(draws_event, "the game uses the draws in order", f"draw {used}", f"draw {numbered.nonce}")
        try:
            expected = rng.recompute(numbered.nonce, numbered.request)
        except ValueError as error:
            raise _at(draws_event, f"draw {used} is a valid input of the recipe", "a valid request",
                      error) from error
        if expected != tuple(numbered.values):
            raise _at(draws_event, f"draw {used} ({numbered.request}) used by the game, recomputed from the "
                                   f"revealed seed", list(expected), list(numbered.values))
        if rng.draws:
            if used >= len(rng.draws):
                raise _at(draws_event, f"draw {used} is in the RNG stream", "a recorded draw", "no such draw")
            rng_event, drawn = rng.draws[used]
            if (drawn.request, tuple(drawn.values)) != (numbered.request, tuple(numbered.values)):
                raise _at(draws_event, f"draw {used} used by the game is the one the RNG recorded "
                                       f"(rng v{rng_event.version})",
                          f"{drawn.request} -> {list(drawn.values)}", f"{numbered.request} -> {list(numbered.values)}")
        out.append(Draw(numbered.request, tuple(numbered.values)))
        used += 1
    return out, used


def _run(anchor: RecordedEvent, run: Callable[[Draws], Sequence[E]], draws: list[Draw]) -> list[E]:
    recorded = RecordedDraws(draws)
    try:
        events = list(run(recorded))
    except RuleViolation as violation:
        raise _at(anchor, "the rules accept this action", "accepted", f"rejected: {violation.code}: "
                  f"{violation.message}") from violation
    except DrawsExhausted as need:
        raise _at(anchor, "the recorded draws are the ones the rules ask for", f"{len(draws)} draws",
                  f"the rules ask for one more: {need.request}") from need
    except DrawMismatch as mismatch:
        raise _at(anchor, f"draw {mismatch.index} answers what the rules ask for", mismatch.expected,
                  mismatch.recorded) from mismatch
    if len(recorded.used) != len(draws):
        raise _at(anchor, "the rules use every draw recorded for this action", f"{len(recorded.used)} draws",
                  f"{len(draws)} draws")
    return events


def _compare(rules: GameRules[S, C, E], state: S | None, recomputed: list[E], body: list[RecordedEvent],
             anchor: RecordedEvent) -> S | None:
    for index, expected in enumerate(recomputed):
        if index >= len(body):
            raise _at(anchor, "the stored events are the ones the rules decide", _show(expected), "nothing")
        found = cast(E, loaded(body[index]))
        if found != expected and body[index].type == registry.of(expected).name:
            # an event stored at an older version
            expected = cast(E, registry.read_as(expected, body[index].schema_version))
        if found != expected:
            raise _at(body[index], "the stored event is the one the rules decide", _show(expected), _show(found))
        state = rules.evolve(state, found)
    if len(body) > len(recomputed):
        extra = body[len(recomputed)]
        raise _at(extra, "the stored events are the ones the rules decide", "nothing more", extra.type)
    return state
