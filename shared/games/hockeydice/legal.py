"""Who may act now, and with which commands (for bots and UIs)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from shared.games.hockeydice.commands import (
    ChoosePlay,
    Command,
    KeepPowerChip,
    RerollWithPowerChip,
    Roll,
    Shoot,
    UsePowerChip,
)
from shared.games.hockeydice.state import (
    CHIP_PHASES,
    HockeyState,
    Phase,
    current_tie,
    own_dice,
    shootout_shooter,
    winner_plays,
)


def pending_seats(state: HockeyState | None) -> frozenset[int]:
    if state is None:
        return frozenset()
    if state.phase is Phase.ROLL:
        return frozenset({0, 1})
    if state.phase in CHIP_PHASES:
        return frozenset({state.chip})
    if state.phase is Phase.PLAY and state.roll_winner is not None:
        return frozenset({state.roll_winner})
    if state.phase is Phase.SHOOTOUT:
        return frozenset({shootout_shooter(state)})
    return frozenset()


def reroll_choices(count: int) -> list[tuple[int, ...]]:
    return [dice for size in range(1, count + 1) for dice in combinations(range(count), size)]


def legal_commands(state: HockeyState | None, seat: int) -> Sequence[Command]:
    if state is None or seat not in pending_seats(state):
        return []
    if state.phase is Phase.ROLL:
        return [Roll(seat=seat)]
    if state.phase is Phase.SHOOTOUT:
        return [Shoot(seat=seat)]
    if state.phase is Phase.PLAY:
        return [ChoosePlay(seat=seat, play=play) for play in winner_plays(state)]
    commands: list[Command] = []
    if current_tie(state):
        commands.append(UsePowerChip(seat=seat))
    commands.append(KeepPowerChip(seat=seat))
    if state.options.power_chip_reroll:
        commands.extend(RerollWithPowerChip(seat=seat, dice=dice) for dice in reroll_choices(own_dice(state, seat)))
    return commands
