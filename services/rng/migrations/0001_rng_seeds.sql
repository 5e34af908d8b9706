-- Server seeds, sealed with AES-256-GCM under the RNG service's key; never in the event log until revealed.
CREATE TABLE rng_seeds (
    game_id     text PRIMARY KEY,
    sealed      bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
GRANT SELECT, INSERT ON rng_seeds TO league_app;
