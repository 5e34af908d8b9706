"""A text picture of a position, for ``league replay`` in a terminal."""

from __future__ import annotations

from shared.games.vortex.board import REGION_TITLES, REGIONS, RegionName
from shared.games.vortex.checks import EXPECTED
from shared.games.vortex.state import MONSTER_NAMES, Phantom, State

CELL = 4
STONE_CODES = {
    "plain": ".", "coins2": "2c", "coins3": "3c", "shovel": "dig",
    "green": "G", "purple": "P", "orange": "O", "black": "V",
}
LEGEND = (
    "Legend: G/P/O green/purple/orange spiral, V black spiral (the Vortex), 2c/3c coins, dig shovel, "
    "+S a Sentinel beside the stone; between stones | empty headstone, a-d a monster of phantom A-D; "
    "A-D phantoms."
)


def letter(seat: int) -> str:
    return "ABCD"[seat]


def render(state: State) -> str:
    lines = [f"Phantom's Vortex [{state.board.name}] round {state.round}: {_status(state)}"]
    for region in REGIONS:
        lines.extend(_ring(state, region))
    lines.append("")
    lines.extend(_phantom_line(p) for p in state.phantoms)
    lines.append(LEGEND)
    return "\n".join(lines)


def _status(state: State) -> str:
    if state.phase == "over":
        return "race over, won by " + ", ".join(f"{letter(s)} (seat {s})" for s in state.winners)
    who = f"{letter(state.turn)} (seat {state.turn})"
    rolled = f" (rolled {state.roll})" if state.roll is not None else ""
    return f"{who} must {EXPECTED[state.phase]}{rolled}"


def _ring(state: State, name: RegionName) -> list[str]:
    region = state.board.region(name)
    gaps = {h.between[0]: h.id for h in region.headstones}
    numbers, kinds, phantoms = [], [], []
    for i, kind in enumerate(region.stones):
        code = STONE_CODES[kind] + ("S" if i in region.sentinels else "")
        here = "".join(letter(p.seat) for p in state.phantoms if p.region == name and p.stone == i)
        gap = _gap(state, gaps.get(i))
        numbers.append(f"{i:>{CELL}} ")
        kinds.append(f"{code:>{CELL}}{gap}")
        phantoms.append(f"{here:>{CELL}} ")
    way = "walk either way" if name == "temple" else "clockwise"
    return [
        f"{REGION_TITLES[name]} ({way})",
        "  stone " + "".join(numbers),
        "   kind " + "".join(kinds),
        "phantom " + "".join(phantoms),
    ]


def _gap(state: State, headstone_id: str | None) -> str:
    if headstone_id is None:
        return " "
    owner = state.monster_on(headstone_id)
    return "|" if owner is None else letter(owner.seat).lower()


def _phantom_line(phantom: Phantom) -> str:
    where = f"{REGION_TITLES[phantom.region]} {phantom.stone}"
    board = f"{MONSTER_NAMES[phantom.monster]} on {phantom.headstone}" if phantom.monster else "-"
    hand = ", ".join(MONSTER_NAMES[m] for m in phantom.hand) or "-"
    limbo = ", ".join(MONSTER_NAMES[m] for m in phantom.limbo) or "-"
    return (
        f"{letter(phantom.seat)} seat {phantom.seat}: {where}, {phantom.coins} coins; "
        f"monster on board: {board}; in hand: {hand}; in limbo: {limbo}"
    )
