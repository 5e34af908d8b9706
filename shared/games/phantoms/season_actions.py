"""Checking and applying the commands of the season's turns: opening draft, Trade, Draft, Play A Game."""

from __future__ import annotations

from shared.games.draws import Draws, permutation
from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms.auto import start_game
from shared.games.phantoms.cards import LINEUP, strongest
from shared.games.phantoms.emitter import Emitter, reject
from shared.games.phantoms.readings import injured_note
from shared.games.phantoms.state import Season
from shared.games.phantoms.turns import allowed_opponents


def take_from_pile(out: Emitter, s: Season, c: cmd.TakeFromPile) -> None:
    have = sum(s.cards[x].position == c.pile for x in s.managers[c.seat].cards)
    if have >= LINEUP[c.pile]:
        reject("poti.opening.position-full", f"you already have {have} of position {c.pile}; a team is 3F 2D 1G")
    pile = s.pile(c.pile)
    if not pile:
        reject("poti.opening.pile-empty", f"the {c.pile} pile is empty")
    out.emit(ev.OpeningPickMade(seat=c.seat, pile=c.pile), ev.OpeningCardDrawn(seat=c.seat, card=pile[0]))


def _opponent(s: Season, seat: int, opponent: int, rule: str) -> None:
    if not 0 <= opponent < s.seats or opponent == seat or s.managers[opponent].eliminated:
        reject(rule, f"seat {opponent} is not an opposing manager in this season")


def _no_team_variant(s: Season, what: str) -> None:
    if s.options.team_variant:
        reject("poti.team.games-only", f"no {what} in the team variant: every turn is a game")


def trade(out: Emitter, s: Season, c: cmd.Trade, draws: Draws) -> None:
    _no_team_variant(s, "trades")
    _opponent(s, c.seat, c.opponent, "poti.trade.opponent")
    team = s.managers[c.opponent].cards
    order = tuple(team[i] for i in permutation(draws, len(team)))
    out.emit(ev.TradeStarted(seat=c.seat, opponent=c.opponent),
             ev.TradeOffered(seat=c.seat, opponent=c.opponent, order=order))


def pick_trade_card(out: Emitter, s: Season, c: cmd.PickTradeCard) -> None:
    assert s.trade is not None
    order = s.trade.order
    if not 1 <= c.index <= len(order):
        reject("poti.trade.pick", f"pick one of the face-down cards 1-{len(order)}")
    card = s.cards[order[c.index - 1]]
    out.emit(ev.TradeCardPicked(seat=c.seat, opponent=s.trade.opponent, index=c.index),
             ev.TradeCardTaken(seat=c.seat, opponent=s.trade.opponent, card=card.id))
    if card.special == "rosalinde":
        own = [s.cards[x] for x in s.managers[c.seat].cards if s.cards[x].position == card.position]
        given = strongest(own)
        out.emit(ev.TradeCardReturned(seat=c.seat, opponent=s.trade.opponent, card=given.id, forced=True),
                 ev.TradeCompleted(seat=c.seat, opponent=s.trade.opponent))


def return_card(out: Emitter, s: Season, c: cmd.ReturnCard) -> None:
    assert s.trade is not None and s.trade.taken is not None
    taken = s.cards[s.trade.taken]
    if c.card == taken.id:
        reject("poti.trade.not-the-taken-card", "you may not give back the card you just took")
    if c.card not in s.managers[c.seat].cards:
        reject("poti.trade.not-yours", f"{c.card} is not on your team{injured_note(s, c.card)}")
    if s.cards[c.card].position != taken.position:
        reject("poti.trade.same-type", f"you took a {taken.position}; give back a player of the same type")
    out.emit(ev.TradeCardReturned(seat=c.seat, opponent=s.trade.opponent, card=c.card),
             ev.TradeCompleted(seat=c.seat, opponent=s.trade.opponent))


def draft(out: Emitter, s: Season, c: cmd.Draft) -> None:
    _no_team_variant(s, "drafts")
    if c.card not in s.managers[c.seat].cards:
        reject("poti.draft.not-yours", f"{c.card} is not on your team{injured_note(s, c.card)}")
    position = s.cards[c.card].position
    pile = s.pile(position) + (c.card,)
    out.emit(ev.Drafted(seat=c.seat, given=c.card, received=pile[0]), ev.DraftMade(seat=c.seat, pile=position))


def challenge(out: Emitter, s: Season, c: cmd.Challenge) -> None:
    _opponent(s, c.seat, c.opponent, "poti.play.opponent")
    allowed = allowed_opponents(s, c.seat)
    if c.opponent not in allowed:
        names = ", ".join(f"seat {o}" for o in allowed)
        reject("poti.play.season-rule", f"you must first play every manager as often as seat {c.opponent}; "
               f"you may challenge {names}")
    out.emit(ev.Challenged(seat=c.seat, opponent=c.opponent))
    out.emit(*start_game(out.season, c.seat, c.opponent, "regular"))
