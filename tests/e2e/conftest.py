from __future__ import annotations

import asyncio
import shutil
import uuid
from collections.abc import Iterator

import pytest

from shared.cli.migrate import prepare_database, services_database_url
from shared.infra.processes import SERVICES, ServiceProcess, services_running
from tests.infra import RunInfra, _create_database, _delete_streams, _drop_database, with_database


@pytest.fixture(scope="package")
def league_env(migrated: RunInfra) -> Iterator[dict[str, str]]:
    """A league of its own on the run's servers: its own database (with its own service logins) and the run's last
    spare NATS namespace, so that its services (an engine taking partitions, a standings service folding the log)
    never meet the integration tests' own."""
    suffix = uuid.uuid4().hex[:12]
    database, ns = f"league_e2e_{suffix}", migrated.spare_namespaces[-1]
    secrets = migrated.tmp / f"e2e-secrets-{suffix}"
    secrets.mkdir(mode=0o700)
    for nkey in migrated.secrets_dir.glob("*.nkey"):  # the NATS users'; this database's logins are made anew
        shutil.copy2(nkey, secrets / nkey.name)
    asyncio.run(_create_database(migrated.admin_url, database))
    url = with_database(migrated.admin_url, database)
    try:
        logins = asyncio.run(prepare_database(url, secrets))
        yield {**migrated.env, "DATABASE_URL": services_database_url(url, logins), "SECRETS_DIR": str(secrets),
               "NATS_SUBJECT_PREFIX": ns.prefix, "DATA_DIR": str(migrated.tmp / f"e2e-{suffix}")}
    finally:
        asyncio.run(_drop_database(migrated.admin_url, database, secrets))
        asyncio.run(_delete_streams(migrated.nats_url, ns, migrated.admin_nkey))


@pytest.fixture(scope="package")
def league(league_env: dict[str, str], migrated: RunInfra) -> Iterator[dict[str, ServiceProcess]]:
    """Every service of that league as a real process, as ``league up`` runs them (without the demo); stopped once
    the end-to-end tests are done."""
    env = {**league_env, "LOG_LEVEL": "warning"}
    with services_running(*SERVICES, env=env, log=lambda name: migrated.tmp / f"{name}-league.log", timeout=90,
                          stop_cleanly=False) as services:
        yield services
