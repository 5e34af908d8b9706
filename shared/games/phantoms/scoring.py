"""One round of a game: the seed's scoring list, in RULES.md's order (goalies, bruisers and injuries, specials,
values)."""

from __future__ import annotations

from shared.games.phantoms.cards import Card, strongest

ROUNDS = 6
SCORES_AGAINST_GOALIE = frozenset({"tiny_tim", "willy_winzig"})


def value_in_game(card: Card, block: int, round_: int, bonus: float | None = None) -> float:
    """Hydra is worth its round number (7, 8, ... in sudden death); Sitting Bull adds his flipped card."""
    if card.special == "hydra":
        return block * ROUNDS + round_
    if card.special == "sitting_bull" and bonus:
        return card.value + bonus
    return card.value


def injuries(a: Card, b: Card) -> tuple[Card, ...]:
    """Who is injured, in replacement order (two bruisers: the higher value first, ties by card id)."""
    if a.special == "rumpelstickskin" and b.bruiser:
        return (b,)
    if b.special == "rumpelstickskin" and a.bruiser:
        return (a,)
    if a.bruiser and b.bruiser:
        first = strongest([a, b])
        return (first, b if first is a else a)
    if a.bruiser:
        return (b,)
    if b.bruiser:
        return (a,)
    return ()


def goal(a: Card, b: Card, va: float, vb: float) -> int | None:
    """0 if ``a`` scores, 1 if ``b`` scores, None for no goal."""
    if (a.special == "rumpelstickskin" and b.bruiser) or (b.special == "rumpelstickskin" and a.bruiser):
        return None
    a_goalie, b_goalie = a.position == "G", b.position == "G"
    if a_goalie != b_goalie:
        shooter = 1 if a_goalie else 0
        return shooter if (b if a_goalie else a).special in SCORES_AGAINST_GOALIE else None
    if va == vb:
        return None
    return 0 if va > vb else 1


def taken_back(hand: list[Card], played: Card, value: dict[str, float]) -> Card:
    """Rumpelstockchen: the card his opponent must play instead of ``played`` (his highest, ties by card id).

    ``played`` is back in the hand, so it stays on the table when it already is the highest."""
    return strongest([*hand, played], value)
