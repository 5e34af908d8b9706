-- Many consumers' checkpoints saved in one statement (the standings fold moves one per projection per batch), without
-- waiting for the disk, like save_checkpoint (migration 0003).
CREATE FUNCTION save_checkpoints(p_names text[], p_txs bigint[], p_positions bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
    INSERT INTO checkpoints (name, tx, position)
        SELECT n, t::text::xid8, p FROM unnest(p_names, p_txs, p_positions) AS c(n, t, p)
        ON CONFLICT (name) DO UPDATE SET tx = excluded.tx, position = excluded.position,
                                         updated_at = clock_timestamp();
END $$;
