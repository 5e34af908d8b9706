-- The append-only event log: the only source of truth.
CREATE TABLE events (
    position        bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    tx              xid8        NOT NULL DEFAULT pg_current_xact_id(),
    event_id        uuid        NOT NULL UNIQUE,
    stream_id       text        NOT NULL,
    version         integer     NOT NULL CHECK (version >= 1),
    type            text        NOT NULL,
    schema_version  smallint    NOT NULL,
    data            jsonb       NOT NULL,
    metadata        jsonb       NOT NULL,
    recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    prev_hash       bytea       NOT NULL,
    hash            bytea       NOT NULL,
    CONSTRAINT events_stream_version UNIQUE (stream_id, version)
);

-- Gap-free global reading goes in (tx, position) order.
CREATE INDEX events_read_order ON events (tx, position);

CREATE FUNCTION events_reject_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are immutable: % on events is not allowed', TG_OP USING ERRCODE = 'EV001';
END $$;

CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- A wake-up for live subscribers; the data itself is always read from the table.
CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('events_appended', '');
    RETURN NULL;
END $$;

CREATE TRIGGER events_appended AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify();

-- Appends one or more events to one stream atomically, in one round trip.
-- p_expected: -2 any, -1 no stream, n >= 0 exactly n events in the stream now.
-- hash = sha256(prev_hash || int4 big-endian version || canonical body), genesis prev_hash = 32 zero bytes.
CREATE FUNCTION append_events(
    p_stream text, p_expected bigint, p_ids uuid[], p_types text[], p_schema_versions smallint[],
    p_data jsonb[], p_metadata jsonb[], p_bodies bytea[]
) RETURNS TABLE (out_position bigint, out_version integer, out_duplicate boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_count   integer := cardinality(p_ids);
    v_found   integer;
    v_current integer;
    v_hash    bytea;
    v_next    bytea;
    v_pos     bigint;
BEGIN
    SELECT count(*) INTO v_found FROM events WHERE event_id = ANY (p_ids);
    IF v_found > 0 THEN
        IF v_found = v_count AND NOT EXISTS (
            SELECT 1 FROM events WHERE event_id = ANY (p_ids) AND stream_id <> p_stream
        ) THEN
            RETURN QUERY SELECT e.position, e.version, true FROM events e
                WHERE e.event_id = ANY (p_ids) ORDER BY e.version;
            RETURN;
        END IF;
        RAISE EXCEPTION 'some of these event ids are already stored, not all in stream %', p_stream
            USING ERRCODE = 'EV002';
    END IF;

    SELECT e.version, e.hash INTO v_current, v_hash FROM events e
        WHERE e.stream_id = p_stream ORDER BY e.version DESC LIMIT 1;
    v_current := coalesce(v_current, 0);
    v_hash := coalesce(v_hash, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
    IF (p_expected = -1 AND v_current <> 0) OR (p_expected >= 0 AND v_current <> p_expected) THEN
        RAISE EXCEPTION 'stream % is at version %', p_stream, v_current
            USING ERRCODE = 'EV003', DETAIL = v_current::text;
    END IF;

    FOR i IN 1 .. v_count LOOP
        v_next := sha256(v_hash || int4send(v_current + i) || p_bodies[i]);
        INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
            VALUES (p_ids[i], p_stream, v_current + i, p_types[i], p_schema_versions[i], p_data[i],
                    p_metadata[i], v_hash, v_next)
            RETURNING position INTO v_pos;
        out_position := v_pos;
        out_version := v_current + i;
        out_duplicate := false;
        RETURN NEXT;
        v_hash := v_next;
    END LOOP;
END $$;

-- Where each consumer of the global log has got to; stored in the same transaction as its own writes.
CREATE TABLE checkpoints (
    name       text PRIMARY KEY,
    tx         xid8        NOT NULL,
    position   bigint      NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

-- The services' role: it may add and read events, never change them.
DO $$
BEGIN
    CREATE ROLE league_app NOLOGIN;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
DO $$
BEGIN
    EXECUTE format('GRANT league_app TO %I', current_user);
EXCEPTION WHEN OTHERS THEN NULL;  -- a superuser needs no membership to SET ROLE
END $$;
GRANT USAGE, CREATE ON SCHEMA public TO league_app;
GRANT SELECT, INSERT ON events TO league_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON checkpoints TO league_app;
