"""Bot seasons for property tests and the benchmark's checks."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from shared.games.draws import SeededDraws
from shared.games.phantoms import events as ev
from shared.games.phantoms import rules
from shared.games.phantoms.options import Options
from shared.games.phantoms.state import Season

MAX_COMMANDS = 20_000


def bot_season(options: Options, seats: int, seed: int, bots: Sequence[str],
               check: Callable[[Season, list[ev.Event]], None] | None = None) -> tuple[Season, list[ev.Event]]:
    rng = random.Random(seed)
    draws = SeededDraws(rng)
    events = list(rules.new_game(options, seats, draws))
    state = None
    for e in events:
        state = rules.evolve(state, e)
    assert state is not None
    for _ in range(MAX_COMMANDS):
        if rules.is_over(state):
            return state, events
        seat = rng.choice(sorted(rules.pending_seats(state)))
        command = rules.bots[bots[seat % len(bots)]](state, seat, rng)
        new = rules.decide(state, command, draws)
        for e in new:
            state = rules.evolve(state, e)
        events += new
        if check is not None:
            check(state, new)
    raise AssertionError(f"season did not finish within {MAX_COMMANDS} commands")
