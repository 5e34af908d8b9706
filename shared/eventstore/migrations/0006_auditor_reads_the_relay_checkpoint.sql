-- league verify (as the auditor) compares JetStream's copy of the log with what the relay says it published:
-- the auditor reads the relay's checkpoints, and no other, and writes none.
GRANT SELECT ON checkpoints TO league_auditor;
CREATE POLICY checkpoints_auditor ON checkpoints FOR SELECT TO league_auditor USING (name LIKE 'relay%');
