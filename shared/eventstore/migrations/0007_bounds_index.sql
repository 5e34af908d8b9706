-- Where games and tournaments begin and end, for the looks for what is still running: the engine's for games that
-- owe it moves (services/engine/autoplay.py, every 30 s and whenever a replica gains partitions), matchmaking's for
-- tournaments waiting for their games (at start) and league up's for an interrupted demo's games (at start). Without
-- it each of them read the whole events table; with it, only these events.
CREATE INDEX events_bounds ON events (type, stream_id)
    WHERE type IN ('engine.GameOpened', 'engine.GameEnded', 'engine.GameAbandoned',
                   'tournament.RoundStarted', 'tournament.TournamentFinished');
