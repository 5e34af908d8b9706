-- Standings makes each generation of its projections' tables (standings_<t>_g<n>) itself, owned by its role.
GRANT CREATE ON SCHEMA public TO league_standings;
GRANT SELECT, INSERT, UPDATE ON standings_generations TO league_standings;
GRANT SELECT, INSERT ON standings_feed TO league_standings;
