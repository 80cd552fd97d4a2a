-- An update or end on an activity with a broadcast channel sends one broadcast besides the
-- pushes to registered tokens. What APNs answered is recorded on the dispatch once, so a dispatch that
-- resumes after a crash or a hand-back does not broadcast again.
ALTER TABLE dispatches
    ADD COLUMN broadcast_channel_id text,
    -- APNs's status for the broadcast; NULL while none was sent (no channel, narrowed, not yet).
    ADD COLUMN broadcast_status smallint,
    ADD COLUMN broadcast_reason text,
    ADD COLUMN broadcast_at timestamptz;
