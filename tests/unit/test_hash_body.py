from __future__ import annotations

import uuid

import msgspec
import pytest

from shared.eventstore import Metadata, hashing

METADATA = [
    Metadata(correlation_id="c"),
    Metadata(correlation_id="c-1", causation_id="e-0", actor="player:7", command_id="cmd-9", visibility=(1, 0)),
    Metadata(correlation_id='quote " backslash \\ é', visibility=()),
]


@pytest.mark.parametrize("metadata", METADATA)
def test_the_body_of_a_new_event_is_the_body_verify_recomputes_from_its_stored_json(metadata: Metadata) -> None:
    data = b'{"b":1.0,"a":[1,2.5,{"z":null,"y":"\\u00e9"}],"n":-0.0}'
    event_id = uuid.uuid4()
    stored_metadata = msgspec.json.encode(metadata)
    assert hashing.new_body("game-1", event_id, "t.Happened", 2, data, metadata) == hashing.body(
        "game-1", event_id, "t.Happened", 2, data, stored_metadata)
