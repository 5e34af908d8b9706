"""Building seasons in a chosen position for rule tests."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from msgspec.structs import replace

from shared.games.draws import RecordedDraws, SeededDraws
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.deck import fingerprint, reference_deck
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season
from shared.games.rules import fold

T = TypeVar("T")


def opened(hands: Sequence[Sequence[str]], tops: dict[str, Sequence[str]] | None = None,
           **options: object) -> list[ev.Event]:
    """Events of a basic season where seat i holds ``hands[i]`` and each pile starts with ``tops[position]``."""
    opts = Options(**options)  # type: ignore[arg-type]
    deck = reference_deck(opts.edition)
    tops = tops or {}
    piles = []
    for position in "FDG":
        first = list(tops.get(position, ()))
        rest = [c.id for c in deck.cards if c.position == position and c.id not in first]
        piles.append(tuple(first + rest))
    events: list[ev.Event] = [
        ev.SeasonOpened(options=opts, edition=opts.edition, deck=deck, deck_fingerprint=fingerprint(deck),
                        seats=len(hands)),
        ev.PilesShuffled(forwards=piles[0], defense=piles[1], goalies=piles[2]),
    ]
    for seat, hand in enumerate(hands):
        events += [ev.OpeningCardDrawn(seat=seat, card=c) for c in hand]
    events.append(ev.TurnStarted(seat=0))
    return events


def season(hands: Sequence[Sequence[str]], tops: dict[str, Sequence[str]] | None = None,
           **options: object) -> Season:
    s = fold(rules, opened(hands, tops, **options))
    assert s is not None
    return s


def act(state: Season, *commands: cmd.Command, draws: RecordedDraws | SeededDraws | None = None
        ) -> tuple[Season, list[ev.Event]]:
    """Apply commands in order; return the new state and every event."""
    draws = draws or SeededDraws(random.Random(0))
    out: list[ev.Event] = []
    for command in commands:
        new = rules.decide(state, command, draws)
        for e in new:
            state = rules.evolve(state, e)
        out += new
    return state, out


def play_game(state: Season, home: int, away: int, home_cards: Sequence[str], away_cards: Sequence[str]
              ) -> tuple[Season, list[ev.Event]]:
    """Challenge, then lay the given cards round by round (home first)."""
    state, out = act(state, cmd.Challenge(seat=home, opponent=away))
    state, more = lay(state, home, away, home_cards, away_cards)
    return state, out + more


def lay(state: Season, home: int, away: int, home_cards: Sequence[str], away_cards: Sequence[str]
        ) -> tuple[Season, list[ev.Event]]:
    out: list[ev.Event] = []
    for h, a in zip(home_cards, away_cards, strict=True):
        state, more = act(state, cmd.ChooseCard(seat=home, card=h), cmd.ChooseCard(seat=away, card=a))
        out += more
    return state, out


def of(events: Sequence[object], kind: type[T]) -> list[T]:
    return [e for e in events if isinstance(e, kind)]


def with_wins(state: Season, wins: Sequence[int], goals: Sequence[int] | None = None) -> Season:
    goals = goals or [0] * len(wins)
    managers = tuple(replace(m, wins=w, goals_for=g) for m, w, g in zip(state.managers, wins, goals, strict=True))
    return replace(state, managers=managers)


# Phantoms of the Ice reference cards used by the tests (value in brackets).
CROWN = ["crown-f1", "crown-f2", "crown-f3", "crown-d1", "crown-d2", "crown-g1"]  # F10 F8 F6 D9 D5 G11
ANCHOR = ["anchor-f1", "anchor-f2", "anchor-f3", "anchor-d1", "anchor-d2", "anchor-g1"]  # F11 F8 F5 D9 D6 G10
STAR = ["star-f1", "star-f2", "star-f3", "star-d1", "star-d2", "star-g1"]  # F9 F9 F6 D10 D5 G10
DWARF = ["dwarf-f1", "dwarf-f2", "dwarf-f3", "dwarf-d1", "dwarf-d2", "dwarf-g1"]  # F11 F9 F5 D8 D6 G11


def finish_game(state: Season, seed: int = 0) -> tuple[Season, list[ev.Event]]:
    """Let greedy bots play the current game to its end (and rest, in the team variant)."""
    from shared.games.phantoms.bots import greedy_bot
    from shared.games.phantoms.turns import step

    rng = random.Random(seed)
    out: list[ev.Event] = []
    while step(state)[0] in ("choose", "flip", "claim", "lineup", "rest"):
        if any(isinstance(e, ev.GameEnded) for e in out) and step(state)[0] != "rest":
            break
        seat = min(step(state)[1])
        state, more = act(state, greedy_bot(state, seat, rng))
        out += more
    return state, out


def team_season(teams: Sequence[str], masks: Sequence[str], edition: str = "poti") -> Season:
    """A team-variant season: seat i manages team symbol ``teams[i]`` with mask card ``masks[i]``."""
    opts = Options(edition=edition, team_variant=True)  # type: ignore[arg-type]
    deck = reference_deck(opts.edition)
    used = set(masks) | {c.id for c in deck.cards if c.team in teams}
    events: list[ev.Event] = [
        ev.SeasonOpened(options=opts, edition=opts.edition, deck=deck, deck_fingerprint=fingerprint(deck),
                        seats=len(teams)),
        ev.TeamsAssigned(teams=tuple(teams), unused=tuple(c.id for c in deck.cards if c.id not in used)),
    ]
    for seat, (team, mask) in enumerate(zip(teams, masks, strict=True)):
        cards = tuple(c.id for c in deck.cards if c.team == team)
        events.append(ev.TeamDealt(seat=seat, cards=cards, mask=mask))
    events.append(ev.TurnStarted(seat=0))
    s = fold(rules, events)
    assert s is not None
    return s


def play_rounds(state: Season, seed: int = 0) -> tuple[Season, list[ev.Event]]:
    """Greedy choices until the game needs something other than a card, a flip or a claim."""
    from shared.games.phantoms.bots import greedy_bot
    from shared.games.phantoms.turns import step

    rng = random.Random(seed)
    out: list[ev.Event] = []
    while step(state)[0] in ("choose", "flip", "claim"):
        state, more = act(state, greedy_bot(state, min(step(state)[1]), rng))
        out += more
    return state, out
