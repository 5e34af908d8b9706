"""``view(state, viewer)``: what one manager (or a spectator) may see. A manager sees his own team, his line-up
and his face-down choice; everyone sees team sizes, results, injuries, revealed cards and resting players."""

from __future__ import annotations

import msgspec

from shared.games.phantoms.cards import Card
from shared.games.phantoms.scorepad import Scorepad, from_results
from shared.games.phantoms.state import Result, RoundRecord, Season, Stage
from shared.games.phantoms.turns import pending_seats


class ManagerView(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.ManagerView"):
    seat: int
    team: str | None
    wins: int
    goals_for: int
    goals_against: int
    players: int
    resting: tuple[str, ...]
    eliminated: bool


class GameView(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.GameView"):
    home: int
    away: int
    kind: str
    block: int
    round: int
    score: tuple[int, int]
    ready: tuple[bool, bool]
    """Which side has laid its card face down (or fielded its line-up)."""
    table: tuple[str | None, str | None]
    history: tuple[RoundRecord, ...]
    injured: tuple[str, ...]


class SeasonView(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.SeasonView"):
    viewer: int | None
    edition: str
    season_end: str
    team_variant: bool
    phase: str
    turn: int
    pending: tuple[int, ...]
    managers: tuple[ManagerView, ...]
    pile_sizes: tuple[int, int, int]
    injuries: tuple[str, ...]
    results: tuple[Result, ...]
    game: GameView | None
    stage: Stage | None
    leader: int | None
    champion: int | None
    trading: tuple[int, int] | None
    scorepad: Scorepad
    hand: tuple[Card, ...] = ()
    lineup: tuple[str, ...] | None = None
    choice: str | None = None
    trade_taken: Card | None = None


def view(s: Season, viewer: int | None) -> SeasonView:
    mine = viewer is not None and 0 <= viewer < s.seats
    managers = tuple(
        ManagerView(seat=i, team=m.team, wins=m.wins, goals_for=m.goals_for, goals_against=m.goals_against,
                    players=len(m.cards), resting=m.resting, eliminated=m.eliminated)
        for i, m in enumerate(s.managers)
    )
    g = s.game
    game = None
    lineup = choice = None
    if g is not None:
        ready = tuple(
            (lineup_ is not None) if None in g.lineups else (card is not None)
            for lineup_, card in zip(g.lineups, g.chosen, strict=True)
        )
        game = GameView(home=g.home, away=g.away, kind=g.kind, block=g.block, round=g.round, score=g.score,
                        ready=(ready[0], ready[1]), table=g.table, history=g.history,
                        injured=tuple(c for _, c in g.injured))
        if mine and viewer in g.seats:
            side = g.side(viewer)
            lineup, choice = g.lineups[side], g.chosen[side]
    trade_taken = None
    trading = None
    if s.trade is not None:
        trading = (s.turn, s.trade.opponent)
        if mine and viewer == s.turn and s.trade.taken is not None:
            trade_taken = s.cards[s.trade.taken]
    return SeasonView(
        viewer=viewer if mine else None,
        edition=s.edition,
        season_end=s.options.season_end,
        team_variant=s.options.team_variant,
        phase=s.phase,
        turn=s.turn,
        pending=tuple(sorted(pending_seats(s))),
        managers=managers,
        pile_sizes=(len(s.piles[0]), len(s.piles[1]), len(s.piles[2])),
        injuries=s.injuries,
        results=s.results,
        game=game,
        stage=s.stage,
        leader=s.leader,
        champion=s.champion,
        trading=trading,
        scorepad=from_results(s.seats, s.results, s.champion),
        hand=tuple(s.cards[c] for c in s.managers[viewer].cards) if mine and viewer is not None else (),
        lineup=lineup,
        choice=choice,
        trade_taken=trade_taken,
    )
