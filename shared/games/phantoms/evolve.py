"""The fold: ``evolve(state, event) -> state``. Never draws, never decides; public twins of private events
change nothing."""

from __future__ import annotations

from typing import Any, assert_never

from msgspec.structs import replace

from shared.games.phantoms import events as ev
from shared.games.phantoms.state import Game, Manager, PendingTrade, Piles, Result, RoundRecord, Season, Stage


def _manager(s: Season, seat: int, **changes: Any) -> tuple[Manager, ...]:
    managers = list(s.managers)
    managers[seat] = replace(managers[seat], **changes)
    return tuple(managers)


def _swap(cards: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    return tuple(new if c == old else c for c in cards)


def _without(cards: tuple[str, ...], *gone: str) -> tuple[str, ...]:
    return tuple(c for c in cards if c not in gone)


def _pile_index(s: Season, card: str) -> int:
    return "FDG".index(s.cards[card].position)


def _set_pile(piles: Piles, index: int, pile: tuple[str, ...]) -> Piles:
    as_list = list(piles)
    as_list[index] = pile
    return (as_list[0], as_list[1], as_list[2])


def _pair(values: tuple[Any, Any], side: int, value: Any) -> tuple[Any, Any]:
    return (value, values[1]) if side == 0 else (values[0], value)


def opened(e: ev.SeasonOpened) -> Season:
    return Season(
        options=e.options,
        cards={c.id: c for c in e.deck.cards},
        seats=e.seats,
        managers=tuple(Manager(initiated=(0,) * e.seats) for _ in range(e.seats)),
        injury_rule=e.injuries or ev.EDITION_INJURIES[e.edition],
    )


def evolve(state: Season | None, event: ev.Event) -> Season:
    if isinstance(event, ev.SeasonOpened):
        return opened(event)
    if state is None:
        raise ValueError(f"a season starts with SeasonOpened, not {type(event).__name__}")
    s = state
    match event:
        case (
            ev.OpeningPickMade() | ev.TradeStarted() | ev.TradeCardPicked() | ev.DraftMade() | ev.LineupReady()
            | ev.CardLaidDown() | ev.InjuryReplaced() | ev.MoveTimedOut()
        ):
            return s
        case ev.CardChosen(seat=seat, card=card):
            g = _game(s)
            return replace(s, game=replace(g, chosen=_pair(g.chosen, g.side(seat), card)))
        case ev.CardsRevealed(home_card=home_card, away_card=away_card):
            g = _game(s)
            hands = (_without(g.hands[0], home_card), _without(g.hands[1], away_card))
            return replace(s, game=replace(g, table=(home_card, away_card), chosen=(None, None), hands=hands))
        case ev.RoundScored():
            return _scored(s, event)
        case ev.SeasonOpened():
            raise AssertionError("handled above")
        case ev.PilesShuffled(forwards=f, defense=d, goalies=g):
            return replace(s, piles=(f, d, g))
        case ev.TeamsAssigned(teams=teams, unused=unused):
            managers = tuple(replace(m, team=t) for m, t in zip(s.managers, teams, strict=True))
            return replace(s, managers=managers, out=s.out + unused)
        case ev.TeamDealt(seat=seat, cards=cards, mask=mask):
            return replace(s, managers=_manager(s, seat, cards=cards + (mask,)))
        case ev.OpeningCardDrawn(seat=seat, card=card):
            i = _pile_index(s, card)
            piles = _set_pile(s.piles, i, _without(s.piles[i], card))
            managers = _manager(s, seat, cards=s.managers[seat].cards + (card,))
            return replace(s, piles=piles, managers=managers, picks=s.picks + 1)
        case ev.TurnStarted(seat=seat):
            return replace(s, phase="regular", turn=seat, turn_done=False)
        case ev.TradeOffered(opponent=opponent, order=order):
            return replace(s, trade=PendingTrade(opponent=opponent, order=order))
        case ev.TradeCardTaken(seat=seat, opponent=opponent, card=card):
            s = replace(s, managers=_manager(s, opponent, cards=_without(s.managers[opponent].cards, card)))
            s = replace(s, managers=_manager(s, seat, cards=s.managers[seat].cards + (card,)))
            assert s.trade is not None
            return replace(s, trade=replace(s.trade, taken=card))
        case ev.TradeCardReturned(seat=seat, opponent=opponent, card=card):
            s = replace(s, managers=_manager(s, seat, cards=_without(s.managers[seat].cards, card)))
            return replace(s, managers=_manager(s, opponent, cards=s.managers[opponent].cards + (card,)))
        case ev.TradeCompleted():
            return replace(s, trade=None, turn_done=True)
        case ev.Drafted(seat=seat, given=given, received=received):
            i = _pile_index(s, given)
            pile = s.piles[i] + (given,)
            assert pile[0] == received
            managers = _manager(s, seat, cards=_swap(s.managers[seat].cards, given, received))
            return replace(s, piles=_set_pile(s.piles, i, pile[1:]), managers=managers, turn_done=True)
        case ev.Challenged(seat=seat, opponent=opponent):
            initiated = list(s.managers[seat].initiated)
            initiated[opponent] += 1
            return replace(s, managers=_manager(s, seat, initiated=tuple(initiated)))
        case ev.GameStarted(home=home, away=away, kind=kind):
            if s.options.team_variant:
                game = Game(home=home, away=away, kind=kind, lineups=(None, None))
            else:
                six = (s.managers[home].cards, s.managers[away].cards)
                game = Game(home=home, away=away, kind=kind, lineups=six, hands=six)
            return replace(s, game=game)
        case ev.LineupFielded(seat=seat, cards=cards):
            g = _game(s)
            lineups = _pair(g.lineups, g.side(seat), cards)
            hands = lineups if None not in lineups else g.hands
            return replace(s, game=replace(g, lineups=lineups, hands=hands))
        case ev.CardTakenBack(seat=seat, taken_back=back, played=played):
            g = _game(s)
            side = g.side(seat)
            hand = _without(g.hands[side], played) + (back,)
            game = replace(g, hands=_pair(g.hands, side, hand), table=_pair(g.table, side, played), swapped=True)
            return replace(s, game=game)
        case ev.PileFlipped(pile=pile, card=card, value=value):
            i = "FDG".index(pile)
            assert s.piles[i][0] == card
            piles = _set_pile(s.piles, i, s.piles[i][1:] + (card,))
            return replace(s, piles=piles, game=replace(_game(s), bonus=value))
        case ev.FlipDeclined():
            return replace(s, game=replace(_game(s), bonus=0.0))
        case ev.WinClaimed(seat=seat):
            return replace(s, game=replace(_game(s), winner=seat, claimed=True))
        case ev.ClaimDeclined(block=block):
            return replace(s, game=replace(_game(s), declined_block=block))
        case ev.ReplacementDrawn(seat=seat, injured=injured, card=card):
            i = _pile_index(s, injured)
            assert s.piles[i][0] == card
            s = replace(s, piles=_set_pile(s.piles, i, s.piles[i][1:]), out=s.out + (injured,))
            s = replace(s, managers=_manager(s, seat, cards=_swap(s.managers[seat].cards, injured, card)))
            return _replaced(s, seat, injured)
        case ev.InjuredPlayerDrafted(seat=seat, injured=injured, card=card):
            i = _pile_index(s, injured)
            pile = s.piles[i] + (injured,)
            assert pile[0] == card
            s = replace(s, piles=_set_pile(s.piles, i, pile[1:]))
            s = replace(s, managers=_manager(s, seat, cards=_swap(s.managers[seat].cards, injured, card)))
            return _replaced(s, seat, injured)
        case ev.InjuredPlayerStays(seat=seat, injured=injured):
            return _replaced(s, seat, injured)
        case ev.SuddenDeathStarted(block=block):
            g = _game(s)
            if s.options.team_variant:
                home_six, away_six = g.lineups
                assert home_six is not None and away_six is not None  # fielded before the game began
                six = (home_six, away_six)
            else:
                six = (s.managers[g.home].cards, s.managers[g.away].cards)
            game = replace(g, block=block, round=1, hands=six, lineups=six, table=(None, None), chosen=(None, None))
            return replace(s, game=game)
        case ev.GameEnded():
            return _ended(s, event)
        case ev.PlayersRested(seat=seat, cards=cards):
            rest_due = tuple(x for x in s.rest_due if x != seat)
            return replace(s, managers=_manager(s, seat, resting=cards), rest_due=rest_due)
        case ev.SeasonEnded(leader=leader):
            return replace(s, phase="postseason", leader=leader, turn_done=False)
        case ev.ManagersEliminated(seats=seats, cards=cards):
            managers = tuple(
                replace(m, eliminated=True, cards=(), resting=()) if i in seats else m for i, m in enumerate(s.managers)
            )
            return replace(s, managers=managers, out=s.out + cards)
        case ev.StageStarted():
            stage = Stage(purpose=event.purpose, mode=event.mode, teams=event.teams, pairs=event.pairs,
                          byes=event.byes, wins_needed=event.wins_needed)
            return replace(s, stage=stage)
        case ev.ChampionDecided(seat=seat):
            return replace(s, champion=seat, phase="over")
        case _:
            assert_never(event)


def _game(s: Season) -> Game:
    assert s.game is not None
    return s.game


def _scored(s: Season, e: ev.RoundScored) -> Season:
    g = _game(s)
    score = g.score
    if e.goal is not None:
        side = g.side(e.goal)
        score = _pair(score, side, score[side] + 1)
    owners = {e.home_card: g.home, e.away_card: g.away}
    injured = tuple((owners[c], c) for c in e.injured)
    judge = tuple(
        j or s.cards[c].special == "jolly_judge" for j, c in zip(g.judge, (e.home_card, e.away_card), strict=True)
    )
    record = RoundRecord(block=e.block, round=e.round, cards=(e.home_card, e.away_card),
                         values=(e.home_value, e.away_value), goal=e.goal, injured=e.injured)
    game = replace(
        g,
        score=score,
        table=(None, None),
        round=g.round + 1,
        bonus=None,
        swapped=False,
        judge=(judge[0], judge[1]),
        injured=g.injured + injured,
        to_replace=g.to_replace if s.options.team_variant else g.to_replace + _new(injured, g.to_replace),
        history=g.history + (record,),
        winner=e.goal if e.block > 0 and e.goal is not None else g.winner,
    )
    return replace(s, game=game, injuries=s.injuries + e.injured)


def _new(injured: tuple[tuple[int, str], ...], known: tuple[tuple[int, str], ...]) -> tuple[tuple[int, str], ...]:
    """A player hurt again in a later sudden death is still replaced once."""
    return tuple(x for x in injured if x not in known)


def _replaced(s: Season, seat: int, injured: str) -> Season:
    if s.game is not None and (seat, injured) in s.game.to_replace:
        return replace(s, game=replace(s.game, to_replace=tuple(x for x in s.game.to_replace if x != (seat, injured))))
    return replace(s, replacements=tuple(x for x in s.replacements if x != (seat, injured)))


def _ended(s: Season, e: ev.GameEnded) -> Season:
    result = Result(home=e.home, away=e.away, home_goals=e.home_goals, away_goals=e.away_goals, winner=e.winner,
                    kind=e.kind, claimed=e.claimed, forfeit=e.forfeit, sudden_deaths=e.sudden_deaths)
    managers = list(s.managers)
    if e.kind == "regular":
        for seat, scored, conceded in ((e.home, e.home_goals, e.away_goals), (e.away, e.away_goals, e.home_goals)):
            m = managers[seat]
            managers[seat] = replace(m, wins=m.wins + (e.winner == seat), goals_for=m.goals_for + scored,
                                     goals_against=m.goals_against + conceded)
    g = s.game
    stage = s.stage
    if stage is not None and e.kind != "regular":
        stage = replace(stage, games=stage.games + (result,))
    s = replace(s, managers=tuple(managers), results=s.results + (result,), stage=stage, game=None,
                turn_done=e.kind == "regular")
    if g is None:
        return s
    if not s.options.team_variant:
        return replace(s, replacements=s.replacements + g.to_replace)
    pool: list[tuple[str, ...]] = [()] * s.seats
    must: list[tuple[str, ...]] = [()] * s.seats
    for side, seat in enumerate(g.seats):
        lineup = g.lineups[side]
        if e.forfeit or lineup is None:
            pool[seat] = _without(s.managers[seat].cards, *s.managers[seat].resting)
        else:
            pool[seat] = lineup
            must[seat] = tuple(dict.fromkeys(c for who, c in g.injured if who == seat))
    return replace(s, rest_due=g.seats, rest_pool=tuple(pool), rest_must=tuple(must))
