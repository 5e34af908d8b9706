"""Event ids are version 7 UUIDs: time first, so that ids made later sort later and land together in the index."""

from __future__ import annotations

import os
import time
import uuid

from shared.eventstore.types import new_event_id


def test_an_event_id_is_a_version_7_uuid_carrying_the_time_it_was_made() -> None:
    before = time.time_ns() // 1_000_000
    event_id = new_event_id()
    after = time.time_ns() // 1_000_000
    assert event_id.version == 7 and event_id.variant == uuid.RFC_4122
    assert before <= event_id.int >> 80 <= after


def test_ids_made_in_later_milliseconds_sort_later_and_none_repeats() -> None:
    ids: list[uuid.UUID] = []
    for _ in range(5):
        ids.extend(new_event_id() for _ in range(1000))
        time.sleep(0.002)
    assert len(set(ids)) == len(ids)
    milliseconds = [event_id.int >> 80 for event_id in ids]
    assert milliseconds == sorted(milliseconds)
    assert ids[999] < ids[1000] < ids[1999] < ids[2000]


def test_a_forked_child_makes_ids_of_its_own() -> None:
    read, write = os.pipe()
    new_event_id()  # the parent's buffer is filled
    child = os.fork()
    if child == 0:
        os.write(write, new_event_id().bytes)
        os._exit(0)
    os.waitpid(child, 0)
    theirs = uuid.UUID(bytes=os.read(read, 16))
    assert theirs.bytes[6:] != new_event_id().bytes[6:]
