-- Message activity log: what went wrong delivering, for a person to read. Delivery writes it;
-- `GET /message_activity_log` and the dashboard read it (newest first, per workspace).
-- No foreign keys, like dispatches: entries outlive nothing they point at for long (60 hours by
-- default), and delivery must not share-lock the app row for every failure it records.
CREATE TABLE message_activity_log (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    occurred_at  timestamptz NOT NULL DEFAULT now(),
    workspace_id uuid NOT NULL,
    app_id       uuid NOT NULL,
    -- Braze's type names, e.g. 'APNS Feedback Removed Token errors'.
    type         text NOT NULL CHECK (octet_length(type) BETWEEN 1 AND 100),
    message      text NOT NULL,
    activity_id  text,
    dispatch_id  uuid,
    external_id  text,
    -- The device token's last 8 hex digits, never the whole token.
    masked_token text CHECK (octet_length(masked_token) <= 16),
    apns_status  smallint,
    apns_reason  text,
    apns_id      text
);
-- Reading: one workspace's entries, newest first, keyset-paginated by (occurred_at, id).
CREATE INDEX message_activity_log_workspace_idx ON message_activity_log (workspace_id, occurred_at DESC, id DESC);
-- Retention deletes by age.
CREATE INDEX message_activity_log_occurred_idx ON message_activity_log (occurred_at);

-- How many entries of one type one app produced in one clock hour (UTC). Only the first 100 are
-- stored in message_activity_log; the rest are counted here, so a flood of one failure neither fills
-- the table nor hides that it happened.
CREATE TABLE message_activity_log_hours (
    app_id       uuid NOT NULL,
    type         text NOT NULL,
    hour         timestamptz NOT NULL,
    workspace_id uuid NOT NULL,
    total        integer NOT NULL CHECK (total >= 0),
    PRIMARY KEY (app_id, type, hour)
);
CREATE INDEX message_activity_log_hours_workspace_idx ON message_activity_log_hours (workspace_id, hour DESC);

-- Update tokens not refreshed for 12 hours (the longest a Live Activity lives) are retired by age.
CREATE INDEX activity_tokens_updated_idx ON activity_tokens (updated_at);
