"""A Phantom's Vortex position: each phantom's place, coins and monsters, whose turn, the phase."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from shared.games.draws import RecordedDraws
from shared.games.rules import fold
from shared.games.vortex.options import Options
from shared.games.vortex.state import MONSTERS, Phantom, State
from shared.scenario.positions import PositionError, known

KEYS = {"phantoms", "turn", "round", "phase", "spiral", "roll"}
PHANTOM_KEYS = {"region", "stone", "coins", "hand", "limbo", "monster", "headstone"}


def build(options: Options, position: dict[str, Any]) -> State:
    from shared.games.vortex import rules

    known(position, KEYS, "vortex")
    given = position.get("phantoms")
    if not isinstance(given, list) or not 2 <= len(given) <= 4:
        raise PositionError("phantoms: one table per phantom (2 to 4)")
    state = fold(rules, rules.new_game(options, len(given), RecordedDraws()))
    assert state is not None
    phantoms = []
    for seat, (start, p) in enumerate(zip(state.phantoms, given, strict=True)):
        known(p, PHANTOM_KEYS, "vortex phantom")
        on_board = p.get("monster")
        hand = p.get("hand", [m for m in MONSTERS if m != on_board and m not in p.get("limbo", [])])
        fields = {**msgspec.structs.asdict(start), **p, "hand": hand, "seat": seat}
        try:
            phantom = msgspec.convert(fields, Phantom)
        except msgspec.ValidationError as error:
            raise PositionError(f"phantom {seat}: {error}") from None
        if phantom.stone not in range(len(state.board.region(phantom.region).stones)):
            raise PositionError(f"phantom {seat}: the {phantom.region} has no stone {phantom.stone}")
        if (phantom.monster is None) != (phantom.headstone is None):
            raise PositionError(f"phantom {seat}: a monster on the board stands on a headstone (give both)")
        if phantom.headstone is not None and state.board.headstone(phantom.headstone) is None:
            raise PositionError(f"phantom {seat}: no headstone {phantom.headstone!r} "
                                f"(there are {', '.join(state.board.headstone_ids)})")
        phantoms.append(phantom)
    changes: dict[str, Any] = {k: position[k] for k in ("turn", "round", "phase", "spiral", "roll") if k in position}
    try:
        return msgspec.convert({**msgspec.structs.asdict(replace(state, phantoms=tuple(phantoms))), **changes}, State)
    except msgspec.ValidationError as error:
        raise PositionError(str(error)) from None


def describe(state: State) -> dict[str, Any]:
    return {
        "phase": state.phase,
        "turn": state.turn,
        "round": state.round,
        "phantoms": [
            {"region": p.region, "stone": p.stone, "coins": p.coins, "hand": list(p.hand), "limbo": list(p.limbo),
             "monster": p.monster or "", "headstone": p.headstone or ""}
            for p in state.phantoms
        ],
        "winners": list(state.winners),
    }


def expand(state: State, step: dict[str, Any]) -> list[dict[str, Any]]:
    return [step]
