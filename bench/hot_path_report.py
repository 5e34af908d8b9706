"""The hot path benchmark's figures: per-command CPU by process, latency at each offered rate, and the floor."""

from __future__ import annotations

import os
from statistics import median
from typing import Any

from bench.pg_settings import durable, where

GENERATOR = "generator"
LABELS = {"25%": "quarter_rate", "50%": "half_rate", "80%": "80pct_rate"}
"""JSON key suffix of each paced phase: p50_ms_at_half_rate is at 50 % of the sustained rate."""
BY_PROCESS = ("cpu_ms_by_process", "floor_cpu_ms_by_process", "postgres_cpu_ms_by_service",
              "wakeups_per_command_by_process")
HEADLINE = ("commands_per_s", "cpu_ms_per_command", "generator_cpu_ms_per_command", "p50_ms_at_half_rate",
            "p99_ms_at_half_rate", "p99_ms_at_quarter_rate", "p99_ms_at_80pct_rate", "cpu_ms_per_command_at_half_rate",
            "machine_busy_cores_at_half_rate", "floor_requests_per_s", "floor_cpu_ms_per_request",
            "floor_p99_ms_at_half_rate", "floor_ratio", "cpu_ratio", "wakeups_per_command",
            "wakeups_per_command_at_half_rate", "floor_wakeups_per_request", "floor_wakeups_per_request_at_half_rate",
            "relay_behind_max_s", "standings_behind_max_s")
"""What the medians of several runs print, each with every run's value."""
WIDTH = 46
"""The column of the medians' names: the longest figure's name and a process's name fit in it."""
LOG_READERS = ("relay", "standings")
"""Services that follow the log behind the player's path (``--without-log-readers`` leaves them out)."""


def cpu_ms_per_command(cpu_s: dict[str, float], commands: int) -> dict[str, float]:
    return {name: round(seconds * 1000 / max(commands, 1), 3) for name, seconds in cpu_s.items()}


def wakeups_per_command(phase: dict[str, Any]) -> dict[str, float] | None:
    """Each process's wake-ups (voluntary context switches, every thread of its tree) per command of the phase;
    None for a phase measured before wake-ups were."""
    if "wakeups" not in phase:
        return None
    return {name: round(count / max(int(phase["commands"]), 1), 2) for name, count in phase["wakeups"].items()}


def league_wakeups(phase: dict[str, Any]) -> float | None:
    """A phase's wake-ups per command summed over every process but the load generator."""
    by = wakeups_per_command(phase)
    return None if by is None else round(sum(n for name, n in by.items() if name != GENERATOR), 2)


