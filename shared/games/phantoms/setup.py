"""``new_game``: the opening events of a season (options, deck, shuffled piles or dealt teams)."""

from __future__ import annotations

from msgspec.structs import replace

from shared.games.draws import Draws, shuffled
from shared.games.phantoms import events as ev
from shared.games.phantoms.cards import MASK, POSITIONS, Deck
from shared.games.phantoms.deck import fingerprint, reference_deck, validate_deck
from shared.games.phantoms.emitter import Emitter, settle
from shared.games.phantoms.options import MAX_SEATS, MAX_TEAM_SEATS, Options
from shared.games.rules import RuleViolation


def new_game(options: Options, seats: int, draws: Draws) -> list[ev.Event]:
    limit = MAX_TEAM_SEATS[options.edition] if options.team_variant else MAX_SEATS
    if not 2 <= seats <= limit:
        raise RuleViolation("phantoms.options.seats", f"this season needs 2 to {limit} managers, not {seats}")
    if options.turn_seconds is not None and options.turn_seconds <= 0:
        raise RuleViolation("phantoms.options.turn-seconds", "the turn timer must be a positive number of seconds")
    deck = validate_deck(options.deck) if options.deck is not None else reference_deck(options.edition)
    if deck.edition != options.edition:
        raise RuleViolation("phantoms.deck.edition", f"a {deck.edition} deck cannot play edition {options.edition}")
    opened = ev.SeasonOpened(options=replace(options, deck=None), edition=options.edition, deck=deck,
                             deck_fingerprint=fingerprint(deck), seats=seats,
                             injuries=ev.EDITION_INJURIES[options.edition])
    out = Emitter(None)
    out.emit(opened)
    out.emit(*(_deal_teams(deck, seats, draws) if options.team_variant else [_shuffle_piles(deck, draws)]))
    settle(out)
    return out.events


def _shuffle_piles(deck: Deck, draws: Draws) -> ev.PilesShuffled:
    f, d, g = (shuffled(draws, [c.id for c in deck.cards if c.position == p]) for p in POSITIONS)
    return ev.PilesShuffled(forwards=f, defense=d, goalies=g)


def _deal_teams(deck: Deck, seats: int, draws: Draws) -> list[ev.Event]:
    """Seat i manages the i-th team symbol of the deck; each draws one random mask card."""
    symbols = list(dict.fromkeys(c.team for c in deck.cards if c.team != MASK))
    masks = shuffled(draws, [c.id for c in deck.cards if c.team == MASK])
    teams = symbols[:seats]
    used = {c.id for c in deck.cards if c.team in teams} | set(masks[:seats])
    unused = tuple(c.id for c in deck.cards if c.id not in used)
    events: list[ev.Event] = [ev.TeamsAssigned(teams=tuple(teams), unused=unused)]
    for seat, symbol in enumerate(teams):
        cards = tuple(c.id for c in deck.cards if c.team == symbol)
        events.append(ev.TeamDealt(seat=seat, cards=cards, mask=masks[seat]))
    return events
