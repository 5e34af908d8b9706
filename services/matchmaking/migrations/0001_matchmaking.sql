-- Player ratings (OpenSkill), folded from every engine.GameEnded; checkpoint 'matchmaking-ratings' moves with them.
CREATE TABLE player_ratings (
    player_id   text PRIMARY KEY,
    mu          double precision NOT NULL,
    sigma       double precision NOT NULL,
    games       integer          NOT NULL DEFAULT 0,
    updated_at  timestamptz      NOT NULL DEFAULT clock_timestamp()
);

-- Quick play: who waits for which table, and the tables formed (until the engine has opened their game).
CREATE TABLE quickplay_waiting (
    player_id   text PRIMARY KEY,
    game        text             NOT NULL,
    seats       integer          NOT NULL,
    options     text             NOT NULL,
    bot         text,
    rating      double precision NOT NULL,
    joined_at   timestamptz      NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE quickplay_games (
    game_id     text PRIMARY KEY,
    game        text        NOT NULL,
    options     text        NOT NULL,
    players     text[]      NOT NULL,
    bots        text[]      NOT NULL,
    opened      boolean     NOT NULL DEFAULT false,
    formed_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX quickplay_games_players ON quickplay_games USING gin (players);

GRANT SELECT, INSERT, UPDATE, DELETE ON player_ratings, quickplay_waiting, quickplay_games TO league_app;
