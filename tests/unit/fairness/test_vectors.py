from __future__ import annotations

import hashlib
from itertools import islice

from shared.fairness import (
    RECIPE_VERSION,
    VERSION_TAG,
    FairDraws,
    Mismatch,
    block_message,
    commitment,
    draw,
    recompute,
    verify_commitment,
)
from shared.fairness.stream import Keyed
from shared.fairness.vectors import Vectors
from shared.games.draws import DiceRequest, Draw, RangeRequest, ShuffleRequest
from tests.unit.fairness import reference


def test_vectors_are_for_this_recipe_version(vectors: Vectors) -> None:
    assert vectors.recipe_version == RECIPE_VERSION == "v1"
    assert vectors.version_tag.encode() == VERSION_TAG


def test_commitment_is_sha256_of_the_seed_bytes(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    assert commitment(seed) == vectors.commitment == hashlib.sha256(seed).hexdigest()
    assert verify_commitment(seed, vectors.commitment)
    assert verify_commitment(seed, vectors.commitment.upper())
    assert not verify_commitment(bytes(32), vectors.commitment)


def test_first_block_message_and_hmac(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    first = vectors.first_block
    seeds = list(vectors.client_seeds)
    expected_message = reference.message(vectors.game_id, seeds, first.nonce, first.block)
    assert block_message(vectors.game_id, seeds, first.nonce, first.block).hex() == first.message_hex
    assert expected_message.hex() == first.message_hex
    assert Keyed(seed, vectors.game_id, seeds).block(first.nonce, first.block).hex() == first.hmac_hex
    assert bytes(islice(reference.stream(seed, vectors.game_id, seeds, 0), 32)).hex() == first.hmac_hex


def test_vector_draws_match_the_recipe(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    for case in vectors.draws:
        assert draw(seed, vectors.game_id, vectors.client_seeds, case.nonce, case.request) == case.values, case


def test_vector_draws_match_the_reference(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    for case in vectors.draws:
        reader = reference.Reader(seed, vectors.game_id, list(vectors.client_seeds), case.nonce)
        match case.request:
            case DiceRequest(faces, count):
                values = reference.dice(reader, faces, count)
            case RangeRequest(low, high):
                values = reference.in_range(reader, low, high)
            case ShuffleRequest(n):
                values = reference.shuffle(reader, n)
        assert values == case.values, case


def test_vector_values_look_right(vectors: Vectors) -> None:
    for case in vectors.draws:
        match case.request:
            case DiceRequest(faces, count):
                assert len(case.values) == count
                assert all(1 <= v <= faces for v in case.values)
            case RangeRequest(low, high):
                assert len(case.values) == 1
                assert low <= case.values[0] <= high
            case ShuffleRequest(n):
                assert sorted(case.values) == list(range(n))


def test_recompute_accepts_the_vectors_and_names_a_tampered_draw(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    recorded = [(case.nonce, Draw(case.request, case.values)) for case in vectors.draws]
    assert recompute(seed, vectors.game_id, vectors.client_seeds, recorded) is None

    nonce, good = recorded[3]
    tampered = Draw(good.request, (2,) + good.values[1:])
    assert good.values[0] != 2
    recorded[3] = (nonce, tampered)
    assert recompute(seed, vectors.game_id, vectors.client_seeds, recorded) == Mismatch(
        nonce, good.values, tampered.values
    )


def test_fair_draws_number_draws_from_the_first_nonce(vectors: Vectors) -> None:
    seed = bytes.fromhex(vectors.server_seed_hex)
    sequential = [case for case in vectors.draws if 1 <= case.nonce <= 11]
    draws = FairDraws(seed, vectors.game_id, vectors.client_seeds, first_nonce=1)
    for case in sequential:
        assert draws.take(case.request) == case.values
    assert draws.nonce == 12
    assert draws.used == [Draw(case.request, case.values) for case in sequential]
