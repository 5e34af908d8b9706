"""A development key file made on first use: services starting together all read the same whole key."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from shared.keyfiles import key_from, parse_key

SERVICES = 6
STARTS = 15


def start(data_dir: str) -> bytes:
    return key_from("", "RNG_ENGINE_KEY", "dev", data_dir)


def test_services_making_the_same_key_file_at_once_all_read_one_whole_key(tmp_path: Path) -> None:
    with ProcessPoolExecutor(SERVICES) as pool:
        for n in range(STARTS):
            data_dir = tmp_path / str(n)
            keys = list(pool.map(start, [str(data_dir)] * SERVICES))
            assert len(set(keys)) == 1 and len(keys[0]) == 32
            assert [p.name for p in data_dir.iterdir()] == ["rng_engine_key.key"]  # no half-made file left
            assert parse_key((data_dir / "rng_engine_key.key").read_text(), "file") == keys[0]
