"""Each kind of tampering, made in the database (and in an exported bundle), is caught and named."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime

import asyncpg
import msgspec
import pytest
from nats.aio.client import Client

from shared.audit import AuditReport, audit_game
from shared.audit.bundle import export_bundle, load_bundle
from shared.audit.fetch import fetch_game
from shared.bus.rpc import request
from shared.eventstore import EventStore, RecordedEvent
from shared.fairness import commitment, draw
from shared.games.draws import DrawRequest, ShuffleRequest
from shared.infra.processes import ServiceProcess
from shared.messages.engine import GameView, GetView
from shared.messages.rng import rng_stream
from tests.infra import RunInfra
from tests.integration.play import create, play_to_end
from tests.integration.tamper import edit_data, rechain, rewrite, with_drawn

Streams = tuple[list[RecordedEvent], list[RecordedEvent]]


@pytest.fixture
async def ended_game(nc: Client, store: EventStore, migrated: RunInfra,
                     game_services: dict[str, ServiceProcess]) -> tuple[str, Streams]:
    game_id = await create(nc, migrated.namespace, "vortex", 2)
    await play_to_end(nc, migrated.namespace, store, game_id, seed=7)
    streams = await fetch_game(store, game_id)
    assert audit_game(game_id, *streams).verified
    return game_id, streams


def first(events: list[RecordedEvent], type_: str) -> int:
    return next(i for i, e in enumerate(events) if e.type == type_)


def bump_die(data: dict) -> None:  # type: ignore[type-arg]
    data["draws"][0]["values"][0] = data["draws"][0]["values"][0] % 6 + 1


def change_game_draw(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    i = first(game, "engine.DrawsUsed")
    game[i] = edit_data(game[i], bump_die)
    return game, rng


def change_rolled_value(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    i = first(game, "vortex.Rolled")
    game[i] = edit_data(game[i], lambda d: d.update(value=d["value"] % 6 + 1))
    return game, rng


def change_rng_draw(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    """In a stream written before draws left the write path, which recorded each draw as an ``rng.Drawn``."""
    rng = with_drawn(game[0].stream_id, game, rng)
    i = first(rng, "rng.Drawn")
    rng[i] = edit_data(rng[i], lambda d: d["values"].__setitem__(0, d["values"][0] % 6 + 1))
    return game, rng


def change_revealed_seed(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    i = first(rng, "rng.SeedRevealed")
    rng[i] = edit_data(rng[i], lambda d: d.update(server_seed="00" * 32))
    return game, rng


def remove_event(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    del game[first(game, "vortex.PhantomMoved")]
    return game, rng


def illegal_action(game: list[RecordedEvent], rng: list[RecordedEvent]) -> Streams:
    """The second command of the game, re-attributed to the seat whose turn it was not."""
    accepted = [i for i, e in enumerate(game) if e.type == "engine.CommandAccepted"]
    i = accepted[0]
    wrong = 1 - msgspec.json.decode(game[i].data)["seat"]

    def other_seat(data: dict) -> None:  # type: ignore[type-arg]
        data["seat"] = wrong
        data["command"]["seat"] = wrong

    game[i] = edit_data(game[i], other_seat)
    return game, rng


CASES: dict[str, tuple[Callable[[list[RecordedEvent], list[RecordedEvent]], Streams], str, str]] = {
    # name: (tampering, stream it names, what the audit says)
    "changed die in the game stream": (change_game_draw, "game", "used by the game, recomputed from the revealed seed"),
    "changed rolled value in a rules event": (change_rolled_value, "game", "the one the rules decide"),
    "changed draw in an old RNG stream": (change_rng_draw, "rng", "recomputed from the revealed seed"),
    "changed revealed seed": (change_revealed_seed, "rng", "the revealed seed matches the commitment"),
    "removed event": (remove_event, "game", "the rules decide"),
    "action the rules reject": (illegal_action, "game", "the rules accept this action"),
}


def check_named(report: AuditReport, game_id: str, which: str, says: str, tampered: Streams) -> None:
    assert not report.verified, f"tampering went unnoticed: {report}"
    found = report.discrepancy
    assert found is not None
    assert found.stream_id == (game_id if which == "game" else rng_stream(game_id))
    assert says in found.check, str(report)
    assert found.version is not None and found.event_id is not None
    named = next(e for e in (tampered[0] if which == "game" else tampered[1]) if e.event_id == found.event_id)
    assert named.version == found.version
    assert "DISCREPANCY" in str(report) and str(found.event_id) in str(report)


@pytest.mark.parametrize("case", CASES)
async def test_tampering_in_the_database_is_caught_and_named(
    case: str, ended_game: tuple[str, Streams], store: EventStore, superuser: asyncpg.Connection
) -> None:
    game_id, (game, rng) = ended_game
    tamper, which, says = CASES[case]
    naive_game, naive_rng = tamper(list(game), list(rng))
    # A naive edit breaks the hash chain...
    await rewrite(superuser, game_id, naive_game)
    await rewrite(superuser, rng_stream(game_id), naive_rng)
    naive = audit_game(game_id, *await fetch_game(store, game_id))
    assert not naive.verified and naive.discrepancy is not None
    assert naive.discrepancy.check == "hash chain", str(naive)
    # ...and one that re-computes the chain is still caught, by what the events mean.
    clever = rechain(naive_game), rechain(naive_rng)
    await rewrite(superuser, game_id, clever[0])
    await rewrite(superuser, rng_stream(game_id), clever[1])
    report = audit_game(game_id, *await fetch_game(store, game_id))
    check_named(report, game_id, which, says, clever)


@pytest.mark.parametrize("case", CASES)
async def test_tampering_in_an_exported_bundle_is_caught_and_named(case: str, ended_game: tuple[str, Streams]) -> None:
    game_id, (game, rng) = ended_game
    tamper, which, says = CASES[case]
    bundle = export_bundle(game_id, "vortex", game, rng, datetime.now(UTC))
    _, bundled_game, bundled_rng = load_bundle(bundle)
    tampered = tamper(bundled_game, bundled_rng)
    rechained = rechain(tampered[0]), rechain(tampered[1])
    edited = export_bundle(game_id, "vortex", *rechained, datetime.now(UTC))
    _, loaded_game, loaded_rng = load_bundle(edited)
    check_named(audit_game(game_id, loaded_game, loaded_rng), game_id, which, says, rechained)


def reseeded(game_id: str, rng: list[RecordedEvent]) -> list[RecordedEvent]:
    """The RNG stream rewritten from another server seed, consistent in itself: commitment, every draw, reveal."""
    seed = bytes(range(32))
    out = []
    for event in rng:
        match event.type:
            case "rng.SeedCommitted":
                event = edit_data(event, lambda d: d.update(commitment=commitment(seed)))
            case "rng.Drawn":
                def redraw(d: dict) -> None:  # type: ignore[type-arg]
                    request = msgspec.convert(d["request"], DrawRequest)
                    d["values"] = list(draw(seed, game_id, [], d["nonce"], request))
                event = edit_data(event, redraw)
            case "rng.SeedRevealed":
                event = edit_data(event, lambda d: d.update(server_seed=seed.hex()))
        out.append(event)
    return rechain(out)


async def test_a_seed_swapped_after_the_opening_is_caught_by_the_commitment_players_saw(
    nc: Client, migrated: RunInfra, ended_game: tuple[str, Streams]
) -> None:
    game_id, (game, rng) = ended_game
    view = await request(nc, migrated.namespace.engine(game_id, "view"), GetView(game_id=game_id), GameView)
    published = view.commitment
    assert published is not None and published == msgspec.json.decode(rng[0].data)["commitment"]
    assert audit_game(game_id, game, rng, published).verified
    forged_rng = reseeded(game_id, rng)
    report = audit_game(game_id, game, forged_rng)
    assert report.discrepancy is not None and report.discrepancy.version == 1, str(report)
    assert report.discrepancy.check == "the game opened with the RNG stream's seed commitment"
    forged_game = rechain([edit_data(game[0], lambda d: d.update(commitment=commitment(bytes(range(32))))),
                           *game[1:]])
    report = audit_game(game_id, forged_game, forged_rng, published)
    assert report.discrepancy is not None, str(report)
    assert report.discrepancy.check == "the seed commitment is the one published when the game opened"
    assert report.discrepancy.expected == published


async def test_an_old_stream_that_recorded_each_draw_still_audits_and_its_draws_are_checked(
    ended_game: tuple[str, Streams]
) -> None:
    game_id, (game, rng) = ended_game
    old = rechain(with_drawn(game_id, game, rng))
    drawn = [i for i, e in enumerate(old) if e.type == "rng.Drawn"]
    assert drawn and audit_game(game_id, game, old).verified
    seed = bytes.fromhex(msgspec.json.decode(old[first(old, "rng.SeedRevealed")].data)["server_seed"])

    # The RNG recorded another request for draw 0, its values recomputing: not the draw the game used.
    def other_request(d: dict) -> None:  # type: ignore[type-arg]
        d.update(request={"type": "shuffle", "n": 5}, values=list(draw(seed, game_id, [], 0, ShuffleRequest(5))))

    swapped = rechain([*old[:drawn[0]], edit_data(old[drawn[0]], other_request), *old[drawn[0] + 1:]])
    report = audit_game(game_id, game, swapped)
    assert report.discrepancy is not None and report.discrepancy.stream_id == game_id, str(report)
    assert report.discrepancy.check.startswith("draw 0 used by the game is the one the RNG recorded")

    # A draw the RNG recorded (and that recomputes) but the game never used.
    last = old[drawn[-1]]
    nonce = msgspec.json.decode(last.data)["nonce"] + 1
    unused = edit_data(last, lambda d: d.update(nonce=nonce, values=list(draw(
        seed, game_id, [], nonce, msgspec.convert(d["request"], DrawRequest)))))
    unused = msgspec.structs.replace(unused, event_id=uuid.uuid4())
    extra = rechain([*old[:drawn[-1] + 1], unused, *old[drawn[-1] + 1:]])
    report = audit_game(game_id, game, extra)
    assert report.discrepancy is not None and report.discrepancy.event_id == unused.event_id, str(report)
    assert report.discrepancy.check == "every draw the RNG made was used by the game"


async def test_a_reveal_written_before_it_recorded_the_game_s_end_still_audits(
    ended_game: tuple[str, Streams]
) -> None:
    """``SeedRevealed.game_version`` and ``game_hash`` are new: a reveal without them is audited as before."""
    game_id, (game, rng) = ended_game
    i = first(rng, "rng.SeedRevealed")
    old = rechain([*rng[:i], edit_data(rng[i], lambda d: [d.pop("game_version"), d.pop("game_hash")]), *rng[i + 1:]])
    assert "game_version" not in msgspec.json.decode(old[i].data)
    assert audit_game(game_id, game, old).verified
    report = audit_game(game_id, game[:-1], old)  # without them a cut end is still caught, by the rules
    assert report.discrepancy is not None and report.discrepancy.check.startswith("the game ends when the rules")


async def test_a_game_cut_short_after_its_end_is_named_by_where_the_rng_saw_it_end(
    ended_game: tuple[str, Streams]
) -> None:
    game_id, (game, rng) = ended_game
    report = audit_game(game_id, game[:-1], rng)
    found = report.discrepancy
    assert found is not None and found.check.startswith("the game stream ends where the RNG saw it end"), str(report)
    assert (found.version, found.event_id) == (game[-1].version, game[-1].event_id)
