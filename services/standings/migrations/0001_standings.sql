-- Which generation of each projection's tables serves reads; a rebuild fills generation n+1 and swaps this row.
-- The projections' own tables are created by the service (as league_app) per generation: standings_<t>_g<n>.
CREATE TABLE standings_generations (
    projection text PRIMARY KEY,
    generation integer NOT NULL
);
GRANT SELECT, INSERT, UPDATE ON standings_generations TO league_app;

-- The live feed of public changes, written in the same transaction as the projections it reports on.
-- Its id is the (tx, position) of the event that caused the changes: stable and in the log's read order.
CREATE TABLE standings_feed (
    tx          bigint      NOT NULL,
    position    bigint      NOT NULL,
    recorded_at timestamptz NOT NULL,
    changes     jsonb       NOT NULL,
    PRIMARY KEY (tx, position)
);
GRANT SELECT, INSERT ON standings_feed TO league_app;
