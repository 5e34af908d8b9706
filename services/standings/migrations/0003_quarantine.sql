-- Streams the projections stopped folding at an event they could not read: its data no longer fit its type, or
-- no longer hash to the hash stored with it (changed behind the store's back). From that version on the stream is
-- left out of every projection, and the rest of the log is folded as before (services/standings/quarantine.py).
CREATE TABLE standings_quarantine (
    stream_id      text        PRIMARY KEY,
    from_version   integer     NOT NULL,
    event_id       uuid        NOT NULL,
    position       bigint,
    reason         text        NOT NULL,
    quarantined_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
GRANT SELECT, INSERT, UPDATE ON standings_quarantine TO league_app;
GRANT SELECT, INSERT, UPDATE ON standings_quarantine TO league_standings;
