"""Every migration set of the league, in the order they apply: the event store's first (it makes the roles the
others grant to). ``league up``, ``league migrate`` and the tests apply them all as the database owner before any
service starts; a service's own login only checks that they are applied."""

from __future__ import annotations

from pathlib import Path

from shared.eventstore.migrate import EVENTSTORE_MIGRATIONS

SERVICES_DIR = Path(__file__).parent
MIGRATIONS: dict[str, Path] = {
    "eventstore": EVENTSTORE_MIGRATIONS,
    **{name: SERVICES_DIR / name / "migrations" for name in ("engine", "gateway", "matchmaking", "rng", "standings")},
}
