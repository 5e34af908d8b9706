"""The seed's Team Scorepad as a projection: a results grid ("3:1" from the row manager's side, the row manager
being the one who initiated the game) and the wins of each manager."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from shared.games.phantoms import events as ev
from shared.games.phantoms.state import Result


class Scorepad(msgspec.Struct, frozen=True, kw_only=True, tag="phantoms.Scorepad"):
    seats: int
    grid: tuple[tuple[tuple[str, ...], ...], ...]
    """grid[row][column]: the games row initiated against column, in order."""
    wins: tuple[int, ...]
    postseason: tuple[str, ...]
    champion: int | None = None


def cell(result: Result) -> str:
    """'3:1' from the home (row) side; a forfeit is '+:-' or '-:+'; a Jolly Judge claim is marked '*'."""
    if result.forfeit:
        return {result.home: "+:-", result.away: "-:+"}.get(result.winner, "0:0") if result.winner is not None \
            else "-:-"
    return f"{result.home_goals}:{result.away_goals}" + ("*" if result.claimed else "")


def from_results(seats: int, results: Iterable[Result], champion: int | None = None) -> Scorepad:
    grid: list[list[list[str]]] = [[[] for _ in range(seats)] for _ in range(seats)]
    wins = [0] * seats
    post: list[str] = []
    for r in results:
        if r.kind == "regular":
            grid[r.home][r.away].append(cell(r))
            if r.winner is not None:
                wins[r.winner] += 1
        else:
            post.append(f"{r.kind}: {r.home} {cell(r)} {r.away}")
    return Scorepad(seats=seats, grid=tuple(tuple(tuple(c) for c in row) for row in grid), wins=tuple(wins),
                    postseason=tuple(post), champion=champion)


def scorepad(events: Iterable[ev.Event]) -> Scorepad:
    """Project a season's events (public ones suffice) onto its scorepad."""
    seats = 0
    results: list[Result] = []
    champion = None
    for e in events:
        match e:
            case ev.SeasonOpened(seats=n):
                seats = n
            case ev.GameEnded():
                results.append(Result(home=e.home, away=e.away, home_goals=e.home_goals, away_goals=e.away_goals,
                                      winner=e.winner, kind=e.kind, claimed=e.claimed, forfeit=e.forfeit,
                                      sudden_deaths=e.sudden_deaths))
            case ev.ChampionDecided(seat=seat):
                champion = seat
            case _:
                pass
    return from_results(seats, results, champion)


def format_scorepad(pad: Scorepad, names: list[str] | None = None) -> str:
    names = names or [f"M{i}" for i in range(pad.seats)]
    width = max(8, *(len(" ".join(c)) + 2 for row in pad.grid for c in row))
    lines = ["Name".ljust(10) + "".join(n.ljust(width) for n in names) + "Wins"]
    for i, row in enumerate(pad.grid):
        cells = "".join(("X" if i == j else " ".join(c)).ljust(width) for j, c in enumerate(row))
        lines.append(names[i].ljust(10) + cells + "X" * pad.wins[i])
    lines += [f"  {line}" for line in pad.postseason]
    if pad.champion is not None:
        lines.append(f"Champion: {names[pad.champion]}")
    return "\n".join(lines)
