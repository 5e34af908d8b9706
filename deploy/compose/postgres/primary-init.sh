#!/bin/sh
# First start of the primary (the image runs /docker-entrypoint-initdb.d once, on an empty volume): the role the
# streaming replica connects as, and the line of pg_hba.conf that lets it in.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v password="$(cat "$REPLICATION_PASSWORD_FILE")" <<'SQL'
CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD :'password';
SQL
echo "host replication replicator all scram-sha-256" >> "$PGDATA/pg_hba.conf"
