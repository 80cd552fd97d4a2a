-- Delivery: workers claim dispatches with a lease, so several gateways share the work and a
-- crashed one's claims are taken over when its lease runs out; progress is recorded as the fan-out
-- goes, so a restart resumes where it stopped.

ALTER TABLE dispatches
    ADD COLUMN leased_by     text,
    ADD COLUMN leased_until  timestamptz,
    -- The last token row handled (activity_tokens.id, or dispatch_targets.id for a start).
    ADD COLUMN fanout_cursor bigint NOT NULL DEFAULT 0,
    ADD COLUMN sent_count    integer NOT NULL DEFAULT 0,
    ADD COLUMN failed_count  integer NOT NULL DEFAULT 0,
    ADD COLUMN retried_count integer NOT NULL DEFAULT 0,
    ADD COLUMN removed_count integer NOT NULL DEFAULT 0;

-- A start's targets get an order to page through.
ALTER TABLE dispatch_targets ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
CREATE INDEX dispatch_targets_fanout_idx ON dispatch_targets (dispatch_id, id);
