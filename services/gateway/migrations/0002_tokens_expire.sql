-- Tokens expire, rotate (a new hash replaces the old one) and are revoked (revoked_at set): every lookup checks both.
ALTER TABLE player_tokens
    ADD COLUMN expires_at timestamptz NOT NULL DEFAULT clock_timestamp() + interval '90 days',
    ADD COLUMN revoked_at timestamptz;
GRANT UPDATE (token_hash, created_at, expires_at, revoked_at) ON player_tokens TO league_app;
-- The gateway alone keeps players' tokens; it may replace or revoke one, never remove a player.
GRANT SELECT, INSERT, UPDATE (token_hash, created_at, expires_at, revoked_at) ON player_tokens TO league_gateway;
