"""``decide(state, command, draws) -> events``: check a command against the rules, then let the season run on
until it waits for a manager again. Pure: the input state is never changed."""

from __future__ import annotations

import random
from typing import assert_never

from shared.games.draws import Draws, integer
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import game_actions as game
from shared.games.phantoms import season_actions as turn
from shared.games.phantoms.bots import greedy_bot
from shared.games.phantoms.emitter import Emitter, reject, settle
from shared.games.phantoms.readings import reading
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import Step, step

WANTS: dict[type, Step] = {
    cmd.TakeFromPile: "opening", cmd.Trade: "turn", cmd.Draft: "turn", cmd.Challenge: "turn",
    cmd.PickTradeCard: "trade-pick", cmd.ReturnCard: "trade-return", cmd.FieldTeam: "lineup",
    cmd.ChooseCard: "choose", cmd.FlipPile: "flip", cmd.ClaimWin: "claim", cmd.Rest: "rest",
}
STEP_TEXT: dict[str, str] = {
    "opening": "the opening draft", "turn": "the active manager's turn", "trade-pick": "a pick from the trade",
    "trade-return": "a card to return in the trade", "lineup": "line-ups", "choose": "face-down choices",
    "flip": "Sitting Bull's flip", "claim": "Jolly Judge's claim", "rest": "players to rest", "none": "nothing",
    "auto": "nothing",
}


def decide(state: Season | None, command: cmd.Command, draws: Draws) -> list[ev.Event]:
    if state is None:
        reject("phantoms.season.not-started", "the season has not been opened")
    if state.phase == "over":
        reject("phantoms.season.over", "the season is over")
    now, seats = step(state)
    if not 0 <= command.seat < state.seats:
        reject("phantoms.seat.unknown", f"there is no seat {command.seat}")
    if isinstance(command, cmd.ClaimWin) and (command.seat not in seats or now != "claim"):
        _no_claim(state, command.seat, now)
    if command.seat not in seats:
        waiting = ", ".join(str(x) for x in sorted(seats)) or "nobody"
        reject("poti.turn.not-yours", f"it is not your move; waiting for seat(s) {waiting}")
    if isinstance(command, cmd.TimeOut):
        return _timed_out(state, command, draws)
    wanted = WANTS[type(command)]
    if wanted != now:
        if state.phase == "postseason" and wanted == "turn":
            _no_turns(state)
        reject("poti.turn.wrong-action", f"the season is waiting for {STEP_TEXT[now]}")
    out = Emitter(state)
    _apply(out, state, command, draws)
    settle(out)
    return out.events


def _no_turns(s: Season) -> None:
    said = "after the regular season there are no trades, drafts or challenges: the post-season plays its games"
    if s.stage is not None and s.stage.mode == "knockout":
        byes = ", ".join(f"seat {b}" for b in s.stage.byes) or "nobody"
        said += f"; in this knockout round {byes} sit out {reading('powerplay.tiebreak.knockout-byes')}"
    reject("poti.series.no-turns", said)


def _no_claim(s: Season, seat: int, now: Step) -> None:
    g = s.game
    if now == "claim" and g is not None:
        why = f"only seat {g.seats[g.judge.index(True)]}, whose Jolly Judge played in this game, may claim it"
    elif g is None:
        why = "no game is being played"
    else:
        why = "there is no tied game to claim now, or his manager has already answered for this one"
    reject("powerplay.jolly-judge.claim", f"{why} {reading('powerplay.jolly-judge.claim-again')}")


def _timed_out(s: Season, c: cmd.TimeOut, draws: Draws) -> list[ev.Event]:
    """The default bot moves for a manager whose time ran out; its choices are seeded by a recorded draw."""
    if s.options.turn_seconds is None:
        reject("poti.timer.off", "this season has no turn timer")
    seed = integer(draws, 0, 2**31 - 1)
    move = greedy_bot(s, c.seat, random.Random(seed))
    return [ev.MoveTimedOut(seat=c.seat), *decide(s, move, draws)]


def _apply(out: Emitter, s: Season, command: cmd.Command, draws: Draws) -> None:
    match command:
        case cmd.TakeFromPile():
            turn.take_from_pile(out, s, command)
        case cmd.Trade():
            turn.trade(out, s, command, draws)
        case cmd.PickTradeCard():
            turn.pick_trade_card(out, s, command)
        case cmd.ReturnCard():
            turn.return_card(out, s, command)
        case cmd.Draft():
            turn.draft(out, s, command)
        case cmd.Challenge():
            turn.challenge(out, s, command)
        case cmd.FieldTeam():
            game.field_team(out, s, command)
        case cmd.ChooseCard():
            game.choose_card(out, s, command)
        case cmd.FlipPile():
            game.flip_pile(out, s, command)
        case cmd.ClaimWin():
            game.claim_win(out, s, command)
        case cmd.Rest():
            game.rest(out, s, command)
        case cmd.TimeOut():
            raise AssertionError("handled by _timed_out")
        case _:
            assert_never(command)


