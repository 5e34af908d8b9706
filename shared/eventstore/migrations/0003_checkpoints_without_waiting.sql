-- A consumer's checkpoint, saved without waiting for the disk: synchronous_commit is off for the transaction that
-- saves it (and so for the consumer's own writes in that transaction: read models, ratings, derived from the log).
-- A crash may lose the last few saves; the consumer then reads those events again, which it must take anyway (it
-- may die between its work and its save). Events themselves are always written durably.
CREATE FUNCTION save_checkpoint(p_name text, p_tx bigint, p_position bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    INSERT INTO checkpoints (name, tx, position) VALUES (p_name, p_tx::text::xid8, p_position)
        ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, position = excluded.position,
                                         updated_at = clock_timestamp();
END $$;
