"""The RNG stream checked on its own: a commitment first, client seeds, the revealed seed matches the commitment.

The stream holds no draws: each draw is recomputed where the game recorded it (``engine.DrawsUsed``), from the
revealed seed and the client seeds checked here (``CheckedRng.recompute``). Streams written before that hold an
``rng.Drawn`` per draw; those are checked too: numbered 0, 1, 2, ..., each recomputes, each used by the game."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from shared.audit.load import load as loaded
from shared.audit.report import Discrepancy, Found
from shared.eventstore import RecordedEvent
from shared.fairness import CLIENT_SEED_MAX_BYTES, verify_commitment
from shared.fairness.recipe import answer
from shared.fairness.seeds import encode_client_seeds
from shared.fairness.stream import Keyed
from shared.games.draws import DrawRequest
from shared.messages.rng import ClientSeedAdded, Drawn, SeedCommitted, SeedRevealed


@dataclass
class CheckedRng:
    draws: list[tuple[RecordedEvent, Drawn]] = field(default_factory=list)
    """The draws an old stream recorded (``rng.Drawn``); empty for a stream written since."""
    recipe_version: str = ""
    commitment: str = ""
    client_seeds: dict[int, tuple[RecordedEvent, str]] = field(default_factory=dict)
    keyed: Keyed | None = None
    """The revealed seed with the game id and the client seeds, ready to recompute any draw."""
    revealed: tuple[RecordedEvent, SeedRevealed] | None = None

    def recompute(self, nonce: int, request: DrawRequest) -> tuple[int, ...]:
        """The values the recipe gives; ValueError when the nonce or request is no valid input of it."""
        assert self.keyed is not None
        return answer(self.keyed.stream(nonce), request)


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
                if checked.draws or revealed is not None:
                    raise _at(recorded, "client seeds come before the first draw", "no client seed", seed)
                if not 0 <= seat < first.seats or seat in client_seeds:
                    raise _at(recorded, "one client seed per seat of the game", f"a seat of 0..{first.seats - 1} "
                              f"without a seed", f"seat {seat}")
                try:
                    if not encode_client_seeds([seed])[0]:
                        raise ValueError("client seed 0 is empty")
                except ValueError as error:
                    raise _at(recorded, f"a client seed is 1 to {CLIENT_SEED_MAX_BYTES} bytes of UTF-8",
                              "a valid client seed", str(error)) from error
                client_seeds[seat] = (recorded, seed)
            case Drawn(nonce=nonce):
                if nonce != len(checked.draws):
                    raise _at(recorded, "draws are numbered 0, 1, 2, ...", f"nonce {len(checked.draws)}",
                              f"nonce {nonce}")
                if revealed is not None:
                    raise _at(recorded, "no draw after the seed is revealed", "no draw", f"draw {nonce}")
                checked.draws.append((recorded, event))
            case SeedRevealed():
                if revealed is not None:
                    raise _at(recorded, "the seed is revealed once", "one rng.SeedRevealed", "another")
                revealed = (recorded, event)
            case _:
                raise _at(recorded, "the RNG stream holds only RNG events", "rng.*", recorded.type)
    if revealed is None:
        raise Found(Discrepancy(stream_id=events[0].stream_id, version=None, event_id=None,
                                check="the game has ended and its seed is revealed",
                                expected="rng.SeedRevealed", found="the seed is not revealed (is the game running?)"))
    checked.revealed = revealed
    revealed_event, reveal = revealed
    try:
        server_seed = bytes.fromhex(reveal.server_seed)
    except ValueError:
        server_seed = b""
    if not verify_commitment(server_seed, first.commitment):
        raise _at(revealed_event, "the revealed seed matches the commitment", f"sha256(seed) = {first.commitment}",
                  f"sha256(seed) = {hashlib.sha256(server_seed).hexdigest()}")
    checked.keyed = Keyed(server_seed, game_id, [client_seeds[seat][1] for seat in sorted(client_seeds)])
    for recorded, drawn in checked.draws:
        try:
            expected = checked.recompute(drawn.nonce, drawn.request)
        except ValueError as error:
            raise _at(recorded, f"draw {drawn.nonce} is a valid input of the recipe", "a valid request",
                      str(error)) from error
        if expected != tuple(drawn.values):
            raise _at(recorded, f"draw {drawn.nonce} ({drawn.request}) recomputed from the revealed seed",
                      str(list(expected)), str(list(drawn.values)))
    return checked


