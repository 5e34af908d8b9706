"""Edition specs, the deck validator, and loading deck files (ours or an organiser's)."""

from __future__ import annotations

import hashlib
from collections import Counter
from functools import cache
from importlib import resources

import msgspec

from shared.games.phantoms.cards import DRAGON, MASK, SPECIAL_NAMES, SPECIAL_POSITIONS, Card, Deck, Edition, Position
from shared.games.rules import RuleViolation


class EditionSpec(msgspec.Struct, frozen=True, kw_only=True):
    cards: int
    counts: dict[Position, int]
    bruisers: int
    teams: int
    specials: tuple[str, ...]
    zero_bruiser: bool


EDITIONS: dict[str, EditionSpec] = {
    "poti": EditionSpec(
        cards=66,
        counts={"F": 31, "D": 23, "G": 12},
        bruisers=5,
        teams=6,
        specials=("tiny_tim", "rumpelstickskin", "troll", "bear"),
        zero_bruiser=True,
    ),
    "powerplay": EditionSpec(
        cards=77,
        counts={"F": 36, "D": 27, "G": 14},
        bruisers=6,
        teams=7,
        specials=("hydra", "jolly_judge", "rosalinde", "rumpelstockchen", "sitting_bull", "willy_winzig"),
        zero_bruiser=False,
    ),
}
TEAM_SHAPE: dict[Position, int] = {"F": 5, "D": 3, "G": 2}
POSITION_NAMES = {"F": "forward", "D": "defenseman", "G": "goalie"}


def _reject(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"phantoms.deck.{rule}", message)


def validate_deck(deck: Deck) -> Deck:
    """Return the deck unchanged, or raise RuleViolation naming the first thing wrong with it."""
    spec = EDITIONS[deck.edition]
    cards = deck.cards
    ids = Counter(c.id for c in cards)
    if dupes := sorted(i for i, n in ids.items() if n > 1):
        raise _reject("unique-ids", f"card ids must be unique; repeated: {', '.join(dupes)}")
    if len(cards) != spec.cards:
        raise _reject("size", f"a {deck.edition} deck has {spec.cards} cards, this one has {len(cards)}")
    counts = Counter(c.position for c in cards)
    for position, wanted in spec.counts.items():
        if counts[position] != wanted:
            raise _reject("positions", f"a {deck.edition} deck has {wanted} cards of position {position}, "
                          f"this one has {counts[position]}")
    for c in cards:
        if not 0 <= c.value <= 11 or (c.value * 2) != int(c.value * 2):
            raise _reject("values", f"{c.id}: values run from 0 to 11 in halves, not {c.value}")
    _check_bruisers(deck, spec)
    _check_specials(deck, spec)
    _check_teams(deck, spec)
    _check_names(deck, spec)
    return deck


def _check_bruisers(deck: Deck, spec: EditionSpec) -> None:
    bruisers = [c for c in deck.cards if c.bruiser]
    if len(bruisers) != spec.bruisers:
        raise _reject("bruisers", f"a {deck.edition} deck has {spec.bruisers} bruisers, this one {len(bruisers)}")
    if wrong := [c.id for c in bruisers if c.position != "D"]:
        raise _reject("bruisers", f"bruisers are defensemen: {', '.join(wrong)}")
    if spec.zero_bruiser and not any(c.value == 0 for c in bruisers):
        raise _reject("bruisers", "one bruiser of Phantoms of the Ice is worth 0")


def _check_specials(deck: Deck, spec: EditionSpec) -> None:
    specials = Counter(c.special for c in deck.cards if c.special)
    if sorted(specials) != sorted(spec.specials) or any(n != 1 for n in specials.values()):
        raise _reject("specials", f"a {deck.edition} deck has exactly one each of {', '.join(spec.specials)}")
    by_special = {c.special: c for c in deck.cards if c.special}
    for name in ("troll", "bear"):
        if name in by_special and not by_special[name].bruiser:
            raise _reject("specials", f"{by_special[name].name} is a bruiser")
    for special, card in by_special.items():
        if card.position not in SPECIAL_POSITIONS.get(special, "FDG"):
            where = " or ".join(POSITION_NAMES[p] for p in SPECIAL_POSITIONS[special])
            raise _reject("specials", f"{SPECIAL_NAMES[special]} ({card.id}) is a {where}")
    if (tim := by_special.get("tiny_tim")) and tim.value != 0.5:
        raise _reject("specials", "Tiny Tim is a defenseman worth 1/2")


def _check_teams(deck: Deck, spec: EditionSpec) -> None:
    teams: dict[str, list[Card]] = {}
    for c in deck.cards:
        teams.setdefault(c.team, []).append(c)
    mask = teams.pop(MASK, [])
    mask_bruisers = sum(c.bruiser for c in mask)
    mask_forwards = sum(c.position == "F" and not c.bruiser for c in mask)
    if len(mask) != spec.bruisers + 1 or mask_bruisers != spec.bruisers or mask_forwards != 1:
        raise _reject("teams", f"the mask cards are the {spec.bruisers} bruisers and the Dragon (a forward)")
    if len(teams) != spec.teams:
        raise _reject("teams", f"a {deck.edition} deck has {spec.teams} team symbols besides the mask, "
                      f"this one has {len(teams)}")
    totals = set()
    for symbol, members in sorted(teams.items()):
        shape = Counter(c.position for c in members)
        if len(members) != 10 or any(shape[p] != n for p, n in TEAM_SHAPE.items()):
            raise _reject("teams", f"team {symbol} must be 10 players: 5 forwards, 3 defensemen, 2 goalies")
        totals.add(sum(c.value for c in members))
    if len(totals) != 1:
        raise _reject("teams", f"every team must have the same total value; totals seen: {sorted(totals)}")


def _check_names(deck: Deck, spec: EditionSpec) -> None:
    """Each special carries its name and the mask forward is the Dragon; no other card takes one of those names
    (names compare without case)."""
    reserved = {SPECIAL_NAMES[x].casefold(): SPECIAL_NAMES[x] for x in spec.specials} | {DRAGON.casefold(): DRAGON}
    for c in deck.cards:
        dragon = c.team == MASK and not c.bruiser
        wanted = SPECIAL_NAMES[c.special] if c.special else DRAGON if dragon else None
        if wanted is not None and c.name.casefold() != wanted.casefold():
            raise _reject("names", f"{c.id} is {wanted} and must carry that name, not {c.name!r}")
        if wanted is None and c.name.casefold() in reserved:
            raise _reject("names", f"{c.id} is an ordinary player and may not be called {reserved[c.name.casefold()]}")


def load_deck(data: bytes | str) -> Deck:
    """Decode and validate a deck file's contents (JSON)."""
    try:
        deck = msgspec.json.decode(data, type=Deck)
    except msgspec.ValidationError as e:
        raise _reject("format", f"the deck file is not a valid deck: {e}") from e
    except msgspec.DecodeError as e:
        raise _reject("format", f"the deck file is not JSON: {e}") from e
    return validate_deck(deck)


@cache
def reference_deck(edition: Edition) -> Deck:
    data = resources.files("shared.games.phantoms").joinpath("decks").joinpath(f"{edition}.json").read_bytes()
    return load_deck(data)


def fingerprint(deck: Deck) -> str:
    return hashlib.sha256(msgspec.json.encode(deck)).hexdigest()
