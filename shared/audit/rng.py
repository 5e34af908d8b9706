"""The RNG stream checked on its own: a commitment first, the revealed seed matches it, every draw recomputes."""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.audit.load import load as loaded
from shared.audit.report import Discrepancy, Found
from shared.eventstore import RecordedEvent
from shared.fairness import commitment, draw
from shared.messages.rng import ClientSeedAdded, Drawn, SeedCommitted, SeedRevealed


@dataclass
class CheckedRng:
    draws: list[tuple[RecordedEvent, Drawn]] = field(default_factory=list)
    recipe_version: str = ""
    commitment: str = ""
    client_seeds: dict[int, tuple[RecordedEvent, str]] = field(default_factory=dict)


def _at(event: RecordedEvent, check: str, expected: str, found: str) -> Found:
    return Found(Discrepancy(stream_id=event.stream_id, version=event.version, event_id=event.event_id,
                             check=check, expected=expected, found=found))


def check_rng(game_id: str, events: list[RecordedEvent]) -> CheckedRng:
    if not events:
        raise Found(Discrepancy(stream_id=f"rng-{game_id}", version=None, event_id=None, check="rng stream",
                                expected="a SeedCommitted before any draw", found="no RNG stream"))
    first = loaded(events[0])
    if not isinstance(first, SeedCommitted):
        raise _at(events[0], "the seed is committed before anything else", "rng.SeedCommitted", events[0].type)
    if first.game_id != game_id:
        raise _at(events[0], "the commitment names this game", game_id, first.game_id)
    checked = CheckedRng(recipe_version=first.recipe_version, commitment=first.commitment)
    client_seeds = checked.client_seeds
    revealed: tuple[RecordedEvent, SeedRevealed] | None = None
    for recorded in events[1:]:
        event = loaded(recorded)
        match event:
            case ClientSeedAdded(seat=seat, client_seed=seed):
                if checked.draws:
                    raise _at(recorded, "client seeds come before the first draw", "no client seed", seed)
                if not 0 <= seat < first.seats or seat in client_seeds:
                    raise _at(recorded, "one client seed per seat of the game", f"a seat of 0..{first.seats - 1} "
                              f"without a seed", f"seat {seat}")
                client_seeds[seat] = (recorded, seed)
            case Drawn(nonce=nonce):
                if nonce != len(checked.draws):
                    raise _at(recorded, "draws are numbered 0, 1, 2, ...", f"nonce {len(checked.draws)}",
                              f"nonce {nonce}")
                if revealed is not None:
                    raise _at(recorded, "no draw after the seed is revealed", "no draw", f"draw {nonce}")
                checked.draws.append((recorded, event))
            case SeedRevealed():
                revealed = (recorded, event)
            case _:
                raise _at(recorded, "the RNG stream holds only RNG events", "rng.*", recorded.type)
    if revealed is None:
        raise Found(Discrepancy(stream_id=events[0].stream_id, version=None, event_id=None,
                                check="the game has ended and its seed is revealed",
                                expected="rng.SeedRevealed", found="the seed is not revealed (is the game running?)"))
    revealed_event, reveal = revealed
    try:
        seed = bytes.fromhex(reveal.server_seed)
    except ValueError:
        seed = b""
    if commitment(seed) != first.commitment:
        raise _at(revealed_event, "the revealed seed matches the commitment",
                  f"sha256(seed) = {first.commitment}", f"sha256(seed) = {commitment(seed)}")
    seeds = [client_seeds[seat][1] for seat in sorted(client_seeds)]
    for recorded, drawn in checked.draws:
        expected = draw(seed, game_id, seeds, drawn.nonce, drawn.request)
        if expected != tuple(drawn.values):
            raise _at(recorded, f"draw {drawn.nonce} ({drawn.request}) recomputed from the revealed seed",
                      str(list(expected)), str(list(drawn.values)))
    return checked
