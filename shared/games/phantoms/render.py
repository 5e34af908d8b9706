"""A text picture of a season for a terminal: the scorepad and the teams as the public sees them."""

from __future__ import annotations

from shared.games.phantoms.scorepad import format_scorepad, from_results
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import pending_seats


def render(s: Season) -> str:
    lines = [f"{s.edition} season ({s.options.season_end}{', team variant' if s.options.team_variant else ''}): "
             f"{s.phase}, turn of M{s.turn}, waiting for {sorted(pending_seats(s))}"]
    lines.append(format_scorepad(from_results(s.seats, s.results, s.champion)))
    for i, m in enumerate(s.managers):
        state = "out" if m.eliminated else f"{len(m.cards)} players"
        resting = f", resting {', '.join(m.resting)}" if m.resting else ""
        lines.append(f"M{i}{' (' + m.team + ')' if m.team else ''}: {state}, {m.wins} wins, "
                     f"goals {m.goals_for}:{m.goals_against}{resting}")
    if s.game is not None:
        g = s.game
        sd = f", sudden death {g.block}" if g.block else ""
        lines.append(f"Game M{g.home} vs M{g.away} ({g.kind}{sd}): {g.score[0]}:{g.score[1]}, round {g.round}")
        for r in g.history:
            goal = f"goal M{r.goal}" if r.goal is not None else "no goal"
            hurt = f", injured {', '.join(r.injured)}" if r.injured else ""
            lines.append(f"  {r.block}.{r.round}: {r.cards[0]} ({r.values[0]:g}) vs {r.cards[1]} "
                         f"({r.values[1]:g}): {goal}{hurt}")
    if s.injuries:
        lines.append(f"Injured: {', '.join(s.injuries)}")
    if s.stage is not None:
        lines.append(f"Stage: {s.stage.purpose} {s.stage.mode} {s.stage.pairs} byes {s.stage.byes}")
    return "\n".join(lines)
