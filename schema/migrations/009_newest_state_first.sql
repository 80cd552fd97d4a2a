-- Newest state first: a dispatch can be scheduled, superseded by a newer one that covers its
-- audience, or cancelled; each of these ends it without sending the rest.

ALTER TABLE dispatches DROP CONSTRAINT dispatches_status_check;
ALTER TABLE dispatches ADD CONSTRAINT dispatches_status_check
    CHECK (status IN ('pending', 'delivering', 'done', 'failed', 'superseded', 'cancelled'));

ALTER TABLE dispatches
    -- When it is to be sent; NULL: as soon as it was accepted. next_attempt_at starts here.
    ADD COLUMN send_at timestamptz,
    -- Acceptance order, for dispatches that take effect at the same instant (one group commit shares now()).
    ADD COLUMN sequence bigint GENERATED ALWAYS AS IDENTITY,
    -- The newer dispatch that made this one's remaining pushes pointless. Set while it is still being
    -- delivered, the worker holding it stops at its next batch and ends it as 'superseded'.
    ADD COLUMN superseded_by uuid,
    -- DELETE on a dispatch being delivered: its worker stops at its next batch and ends it as 'cancelled'.
    ADD COLUMN cancel_requested_at timestamptz;

-- Supersession looks up an activity's unfinished dispatches on every accepted update: only those rows.
CREATE INDEX dispatches_unfinished_activity_idx ON dispatches (app_id, activity_id)
    WHERE status IN ('pending', 'delivering');

-- A dispatch's page (dashboard) lists its log entries: the log filtered by dispatch_id.
CREATE INDEX message_activity_log_dispatch_idx ON message_activity_log (dispatch_id, occurred_at DESC, id DESC)
    WHERE dispatch_id IS NOT NULL;
