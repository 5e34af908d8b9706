"""What the team that wins a roll may do: the die chart, read for its role and the puck's section."""

from __future__ import annotations

from enum import StrEnum

from shared.games.hockeydice.dice import Faces, Symbol, six_sticks, top_symbols
from shared.games.hockeydice.rink import Role, Section, depth, role


class Play(StrEnum):
    SIX_STICKS = "six-sticks"
    ADVANCE = "advance"
    SHOOT = "shoot"
    SAUCER_PASS = "saucer-pass"
    PUSH_BACK_1 = "push-back-1"
    PUSH_BACK_2 = "push-back-2"
    FREE_REROLL = "free-reroll"
    PENALTY = "penalty"


def can_shoot(rink: tuple[Section, ...], section_depth: int) -> bool:
    """Past the blue line: a section of the opponent's half that has a shot modifier."""
    return 0 < section_depth <= len(rink) and rink[section_depth - 1].shot_modifier is not None


def symbol_plays(symbol: Symbol, rink: tuple[Section, ...], puck: int, seat: int) -> tuple[Play, ...]:
    offense = role(puck, seat) is Role.OFFENSE
    match symbol:
        case Symbol.STICK:
            if not offense:
                return (Play.PUSH_BACK_1,)
            here = depth(puck, seat)
            advance = (Play.ADVANCE,) if here < len(rink) else ()
            shoot = (Play.SHOOT,) if can_shoot(rink, here) else ()
            return advance + shoot
        case Symbol.PUCK:
            return (Play.SAUCER_PASS,) if offense else (Play.PUSH_BACK_2,)
        case Symbol.CHECK:
            return (Play.FREE_REROLL,)
        case Symbol.PENALTY:
            return (Play.PENALTY,)


def legal_plays(
    faces: Faces, rink: tuple[Section, ...], puck: int, seat: int, *, after_free_reroll: bool = False
) -> tuple[Play, ...]:
    """The plays open to the roll's winner; after a Free Reroll, Check as the top symbol gives nothing."""
    if six_sticks(faces):
        return (Play.SIX_STICKS,)
    plays: list[Play] = []
    for symbol in top_symbols(faces):
        if after_free_reroll and symbol is Symbol.CHECK:
            continue
        plays.extend(symbol_plays(symbol, rink, puck, seat))
    return tuple(plays)
