-- Players' bearer tokens, stored as sha256 only. Credentials are not domain events: the log has player.Registered.
CREATE TABLE player_tokens (
    player_id   text PRIMARY KEY,
    name        text        NOT NULL,
    token_hash  bytea       NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
GRANT SELECT, INSERT ON player_tokens TO league_app;