def summarise(league: dict[str, Any], floor: dict[str, Any], settings: dict[str, str],
              hardware: str) -> dict[str, Any]:
    sustained, floor_run = league["phases"][0], floor["phases"][0]
    by_process = cpu_ms_per_command(sustained["cpu_s"], sustained["commands"])
    generator = by_process.pop(GENERATOR)
    total = round(sum(by_process.values()), 3)
    floor_by = cpu_ms_per_command(floor_run["cpu_s"], floor_run["commands"])
    floor_generator = floor_by.pop(GENERATOR)
    floor_total = round(sum(floor_by.values()), 3)
    figures: dict[str, Any] = {
        "commands_per_s": round(sustained["rate"], 1), "cpu_ms_per_command": total,
        "cpu_ms_by_process": by_process, "generator_cpu_ms_per_command": generator,
        "concurrent_games": league["games"], "closed_loop_in_flight": league["in_flight"], "cores": os.cpu_count(),
        "others_cores_in_window": round(sustained["others_cores"], 2),
        "floor_others_cores_in_window": round(floor_run["others_cores"], 2), "legal_gets_per_command": round(
            sustained["legal_gets"] / max(sustained["commands"], 1), 3),
        "replies_with_view": sustained["views_seen"], "moves_from_reply_view": sustained["views_used"],
        "pushed_views_per_command": round(sustained.get("pushes", 0) / max(sustained["commands"], 1), 3),
        "moves_from_pushed_view": sustained.get("moves_from_push", 0),
        "push_timeouts": sustained.get("push_timeouts", 0),
        "latency_measured_from": "scheduled time (paced phases); send time also given as *_from_send_ms",
        "floor_requests_per_s": round(floor_run["rate"], 1), "floor_cpu_ms_per_request": floor_total,
        "floor_cpu_ms_by_process": floor_by, "floor_generator_cpu_ms_per_request": floor_generator,
        "floor_ratio": round(sustained["rate"] / floor_run["rate"], 4) if floor_run["rate"] else None,
        "cpu_ratio": round(total / floor_total, 2) if floor_total else None,
        "postgres_fsync": settings.get("fsync") == "on", "postgres_durable": durable(settings),
        "postgres": where(), "postgres_settings": settings, "hardware": hardware,
        "league_phases": league["phases"], "floor_phases": floor["phases"],
    }
    if "postgres_cpu_s_by_service" in sustained:
        figures["postgres_cpu_ms_by_service"] = cpu_ms_per_command(sustained["postgres_cpu_s_by_service"],
                                                                   sustained["commands"])
    if (wakeups := wakeups_per_command(sustained)) is not None:
        figures["generator_wakeups_per_command"] = wakeups.pop(GENERATOR, 0.0)
        figures["wakeups_per_command_by_process"] = wakeups
        figures["wakeups_per_command"] = league_wakeups(sustained)
        figures["floor_wakeups_per_request"] = league_wakeups(floor_run)
    for reader, behind in sustained.get("readers_behind", {}).items():
        figures[f"{reader}_behind_max_s"] = behind["seconds"]
    for phase in league["phases"][1:]:
        label = LABELS.get(phase["phase"], phase["phase"].replace("%", "pct_rate"))
        figures[f"p50_ms_at_{label}"] = phase["latency_from_scheduled"]["p50_ms"]
        figures[f"p99_ms_at_{label}"] = phase["latency_from_scheduled"]["p99_ms"]
        figures[f"p50_from_send_ms_at_{label}"] = phase["latency_from_sent"]["p50_ms"]
        figures[f"p99_from_send_ms_at_{label}"] = phase["latency_from_sent"]["p99_ms"]
        figures[f"cpu_ms_per_command_at_{label}"] = phase_cpu_ms(phase)
        figures[f"machine_busy_cores_at_{label}"] = round(phase["machine_busy_cores"], 2)
        if (woken := league_wakeups(phase)) is not None:
            figures[f"wakeups_per_command_at_{label}"] = woken
        if "disk_flushes" in phase:
            figures[f"disk_flush_stalls_at_{label}"] = phase["disk_flushes"]["stalls_over_50ms"]
            figures[f"disk_flush_max_ms_at_{label}"] = phase["disk_flushes"]["max_ms"]
    for phase in floor["phases"][1:]:
        figures["floor_paced_per_s"] = round(phase["rate"], 1)
        figures["floor_p50_ms_at_half_rate"] = phase["latency_from_scheduled"]["p50_ms"]
        figures["floor_p99_ms_at_half_rate"] = phase["latency_from_scheduled"]["p99_ms"]
        figures["floor_cpu_ms_per_request_at_half_rate"] = phase_cpu_ms(phase)
        figures["floor_machine_busy_cores_at_half_rate"] = round(phase["machine_busy_cores"], 2)
        if (woken := league_wakeups(phase)) is not None:
            figures["floor_wakeups_per_request_at_half_rate"] = woken
        if "disk_flushes" in phase:
            figures["floor_disk_flush_stalls_at_half_rate"] = phase["disk_flushes"]["stalls_over_50ms"]
            figures["floor_disk_flush_max_ms_at_half_rate"] = phase["disk_flushes"]["max_ms"]
    return figures


def phase_cpu_ms(phase: dict[str, Any]) -> float:
    """A phase's CPU ms per command (per request, for the floor's phases) summed over every process but the load
    generator."""
    spent = sum(float(seconds) for name, seconds in phase["cpu_s"].items() if name != GENERATOR)
    return round(spent * 1000 / max(int(phase["commands"]), 1), 3)


