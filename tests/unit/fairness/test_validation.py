from __future__ import annotations

import pytest

from shared.fairness import FairDraws, commitment, draw, new_server_seed, recompute, verify_commitment
from shared.games.draws import DiceRequest, Draw, DrawRequest, RangeRequest, ShuffleRequest

SEED = bytes(range(32))


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (DiceRequest(1, 1), "at least 2 faces"),
        (DiceRequest(0, 1), "at least 2 faces"),
        (DiceRequest(6, 0), "count must be at least 1"),
        (DiceRequest(6, -2), "count must be at least 1"),
        (RangeRequest(5, 4), "low 5 is above high 4"),
        (ShuffleRequest(-1), "shuffle size must be at least 0"),
        (DiceRequest(6.0, 1), "dice faces must be an int"),  # type: ignore[arg-type]
        (DiceRequest(True, 1), "dice faces must be an int"),
        (RangeRequest(0, "9"), "range high must be an int"),  # type: ignore[arg-type]
    ],
)
def test_bad_requests_are_refused(request_: DrawRequest, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw(SEED, "g", (), 0, request_)


@pytest.mark.parametrize(
    ("seed", "message"),
    [(bytes(31), "32 bytes, got 31"), (bytes(33), "32 bytes, got 33"), ("00" * 32, "must be bytes")],
)
def test_bad_server_seeds_are_refused(seed: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw(seed, "g", (), 0, DiceRequest(6, 1))
    with pytest.raises(ValueError, match=message):
        commitment(seed)
    assert not verify_commitment(seed, "00" * 32)


@pytest.mark.parametrize("nonce", [-1, 2**64, True, 1.0])
def test_bad_nonces_are_refused(nonce: int) -> None:
    with pytest.raises(ValueError, match="nonce"):
        draw(SEED, "g", (), nonce, DiceRequest(6, 1))
    with pytest.raises(ValueError, match="nonce"):
        FairDraws(SEED, "g", (), first_nonce=nonce)
    with pytest.raises(ValueError, match="nonce"):
        recompute(SEED, "g", (), [(nonce, Draw(DiceRequest(6, 1), (1,)))])


def test_the_last_nonce_is_allowed() -> None:
    assert len(draw(SEED, "g", (), 2**64 - 1, DiceRequest(6, 1))) == 1


def test_client_seeds_are_at_most_64_utf8_bytes() -> None:
    draw(SEED, "g", ("a" * 64, "é" * 32, ""), 0, DiceRequest(6, 1))
    with pytest.raises(ValueError, match="client seed 1 is 66 bytes in UTF-8, at most 64"):
        draw(SEED, "g", ("ok", "é" * 33), 0, DiceRequest(6, 1))
    with pytest.raises(ValueError, match="client seed 0 is 65 bytes"):
        draw(SEED, "g", ("a" * 65,), 0, DiceRequest(6, 1))


@pytest.mark.parametrize(
    ("client_seeds", "message"),
    [
        ("alice", "sequence of str"),
        (b"alice", "sequence of str"),
        (["ok", 3], "client seed 1 must be a str"),
        (["\ud800"], "client seed 0 is not encodable as UTF-8"),
    ],
)
def test_bad_client_seeds_are_refused(client_seeds: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        draw(SEED, "g", client_seeds, 0, DiceRequest(6, 1))


def test_bad_game_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="game id must be a str"):
        draw(SEED, b"g", (), 0, DiceRequest(6, 1))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="game id is not encodable"):
        draw(SEED, "g\udfff", (), 0, DiceRequest(6, 1))


def test_new_server_seeds_are_32_fresh_bytes() -> None:
    seeds = {new_server_seed() for _ in range(8)}
    assert len(seeds) == 8
    assert all(len(seed) == 32 for seed in seeds)


def test_verify_commitment() -> None:
    seed = new_server_seed()
    assert verify_commitment(seed, commitment(seed))
    assert not verify_commitment(seed, commitment(new_server_seed()))
    assert not verify_commitment(seed, "")
    assert not verify_commitment(seed, "é" * 64)
    assert not verify_commitment(seed, None)  # type: ignore[arg-type]
