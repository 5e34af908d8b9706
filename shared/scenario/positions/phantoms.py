"""A Phantoms of the Ice / Power Play position: each manager's team, the piles top first, the record so far, and
optionally a post-season stage. Basic game only (the team variant has no piles)."""

from __future__ import annotations

from typing import Any

from msgspec.structs import replace

from shared.games.phantoms import events as ev
from shared.games.phantoms.deck import fingerprint, reference_deck, validate_deck
from shared.games.phantoms.emitter import Emitter, settle
from shared.games.phantoms.options import Options
from shared.games.phantoms.postseason import KIND
from shared.games.phantoms.state import Result, Season, Stage
from shared.games.rules import fold
from shared.scenario.positions import PositionError, known, per_seat

KEYS = {"hands", "piles", "exact_piles", "out", "wins", "goals_for", "goals_against", "initiated", "turn", "leader",
        "stage", "injuries"}


def build(options: Options, position: dict[str, Any]) -> Season:
    from shared.games.phantoms import rules

    known(position, KEYS, "phantoms")
    if options.team_variant:
        raise PositionError("scenarios describe the basic game (hands and piles); the team variant is not supported")
    deck = validate_deck(options.deck) if options.deck is not None else reference_deck(options.edition)
    ids = {c.id for c in deck.cards}
    hands = position.get("hands")
    if not isinstance(hands, list) or not 2 <= len(hands) <= 10:
        raise PositionError("hands: one list of cards per manager (2 to 10 managers)")
    seats = len(hands)
    out = list(position.get("out", []))
    piles_given: dict[str, list[str]] = position.get("piles", {})
    if stray := sorted(set(piles_given) - set("FDG")):
        raise PositionError(f"piles are F, D and G, not {', '.join(stray)}")
    placed = [c for hand in hands for c in hand] + out + [c for pile in piles_given.values() for c in pile]
    if unknown := sorted(set(placed) - ids):
        raise PositionError(f"not in the {options.edition} deck: {', '.join(unknown)}")
    if twice := sorted({c for c in placed if placed.count(c) > 1}):
        raise PositionError(f"each card is in one place only: {', '.join(twice)}")
    cards = {c.id: c for c in deck.cards}
    for seat, hand in enumerate(hands):
        counts = {p: sum(cards[c].position == p for c in hand) for p in "FDG"}
        if counts != {"F": 3, "D": 2, "G": 1}:
            raise PositionError(f"seat {seat}'s team is 3 forwards, 2 defensemen and 1 goalie, not {counts}")
    piles = []
    for p in "FDG":
        top = list(piles_given.get(p, []))
        if any(cards[c].position != p for c in top):
            raise PositionError(f"the {p} pile holds only position {p}")
        rest = [c.id for c in deck.cards if c.position == p and c.id not in placed]
        if position.get("exact_piles"):
            rest = []
        piles.append(tuple(top + rest))
    opened = ev.SeasonOpened(options=options, edition=options.edition, deck=deck, deck_fingerprint=fingerprint(deck),
                             seats=seats, injuries=position.get("injuries"))
    events: list[ev.Event] = [opened, ev.PilesShuffled(forwards=piles[0], defense=piles[1], goalies=piles[2])]
    events += [ev.OpeningCardDrawn(seat=seat, card=c) for seat, hand in enumerate(hands) for c in hand]
    s = fold(rules, events)
    assert s is not None
    managers = tuple(
        replace(m, wins=w, goals_for=gf, goals_against=ga, initiated=tuple(i))
        for m, w, gf, ga, i in zip(
            s.managers, per_seat(position, "wins", seats, 0), per_seat(position, "goals_for", seats, 0),
            per_seat(position, "goals_against", seats, 0), per_seat(position, "initiated", seats, [0] * seats),
            strict=True)
    )
    s = replace(s, managers=managers, out=tuple(out))
    if "stage" in position:
        return _postseason(s, position)
    return rules.evolve(s, ev.TurnStarted(seat=int(position.get("turn", 0))))


