-- Group commit (DESIGN.md "The hot path"): many streams' appends in one call, each with its own expected version
-- and its own outcome; and no NOTIFY per insert (PostgreSQL serialises committers that notify): readers are woken
-- over NATS by the writers instead.
DROP TRIGGER events_appended ON events;
DROP FUNCTION events_notify();

-- Appends to several streams in one round trip. Item i is stream p_streams[i] at expected version p_expected[i]
-- (-2 any, -1 no stream, n >= 0); its events are the contiguous run of p_ids etc. whose p_items is i.
-- Each item has the same outcome append_events would give it on its own, and one item's outcome never fails another:
--   status 0: appended (one row per event: position, version)
--   status 1: every event id already stored in this stream: the original places (one row per event), nothing added
--   status 2: the stream is not at the expected version (one row, out_version = the actual version)
--   status 3: some, not all, of the ids are already stored, or in another stream (one row)
--   status 4: another writer took the stream's next version first (one row): decide again in a new call
-- Nothing is caught in a subtransaction: an item's first event is inserted with ON CONFLICT DO NOTHING (a writer that
-- got there first makes it status 4, after waiting for that writer to finish), so its later events cannot clash on a
-- version. A clash on an event id there (the same id in two items, or a racing writer of the same ids) fails the whole
-- call, which then changed nothing; the caller retries those items one at a time.
-- First events are inserted in stream order, so two calls never wait on each other's streams in a cycle.
CREATE FUNCTION append_events_many(
    p_streams text[], p_expected bigint[], p_items integer[], p_ids uuid[], p_types text[],
    p_schema_versions smallint[], p_data jsonb[], p_metadata jsonb[], p_bodies bytea[]
) RETURNS TABLE (out_item integer, out_status smallint, out_position bigint, out_version integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_items   integer := cardinality(p_streams);
    v_total   integer := cardinality(p_ids);
    v_count   integer[] := array_fill(0, ARRAY[v_items]);
    v_status  smallint[] := array_fill(0::smallint, ARRAY[v_items]);
    v_current integer[];
    v_hashes  bytea[];
    v_version integer[] := array_fill(0, ARRAY[v_total]);
    v_prev    bytea[] := array_fill(NULL::bytea, ARRAY[v_total]);
    v_next    bytea[] := array_fill(NULL::bytea, ARRAY[v_total]);
    v_first   boolean[] := array_fill(false, ARRAY[v_total]);
    v_hash    bytea;
    v_at      integer;
    v_item    integer;
    v_taken   boolean[] := array_fill(false, ARRAY[v_items]);
    v_first_ids       uuid[];
    v_first_positions bigint[];
    r         record;
BEGIN
    FOR k IN 1 .. v_total LOOP
        v_item := p_items[k];
        v_first[k] := v_count[v_item] = 0;
        v_count[v_item] := v_count[v_item] + 1;
    END LOOP;

    -- Ids already stored: the whole item again (idempotent), or a conflict.
    FOR r IN
        SELECT i.item, count(DISTINCT e.position) AS found, bool_or(e.stream_id <> p_streams[i.item]) AS elsewhere
        FROM unnest(p_ids, p_items) AS i(id, item) JOIN events e ON e.event_id = i.id
        GROUP BY i.item
    LOOP
        v_status[r.item] := CASE WHEN r.found = v_count[r.item] AND NOT r.elsewhere THEN 1 ELSE 3 END;
    END LOOP;
    RETURN QUERY
        SELECT i.item, 1::smallint, e.position, e.version
        FROM unnest(p_ids, p_items) AS i(id, item) JOIN events e ON e.event_id = i.id
        WHERE v_status[i.item] = 1
        ORDER BY i.item, e.version;
    RETURN QUERY
        SELECT i, 3::smallint, NULL::bigint, NULL::integer FROM generate_subscripts(v_status, 1) AS i
        WHERE v_status[i] = 3;

    -- Where each stream is now.
    SELECT array_agg(coalesce(c.version, 0) ORDER BY s.n),
           array_agg(coalesce(c.hash, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea)
                     ORDER BY s.n)
        INTO v_current, v_hashes
        FROM unnest(p_streams) WITH ORDINALITY AS s(stream, n)
        LEFT JOIN LATERAL (
            SELECT e.version, e.hash FROM events e WHERE e.stream_id = s.stream ORDER BY e.version DESC LIMIT 1
        ) c ON true;
    FOR i IN 1 .. v_items LOOP
        IF v_status[i] = 0 AND ((p_expected[i] = -1 AND v_current[i] <> 0)
                                OR (p_expected[i] >= 0 AND v_current[i] <> p_expected[i])) THEN
            v_status[i] := 2;
            out_item := i; out_status := 2; out_position := NULL; out_version := v_current[i];
            RETURN NEXT;
        END IF;
    END LOOP;

    -- The hash chain of each item still to append.
    v_item := 0;
    FOR k IN 1 .. v_total LOOP
        IF v_status[p_items[k]] = 0 THEN
            IF p_items[k] <> v_item THEN
                v_item := p_items[k];
                v_at := v_current[v_item];
                v_hash := v_hashes[v_item];
            END IF;
            v_at := v_at + 1;
            v_version[k] := v_at;
            v_prev[k] := v_hash;
            v_hash := sha256(v_hash || int4send(v_at) || p_bodies[k]);
            v_next[k] := v_hash;
        END IF;
    END LOOP;

    -- First events: a writer that took a stream's next version first turns that item into status 4.
    WITH inserted AS (
        INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
        SELECT p_ids[k], p_streams[p_items[k]], v_version[k], p_types[k], p_schema_versions[k], p_data[k],
               p_metadata[k], v_prev[k], v_next[k]
        FROM generate_subscripts(p_ids, 1) AS k
        WHERE v_first[k] AND v_status[p_items[k]] = 0
        ORDER BY p_streams[p_items[k]]
        ON CONFLICT DO NOTHING
        RETURNING event_id, position
    )
    SELECT array_agg(event_id), array_agg(position) INTO v_first_ids, v_first_positions FROM inserted;
    FOR r IN SELECT i.item FROM unnest(v_first_ids) AS f(id) JOIN unnest(p_ids, p_items) AS i(id, item) ON i.id = f.id
    LOOP
        v_taken[r.item] := true;
    END LOOP;
    FOR i IN 1 .. v_items LOOP
        IF v_status[i] = 0 AND NOT v_taken[i] THEN
            v_status[i] := 4;
            out_item := i; out_status := 4; out_position := NULL; out_version := NULL;
            RETURN NEXT;
        END IF;
    END LOOP;

    -- The rest, in version order after each first event, so that a stream's positions rise with its versions.
    RETURN QUERY
        WITH rest AS (
            INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
            SELECT p_ids[k], p_streams[p_items[k]], v_version[k], p_types[k], p_schema_versions[k], p_data[k],
                   p_metadata[k], v_prev[k], v_next[k]
            FROM generate_subscripts(p_ids, 1) AS k
            WHERE NOT v_first[k] AND v_status[p_items[k]] = 0
            ORDER BY k
            RETURNING event_id, position
        ), placed AS (
            SELECT event_id, position FROM rest
            UNION ALL SELECT * FROM unnest(v_first_ids, v_first_positions) AS f(event_id, position)
        )
        SELECT i.item, 0::smallint, placed.position, v_version[i.k]::integer
        FROM unnest(p_ids, p_items) WITH ORDINALITY AS i(id, item, k) JOIN placed ON placed.event_id = i.id
        WHERE v_status[i.item] = 0
        ORDER BY i.k;
END $$;
