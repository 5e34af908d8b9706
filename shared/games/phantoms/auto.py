"""What follows by itself once the managers have acted: reveals, scoring, injuries, results, turns, stages."""

from __future__ import annotations

from shared.games.phantoms import events as ev
from shared.games.phantoms.lineup import can_field
from shared.games.phantoms.options import wins_to_end
from shared.games.phantoms.postseason import KIND, advance, next_game, season_end
from shared.games.phantoms.scoring import ROUNDS, goal, injuries, taken_back, value_in_game
from shared.games.phantoms.state import Game, Season
from shared.games.phantoms.turns import bull_seat, claimant


def next_events(s: Season) -> list[ev.Event] | None:
    """The events that happen next without a manager's command; None when the season waits for one."""
    if s.phase == "over":
        return None
    if s.phase == "opening":
        if s.options.team_variant or s.picks >= 6 * s.seats:
            return [ev.TurnStarted(seat=0)]
        return None
    if s.game is not None:
        return _game_step(s, s.game)
    if s.replacements:
        return replace_injury(s, *s.replacements[0])
    if s.rest_due:
        return None
    if s.phase == "regular":
        if s.trade is not None or not s.turn_done:
            return None
        if max(m.wins for m in s.managers) >= wins_to_end(s.options):
            return season_end(s)
        return [ev.TurnStarted(seat=_next_seat(s))]
    assert s.stage is not None
    pairing = next_game(s.stage)
    if pairing is not None:
        return start_game(s, pairing[0], pairing[1], KIND[s.stage.purpose])
    return advance(s)


def _next_seat(s: Season) -> int:
    seat = s.turn
    for _ in range(s.seats):
        seat = (seat + 1) % s.seats
        if not s.managers[seat].eliminated:
            return seat
    return s.turn


def start_game(s: Season, home: int, away: int, kind: str) -> list[ev.Event]:
    events: list[ev.Event] = [ev.GameStarted(home=home, away=away, kind=kind)]
    if not s.options.team_variant:
        return events
    able = [
        can_field([s.cards[c] for c in s.managers[seat].cards if c not in s.managers[seat].resting], True)
        for seat in (home, away)
    ]
    if all(able):
        return events
    winner = home if able[0] else away if able[1] else None
    return events + [ev.GameEnded(home=home, away=away, home_goals=0, away_goals=0, winner=winner, kind=kind,
                                  forfeit=True)]


def replace_injury(s: Season, seat: int, injured: str) -> list[ev.Event]:
    """The Draft procedure for an injured player, by the season's injury rule (RULES.md; readings
    ``poti.injury.draft`` and ``powerplay.injury.out-for-season``): the top card of his pile comes to his team;
    under ``draft`` he goes to the bottom of that pile first, under ``out_for_season`` he leaves the game. An empty
    pile leaves him on the team (under ``draft`` he would be drawn straight back)."""
    pile = s.pile(s.cards[injured].position)
    if not pile:
        return [ev.InjuredPlayerStays(seat=seat, injured=injured)]
    replaced = ev.InjuryReplaced(seat=seat, injured=injured)
    if s.injury_rule == "draft":
        return [ev.InjuredPlayerDrafted(seat=seat, injured=injured, card=pile[0]), replaced]
    return [ev.ReplacementDrawn(seat=seat, injured=injured, card=pile[0]), replaced]


def _game_step(s: Season, g: Game) -> list[ev.Event] | None:
    if None in g.lineups:
        return None
    if g.winner is not None:
        return [_ended(g)]
    if g.table[0] is not None:
        if not g.swapped and (swap := _rumpelstockchen(s, g)) is not None:
            return [swap]
        if bull_seat(s, g) is not None:
            return None
        return [_scored(s, g)]
    if g.round > ROUNDS:
        if g.score[0] != g.score[1]:
            return [_ended(g)]
        if claimant(s, g) is not None:
            return None
        if g.block == 0 and g.to_replace:
            return replace_injury(s, *g.to_replace[0])
        return [ev.SuddenDeathStarted(block=g.block + 1)]
    if None not in g.chosen:
        home_card, away_card = g.chosen
        assert home_card is not None and away_card is not None
        return [ev.CardsRevealed(block=g.block, round=g.round, home_card=home_card, away_card=away_card)]
    return None


def _rumpelstockchen(s: Season, g: Game) -> ev.CardTakenBack | None:
    specials = [s.cards[c].special if c else None for c in g.table]
    for side in (0, 1):
        other = 1 - side
        if specials[side] == "rumpelstockchen" and specials[other] != "rumpelstockchen":
            played = s.cards[g.table[other] or ""]
            hand = [s.cards[c] for c in g.hands[other]]
            values = {c.id: value_in_game(c, g.block, g.round) for c in [*hand, played]}
            instead = taken_back(hand, played, values)
            if instead.id != played.id:
                return ev.CardTakenBack(seat=g.seats[other], taken_back=played.id, played=instead.id)
    return None


def _scored(s: Season, g: Game) -> ev.RoundScored:
    home, away = (s.cards[c or ""] for c in g.table)
    home_value = value_in_game(home, g.block, g.round, g.bonus)
    away_value = value_in_game(away, g.block, g.round, g.bonus)
    side = goal(home, away, home_value, away_value)
    return ev.RoundScored(
        block=g.block, round=g.round, home_card=home.id, away_card=away.id, home_value=home_value,
        away_value=away_value, goal=None if side is None else g.seats[side],
        injured=tuple(c.id for c in injuries(home, away)),
    )


def _ended(g: Game) -> ev.GameEnded:
    winner = g.winner if g.winner is not None else (g.home if g.score[0] > g.score[1] else g.away)
    return ev.GameEnded(home=g.home, away=g.away, home_goals=g.score[0], away_goals=g.score[1], winner=winner,
                        kind=g.kind, claimed=g.claimed, sudden_deaths=g.block)
