-- The engine's look for running games that owe it moves (services/engine/autoplay.py, every 30 s and whenever a
-- replica gains partitions) read the whole events table; with this index it reads the games' openings and ends only.
CREATE INDEX events_game_bounds ON events (type, stream_id)
    WHERE type IN ('engine.GameOpened', 'engine.GameEnded', 'engine.GameAbandoned');