def _postseason(s: Season, position: dict[str, Any]) -> Season:
    """A post-season stage: ``stage = {purpose, mode, teams, pairs, byes, wins_needed, won}``, ``won`` the winners
    of its games so far (home alternating within a pair, as the rules play them); every other seat is out."""
    given = dict(position["stage"])
    won = [int(w) for w in given.pop("won", [])]
    try:
        stage = Stage(purpose=given["purpose"], mode=given["mode"], teams=tuple(given["teams"]),
                      pairs=tuple(tuple(p) for p in given["pairs"]), byes=tuple(given.get("byes", ())),
                      wins_needed=int(given.get("wins_needed", 1)))
    except KeyError as missing:
        raise PositionError(f"a stage needs {missing}") from None
    games: list[Result] = []
    for winner in won:
        pair = next((p for p in stage.pairs if winner in p), None)
        if pair is None:
            raise PositionError(f"stage.won: seat {winner} plays in none of the stage's pairs")
        played = sum(1 for g in games if {g.home, g.away} == set(pair))
        home, away = pair if played % 2 == 0 else (pair[1], pair[0])
        games.append(Result(home=home, away=away, home_goals=int(winner == home), away_goals=int(winner == away),
                            winner=winner, kind=KIND[stage.purpose]))
    leader = int(position.get("leader", stage.teams[0]))
    playing = set(stage.teams) | {leader}
    managers = tuple(replace(m, eliminated=True, cards=()) if i not in playing else m
                     for i, m in enumerate(s.managers))
    s = replace(s, phase="postseason", leader=leader, managers=managers, stage=replace(stage, games=tuple(games)),
                results=tuple(games))
    out = Emitter(s)
    settle(out)
    return out.season


def describe(s: Season) -> dict[str, Any]:
    described: dict[str, Any] = {
        "phase": s.phase,
        "injury_rule": s.injury_rule,
        "turn": s.turn,
        "hands": [list(m.cards) for m in s.managers],
        "piles": {"F": list(s.piles[0]), "D": list(s.piles[1]), "G": list(s.piles[2])},
        "out": list(s.out),
        "injured": list(s.injuries),
        "wins": [m.wins for m in s.managers],
        "goals_for": [m.goals_for for m in s.managers],
        "goals_against": [m.goals_against for m in s.managers],
        "results": [_result(r) for r in s.results],
    }
    if s.game is not None:
        g = s.game
        sd = f", sudden death {g.block}" if g.block else ""
        described["game"] = f"M{g.home} {g.score[0]}:{g.score[1]} M{g.away} ({g.kind}{sd}), round {g.round}"
        described["in_hand"] = [list(g.hands[0]), list(g.hands[1])]
    if s.stage is not None:
        described["stage"] = {"purpose": s.stage.purpose, "mode": s.stage.mode, "teams": list(s.stage.teams),
                              "pairs": [list(p) for p in s.stage.pairs], "byes": list(s.stage.byes)}
    if s.champion is not None:
        described["champion"] = s.champion
    return described


def _result(r: Result) -> str:
    how = " claimed" if r.claimed else f" after {r.sudden_deaths} sudden death" if r.sudden_deaths else ""
    return f"M{r.home} {r.home_goals}:{r.away_goals} M{r.away} ({r.kind}{how})"


def expand(s: Season, step: dict[str, Any]) -> list[dict[str, Any]]:
    """``{rounds = {home = [...], away = [...]}}``: each round's two face-down choices, home first."""
    if "rounds" not in step:
        return [step]
    if s.game is None:
        raise PositionError("rounds: no game is being played")
    lay = step["rounds"]
    home, away = lay.get("home", []), lay.get("away", [])
    if len(home) != len(away):
        raise PositionError("rounds: home and away lay as many cards")
    commands = []
    for h, a in zip(home, away, strict=True):
        commands += [{"type": "ChooseCard", "seat": s.game.home, "card": h},
                     {"type": "ChooseCard", "seat": s.game.away, "card": a}]
    return commands
