"""What this machine charges a process for waking up: every hop of a command between the league's processes pays
it, and the lower the offered rate, the more often a process sleeps between commands and pays it again.

Two measures, each the median of three tries:

- the same Python work (``json`` and dicts, some tens of µs, about what a service does for one message) done back
  to back, and with a sleep of 0.5, 2 and 5 ms before each item: the CPU an item costs after a sleep (the sleep's
  system calls included), as a multiple of back to back;
- a round trip of one byte between two processes over a loopback TCP socket: the CPU of each side per round trip,
  first free to run on any core, then with both held to one core (``sched_setaffinity``).

``bench.hot_path`` prints each process's cores busy in every phase beside it.

    python -m bench.wake_cost [--quick] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.hardware import describe, median

SLEEPS_MS = (0.5, 2.0, 5.0)
TRIES = 3
_ITEM = {"game_id": "hockeydice-0123456789abcdef", "seat": 1, "version": 41,
         "legal": [{"type": "hockeydice.Roll", "seat": 1, "dice": n} for n in range(6)]}


def work() -> int:
    """One item of handler-like Python work."""
    size = 0
    for n in range(4):
        item = dict(_ITEM, version=n)
        size += len(json.dumps(item)) + len(json.loads(json.dumps(item["legal"])))
    return size


def cpu_per_item_us(items: int, sleep_s: float) -> float:
    """The process's CPU (user + system) per item of ``work``, each preceded by a sleep of ``sleep_s``."""
    start = time.process_time()
    for _ in range(items):
        if sleep_s:
            time.sleep(sleep_s)
        work()
    return (time.process_time() - start) / items * 1e6


@dataclass(frozen=True)
class RoundTrip:
    wall_us: float
    cpu_us_per_side: float
    """The mean of the two processes' CPU per round trip."""


def _child_cpu_s() -> float:
    times = os.times()
    return times.children_user + times.children_system


def round_trip(trips: int, cores: set[int] | None) -> RoundTrip:
    """``trips`` one-byte round trips between this process and a forked echoing one, over loopback TCP with
    TCP_NODELAY; ``cores``: both processes held to these cores (None: free)."""
    listener = socket.create_server(("127.0.0.1", 0))
    client = socket.create_connection(listener.getsockname())
    server, _ = listener.accept()
    listener.close()
    for end in (client, server):
        end.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    before_affinity = os.sched_getaffinity(0)
    if cores is not None:
        os.sched_setaffinity(0, cores)
    try:
        child_before = _child_cpu_s()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the echoing child
            code = 1
            try:  # whatever happens, the child never returns into its parent's code (or a test runner's)
                client.close()
                for _ in range(trips):
                    server.recv(1)
                    server.sendall(b"y")
                code = 0
            finally:
                os._exit(code)
        server.close()
        wall, cpu = time.perf_counter(), time.process_time()
        for _ in range(trips):
            client.sendall(b"x")
            client.recv(1)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        _, status = os.waitpid(pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"the echoing process failed ({status})")
        child = _child_cpu_s() - child_before
    finally:
        os.sched_setaffinity(0, before_affinity)
        client.close()
    return RoundTrip(wall_us=wall / trips * 1e6, cpu_us_per_side=(cpu + child) / 2 / trips * 1e6)


def measure(items: int, sleeping_items: int, trips: int) -> dict[str, object]:
    back_to_back = median([cpu_per_item_us(items, 0.0) for _ in range(TRIES)])
    after = {f"{ms:g}": round(median([cpu_per_item_us(sleeping_items, ms / 1000) for _ in range(TRIES)])
                              / back_to_back, 2) for ms in SLEEPS_MS}
    figures: dict[str, object] = {"hardware": describe(), "work_cpu_us_back_to_back": round(back_to_back, 1),
                                  "work_cpu_ratio_after_sleep_ms": after}
    free = [round_trip(trips, None) for _ in range(TRIES)]
    figures["round_trip_any_core"] = asdict(_median_trip(free))
    if len(os.sched_getaffinity(0)) > 1:
        one = [round_trip(trips, {min(os.sched_getaffinity(0))}) for _ in range(TRIES)]
        figures["round_trip_one_core"] = asdict(_median_trip(one))
    return figures


def _median_trip(trips: list[RoundTrip]) -> RoundTrip:
    return RoundTrip(wall_us=round(median([t.wall_us for t in trips]), 1),
                     cpu_us_per_side=round(median([t.cpu_us_per_side for t in trips]), 1))


def report(figures: dict[str, object]) -> None:
    print(f"wake cost — {figures['hardware']}")
    after = figures["work_cpu_ratio_after_sleep_ms"]
    assert isinstance(after, dict)
    print(f"  the same Python work, {figures['work_cpu_us_back_to_back']} µs of CPU an item back to back, costs after"
          " a sleep: " + ", ".join(f"{ms} ms {ratio}×" for ms, ratio in after.items()))
    for key, shown in (("round_trip_any_core", "free to run on any core"), ("round_trip_one_core", "held to one core")):
        trip = figures.get(key)
        if isinstance(trip, dict):
            print(f"  a one-byte round trip between two processes over loopback TCP, {shown}:"
                  f" {trip['cpu_us_per_side']} µs of CPU on each side, {trip['wall_us']} µs wall")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer items and round trips (a second or two)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)
    figures = measure(300, 60, 2000) if args.quick else measure(3000, 400, 20000)
    report(figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))
        print(f"  figures written to {args.json}")


if __name__ == "__main__":
    main()
