"""The hot path benchmark's pure helpers: /proc CPU reading, percentiles, the pacer's schedule, a reply's view."""

from __future__ import annotations

import asyncio
import os
import time

import msgspec

from bench.pacer import Paced
from bench.percentiles import percentile
from bench.proc_cpu import TICKS, parse_stat, read_stat, sample, tree_seconds
from bench.targets import Reply, legal_of


def test_stat_line_with_spaces_and_parentheses_in_the_name_is_parsed_from_the_last_parenthesis() -> None:
    line = "4242 (tmux: (server) x) S 1 4242 4242 0 -1 4194560 10 0 0 0 250 50 7 3 20 0 1 0 100 0 0"
    stat = parse_stat(line)
    assert (stat.pid, stat.comm, stat.ppid) == (4242, "tmux: (server) x", 1)
    assert (stat.utime, stat.stime, stat.cutime, stat.cstime) == (250, 50, 7, 3)
    assert stat.seconds == 310 / TICKS


def test_the_current_process_cpu_grows_by_the_work_it_does() -> None:
    before = read_stat(os.getpid())
    assert before is not None and before.pid == os.getpid() and before.ppid == os.getppid()
    spin_until = time.process_time() + 0.3
    while time.process_time() < spin_until:
        pass
    after = sample({"me": os.getpid()})["me"]
    assert 0.2 <= after - before.seconds <= 2.0


def test_a_tree_counts_its_live_descendants_and_nothing_else() -> None:
    root = parse_stat("10 (postgres) S 1 0 0 0 -1 0 0 0 0 0 100 0 50 0")
    child = parse_stat("11 (postgres) S 10 0 0 0 -1 0 0 0 0 0 20 5 0 0")
    grandchild = parse_stat("12 (postgres) S 11 0 0 0 -1 0 0 0 0 0 1 1 0 0")
    stranger = parse_stat("13 (postgres) S 1 0 0 0 -1 0 0 0 0 0 999 0 0 0")
    stats = {s.pid: s for s in (root, child, grandchild, stranger)}
    assert tree_seconds(10, stats) == (150 + 25 + 2) / TICKS
    assert tree_seconds(99, stats) == 0


def test_nearest_rank_percentiles() -> None:
    values = [float(n) for n in range(1, 101)]
    assert percentile(values, 0.5) == 50
    assert percentile(values, 0.99) == 99
    assert percentile(values, 1.0) == 100
    assert percentile([7.0], 0.99) == 7


def test_a_paced_generator_hands_out_slots_at_its_rate_however_late_they_are_taken() -> None:
    async def take() -> list[float]:
        pacer = Paced(200)
        pacer.start()
        await asyncio.sleep(0.1)  # nobody takes a slot for a while: they queue, still at their scheduled times
        slots = [await pacer.slot() for _ in range(30)]
        pacer.stop(1)
        assert await pacer.slot() is None
        return [s for s in slots if s is not None]

    slots = asyncio.run(take())
    gaps = [b - a for a, b in zip(slots, slots[1:], strict=False)]
    assert all(abs(gap - 1 / 200) < 1e-9 for gap in gaps)


def test_a_reply_carrying_the_view_gives_the_next_moves_and_a_plain_reply_does_not() -> None:
    plain = msgspec.json.decode(b'{"game_id": "g", "version": 3, "duplicate": false, "ended": false}', type=Reply)
    assert plain.view is None
    rich = msgspec.json.decode(b'{"game_id": "g", "version": 4, "ended": false, "view": {"game_id": "g", "seat": 1,'
                               b' "pending_seats": [1], "view": {}, "legal": [{"type": "hockeydice.Roll",'
                               b' "seat": 1}]}}', type=Reply)
    assert rich.view is not None and rich.view.pending_seats == [1]
    moves = legal_of(rich.view.legal)
    assert moves is not None and [msgspec.json.decode(m) for m in moves] == [{"type": "hockeydice.Roll", "seat": 1}]
    assert legal_of(msgspec.Raw(b'{"seat": 1, "commands": []}')) == []
    assert legal_of(msgspec.Raw(b"null")) is None
