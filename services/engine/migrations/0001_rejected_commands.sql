-- Rejected commands are never events; they are kept here for referees and for abuse reports.
CREATE TABLE rejected_commands (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id        text        NOT NULL,
    command        jsonb,
    code           text        NOT NULL,
    message        text        NOT NULL,
    correlation_id text,
    actor          text,
    rejected_at    timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX rejected_commands_game ON rejected_commands (game_id, rejected_at);
GRANT SELECT, INSERT ON rejected_commands TO league_app;
