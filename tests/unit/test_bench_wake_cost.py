"""bench.wake_cost: its two measures run for real, on this machine, and its figures are what it prints."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from bench.wake_cost import cpu_per_item_us, main, round_trip


def test_an_item_of_work_costs_cpu_and_a_sleep_before_it_is_counted_with_it() -> None:
    assert cpu_per_item_us(50, 0.0) > 0
    assert cpu_per_item_us(5, 0.001) > 0


def test_a_round_trip_between_two_processes_costs_each_side_cpu_and_leaves_the_affinity_as_it_was() -> None:
    before = os.sched_getaffinity(0)
    trip = round_trip(300, {min(before)})
    assert trip.wall_us > 0 and trip.cpu_us_per_side > 0
    assert os.sched_getaffinity(0) == before
    assert round_trip(300, None).cpu_us_per_side > 0


def test_the_quick_run_writes_the_figures_it_prints(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "wake.json"
    main(["--quick", "--json", str(out)])
    figures = json.loads(out.read_text())
    printed = capsys.readouterr().out
    assert set(figures["work_cpu_ratio_after_sleep_ms"]) == {"0.5", "2", "5"}
    assert f"{figures['work_cpu_us_back_to_back']} µs of CPU an item back to back" in printed
    trip = figures["round_trip_any_core"]
    assert f"{trip['cpu_us_per_side']} µs of CPU on each side, {trip['wall_us']} µs wall" in printed
    assert ("round_trip_one_core" in figures) == (len(os.sched_getaffinity(0)) > 1)
