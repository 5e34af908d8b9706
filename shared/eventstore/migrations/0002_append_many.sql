-- Group commit (DESIGN.md "The hot path"): many streams' appends in one call, each with its own expected version
-- and its own outcome; and no NOTIFY per insert (PostgreSQL serialises committers that notify): readers are woken
-- over NATS by the writers instead.
DROP TRIGGER events_appended ON events;
DROP FUNCTION events_notify();

-- Appends to several streams in one round trip. (EventStore.append_many uses it for one item, and for an item left
-- alone after a race; several items go by COPY, deciding each item the same way: shared/eventstore/copying.py.) Item i is stream p_streams[i] at expected version p_expected[i]
-- (-2 any, -1 no stream, n >= 0); its events are the contiguous run of p_ids etc. whose p_items is i.
-- Each item has the outcome append_events would give it on its own:
--   status 0: appended: one row per event (out_event, out_position, out_version), out_item NULL
--   status 1: every event id already stored in this stream: the original places, one row per event, nothing added
--   status 2: the stream is not at the expected version (one row, out_version = the actual version)
--   status 3: some, not all, of the ids are already stored, or in another stream (one row)
-- The events of every item still to append go in one INSERT, in stream order (so two calls wait on each other's
-- streams in one order, never in a cycle) and, within a stream, in version order (so that its positions rise with its
-- versions). Nothing is caught in a subtransaction: a writer that took one of these streams' next versions (or ids)
-- meanwhile fails the whole call, which then changed nothing, and the caller splits the call to find the items that
-- need deciding again.
CREATE FUNCTION append_events_many(
    p_streams text[], p_expected bigint[], p_items integer[], p_ids uuid[], p_types text[],
    p_schema_versions smallint[], p_data jsonb[], p_metadata jsonb[], p_bodies bytea[]
) RETURNS TABLE (out_item integer, out_status smallint, out_event uuid, out_position bigint, out_version integer)
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
    v_hash    bytea;
    v_at      integer;
    v_item    integer := 0;
    r         record;
BEGIN
    FOREACH v_item IN ARRAY p_items LOOP
        v_count[v_item] := v_count[v_item] + 1;
    END LOOP;

    -- Ids already stored: the whole item again (idempotent), or a conflict.
    FOR r IN
        SELECT i.item, count(DISTINCT e.position) AS found, bool_or(e.stream_id <> p_streams[i.item]) AS elsewhere
        FROM unnest(p_ids, p_items) AS i(id, item) JOIN events e ON e.event_id = i.id
        GROUP BY i.item
    LOOP
        v_status[r.item] := CASE WHEN r.found = v_count[r.item] AND NOT r.elsewhere THEN 1 ELSE 3 END;
        IF v_status[r.item] = 3 THEN
            out_item := r.item; out_status := 3; out_event := NULL; out_position := NULL; out_version := NULL;
            RETURN NEXT;
        END IF;
    END LOOP;
    IF FOUND THEN
        RETURN QUERY
            SELECT i.item, 1::smallint, e.event_id, e.position, e.version
            FROM unnest(p_ids, p_items) AS i(id, item) JOIN events e ON e.event_id = i.id
            WHERE v_status[i.item] = 1
            ORDER BY i.item, e.version;
    END IF;

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
            out_item := i; out_status := 2; out_event := NULL; out_position := NULL; out_version := v_current[i];
            RETURN NEXT;
        END IF;
    END LOOP;

    -- The hash chain of each item still to append.
    v_item := 0;
    FOR k IN 1 .. v_total LOOP
        IF p_items[k] <> v_item THEN
            v_item := p_items[k];
            v_at := v_current[v_item];
            v_hash := v_hashes[v_item];
        END IF;
        IF v_status[v_item] = 0 THEN
            v_at := v_at + 1;
            v_version[k] := v_at;
            v_prev[k] := v_hash;
            v_hash := sha256(v_hash || int4send(v_at) || p_bodies[k]);
            v_next[k] := v_hash;
        END IF;
    END LOOP;

    RETURN QUERY
        WITH appended AS (
            INSERT INTO events (event_id, stream_id, version, type, schema_version, data, metadata, prev_hash, hash)
            SELECT e.id, s.stream, e.version, e.type, e.schema_version, e.data, e.metadata, e.prev, e.next
            FROM unnest(p_ids, p_items, p_types, p_schema_versions, p_data, p_metadata, v_version, v_prev, v_next)
                 WITH ORDINALITY AS e(id, item, type, schema_version, data, metadata, version, prev, next, k)
            JOIN unnest(p_streams, v_status) WITH ORDINALITY AS s(stream, status, item) ON s.item = e.item
            WHERE s.status = 0
            ORDER BY s.stream, e.k
            RETURNING event_id, position, version
        )
        SELECT NULL::integer, 0::smallint, event_id, position, version FROM appended;
END $$;
