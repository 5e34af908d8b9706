"""Checking and applying the commands of a game: line-ups, face-down choices, Sitting Bull, resting."""

from __future__ import annotations

from shared.games.phantoms import commands as cmd
from shared.games.phantoms import events as ev
from shared.games.phantoms.emitter import Emitter, reject
from shared.games.phantoms.lineup import lineup_ok
from shared.games.phantoms.readings import injured_note
from shared.games.phantoms.state import Season


def field_team(out: Emitter, s: Season, c: cmd.FieldTeam) -> None:
    m = s.managers[c.seat]
    if unknown := [x for x in c.cards if x not in m.cards or x in m.resting]:
        reject("poti.team.not-available", f"not available for this game: {', '.join(unknown)}")
    if not lineup_ok([s.cards[x] for x in c.cards], set(c.forwards), True):
        reject("poti.team.lineup", "a team is 3 forwards, 2 defensemen and 1 goalie (Troll and Bear may play "
               "forward)")
    out.emit(ev.LineupFielded(seat=c.seat, cards=c.cards), ev.LineupReady(seat=c.seat))


def choose_card(out: Emitter, s: Season, c: cmd.ChooseCard) -> None:
    g = s.game
    assert g is not None
    if c.card not in g.hands[g.side(c.seat)]:
        reject("poti.game.not-in-hand",
               f"{c.card} is not among the players you still hold in this game{injured_note(s, c.card)}")
    out.emit(ev.CardChosen(seat=c.seat, card=c.card), ev.CardLaidDown(seat=c.seat))


def flip_pile(out: Emitter, s: Season, c: cmd.FlipPile) -> None:
    if c.pile is None:
        out.emit(ev.FlipDeclined(seat=c.seat))
        return
    pile = s.pile(c.pile)
    if not pile:
        reject("powerplay.sitting-bull.empty-pile", f"the {c.pile} pile is empty; choose another")
    out.emit(ev.PileFlipped(seat=c.seat, pile=c.pile, card=pile[0], value=s.cards[pile[0]].value))


def claim_win(out: Emitter, s: Season, c: cmd.ClaimWin) -> None:
    assert s.game is not None
    if c.claim:
        out.emit(ev.WinClaimed(seat=c.seat))
    else:
        out.emit(ev.ClaimDeclined(seat=c.seat, block=s.game.block))


def rest(out: Emitter, s: Season, c: cmd.Rest) -> None:
    pool, must = s.rest_pool[c.seat], s.rest_must[c.seat]
    size = max(3, len(must))
    if len(set(c.cards)) != size or len(c.cards) != size:
        reject("poti.team.rest-three", f"rest exactly {size} different players")
    if stray := [x for x in c.cards if x not in pool]:
        reject("poti.team.rest-pool", f"these may not rest now: {', '.join(stray)}")
    if missing := [x for x in must if x not in c.cards]:
        reject("poti.team.rest-injured", f"injured players must rest: {', '.join(missing)}")
    out.emit(ev.PlayersRested(seat=c.seat, cards=tuple(c.cards)))
