"""``league`` finds the running league from any folder: --league-dir, LEAGUE_DIR, the nearest .data above with a
running league, or the one ``league up`` announced; ``league up`` starts where it is told or in ./.data."""

from __future__ import annotations

from pathlib import Path

from shared.cli.league_dir import announce, league_dir, withdraw


def running_league(folder: Path) -> Path:
    (folder / ".data").mkdir(parents=True)
    (folder / ".data" / "league.env").write_text("DATABASE_URL=postgresql://x\n")
    return folder / ".data"


def test_the_flag_then_league_dir_win(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "LEAGUE_DIR": "/leagues/one"}
    assert league_dir(Path("/flag"), starting=False, environ=env, cwd=tmp_path) == Path("/flag")
    assert league_dir(None, starting=False, environ=env, cwd=tmp_path) == Path("/leagues/one")
    assert league_dir(None, starting=True, environ=env, cwd=tmp_path) == Path("/leagues/one")


def test_a_league_in_a_folder_above_is_found(tmp_path: Path) -> None:
    data = running_league(tmp_path / "repo")
    deep = tmp_path / "repo" / "docs" / "scenarios"
    deep.mkdir(parents=True)
    assert league_dir(None, starting=False, environ={"HOME": str(tmp_path)}, cwd=deep) == data
    assert league_dir(None, starting=True, environ={"HOME": str(tmp_path)}, cwd=deep) == deep / ".data"


def test_anywhere_else_the_announced_league_is_found_until_it_stops(tmp_path: Path) -> None:
    data = running_league(tmp_path / "repo")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert league_dir(None, starting=False, environ=env, cwd=elsewhere) == elsewhere / ".data"
    announce(data, env)
    assert league_dir(None, starting=False, environ=env, cwd=elsewhere) == data.resolve()
    withdraw(tmp_path / "another", env)  # another league's stop leaves this one announced
    assert league_dir(None, starting=False, environ=env, cwd=elsewhere) == data.resolve()
    withdraw(data, env)
    assert league_dir(None, starting=False, environ=env, cwd=elsewhere) == elsewhere / ".data"


def test_an_announced_league_that_is_not_running_is_not_used(tmp_path: Path) -> None:
    data = running_league(tmp_path / "repo")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    announce(data, env)
    (data / "league.env").unlink()
    assert league_dir(None, starting=False, environ=env, cwd=tmp_path) == tmp_path / ".data"
