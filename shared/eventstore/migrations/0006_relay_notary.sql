-- The relay's notary appends its signed checkpoints of the log (the stream notary-log): the relay writes events too.
GRANT INSERT ON events TO league_relay;