def cores_by_process(phases: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Each process's cores busy (CPU seconds over the phase's seconds) in each phase, by process, in phase order;
    the processes ordered by their CPU in the first phase."""
    first = phases[0]["cpu_s"]
    names = sorted(first, key=lambda name: -first[name])
    return {name: [round(float(phase["cpu_s"].get(name, 0.0)) / max(float(phase["seconds"]), 1e-9), 2)
                   for phase in phases] for name in names}


def _report_cores(phases: list[dict[str, Any]]) -> None:
    print("  cores busy by process in each phase (a process busy alike at a lower rate pays by wake-up and by batch,"
          " not by command; bench.wake_cost gives this machine's price of a wake-up):")
    print("    " + " " * 16 + "".join(f"{phase['phase']:>11}" for phase in phases))
    for name, cores in cores_by_process(phases).items():
        print(f"    {name:<16}" + "".join(f"{value:>11.2f}" for value in cores))


def _report_wakeups(phases: list[dict[str, Any]]) -> None:
    measured = [(phase["phase"], by) for phase in phases if (by := wakeups_per_command(phase)) is not None]
    if not measured:
        return
    print("  wake-ups per command by process in each phase (voluntary context switches of every thread: each a sleep"
          " it was woken from, paid for apart from the work):")
    print("    " + " " * 16 + "".join(f"{name:>11}" for name, _ in measured))
    first = measured[0][1]
    for name in sorted(first, key=lambda name: -first[name]):
        print(f"    {name:<16}" + "".join(f"{by.get(name, 0.0):>11.2f}" for _, by in measured))


def _busy(phase: dict[str, Any], cores: int) -> str:
    return f"machine {phase['machine_busy_cores']:.2f} of {cores} cores busy"


def _disk(phase: dict[str, Any]) -> str:
    flushes = phase.get("disk_flushes")
    if not flushes:
        return ""
    return f"; disk flushes over 50 ms: {flushes['stalls_over_50ms']}, slowest {flushes['max_ms']:.0f} ms"


def _by_service(by: dict[str, float]) -> str:
    """PostgreSQL's share by the service whose login its backends served (``other``: background processes, backends
    of other logins and those that ended in the window)."""
    return "of which for: " + ", ".join(f"{name} {ms:.2f}" for name, ms in sorted(by.items(), key=lambda kv: -kv[1]))


def _behind(phase: dict[str, Any]) -> str:
    behind = phase.get("readers_behind")
    if not behind:
        return ": not measured"
    return ", behind the log at most: " + ", ".join(
        f"{reader} {b['seconds'] * 1000:.0f} ms ({b['events']} events)" for reader, b in behind.items())


def report(f: dict[str, Any]) -> None:
    sustained = f["league_phases"][0]
    print(f"  league sustained (closed loop, {f['concurrent_games']} games, at most {f['closed_loop_in_flight']}"
          f" commands in flight): {f['commands_per_s']:,.1f} commands/s"
          f" ({sustained['commands']} POST commands in {sustained['seconds']:.1f}s; {sustained['games_ended']}"
          f" games ended, {sustained['games_opened']} opened; errors {sustained['errors']})")
    closed = sustained["latency_from_sent"]
    print(f"  closed-loop latency (each game sends its next move as soon as it knows it): p50 {closed['p50_ms']:.1f}"
          f" ms, p99 {closed['p99_ms']:.1f} ms")
    print(f"  GET /legal: {sustained['legal_gets']} ({f['legal_gets_per_command']} per command); replies carrying"
          f" a view: {f['replies_with_view']}, next move taken from it: {f['moves_from_reply_view']}")
    if f.get("clients") == "ws":
        print(f"  views pushed over WebSockets: {sustained.get('pushes', 0)} ({f['pushed_views_per_command']} per"
              f" command), next move taken from one: {f['moves_from_pushed_view']}, no push within the wait (then"
              f" GET /legal): {f['push_timeouts']}")
    print(f"  machine during the window: {sustained['machine_busy_cores']:.2f} of {f['cores']} cores busy, of which"
          f" {sustained['others_cores']:.2f} by processes outside this benchmark (other work on a shared machine"
          " lowers the rates; CPU per command is the steadier figure)")
    print(f"  the log's readers during the window{_behind(sustained)}")
    print("  CPU ms per command over the steady window (utime+stime from /proc):")
    for name, ms in sorted(f["cpu_ms_by_process"].items(), key=lambda kv: -kv[1]):
        print(f"    {name:<16}{ms:8.2f}")
        if name == "postgres" and "postgres_cpu_ms_by_service" in f:
            print(f"      {_by_service(f['postgres_cpu_ms_by_service'])}")
    print(f"    {'league total':<16}{f['cpu_ms_per_command']:8.2f}")
    print(f"    {'load generator':<16}{f['generator_cpu_ms_per_command']:8.2f}   (apart, not in the total)")
    print("  paced (open loop) — latency from each command's scheduled time [from its send]:")
    for phase in f["league_phases"][1:]:
        s, t = phase["latency_from_scheduled"], phase["latency_from_sent"]
        print(f"    {phase['phase']:>4} offered {phase['offered_per_s']:7.1f}/s achieved {phase['rate']:7.1f}/s:"
              f" p50 {s['p50_ms']:7.1f} ms  p99 {s['p99_ms']:7.1f} ms  [p50 {t['p50_ms']:.1f}  p99 {t['p99_ms']:.1f}]"
              f"  league CPU {phase_cpu_ms(phase):.2f} ms/command, {_busy(phase, f['cores'])}, others"
              f" {phase['others_cores']:.2f} cores, errors {phase['errors']}"
              + _disk(phase) + ("  NOT SUSTAINED" if phase["rate"] < 0.95 * phase["offered_per_s"] else ""))
        print(f"         the log's readers{_behind(phase)}")
    _report_cores(f["league_phases"])
    _report_wakeups(f["league_phases"])
    by = " + ".join(f"{k} {v:.2f}" for k, v in f["floor_cpu_ms_by_process"].items())
    print(f"  floor (aiohttp + one asyncpg INSERT, same PostgreSQL, same generator, {f['concurrent_games']}"
          f" clients, {f['closed_loop_in_flight']} in flight): {f['floor_requests_per_s']:,.1f} requests/s;"
          f" CPU ms per request {by} ="
          f" {f['floor_cpu_ms_per_request']:.2f} (generator {f['floor_generator_cpu_ms_per_request']:.2f});"
          f" others {f['floor_others_cores_in_window']:.2f} cores")
    for phase in f["floor_phases"][1:]:
        s, t = phase["latency_from_scheduled"], phase["latency_from_sent"]
        print(f"  floor paced at the league's half rate, offered {phase['offered_per_s']:.1f}/s achieved"
              f" {phase['rate']:.1f}/s: p50 {s['p50_ms']:.1f} ms  p99 {s['p99_ms']:.1f} ms  [p50 {t['p50_ms']:.1f}"
              f"  p99 {t['p99_ms']:.1f}]; CPU {phase_cpu_ms(phase):.2f} ms/request, {_busy(phase, f['cores'])}"
              f"{_disk(phase)} (a durable commit waits for the disk's flush: a tail both share is the disk's)")
    if "floor_wakeups_per_request" in f:
        half = f.get("floor_wakeups_per_request_at_half_rate")
        print(f"  wake-ups (the generator's apart): league {f['wakeups_per_command']} per command, floor"
              f" {f['floor_wakeups_per_request']} per request; at the league's half rate league"
              f" {f.get('wakeups_per_command_at_half_rate')}, floor {half}")
    print(f"  floor_ratio (league commands/s / floor requests/s) = {f['floor_ratio']};"
          f" CPU ratio (league ms/command / floor ms/request) = {f['cpu_ratio']}")
    _warnings(f)


def _warnings(f: dict[str, Any]) -> None:
    if not f["postgres_durable"]:
        print("  WARNING: PostgreSQL ran without fsync or synchronous_commit: these are not durable figures")
    if not f.get("log_readers_running", True):
        print(f"  WARNING: the log's readers ({', '.join(LOG_READERS)}) did not run: the player's path alone, not"
              " the league's figures")


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several runs' figures as one: each figure that every run has as a number is its median over the runs (by
    process too), the others are the first run's; ``runs`` keeps every run's figures, phases and statements
    all."""
    first = runs[0]
    figures: dict[str, Any] = {key: value for key, value in first.items() if not _number(value) and key not in (
        "league_phases", "floor_phases", "statements", *BY_PROCESS)}
    for key, value in first.items():
        if _number(value) and all(_number(run.get(key)) for run in runs):
            figures[key] = round(median(run[key] for run in runs), 4)
    for key in BY_PROCESS:
        if key in first:
            figures[key] = {name: round(median(run.get(key, {}).get(name, 0.0) for run in runs), 3)
                            for name in first[key]}
    figures["postgres_fsync"] = all(run["postgres_fsync"] for run in runs)
    figures["postgres_durable"] = all(run["postgres_durable"] for run in runs)
    figures["median_of_runs"] = len(runs)
    figures["runs"] = runs
    return figures


def report_medians(f: dict[str, Any]) -> None:
    runs = f["runs"]
    print(f"medians of {len(runs)} runs (each run's figure in brackets, in the order they ran):")
    for key in HEADLINE:
        if key in f:
            print(f"  {key:<{WIDTH}}{f[key]:>10}   [{', '.join(str(run.get(key)) for run in runs)}]")
    for key in ("cpu_ms_by_process", "postgres_cpu_ms_by_service", "wakeups_per_command_by_process"):
        for name, ms in sorted(f.get(key, {}).items(), key=lambda kv: -kv[1]):
            each = ", ".join(str(run.get(key, {}).get(name)) for run in runs)
            print(f"  {key} {name:<{WIDTH - 1 - len(key)}}{ms:>10}   [{each}]")
    _warnings(f)
