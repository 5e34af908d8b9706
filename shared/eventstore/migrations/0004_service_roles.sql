-- One role per service with the least it needs (shared/eventstore/roles.py gives each a LOGIN member with a
-- password). None may change or remove an event: no UPDATE, DELETE or TRUNCATE is granted on events to anyone.
-- Each service's own tables are granted in its own migrations.
DO $$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['league_relay', 'league_rng', 'league_engine', 'league_matchmaking',
                             'league_standings', 'league_gateway', 'league_auditor'] LOOP
        BEGIN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;  -- another database of this server made it
        END;
    END LOOP;
END $$;

GRANT USAGE ON SCHEMA public TO league_relay, league_rng, league_engine, league_matchmaking, league_standings,
    league_gateway, league_auditor;
GRANT SELECT ON schema_migrations TO league_relay, league_rng, league_engine, league_matchmaking, league_standings,
    league_gateway, league_auditor;

-- Readers of the log, and writers (who read their streams back).
GRANT SELECT ON events TO league_relay, league_rng, league_engine, league_matchmaking, league_standings,
    league_gateway, league_auditor;
GRANT INSERT ON events TO league_rng, league_engine, league_matchmaking, league_gateway;

-- Checkpoints: each consumer of the log reads and moves only its own (by name), row-level security says which.
GRANT SELECT, INSERT, UPDATE ON checkpoints TO league_relay, league_rng, league_matchmaking, league_standings;
GRANT DELETE ON checkpoints TO league_standings;  -- a rebuild drops the checkpoints of the generation it replaces
ALTER TABLE checkpoints ENABLE ROW LEVEL SECURITY;
CREATE POLICY checkpoints_relay ON checkpoints TO league_relay USING (name LIKE 'relay%');
CREATE POLICY checkpoints_rng ON checkpoints TO league_rng USING (name LIKE 'rng-%');
CREATE POLICY checkpoints_matchmaking ON checkpoints TO league_matchmaking USING (name LIKE 'matchmaking%');
CREATE POLICY checkpoints_standings ON checkpoints TO league_standings USING (name LIKE 'standings:%');
CREATE POLICY checkpoints_app ON checkpoints TO league_app USING (true);  -- the role of a league without logins
