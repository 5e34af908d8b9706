"""A Hockey Championship position: score, clock, puck, Power Chip and penalties, between rolls."""

from __future__ import annotations

from typing import Any

import msgspec

from shared.games.hockeydice.options import HockeyOptions
from shared.games.hockeydice.state import HockeyState, Phase, Stage
from shared.games.rules import fold
from shared.scenario.draws import DiceToCome
from shared.scenario.positions import PositionError, known

KEYS = {"score", "period", "shots", "shots_by", "puck", "chip", "penalties", "stage", "shootout_shots",
        "shootout_goals"}
HALVES = {"home": -1, "away": 1}


def puck_at(state: HockeyState, puck: int | str) -> int:
    """An integer (0 centre ice, +k the k-th section of the away half, where home attacks; -k of the home half), or
    a name: ``centre``, ``away-slot``, ``home-point``, ..."""
    if isinstance(puck, int):
        if abs(puck) > len(state.rink):
            raise PositionError(f"puck {puck}: the rink runs from -{len(state.rink)} to {len(state.rink)}")
        return puck
    if puck == "centre":
        return 0
    half, _, name = puck.partition("-")
    names = [s.name for s in state.rink]
    if half not in HALVES or name not in names:
        raise PositionError(f"puck {puck!r}: say centre or <home|away>-<{'|'.join(names)}>")
    return HALVES[half] * (names.index(name) + 1)


def build(options: HockeyOptions, position: dict[str, Any]) -> HockeyState:
    from shared.games.hockeydice import rules

    known(position, KEYS, "hockeydice")
    chip = int(position.get("chip", 0))
    state = fold(rules, rules.new_game(options, 2, DiceToCome(integers=[chip])))
    assert state is not None
    changes = {k: position[k] for k in KEYS - {"puck"} if k in position}
    changes["puck"] = puck_at(state, position.get("puck", 0))
    stage = Stage(position.get("stage", "regulation"))
    changes["phase"] = Phase.SHOOTOUT if stage is Stage.SHOOTOUT else Phase.ROLL
    try:
        return msgspec.convert({**msgspec.structs.asdict(state), **changes}, HockeyState)
    except msgspec.ValidationError as error:
        raise PositionError(str(error)) from None


def describe(state: HockeyState) -> dict[str, Any]:
    section = "centre" if state.puck == 0 else (
        f"{'away' if state.puck > 0 else 'home'}-{state.rink[abs(state.puck) - 1].name}")
    described: dict[str, Any] = {
        "phase": str(state.phase),
        "stage": str(state.stage),
        "score": list(state.score),
        "period": state.period,
        "shots": state.shots,
        "shots_by": list(state.shots_by),
        "puck": section,
        "chip": state.chip,
        "penalties": list(state.penalties),
    }
    if state.stage is Stage.SHOOTOUT:
        described["shootout_shots"] = list(state.shootout_shots)
        described["shootout_goals"] = list(state.shootout_goals)
    if state.winner is not None:
        described["winner"] = state.winner
    return described


def expand(state: HockeyState, step: dict[str, Any]) -> list[dict[str, Any]]:
    return [step]

