"""Card data is data: reference decks, the validator, organisers' deck files."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from msgspec.structs import replace

from shared.games.draws import SeededDraws
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.cards import Deck
from shared.games.phantoms.deck import fingerprint, load_deck, reference_deck, validate_deck
from shared.games.phantoms.options import Options
from shared.games.rules import RuleViolation


@pytest.mark.parametrize(("edition", "counts", "bruisers", "teams", "specials"), [
    ("poti", {"F": 31, "D": 23, "G": 12}, 5, 6, {"tiny_tim", "rumpelstickskin", "troll", "bear"}),
    ("powerplay", {"F": 36, "D": 27, "G": 14}, 6, 7,
     {"hydra", "jolly_judge", "rosalinde", "rumpelstockchen", "sitting_bull", "willy_winzig"}),
])
def test_phantoms_reference_decks_follow_rules_md(edition: str, counts: dict[str, int], bruisers: int, teams: int,
                                                  specials: set[str]) -> None:
    deck = reference_deck(edition)
    assert Counter(c.position for c in deck.cards) == counts
    assert sum(c.bruiser for c in deck.cards) == bruisers
    assert {c.special for c in deck.cards if c.special} == specials
    symbols = Counter(c.team for c in deck.cards)
    assert symbols.pop("mask") == bruisers + 1 and len(symbols) == teams and set(symbols.values()) == {10}
    totals = {sum(c.value for c in deck.cards if c.team == t) for t in symbols}
    assert len(totals) == 1
    assert all(0 <= c.value <= 11 for c in deck.cards)
    dragon = [c for c in deck.cards if c.team == "mask" and not c.bruiser]
    assert [c.name for c in dragon] == ["Dragon"] and dragon[0].position == "F"


def test_poti_reference_deck_has_a_zero_bruiser_and_a_half_tiny_tim() -> None:
    deck = reference_deck("poti")
    assert any(c.bruiser and c.value == 0 for c in deck.cards)
    tim = next(c for c in deck.cards if c.special == "tiny_tim")
    assert (tim.position, tim.value) == ("D", 0.5)
    assert all(next(c for c in deck.cards if c.special == s).bruiser for s in ("troll", "bear"))


SPECIALS = {  # name, positions: RULES.md and the seeds (Willy Winzig is played against goalies, so is none)
    "tiny_tim": ("Tiny Tim", "D"), "rumpelstickskin": ("Rumpelstickskin", "FDG"), "troll": ("Troll", "D"),
    "bear": ("Bear", "D"), "hydra": ("Hydra", "FDG"), "jolly_judge": ("Jolly Judge", "FDG"),
    "rosalinde": ("Rosalinde", "FDG"), "rumpelstockchen": ("Rumpelstockchen", "FDG"),
    "sitting_bull": ("Sitting Bull", "FDG"), "willy_winzig": ("Willy Winzig", "FD"),
}


@pytest.mark.parametrize("edition", ["poti", "powerplay"])
def test_phantoms_reference_deck_specials_carry_their_names_and_positions(edition: str) -> None:
    deck = reference_deck(edition)
    names = {name for name, _ in SPECIALS.values()} | {"Dragon"}
    for c in deck.cards:
        if c.special:
            name, positions = SPECIALS[c.special]
            assert c.name == name and c.position in positions, c
        elif c.team == "mask" and not c.bruiser:
            assert (c.name, c.position) == ("Dragon", "F")
        else:
            assert c.name not in names, c
    troll_bear = [c for c in deck.cards if c.special in ("troll", "bear")]
    assert all(c.bruiser and c.position == "D" for c in troll_bear)
    if edition == "poti":
        assert next(c for c in deck.cards if c.name == "Big Ben").value == 8.5


Changes = dict[str, dict[str, object]]


def changed(edition: str, changes: Changes) -> Deck:
    deck = reference_deck(edition)
    return replace(deck, cards=tuple(replace(c, **changes.get(c.id, {})) for c in deck.cards))


@pytest.mark.parametrize(("edition", "changes", "code"), [
    ("poti", {"lantern-d3": {"name": "Smokey Sam"}}, "phantoms.deck.names"),
    ("poti", {"lantern-d2": {"name": "Tiny Tim"}}, "phantoms.deck.names"),
    ("poti", {"mask-6": {"name": "Wyvern"}}, "phantoms.deck.names"),
    ("poti", {"lantern-d3": {"position": "F"}, "lantern-f5": {"position": "D"}}, "phantoms.deck.specials"),
    ("powerplay", {"crown-d1": {"name": "Judge Jolly"}}, "phantoms.deck.names"),
    ("powerplay", {"wheel-f5": {"position": "G"}, "wheel-g1": {"position": "F"}}, "phantoms.deck.specials"),
], ids=["tim-unnamed", "tim-impostor", "dragon-unnamed", "tim-forward", "judge-misnamed", "winzig-goalie"])
def test_phantoms_deck_validator_rejects_misnamed_or_misplaced_specials(edition: str, changes: Changes,
                                                                      code: str) -> None:
    with pytest.raises(RuleViolation) as e:
        validate_deck(changed(edition, changes))
    assert e.value.code == code and e.value.message


def broken(change: str) -> Deck:
    deck = reference_deck("poti")
    cards = list(deck.cards)
    match change:
        case "size":
            cards.pop()
        case "bruiser-forward":
            cards[0] = replace(cards[0], bruiser=True)
        case "special-missing":
            cards = [replace(c, special=None) if c.special == "troll" else c for c in cards]
        case "totals":
            cards[0] = replace(cards[0], value=cards[0].value - 1)
        case "duplicate":
            cards[1] = replace(cards[1], id=cards[0].id)
        case "value":
            cards[0] = replace(cards[0], value=12.0)
    return replace(deck, cards=tuple(cards))


@pytest.mark.parametrize(("change", "code"), [
    ("size", "phantoms.deck.size"),
    ("bruiser-forward", "phantoms.deck.bruisers"),
    ("special-missing", "phantoms.deck.specials"),
    ("totals", "phantoms.deck.teams"),
    ("duplicate", "phantoms.deck.unique-ids"),
    ("value", "phantoms.deck.values"),
])
def test_phantoms_deck_validator_rejects_invalid_decks(change: str, code: str) -> None:
    with pytest.raises(RuleViolation) as e:
        validate_deck(broken(change))
    assert e.value.code == code and e.value.message


def test_phantoms_organiser_deck_file_is_loaded_and_recorded() -> None:
    mine = reference_deck("poti")
    cards = tuple(replace(c, name=c.name.upper()) for c in mine.cards)
    data = msgspec.json.encode(replace(mine, name="Club deck", cards=cards))
    deck = load_deck(data)
    events = rules.new_game(Options(deck=deck), 3, SeededDraws(random.Random(0)))
    first = events[0]
    assert isinstance(first, ev.SeasonOpened)
    assert first.deck == deck and first.deck_fingerprint == fingerprint(deck) != fingerprint(mine)


def test_phantoms_organiser_deck_must_be_valid_and_match_the_edition() -> None:
    with pytest.raises(RuleViolation) as e:
        load_deck(b'{"edition": "poti", "name": "x", "cards": []}')
    assert e.value.code == "phantoms.deck.size"
    with pytest.raises(RuleViolation) as e:
        load_deck(b"not json")
    assert e.value.code == "phantoms.deck.format"
    with pytest.raises(RuleViolation) as e:
        rules.new_game(Options(edition="powerplay", deck=reference_deck("poti")), 3, SeededDraws(random.Random(0)))
    assert e.value.code == "phantoms.deck.edition"
