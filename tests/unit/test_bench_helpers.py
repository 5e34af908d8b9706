"""The hot path benchmark's pure helpers: /proc CPU reading, percentiles, the pacer's schedule, a reply's view."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from bench.capacity import Measured, ceilings, need
from bench.capacity import table as capacity_table
from bench.engine_replicas import figures_of
from bench.flush_probe import FlushProbe
from bench.hot_path_report import cores_by_process, medians, report, report_medians, summarise
from bench.pacer import ClosedLoop, Paced
from bench.percentiles import percentile
from bench.proc_cpu import (
    TICKS,
    PostgresSample,
    all_stats,
    machine_busy_seconds,
    parse_stat,
    postgres_by_service,
    read_stat,
    sample,
    sample_wakeups,
    service_of,
    tree_seconds,
    voluntary_switches,
    wakeups_between,
)
from bench.targets import Counts, LeagueTarget, Reply, ReplyView, Table, legal_of
from shared.eventstore.roles import login_name


def test_stat_line_with_spaces_and_parentheses_in_the_name_is_parsed_from_the_last_parenthesis() -> None:
    line = "4242 (tmux: (server) x) S 1 4242 4242 0 -1 4194560 10 0 0 0 250 50 7 3 20 0 1 0 100 0 0"
    stat = parse_stat(line)
    assert (stat.pid, stat.comm, stat.ppid) == (4242, "tmux: (server) x", 1)
    assert (stat.utime, stat.stime, stat.cutime, stat.cstime) == (250, 50, 7, 3)
    assert stat.seconds == 310 / TICKS


def test_the_current_process_cpu_grows_by_the_work_it_does() -> None:
    stat = read_stat(os.getpid())
    assert stat is not None and stat.pid == os.getpid() and stat.ppid == os.getppid()
    before = sample({"me": os.getpid()})["me"]  # children reaped meanwhile (another test's servers) count in both
    spin_until = time.process_time() + 0.3
    while time.process_time() < spin_until:
        pass
    after = sample({"me": os.getpid()})["me"]
    assert 0.2 <= after - before <= 2.0
    assert machine_busy_seconds() >= after


def test_a_tree_counts_its_live_descendants_and_nothing_else() -> None:
    root = parse_stat("10 (postgres) S 1 0 0 0 -1 0 0 0 0 0 100 0 50 0")
    child = parse_stat("11 (postgres) S 10 0 0 0 -1 0 0 0 0 0 20 5 0 0")
    grandchild = parse_stat("12 (postgres) S 11 0 0 0 -1 0 0 0 0 0 1 1 0 0")
    stranger = parse_stat("13 (postgres) S 1 0 0 0 -1 0 0 0 0 0 999 0 0 0")
    stats = {s.pid: s for s in (root, child, grandchild, stranger)}
    assert tree_seconds(10, stats) == (150 + 25 + 2) / TICKS
    assert tree_seconds(99, stats) == 0


def test_a_thread_status_gives_its_voluntary_context_switches() -> None:
    status = "Name:\tpython\nvoluntary_ctxt_switches:\t1234\nnonvoluntary_ctxt_switches:\t56\n"
    assert voluntary_switches(status) == 1234
    assert voluntary_switches("Name:\tkthread\n") == 0


def test_wakeups_between_two_samples_count_a_new_process_whole_and_leave_out_one_that_ended() -> None:
    before = {"postgres": {10: 100, 11: 40, 12: 7}, "engine": {20: 5}}
    after = {"postgres": {10: 130, 11: 45, 13: 9}, "engine": {20: 25}}
    assert wakeups_between(before, after) == {"postgres": 30 + 5 + 9, "engine": 20}


def test_a_child_that_sleeps_is_counted_a_wake_up_for_each_sleep() -> None:
    script = ("import sys, time\nprint(flush=True)\nsys.stdin.readline()\n"
              "[time.sleep(0.002) for _ in range(50)]\nprint(flush=True)\nsys.stdin.readline()")
    with subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as child:
        assert child.stdin is not None and child.stdout is not None
        child.stdout.readline()  # started, and waiting for its first line
        roots = {"child": child.pid, "me": os.getpid()}
        before = sample_wakeups(roots, all_stats())
        assert child.pid in before["me"] and child.pid in before["child"]
        child.stdin.write(b"go\n")
        child.stdin.flush()
        child.stdout.readline()  # its 50 sleeps are over
        woken = wakeups_between(before, sample_wakeups(roots, all_stats()))
        child.stdin.write(b"done\n")
        child.stdin.flush()
    assert 50 <= woken["child"] <= 200  # the sleeps and the read, with a little of the interpreter's own
    assert woken["me"] >= woken["child"]  # a tree counts its children


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


class FakeGateway:
    """Answers GET /legal and POST /commands the same each time, and remembers what it was sent."""

    def __init__(self, legal: bytes, reply: bytes) -> None:
        self.answers = {"GET": legal, "POST": reply}
        self.sent: list[str] = []

    async def request(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes]:
        self.sent.append(f"{method} {path.rsplit('/', 1)[-1]}")
        return 200, self.answers[method]

    def show(self, what: str, status: int, payload: bytes) -> None:
        raise AssertionError(f"{what} {status} {payload!r}")


def play_two_moves(reply: bytes) -> tuple[list[str], Counts]:
    roll = b'{"type": "hockeydice.Roll", "seat": 0}'
    legal = b'{"game_id": "g", "seat": 0, "version": 1, "commands": [' + roll + b"]}"
    gateway = FakeGateway(legal, reply)
    counts = Counts()
    target = LeagueTarget(gateway, counts)  # type: ignore[arg-type]
    table = Table(players=({}, {}), ids=("a", "b"), rng=random.Random(1), game_id="hockeydice-1")

    async def two() -> None:
        for _ in range(2):
            assert await target.ready(table)
            assert await target.send(table)

    asyncio.run(two())
    return gateway.sent, counts


def test_the_next_move_comes_from_the_reply_view_when_it_carries_legal_moves() -> None:
    with_view = (b'{"game_id": "g", "version": 2, "duplicate": false, "ended": false, "view": {"game_id": "g",'
                 b' "version": 2, "ended": false, "seat": 0, "pending_seats": [0, 1], "view": {},'
                 b' "legal": [{"type": "hockeydice.Roll", "seat": 0}]}}')
    sent, counts = play_two_moves(with_view)
    assert sent == ["GET legal", "POST commands", "POST commands"]
    assert (counts.commands, counts.legal_gets, counts.views_used) == (2, 1, 2)


def test_without_a_view_in_the_reply_each_move_is_found_by_get_legal() -> None:
    sent, counts = play_two_moves(b'{"game_id": "g", "version": 2, "duplicate": false, "ended": false}')
    assert sent == ["GET legal", "POST commands", "GET legal", "POST commands"]
    assert (counts.commands, counts.legal_gets, counts.views_used) == (2, 2, 0)


def pushed(seat: int, version: int, pending: list[int]) -> ReplyView:
    legal = b'[{"type": "hockeydice.Roll", "seat": %d}]' % seat if seat in pending else b"[]"
    return ReplyView(seat=seat, version=version, pending_seats=pending, legal=msgspec.Raw(legal))


def test_a_watching_player_takes_its_move_from_a_view_pushed_at_the_current_version_or_later(
        monkeypatch: Any) -> None:
    roll = b'{"type": "hockeydice.Roll", "seat": 1}'
    gateway = FakeGateway(b'{"game_id": "g", "seat": 1, "version": 5, "commands": [' + roll + b"]}", b"")
    counts = Counts()
    target = LeagueTarget(gateway, counts, watch=True)  # type: ignore[arg-type]
    table = Table(players=({}, {}), ids=("a", "b"), rng=random.Random(1), game_id="hockeydice-1", version=5,
                  seat=1)
    monkeypatch.setattr("bench.targets.PUSH_WAIT", 0.05)

    async def play() -> None:
        table.pushed = {0: pushed(0, 5, [1]), 1: pushed(1, 4, [1])}  # seat 1's view is older than the reply's
        assert await target.ready(table)  # waited for a push, none came: asked GET /legal
        assert table.moves is not None and table.seat == 1 and gateway.sent == ["GET legal"]
        table.moves = None

        async def push_later() -> None:
            await asyncio.sleep(0.01)
            table.pushed[1] = pushed(1, 5, [1])
            table.changed.set()

        later = asyncio.create_task(push_later())
        assert not await target.ready(table)  # woken by the push: the move is taken on the next look
        await later
        assert await target.ready(table) and table.seat == 1 and table.moves is not None
        assert [msgspec.json.decode(m) for m in table.moves] == [{"type": "hockeydice.Roll", "seat": 1}]

    asyncio.run(play())
    assert gateway.sent == ["GET legal"]
    assert (counts.moves_from_push, counts.push_timeouts, counts.legal_gets) == (1, 1, 1)


def test_a_closed_loop_lets_only_so_many_commands_in_flight() -> None:
    async def take() -> None:
        loop = ClosedLoop(2)
        await loop.slot()
        await loop.slot()
        third = asyncio.create_task(loop.slot())
        await asyncio.sleep(0.05)
        assert not third.done()
        loop.done()
        assert await asyncio.wait_for(third, 1) is not None

    asyncio.run(take())


def phase_of(name: str, commands: int, cpu_s: dict[str, float], offered: float | None = None) -> dict[str, object]:
    latency = {"p50_ms": 10.0, "p99_ms": 30.0, "max_ms": 40.0, "count": commands}
    return {"phase": name, "offered_per_s": offered, "seconds": 10.0, "rate": commands / 10, "commands": commands,
            "legal_gets": commands, "views_used": 0, "views_seen": 0, "games_opened": 1, "games_ended": 1, "errors": 0,
            "latency_from_scheduled": latency, "latency_from_sent": latency, "cpu_s": cpu_s,
            "machine_busy_cores": 1.5, "others_cores": 0.5}


def test_figures_divide_each_process_cpu_by_the_commands_and_compare_with_the_floor(capsys: Any) -> None:
    half = phase_of("50%", 500, {"engine": 1.5, "postgres": 0.5, "generator": 0.2}, offered=50.0)
    half["disk_flushes"] = {"flushes": 160, "stalls_over_50ms": 2, "max_ms": 120.0}
    league = {"games": 4, "in_flight": 2, "phases": [
        phase_of("sustained", 1000, {"engine": 2.0, "postgres": 1.0, "generator": 0.5}), half]}
    floor = {"games": 4, "in_flight": 2, "phases": [
        phase_of("sustained", 4000, {"floor": 1.0, "postgres": 1.0, "generator": 0.4}),
        phase_of("50.0/s", 500, {"floor": 0.2, "postgres": 0.2, "generator": 0.1}, offered=50.0)]}
    figures = summarise(league, floor, {"fsync": "on", "synchronous_commit": "on"}, "a machine")
    assert figures["cpu_ms_by_process"] == {"engine": 2.0, "postgres": 1.0}
    assert figures["cpu_ms_per_command"] == 3.0 and figures["generator_cpu_ms_per_command"] == 0.5
    assert figures["floor_cpu_ms_per_request"] == 0.5 and figures["floor_ratio"] == 0.25 and figures["cpu_ratio"] == 6
    assert figures["p50_ms_at_half_rate"] == 10.0 and figures["postgres_fsync"] is True
    assert figures["floor_p99_ms_at_half_rate"] == 30.0 and figures["floor_paced_per_s"] == 50.0
    assert figures["disk_flush_stalls_at_half_rate"] == 2 and figures["disk_flush_max_ms_at_half_rate"] == 120.0
    assert figures["cpu_ms_per_command_at_half_rate"] == 4.0 and figures["machine_busy_cores_at_half_rate"] == 1.5
    assert figures["floor_cpu_ms_per_request_at_half_rate"] == 0.8
    report(figures)
    out = capsys.readouterr().out
    assert "league total" in out and "disk flushes over 50 ms: 2, slowest 120 ms" in out
    assert "league CPU 4.00 ms/command, machine 1.50 of" in out
    assert "floor paced at the league's half rate" in out and "CPU 0.80 ms/request, machine 1.50 of" in out


def test_each_process_cores_busy_in_each_phase_are_its_cpu_over_the_phase_seconds(capsys: Any) -> None:
    phases = [phase_of("sustained", 1000, {"engine": 2.0, "postgres": 3.0, "generator": 0.5}),
              phase_of("50%", 500, {"engine": 2.5, "postgres": 1.0, "generator": 0.4}, offered=50.0)]
    assert cores_by_process(phases) == {"postgres": [0.3, 0.1], "engine": [0.2, 0.25], "generator": [0.05, 0.04]}
    league = {"games": 4, "in_flight": 2, "phases": phases}
    floor = {"games": 4, "in_flight": 2, "phases": [
        phase_of("sustained", 4000, {"floor": 1.0, "postgres": 1.0, "generator": 0.4})]}
    report(summarise(league, floor, {"fsync": "on", "synchronous_commit": "on"}, "a machine"))
    lines = capsys.readouterr().out.splitlines()
    table = lines.index(next(line for line in lines if line.startswith("  cores busy by process")))
    assert lines[table + 1].split() == ["sustained", "50%"]
    assert lines[table + 2].split() == ["postgres", "0.30", "0.10"]
    assert lines[table + 3].split() == ["engine", "0.20", "0.25"]


def test_wake_ups_per_command_by_process_come_with_each_phase_and_the_floor_and_their_medians(capsys: Any) -> None:
    sustained = phase_of("sustained", 1000, {"engine": 2.0, "postgres": 1.0, "generator": 0.5})
    sustained["wakeups"] = {"engine": 1500, "postgres": 3000, "generator": 2000}
    half = phase_of("50%", 500, {"engine": 1.5, "postgres": 0.5, "generator": 0.2}, offered=50.0)
    half["wakeups"] = {"engine": 1000, "postgres": 2250, "generator": 1000}
    floor_run = phase_of("sustained", 4000, {"floor": 1.0, "postgres": 1.0, "generator": 0.4})
    floor_run["wakeups"] = {"floor": 2000, "postgres": 4000, "generator": 4000}
    floor_half = phase_of("50.0/s", 500, {"floor": 0.2, "postgres": 0.2, "generator": 0.1}, offered=50.0)
    floor_half["wakeups"] = {"floor": 500, "postgres": 500, "generator": 500}
    figures = summarise({"games": 4, "in_flight": 2, "phases": [sustained, half]},
                        {"games": 4, "in_flight": 2, "phases": [floor_run, floor_half]},
                        {"fsync": "on", "synchronous_commit": "on"}, "a machine")
    assert figures["wakeups_per_command_by_process"] == {"engine": 1.5, "postgres": 3.0}
    assert figures["generator_wakeups_per_command"] == 2.0 and figures["wakeups_per_command"] == 4.5
    assert figures["wakeups_per_command_at_half_rate"] == 6.5
    assert figures["floor_wakeups_per_request"] == 1.5 and figures["floor_wakeups_per_request_at_half_rate"] == 2.0
    report(figures)
    lines = capsys.readouterr().out.splitlines()
    table = lines.index(next(line for line in lines if line.startswith("  wake-ups per command by process")))
    assert lines[table + 1].split() == ["sustained", "50%"]
    assert lines[table + 2].split() == ["postgres", "3.00", "4.50"]
    assert lines[table + 4].split() == ["engine", "1.50", "2.00"]
    assert any("league 4.5 per command, floor 1.5 per request; at the league's half rate league 6.5, floor 2.0"
               in line for line in lines)
    slower = dict(figures, wakeups_per_command=5.5, wakeups_per_command_by_process={"engine": 2.5, "postgres": 3.0})
    both = medians([figures, slower, figures])
    assert both["wakeups_per_command"] == 4.5 and both["wakeups_per_command_by_process"]["engine"] == 1.5


def test_postgres_backends_are_told_apart_by_the_service_whose_login_they_serve() -> None:
    assert service_of("postgres: league_engine_league_test league_test 127.0.0.1(40112) idle") == "engine"
    long_database = "league_" + "x" * 60
    title = f"postgres: {login_name('standings', long_database)} {long_database} 127.0.0.1(1) COMMIT"
    assert service_of(title) == "standings"  # a login name hashed to fit PostgreSQL's 63 characters
    assert service_of("postgres: 15/main: league_relay_t t 127.0.0.1(5) idle") == "relay"  # Debian: cluster_name
    assert service_of("postgres: league_rng league_test [local] idle") == "rng"  # its group role
    for title in ("postgres: walwriter", "postgres: 15/main: walwriter", "postgres: postgres league_test 127.0.0.1(9)"
                  " idle", "postgres: league_app league_test 127.0.0.1(7) idle",
                  "postgres: league_engine_other_db league_test 127.0.0.1(8) idle", "postgres -D /x", ""):
        assert service_of(title) == "other"


def test_postgres_cpu_between_two_samples_counts_new_backends_whole_and_ended_ones_as_other() -> None:
    before = PostgresSample(backends={10: ("engine", 5.0), 11: ("relay", 1.0), 12: ("engine", 2.0)}, own=3.0)
    # 12 ended after spending 0.5 s more (reaped into the postmaster's own 3.0 -> 3.6, 0.1 s of its own); 13 is new.
    after = PostgresSample(backends={10: ("engine", 5.75), 11: ("relay", 1.25), 13: ("engine", 0.5)}, own=5.6)
    spent = postgres_by_service(before, after)
    assert spent == pytest.approx({"engine": 1.25, "relay": 0.25, "other": 0.6})


def test_the_report_splits_postgres_by_service_and_the_medians_keep_it(capsys: Any) -> None:
    runs = []
    for engine_s in (0.5, 0.3, 0.4):
        sustained = phase_of("sustained", 1000, {"engine": 2.0, "postgres": 1.0, "generator": 0.5})
        sustained["postgres_cpu_s_by_service"] = {"engine": engine_s, "standings": 0.2, "other": 0.1}
        league = {"games": 4, "in_flight": 2, "phases": [sustained]}
        floor = {"games": 4, "in_flight": 2, "phases": [
            phase_of("sustained", 4000, {"floor": 1.0, "postgres": 1.0, "generator": 0.4})]}
        runs.append(summarise(league, floor, {"fsync": "on", "synchronous_commit": "on"}, "a machine"))
    assert runs[0]["postgres_cpu_ms_by_service"] == {"engine": 0.5, "standings": 0.2, "other": 0.1}
    report(runs[0])
    assert "of which for: engine 0.50, standings 0.20, other 0.10" in capsys.readouterr().out
    figures = medians(runs)
    assert figures["postgres_cpu_ms_by_service"] == {"engine": 0.4, "standings": 0.2, "other": 0.1}
    report_medians(figures)
    assert "postgres_cpu_ms_by_service engine" in capsys.readouterr().out


def figures_of_a_run(commands: int, engine_s: float) -> dict[str, Any]:
    league = {"games": 4, "in_flight": 2, "phases": [
        phase_of("sustained", commands, {"engine": engine_s, "postgres": 1.0, "generator": 0.5}),
        phase_of("50%", 500, {"engine": 1.5, "postgres": 0.5, "generator": 0.2}, offered=50.0)]}
    floor = {"games": 4, "in_flight": 2, "phases": [
        phase_of("sustained", 4000, {"floor": 1.0, "postgres": 1.0, "generator": 0.4})]}
    return summarise(league, floor, {"fsync": "on", "synchronous_commit": "on"}, "a machine")


def test_several_runs_give_the_median_of_each_figure_and_keep_every_run(capsys: Any) -> None:
    runs = [figures_of_a_run(1000, 2.0), figures_of_a_run(2000, 1.0), figures_of_a_run(500, 4.0)]
    figures = medians(runs)
    assert figures["commands_per_s"] == 100.0 and figures["floor_ratio"] == 0.25
    assert figures["cpu_ms_by_process"] == {"engine": 2.0, "postgres": 1.0}
    assert figures["cpu_ms_per_command"] == 3.0 and figures["p99_ms_at_half_rate"] == 30.0
    assert figures["postgres_fsync"] is True and figures["hardware"] == "a machine"
    assert figures["median_of_runs"] == 3 and figures["runs"] == runs and "league_phases" not in figures
    report_medians(figures)
    out = capsys.readouterr().out
    assert "medians of 3 runs" in out and "[100.0, 200.0, 50.0]" in out and "[2.0, 0.5, 8.0]" in out


def test_a_run_without_the_log_readers_says_its_figures_are_not_the_leagues(capsys: Any) -> None:
    league_run = figures_of_a_run(1000, 2.0) | {"log_readers_running": True}
    report(league_run)
    assert "WARNING" not in capsys.readouterr().out
    runs = [figures_of_a_run(1000, 2.0) | {"log_readers_running": False} for _ in range(3)]
    report(runs[0])
    assert "the log's readers (relay, standings) did not run" in capsys.readouterr().out
    report_medians(medians(runs))
    assert "the log's readers (relay, standings) did not run" in capsys.readouterr().out


def test_the_flush_probe_counts_the_flushes_of_a_window_and_the_slow_ones(tmp_path: Path) -> None:
    with FlushProbe(tmp_path, interval=0.01) as probe:
        deadline = time.monotonic() + 30  # a CI disk once took 281 ms for one flush
        while len(probe.samples) < 5 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert not (tmp_path / "flush-probe.dat").exists()
    start, end = probe.samples[0][0], probe.samples[-1][0]
    seen = probe.between(start, end)
    assert seen["flushes"] == len(probe.samples) >= 5 and seen["max_ms"] > 0
    probe.samples.append((end + 1, 0.2))
    assert probe.between(end + 0.5, end + 2) == {"flushes": 1, "stalls_over_50ms": 1, "max_ms": 200.0}


def test_engine_replicas_cpu_per_command_adds_every_engine_and_leaves_out_the_load_generator() -> None:
    phase = {"cpu_s": {"engine": 1.0, "engine-2": 0.5, "gateway": 2.0, "generator": 3.0}, "commands": 1000,
             "rate": 250.0, "errors": 0, "machine_busy_cores": 1.9, "others_cores": 0.3}
    row = figures_of(phase, 2, [32.0, 32.0])
    assert row["engines_cpu_ms_per_command"] == 1.5
    assert row["league_cpu_ms_per_command"] == 3.5
    assert "generator" not in row["cpu_ms_by_process"]


def test_the_capacity_model_scales_each_measured_figure_by_the_commands_a_tournament_sends() -> None:
    measured = Measured({"engine": 1.0, "gateway": 0.5, "postgres": 0.5, "relay": 0.25}, events_per_command=4.0,
                        bytes_per_event_postgresql=500, bytes_per_event_jetstream=250, events_per_message_jetstream=4.0,
                        appends_per_s=40_000, jetstream_r3_messages_per_s=10_000, events_per_game=1000)
    tables = need(measured, 10_000, pace_seconds=5)
    assert tables.commands_per_s == 2_000 and tables.events_per_s == 8_000
    assert tables.cores == {"engine": 2.0, "gateway": 1.0, "postgres": 1.0, "relay": 0.5}
    assert tables.replicas == {"engine": 3, "gateway": 2}  # 2 cores at 70 % a core: 3 replicas
    assert tables.postgresql_load == 0.2 and tables.jetstream_load == 0.2  # 2,000 messages of 4 events
    assert tables.postgresql_gb_per_day == 8_000 * 500 * 86_400 / 1e9
    assert tables.jetstream_gb_per_day == 8_000 * 250 * 3 * 86_400 / 1e9
    assert tables.postgresql_gb_per_round == 10_000 * 1000 * 500 / 1e9
    assert ceilings(measured) == {"relay": 4000}  # one relay process has a core busy at 4,000 commands/s
    assert "| engine replicas (1 core each, 70% busy) | 3 |" in capacity_table(measured, [tables], 5)
