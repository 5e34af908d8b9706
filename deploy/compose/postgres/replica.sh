#!/bin/sh
# The streaming replica: on an empty volume, a base backup of the primary (-R writes standby.signal and how to
# reach the primary), then PostgreSQL as a hot standby that follows the primary's WAL and answers reads.
set -eu
mkdir -p "$PGDATA"
chown -R postgres:postgres /var/lib/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until gosu postgres env PGPASSWORD="$(cat "$REPLICATION_PASSWORD_FILE")" \
        pg_basebackup --host="$PRIMARY_HOST" --username=replicator --pgdata="$PGDATA" \
            --write-recovery-conf --wal-method=stream --checkpoint=fast; do
        echo "replica: the primary is not ready for a base backup yet; again in 2 s" >&2
        find "$PGDATA" -mindepth 1 -delete
        sleep 2
    done
fi
# hot_standby_feedback: the primary keeps the rows a long read here still sees, instead of cancelling that read.
exec gosu postgres postgres -c hot_standby=on -c hot_standby_feedback=on
