"""The supervisor's restart policy, with a clock of its own: back-off that grows with restarts in a sliding window
and shrinks when they fall out of it, never stopping the league, never touching what runs."""

from __future__ import annotations

from dataclasses import dataclass

from shared.infra.supervisor import RestartPolicy, Supervisor


@dataclass
class Child:
    name: str
    running: bool = True
    starts: int = 0
    fails_to_start: bool = False

    def alive(self) -> bool:
        return self.running

    def start(self) -> None:
        self.starts += 1
        if self.fails_to_start:
            raise RuntimeError("no luck")
        self.running = True

    def exit_status(self) -> int | None:
        return None if self.running else -9


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


POLICY = RestartPolicy(first_delay=1, factor=2, longest_delay=30, window_seconds=300, warn_after=5)


def crash_and_wait(supervisor: Supervisor, child: Child, clock: Clock) -> float:
    """Crash the child, then step a second at a time until it runs again: how long it took."""
    child.running = False
    began = clock.now
    supervisor.step()
    while not child.running:
        clock.now += 0.5
        supervisor.step()
    return clock.now - began


def test_the_back_off_grows_with_restarts_in_the_window_and_is_short_again_after_it() -> None:
    clock, said = Clock(), list[str]()
    child = Child("engine")
    supervisor = Supervisor([child], POLICY, say=said.append, clock=clock)
    waits = [crash_and_wait(supervisor, child, clock) for _ in range(7)]
    assert waits == [1, 2, 4, 8, 16, 30, 30]
    assert any("keeps failing" in line for line in said)
    clock.now += 301  # a quiet spell longer than the window: the next crash is a first one again
    supervisor.step()
    assert crash_and_wait(supervisor, child, clock) == 1
    assert child.starts == 8


def test_a_service_that_keeps_failing_never_stops_the_league_nor_touches_the_healthy_ones() -> None:
    clock, said = Clock(), list[str]()
    broken, healthy = Child("matchmaking", running=False, fails_to_start=True), Child("gateway")
    supervisor = Supervisor([broken, healthy], POLICY, say=said.append, clock=clock)
    for _ in range(3600 * 2):  # an hour, a step every half second
        supervisor.step()
        clock.now += 0.5
    assert healthy.starts == 0 and healthy.running
    assert 110 < broken.starts < 130, broken.starts  # about one try per 30 s, for the whole hour
    assert any("did not start" in line for line in said)


def test_restarts_in_a_lifetime_do_not_add_up() -> None:
    """Six crashes 28 minutes apart (the league once stopped on the sixth): each is restarted at once."""
    clock = Clock()
    child = Child("relay")
    supervisor = Supervisor([child], POLICY, say=lambda _: None, clock=clock)
    for _ in range(10):
        assert crash_and_wait(supervisor, child, clock) == 1
        clock.now += 28 * 60
        supervisor.step()
    assert child.starts == 10
