"""``legal_commands(state, seat)``: every command the seat may send now (for bots and UIs)."""

from __future__ import annotations

from itertools import combinations

from shared.games.phantoms import commands as cmd
from shared.games.phantoms.cards import LINEUP, POSITIONS
from shared.games.phantoms.lineup import lineups
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import allowed_opponents, step


def legal_commands(s: Season | None, seat: int) -> list[cmd.Command]:
    now, seats = step(s)
    if s is None or seat not in seats:
        return []
    m = s.managers[seat]
    match now:
        case "opening":
            return [
                cmd.TakeFromPile(seat=seat, pile=p) for p in POSITIONS
                if s.pile(p) and sum(s.cards[c].position == p for c in m.cards) < LINEUP[p]
            ]
        case "turn":
            found: list[cmd.Command] = [cmd.Challenge(seat=seat, opponent=o) for o in allowed_opponents(s, seat)]
            if not s.options.team_variant:
                found += [cmd.Trade(seat=seat, opponent=o) for o in range(s.seats) if o != seat]
                found += [cmd.Draft(seat=seat, card=c) for c in m.cards]
            return found
        case "trade-pick":
            assert s.trade is not None
            return [cmd.PickTradeCard(seat=seat, index=i) for i in range(1, len(s.trade.order) + 1)]
        case "trade-return":
            assert s.trade is not None and s.trade.taken is not None
            position = s.cards[s.trade.taken].position
            return [
                cmd.ReturnCard(seat=seat, card=c) for c in m.cards
                if c != s.trade.taken and s.cards[c].position == position
            ]
        case "lineup":
            available = [s.cards[c] for c in m.cards if c not in m.resting]
            return [cmd.FieldTeam(seat=seat, cards=six, forwards=fw) for six, fw in lineups(available, True)]
        case "choose":
            assert s.game is not None
            return [cmd.ChooseCard(seat=seat, card=c) for c in s.game.hands[s.game.side(seat)]]
        case "flip":
            return [*(cmd.FlipPile(seat=seat, pile=p) for p in POSITIONS if s.pile(p)),
                    cmd.FlipPile(seat=seat, pile=None)]
        case "claim":
            return [cmd.ClaimWin(seat=seat, claim=True), cmd.ClaimWin(seat=seat, claim=False)]
        case "rest":
            return [cmd.Rest(seat=seat, cards=cards) for cards in rest_choices(s, seat)]
        case _:
            return []


def rest_choices(s: Season, seat: int) -> list[tuple[str, ...]]:
    pool, must = s.rest_pool[seat], s.rest_must[seat]
    if len(must) >= 3:
        return [must]
    others = [c for c in pool if c not in must]
    return [must + extra for extra in combinations(others, 3 - len(must))]
