-- No NOTIFY per insert (DESIGN.md "The hot path": PostgreSQL serialises committers that notify): readers of the log
-- are woken over NATS by the writers instead (shared/bus/wakeups.py), and poll.
-- (A multi-stream append_events_many function was measured here and dropped: several streams' appends go by COPY,
-- shared/eventstore/copying.py, and one stream's by append_events, each faster than the function in its case.)
DROP TRIGGER events_appended ON events;
DROP FUNCTION events_notify();
