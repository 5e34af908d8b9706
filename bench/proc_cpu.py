"""CPU time of processes from ``/proc/<pid>/stat`` (Linux): a process with its children, dead or alive, so that a
PostgreSQL postmaster counts every backend it forked, also those that ended within the window. And their wake-ups:
the voluntary context switches of every thread (``/proc/<pid>/task/<tid>/status``), each a sleep the thread was
woken from, which a machine that charges for wake-ups (``bench.wake_cost``) pays for apart from the work."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from shared.eventstore.roles import login_of

PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Stat:
    pid: int
    comm: str
    ppid: int
    utime: int
    stime: int
    cutime: int
    """Ticks of the children it has waited for (their own time is then no longer listed anywhere else)."""
    cstime: int

    @property
    def seconds(self) -> float:
        return (self.utime + self.stime + self.cutime + self.cstime) / TICKS


def parse_stat(text: str) -> Stat:
    """One ``/proc/<pid>/stat`` line; the command name may hold spaces and parentheses, so split at the last ')'."""
    head, _, tail = text.rpartition(")")
    pid, _, comm = head.partition(" (")
    fields = tail.split()  # fields[0] is field 3 (state) of proc(5)
    return Stat(pid=int(pid), comm=comm, ppid=int(fields[1]), utime=int(fields[11]), stime=int(fields[12]),
                cutime=int(fields[13]), cstime=int(fields[14]))


def read_stat(pid: int) -> Stat | None:
    try:
        return parse_stat((PROC / str(pid) / "stat").read_text())
    except (OSError, ValueError, IndexError):
        return None


def all_stats() -> dict[int, Stat]:
    stats = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (stat := read_stat(int(entry.name))) is not None:
            stats[stat.pid] = stat
    return stats


def tree(root: int, stats: Mapping[int, Stat]) -> list[int]:
    """``root`` and every live descendant (none when ``root`` is not in ``stats``)."""
    children: dict[int, list[int]] = {}
    for stat in stats.values():
        children.setdefault(stat.ppid, []).append(stat.pid)
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        if pid in stats:
            pids.append(pid)
            todo.extend(children.get(pid, ()))
    return pids


def tree_seconds(root: int, stats: Mapping[int, Stat]) -> float:
    """CPU seconds of ``root`` and every live descendant, each with its reaped children."""
    return sum(stats[pid].seconds for pid in tree(root, stats))


def sample(roots: Mapping[str, int], stats: Mapping[int, Stat] | None = None) -> dict[str, float]:
    """CPU seconds so far of each named process tree, from one scan of /proc (``stats``, else a new one)."""
    stats = all_stats() if stats is None else stats
    return {name: tree_seconds(pid, stats) for name, pid in roots.items()}


def voluntary_switches(status: str) -> int:
    """``voluntary_ctxt_switches`` of one ``/proc/<pid>/task/<tid>/status`` (0 when it is not there)."""
    for line in status.splitlines():
        if line.startswith("voluntary_ctxt_switches:"):
            return int(line.split()[1])
    return 0


def switches_of(pid: int) -> int:
    """Voluntary context switches so far of every live thread of ``pid`` (0 for a process gone)."""
    try:
        tasks = list((PROC / str(pid) / "task").iterdir())
    except OSError:
        return 0
    total = 0
    for task in tasks:
        try:
            total += voluntary_switches((task / "status").read_text())
        except (OSError, ValueError, IndexError):
            continue
    return total


Wakeups = dict[str, dict[int, int]]
"""name -> pid -> voluntary context switches so far, for every live process of the named tree."""


def sample_wakeups(roots: Mapping[str, int], stats: Mapping[int, Stat]) -> Wakeups:
    return {name: {pid: switches_of(pid) for pid in tree(root, stats)} for name, root in roots.items()}


def wakeups_between(before: Wakeups, after: Wakeups) -> dict[str, int]:
    """Each tree's wake-ups between two samples: a process born in between counts whole; one that ended in between
    is not counted at all (no parent keeps its switches, as it keeps a reaped child's CPU)."""
    return {name: sum(count - before.get(name, {}).get(pid, 0) for pid, count in pids.items())
            for name, pids in after.items()}


OTHER = "other"


@dataclass(frozen=True)
class PostgresSample:
    """A postmaster's backends' CPU seconds so far (pid -> the service whose login it serves, seconds), and its own
    (with the backends it has reaped)."""

    backends: dict[int, tuple[str, float]]
    own: float


def service_of(title: str) -> str:
    """``postgres: [<cluster_name>:] <user> <database> 127.0.0.1(5000) idle`` -> the service whose login
    (``shared.eventstore.roles.login_of``) the user is, e.g. ``engine``; a background process, the owner's or another
    user's backend -> ``other``."""
    words = title.split()
    if not words or words[0] != "postgres:":
        return OTHER
    if len(words) > 1 and words[1].endswith(":"):
        del words[1]
    return (login_of(words[1], words[2]) if len(words) > 2 else None) or OTHER


def sample_postgres(postmaster: int, stats: Mapping[int, Stat]) -> PostgresSample:
    own = stats.get(postmaster)
    return PostgresSample(
        backends={stat.pid: (service_of(" ".join(cmdline(stat.pid))), stat.seconds)
                  for stat in stats.values() if stat.ppid == postmaster},
        own=0.0 if own is None else own.seconds)


def postgres_by_service(before: PostgresSample, after: PostgresSample) -> dict[str, float]:
    """CPU seconds between two samples by the service each backend served. A backend that ended in between is
    reaped into the postmaster's own figure: what it spent after ``before`` counts as ``other``."""
    spent: dict[str, float] = {}
    for pid, (service, seconds) in after.backends.items():
        spent[service] = spent.get(service, 0.0) + seconds - before.backends.get(pid, (service, 0.0))[1]
    gone = sum(seconds for pid, (_, seconds) in before.backends.items() if pid not in after.backends)
    spent[OTHER] = spent.get(OTHER, 0.0) + after.own - before.own - gone
    return spent


def cmdline(pid: int) -> list[str]:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def find_process(program: str, args: Iterable[str]) -> int | None:
    """The pid of a running ``program`` (its file name) whose command line holds ``args`` in a row."""
    wanted = list(args)
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        argv = cmdline(int(entry.name))
        if not argv or Path(argv[0]).name != program:
            continue
        if any(argv[i:i + len(wanted)] == wanted for i in range(len(argv))):
            return int(entry.name)
    return None


def parent_of(pid: int) -> int | None:
    stat = read_stat(pid)
    return None if stat is None else stat.ppid


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine spent busy so far (``/proc/stat``: all but idle and iowait)."""
    fields = [int(v) for v in (PROC / "stat").read_text().split("\n", 1)[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / TICKS
