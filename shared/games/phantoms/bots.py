"""Two bots that choose among ``legal_commands``: ``random`` and ``greedy``."""

from __future__ import annotations

import random

from shared.games.phantoms import commands as cmd
from shared.games.phantoms.cards import LINEUP, POSITIONS, Card
from shared.games.phantoms.legal import legal_commands, rest_choices
from shared.games.phantoms.lineup import best_lineup
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import allowed_opponents, step


def random_bot(state: Season, seat: int, rng: random.Random) -> cmd.Command:
    return rng.choice(legal_commands(state, seat))


def worth(card: Card) -> float:
    """What a player is worth to a bot, specials included."""
    match card.special:
        case "hydra":
            return 4.0
        case "sitting_bull":
            return card.value + 4.0
        case "tiny_tim" | "willy_winzig":
            return card.value + 3.0
        case "rumpelstickskin" | "rumpelstockchen" | "jolly_judge":
            return card.value + 1.5
        case _:
            return card.value + (1.5 if card.bruiser else 0.0)


def _play_order(card: Card, noise: float) -> tuple[int, float, str]:
    """Strong skaters first (shuffled a little, so that two greedy teams do not tie forever), Hydra late (it
    grows), the goalie last."""
    if card.position == "G":
        return (2, -card.value, card.id)
    if card.special == "hydra":
        return (1, 0.0, card.id)
    return (0, noise - worth(card), card.id)


def greedy_bot(state: Season, seat: int, rng: random.Random) -> cmd.Command:
    now, _ = step(state)
    m = state.managers[seat]
    cards = [state.cards[c] for c in m.cards]
    match now:
        case "opening":
            missing = {p: LINEUP[p] - sum(c.position == p for c in cards) for p in POSITIONS}
            pile = max((p for p in POSITIONS if missing[p] > 0 and state.pile(p)), key=lambda p: missing[p])
            return cmd.TakeFromPile(seat=seat, pile=pile)
        case "turn":
            return _turn(state, seat, cards, rng)
        case "trade-pick":
            return rng.choice(legal_commands(state, seat))
        case "trade-return":
            options = legal_commands(state, seat)
            return min(options, key=lambda c: (worth(state.cards[c.card]), c.card) if isinstance(c, cmd.ReturnCard)
                       else (0.0, ""))
        case "lineup":
            available = [c for c in cards if c.id not in m.resting]
            best = best_lineup(available, True)
            assert best is not None
            return cmd.FieldTeam(seat=seat, cards=best[0], forwards=best[1])
        case "choose":
            g = state.game
            assert g is not None
            hand = [state.cards[c] for c in g.hands[g.side(seat)]]
            spread = 3.0 if g.block == 0 else 12.0
            return cmd.ChooseCard(seat=seat, card=min(hand, key=lambda c: _play_order(c, rng.random() * spread)).id)
        case "flip":
            piles = [p for p in POSITIONS if state.pile(p)]
            return cmd.FlipPile(seat=seat, pile=rng.choice(piles))
        case "claim":
            return cmd.ClaimWin(seat=seat, claim=True)
        case "rest":
            return cmd.Rest(seat=seat, cards=_best_rest(state, seat))
        case _:
            raise ValueError(f"seat {seat} has no move now")


def _turn(state: Season, seat: int, cards: list[Card], rng: random.Random) -> cmd.Command:
    allowed = allowed_opponents(state, seat)
    target = min(allowed, key=lambda o: (state.managers[o].wins, rng.random()))
    challenge = cmd.Challenge(seat=seat, opponent=target)
    if state.options.team_variant:
        return challenge
    skaters = [c for c in cards if c.position != "G"]
    weakest = min(skaters, key=lambda c: (worth(c), c.id))
    strength = sum(worth(c) for c in cards)
    if strength >= 40 or rng.random() < 0.35:
        return challenge
    if worth(weakest) < 5:
        return cmd.Draft(seat=seat, card=weakest.id)
    goalie = next(c for c in cards if c.position == "G")
    if goalie.value < 6:
        return cmd.Draft(seat=seat, card=goalie.id)
    opponents = [o for o in range(state.seats) if o != seat]
    return cmd.Trade(seat=seat, opponent=rng.choice(opponents))


def _best_rest(state: Season, seat: int) -> tuple[str, ...]:
    """Rest so that the strongest legal six is left for the next game."""
    m = state.managers[seat]
    best: tuple[float, tuple[str, ...]] | None = None
    for rest in rest_choices(state, seat):
        available = [state.cards[c] for c in m.cards if c not in rest]
        lineup = best_lineup(available, True)
        score = -1.0 if lineup is None else sum(state.cards[c].value for c in lineup[0])
        if best is None or score > best[0]:
            best = (score, rest)
    assert best is not None
    return best[1]


BOTS = {"random": random_bot, "greedy": greedy_bot}
